// Listening edge of the API. In: Config (HOST, PORT) and the composed AppDeps (bin/run.ts builds
// them; deps.auth from api/auth/index.ts createAuthDeps). Out: a listening Fastify server and a
// close() that stops accepting, finishes in-flight requests and closes the key store.
//
// Run directly (`node --import tsx api/server.ts`) it starts the shell alone: keys, limits, plans,
// categories, OpenAPI, every other route 503 until composed by bin/run.ts. The two-process rate
// limit test uses it; it prints one JSON line {"address": ...} once listening.
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { loadConfigOrExit, type Config } from '../lib/config.ts';
import { createAuthDeps } from './auth/index.ts';
import { buildApp } from './app.ts';
import type { HandlerRegistry } from './routes/index.ts';
import { handlers as defaultHandlers } from './routes/index.ts';
import type { AppDeps } from './types.ts';

export interface RunningApi {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:8080 */
  address: string;
  close(): Promise<void>;
}

export async function startApi(config: Config, deps: AppDeps, handlers: HandlerRegistry = defaultHandlers): Promise<RunningApi> {
  const app = await buildApp(deps, handlers);
  await app.listen({ host: config.HOST, port: config.PORT });
  const addr = app.server.address();
  const address = typeof addr === 'string' || addr === null ? String(addr) : `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  return {
    app,
    address,
    async close() {
      await app.close();
      await deps.auth?.store.close();
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const { plans, categories, openapi } = defaultHandlers;
  const api = await startApi(config, { config, clock: Date.now, auth: createAuthDeps(config) }, { plans, categories, openapi });
  process.stdout.write(JSON.stringify({ address: api.address }) + '\n');
  const stop = () => void api.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
