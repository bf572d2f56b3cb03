// Benchmark of the service shell's per-request cost (issue 2 "It must show"): authenticated
// GET /v1/categories through the full shell (router checks, key hash, authorize: permission +
// rolling window + usage, typed query, handler, compress hook) against the same body from a bare
// Fastify route, in the same run. Load comes from a second process (the autocannon CLI). Targets,
// and the key-store choice: ratio >= 0.6 embedded (in-process store), >= 0.4 with Redis.
//
//   npx tsx bench/api.ts [--duration 5] [--connections 32] [--rounds 2] [--keys 200] [--mode both|embedded|redis]
//
// The load rotates over --keys keys (default 200) of one enterprise account whose custom limits
// are far above the load, so every request does the full key lookup, rate-limit and usage work
// and still answers 200; each key's sliding log then holds a realistic few hundred entries.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { loadConfig } from '../lib/config.ts';
import { buildApp } from '../api/app.ts';
import { authDepsFor, type AuthDeps } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { RedisKeyStore } from '../api/auth/redis-store.ts';
import { CATEGORY_LIST } from '../api/routes/v1/categories.ts';

const run = promisify(execFile);
const loadScript = fileURLToPath(new URL('./api-load.ts', import.meta.url));

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? def : process.argv[i + 1];
}
const DURATION = Number(arg('duration', '5'));
const CONNECTIONS = Number(arg('connections', '32'));
const ROUNDS = Number(arg('rounds', '2'));
const MODE = arg('mode', 'both');
const KEYS = Number(arg('keys', '200'));

interface Load {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Runs bench/api-load.ts in a second process; `keysFile` lists Authorization values to rotate. */
async function load(url: string, keysFile: string, duration = DURATION): Promise<Load> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', loadScript, url, String(CONNECTIONS), String(duration), keysFile], { maxBuffer: 1 << 24 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Load;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const a = app.server.address() as { port: number };
  return `http://127.0.0.1:${a.port}/v1/categories`;
}

async function benchMode(mode: 'embedded' | 'redis'): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `bench:auth:${randomBytes(4).toString('hex')}:`;
  const store = mode === 'redis' ? new RedisKeyStore({ url: redisUrl, prefix }) : new MemoryKeyStore();
  const auth: AuthDeps = authDepsFor(store, config.KEY_PEPPER);
  await auth.admin.ensureAccount('bench', 'enterprise');
  await auth.admin.updateAccount('bench', { custom: { rate_limit_per_min: 1e9, included_requests_per_month: 1e12, max_keys: KEYS } });
  const keysFile = join(tmpdir(), `bench-keys-${process.pid}.txt`);
  const lines: string[] = [];
  for (let i = 0; i < KEYS; i++) lines.push(`Bearer ${(await auth.admin.create({ accountId: 'bench', permissions: ['markets.read'] })).key}`);
  writeFileSync(keysFile, lines.join('\n'));

  const app = await buildApp({ config, clock: Date.now, auth }, undefined, { logger: false });
  const bare = Fastify({ logger: false });
  const body = { data: CATEGORY_LIST };
  bare.get('/v1/categories', async () => body);
  const appUrl = await listen(app);
  const bareUrl = await listen(bare);

  // Warm both (JIT, connection pools), then alternate so drift hits both sides alike.
  await load(bareUrl, '', 1);
  await load(appUrl, keysFile, 1);
  const bareRuns: Load[] = [];
  const appRuns: Load[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bareRuns.push(await load(bareUrl, ''));
    appRuns.push(await load(appUrl, keysFile));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const median = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  // The machine is shared: each round's ratio compares two back-to-back runs, and the median of
  // the rounds' ratios is the figure (less sensitive to a neighbour's burst than a ratio of means).
  const ratios = appRuns.map((r, i) => r.rps / bareRuns[i].rps);
  const bad = appRuns.reduce((a, r) => a + r.non2xx + r.errors, 0);
  console.log(
    JSON.stringify({
      mode,
      connections: CONNECTIONS,
      duration_s: DURATION,
      rounds: ROUNDS,
      keys: KEYS,
      bare_rps: Math.round(mean(bareRuns.map((r) => r.rps))),
      app_rps: Math.round(mean(appRuns.map((r) => r.rps))),
      ratio_median: Number(median(ratios).toFixed(3)),
      ratios: ratios.map((r) => Number(r.toFixed(3))),
      bare_p99_ms: median(bareRuns.map((r) => r.p99)),
      app_p99_ms: median(appRuns.map((r) => r.p99)),
      app_non2xx_or_errors: bad,
    }),
  );
  rmSync(keysFile, { force: true });
  await app.close();
  await bare.close();
  if (store instanceof RedisKeyStore) {
    const r = new Redis(redisUrl);
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  }
  await store.close();
}

if (MODE === 'both' || MODE === 'embedded') await benchMode('embedded');
if (MODE === 'both' || MODE === 'redis') await benchMode('redis');
