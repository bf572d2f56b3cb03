// Spec "Rate limit": "It must hold across several API processes sharing Redis: no key ever gets
// more than its limit in any 60 s window." Two real API processes (api/server.ts), one Redis, a
// concurrent burst split across both over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, requireRedis } from '../test/services/index.ts';
import { RedisKeyStore } from './auth/redis-store.ts';
import { authDepsFor } from './auth/index.ts';
import { loadConfig } from '../lib/config.ts';

const redis = await available('redis');

function startApiProcess(env: Record<string, string>): Promise<{ proc: ChildProcess; address: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    const rl = createInterface({ input: proc.stdout! });
    rl.once('line', (line) => resolve({ proc, address: (JSON.parse(line) as { address: string }).address }));
    proc.once('exit', (code) => reject(new Error(`api process exited with ${code}`)));
  });
}

describe.skipIf(!redis.ok)(`two API processes sharing Redis (${redis.reason})`, () => {
  const procs: ChildProcess[] = [];
  let url = '';
  const account = `acct-e2e-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    ({ url } = await requireRedis());
  });
  afterAll(async () => {
    for (const p of procs) p.kill('SIGTERM');
    const r = new Redis(url);
    const store = new RedisKeyStore({ client: r, prefix: 'pm:auth:' });
    for (const k of await store.listKeys(account)) {
      await r.del(`pm:auth:h:${k.hash}`, `pm:auth:key:${k.id}`, `pm:auth:rl:${k.id}`);
      await r.srem('pm:auth:keys', k.id);
    }
    await r.del(`pm:auth:acct:${account}`, `pm:auth:active:${account}`, ...(await r.keys(`pm:auth:u:${account}:*`)));
    await r.srem('pm:auth:accts', account);
    r.disconnect();
  });

  it('admits exactly the limit of a starter key (60) out of a concurrent burst across both', async () => {
    // The stack refuses to start without a pepper and a cursor secret (lib/config.ts); fresh ones per run.
    const env = { REDIS_URL: url, PORT: '0', LOG_LEVEL: 'silent', KEY_PEPPER: randomBytes(24).toString('base64url'), CATALOG_CURSOR_SECRET: randomBytes(24).toString('base64url') };
    const [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    procs.push(a.proc, b.proc);
    const store = new RedisKeyStore({ url, prefix: 'pm:auth:' });
    const auth = authDepsFor(store, loadConfig(env).KEY_PEPPER);
    await auth.admin.ensureAccount(account, 'starter');
    const { key } = await auth.admin.create({ accountId: account });
    await store.close();

    const hit = (base: string) => fetch(`${base}/v1/categories`, { headers: { authorization: `Bearer ${key}` } });
    const res = await Promise.all(Array.from({ length: 100 }, (_, i) => hit(i % 2 ? a.address : b.address)));
    const codes = res.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(60);
    expect(codes.filter((c) => c === 429)).toHaveLength(40);
    const limited = res.find((r) => r.status === 429)!;
    expect(limited.headers.get('x-ratelimit-limit')).toBe('60');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Both processes served some of the 60.
    expect(res.filter((r, i) => i % 2 === 1 && r.status === 200).length).toBeGreaterThan(0);
    expect(res.filter((r, i) => i % 2 === 0 && r.status === 200).length).toBeGreaterThan(0);
  });
});
