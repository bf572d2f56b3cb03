// Listening edge of the API. In: Config (HOST, PORT) and the composed AppDeps (bin/run.ts builds
// them; deps.auth from api/auth/index.ts createAuthDeps). Out: a listening Fastify server and a
// close() that stops accepting, finishes in-flight requests and closes the key store.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../lib/config.ts';
import { buildApp } from './app.ts';
import type { HandlerRegistry } from './routes/index.ts';
import { handlers as defaultHandlers } from './routes/index.ts';
import type { AuthDeps } from './auth/index.ts';
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
      await (deps.auth as AuthDeps | undefined)?.store.close();
    },
  };
}
