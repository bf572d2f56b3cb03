// Benchmark of the service shell's per-request cost: authenticated
// GET /v1/categories through the full shell (router checks, key hash, authorize: permission +
// rolling window + usage, typed query, handler, gzip negotiation, headers) against the same body
// from a bare Fastify route, in the same run. Load comes from a second process (bench/api-load.ts,
// autocannon). Targets: throughput ratio >= 0.6 embedded (in-process store), >= 0.4 with Redis.
//
//   npx tsx bench/api.ts [--duration 3] [--connections 32] [--rounds 5] [--keys 200] [--mode both|embedded|redis]
//
// The load rotates over --keys keys of one enterprise account whose custom limits are far above
// the load, so every request does the full key lookup, rate-limit and usage work and still answers
// 200; each key's sliding log then holds a realistic few hundred entries.
//
// Two figures per mode: the throughput ratio (shell rps / bare rps, median over rounds of
// back-to-back runs), and the CPU-cost ratio (bare CPU per request / shell CPU per request, the
// shell's including the Redis server's CPU), which a busy shared machine disturbs far less. Redis
// mode starts a private redis-server on a free port (so its CPU is ours to measure) unless
// REDIS_URL is set.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
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
import { benchKeys } from './bench-keys.ts';
import { benchArgs } from './args.ts';

const run = promisify(execFile);
const loadScript = fileURLToPath(new URL('./api-load.ts', import.meta.url));

const cli = benchArgs({ duration: 3, connections: 32, rounds: 5, keys: 200, mode: 'both' });
const DURATION = cli.duration;
const CONNECTIONS = cli.connections;
const ROUNDS = cli.rounds;
const MODE = cli.mode;
const KEYS = cli.keys;
const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat times are in 1/100 s

interface Load {
  rps: number;
  total: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface Measured extends Load {
  /** CPU microseconds per request: this process, plus the private redis-server when measured. */
  cpuUsPerReq: number;
  /** Of which the redis-server's. */
  redisUsPerReq: number;
}

/** Runs bench/api-load.ts in a second process; `keysFile` lists Authorization values to rotate. */
async function load(url: string, keysFile: string, duration = DURATION): Promise<Load> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', loadScript, url, String(CONNECTIONS), String(duration), keysFile], { maxBuffer: 1 << 24 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Load;
}

function procCpuUs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return ((Number(rest[11]) + Number(rest[12])) * 1e6) / CLK_TCK; // utime, stime
}

async function measure(url: string, keysFile: string, redisPid: number | undefined): Promise<Measured> {
  const c0 = process.cpuUsage();
  const r0 = redisPid ? procCpuUs(redisPid) : 0;
  const l = await load(url, keysFile);
  const c = process.cpuUsage(c0);
  const r = redisPid ? procCpuUs(redisPid) - r0 : 0;
  const n = Math.max(1, l.total);
  return { ...l, cpuUsPerReq: (c.user + c.system + r) / n, redisUsPerReq: r / n };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const a = app.server.address() as { port: number };
  return `http://127.0.0.1:${a.port}/v1/categories`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function privateRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      await r.connect();
      await r.ping();
      r.disconnect();
      return { url, proc };
    } catch {
      r.disconnect();
      await new Promise((res) => setTimeout(res, 50));
    }
  }
  proc.kill();
  throw new Error('redis-server did not start');
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const r3 = (x: number) => Number(x.toFixed(3));

async function benchMode(mode: 'embedded' | 'redis'): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  let redis: { url: string; proc?: ChildProcess } | undefined;
  if (mode === 'redis') redis = process.env.REDIS_URL ? { url: process.env.REDIS_URL } : await privateRedis();
  const prefix = `bench:auth:${randomBytes(4).toString('hex')}:`;
  const store = redis ? new RedisKeyStore({ url: redis.url, prefix }) : new MemoryKeyStore();
  const auth: AuthDeps = authDepsFor(store, config.KEY_PEPPER);
  const keysFile = join(tmpdir(), `bench-keys-${process.pid}.txt`);
  const lines = (await benchKeys(auth.admin, { permissions: ['markets.read'], count: KEYS, unlimited: true })).map((k) => `Bearer ${k}`);
  writeFileSync(keysFile, lines.join('\n'));

  const app = await buildApp({ config, clock: Date.now, auth }, undefined, { logger: false });
  const bare = Fastify({ logger: false });
  const body = { data: CATEGORY_LIST };
  bare.get('/v1/categories', async () => body);
  const appUrl = await listen(app);
  const bareUrl = await listen(bare);
  const redisPid = redis?.proc?.pid;

  try {
    // Warm both (JIT, connection pools), then alternate so drift hits both sides alike.
    await load(bareUrl, '', 1);
    await load(appUrl, keysFile, 1);
    const bareRuns: Measured[] = [];
    const appRuns: Measured[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareRuns.push(await measure(bareUrl, '', undefined));
      appRuns.push(await measure(appUrl, keysFile, redisPid));
    }
    const ratios = appRuns.map((r, i) => r.rps / bareRuns[i].rps);
    const cpuRatios = appRuns.map((r, i) => bareRuns[i].cpuUsPerReq / r.cpuUsPerReq);
    console.log(
      JSON.stringify({
        mode,
        redis: redis ? (redis.proc ? 'private redis-server' : redis.url) : undefined,
        connections: CONNECTIONS,
        duration_s: DURATION,
        rounds: ROUNDS,
        keys: KEYS,
        bare_rps: Math.round(mean(bareRuns.map((r) => r.rps))),
        app_rps: Math.round(mean(appRuns.map((r) => r.rps))),
        ratio_median: r3(median(ratios)),
        ratios: ratios.map(r3),
        bare_cpu_us_per_req: Math.round(median(bareRuns.map((r) => r.cpuUsPerReq))),
        app_cpu_us_per_req: Math.round(median(appRuns.map((r) => r.cpuUsPerReq))),
        app_cpu_us_per_req_of_which_redis: Math.round(median(appRuns.map((r) => r.redisUsPerReq))),
        cpu_ratio_median: r3(median(cpuRatios)),
        // The API process alone (Redis on its own host in the stack).
        cpu_ratio_api_process_median: r3(median(appRuns.map((r, i) => bareRuns[i].cpuUsPerReq / (r.cpuUsPerReq - r.redisUsPerReq)))),
        bare_p99_ms: median(bareRuns.map((r) => r.p99)),
        app_p99_ms: median(appRuns.map((r) => r.p99)),
        app_non2xx_or_errors: appRuns.reduce((a, r) => a + r.non2xx + r.errors, 0),
      }),
    );
  } finally {
    rmSync(keysFile, { force: true });
    await app.close();
    await bare.close();
    if (store instanceof RedisKeyStore && !redis?.proc) {
      const r = new Redis(redis!.url);
      const keys = await r.keys(`${prefix}*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    }
    await store.close();
    redis?.proc?.kill();
  }
}

if (MODE === 'both' || MODE === 'embedded') await benchMode('embedded');
if (MODE === 'both' || MODE === 'redis') await benchMode('redis');
