// The shell against real Redis (spec: "Rate limit": "It must hold across several API processes
// sharing Redis"). Two app instances share one RedisKeyStore namespace, each with its own ioredis
// connection, and race a burst; the Lua script admits exactly the limit. Usage counters survive
// an API restart; an unreachable Redis is 502.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, redisKeyStores } from '../test/helper.ts';
import { available, requireRedis } from '../test/services/index.ts';
import { KeyAdmin } from './auth/keys.ts';
import { billingPeriod } from './auth/plans.ts';

const redis = await available('redis');
let url = '';

/** Two app instances, each with its own connection to one fresh Redis namespace: two API processes. */
async function twoInstances(o: { now?: number; useAppClock?: boolean }) {
  const stores = redisKeyStores(url, 'shell');
  return { a: await build({ store: stores.open(), ...o }), b: await build({ store: stores.open(), ...o }) };
}

describe.skipIf(!redis.ok)(`shell with the Redis key store (${redis.reason})`, () => {
  beforeAll(async () => {
    ({ url } = await requireRedis());
  });

  it('two API instances sharing Redis never admit more than the limit in a rolling 60 s (Redis clock)', async () => {
    // useAppClock false: the window runs on Redis TIME, one clock for both processes.
    const { a, b } = await twoInstances({ useAppClock: false });
    const key = await a.createKey({ plan: 'starter' }); // 60 per minute
    // 15 rounds of 10 concurrent requests, alternating instances.
    const res = [];
    for (let round = 0; round < 15; round++) {
      res.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).app.inject({ url: '/v1/categories', headers: a.auth(key) })))));
    }
    const codes = res.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(60);
    expect(codes.filter((c) => c === 429)).toHaveLength(90);
    const limited = res.find((r) => r.statusCode === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-limit']).toBe('60');
    // Both instances served part of the 60.
    expect(res.filter((r, i) => i % 2 === 0 && r.statusCode === 200).length).toBeGreaterThan(0);
    expect(res.filter((r, i) => i % 2 === 1 && r.statusCode === 200).length).toBeGreaterThan(0);
  });

  it('the rolling-window boundary with a controlled clock, across two instances', async () => {
    const t0 = Date.UTC(2026, 10, 21, 12, 0, 0);
    const { a, b } = await twoInstances({ now: t0 });
    const key = await a.createKey({ plan: 'free' });
    const hit = (t: typeof a, at: number) => {
      t.clock.set(at);
      return t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    };
    for (let i = 0; i < 10; i++) expect((await hit(i % 2 ? a : b, t0 + i * 5000)).statusCode).toBe(200);
    const r = await hit(a, t0 + 59_999);
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['x-ratelimit-reset']).toBe(String(Math.ceil((t0 + 60_000) / 1000)));
    expect((await hit(b, t0 + 60_000)).statusCode).toBe(200);
    expect((await hit(a, t0 + 60_001)).statusCode).toBe(429);
    expect((await hit(a, t0 + 65_000)).statusCode).toBe(200);
  });

  it('property: over a random schedule split across two instances, no 60 s window ever holds more than the limit', async () => {
    const t0 = Date.UTC(2026, 10, 21, 12, 0, 0);
    const { a, b } = await twoInstances({ now: t0 });
    const key = await a.createKey({ plan: 'free' });
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const admitted: number[] = [];
    let at = t0;
    for (let i = 0; i < 300; i++) {
      at += Math.floor(rand() * 2500);
      const inst = rand() < 0.5 ? a : b;
      inst.clock.set(at);
      const res = await inst.app.inject({ url: '/v1/categories', headers: inst.auth(key) });
      if (res.statusCode === 200) admitted.push(at);
      else expect(res.statusCode).toBe(429);
    }
    for (let i = 0; i < admitted.length; i++) {
      let j = i;
      while (j > 0 && admitted[j - 1] > admitted[i] - 60_000) j--;
      expect(i - j + 1).toBeLessThanOrEqual(10);
    }
    // The budget was used, not merely refused: roughly 10 per minute over the schedule.
    expect(admitted.length).toBeGreaterThan(((at - t0) / 60_000) * 10 * 0.8);
  });

  it('usage counters survive an API restart', async () => {
    const stores = redisKeyStores(url, 'shell');
    const store1 = stores.open();
    const a = await build({ store: store1 });
    const account = `acct-${randomBytes(3).toString('hex')}`;
    const key = await a.createKey({ plan: 'pro', account });
    for (let i = 0; i < 5; i++) expect((await a.app.inject({ url: '/v1/categories', headers: a.auth(key) })).statusCode).toBe(200);
    // The first API goes away with its connection; the second starts on the same Redis.
    await a.app.close();
    await store1.close();
    const store2 = stores.open();
    const b = await build({ store: store2 });
    expect((await b.app.inject({ url: '/v1/categories', headers: b.auth(key) })).statusCode).toBe(200);
    expect(await store2.usage(account, billingPeriod(b.clock.now))).toBe(6);
    const admin = new KeyAdmin(store2, b.config.KEY_PEPPER);
    expect((await admin.list(account)).length).toBe(1);
  });

  it('502 upstream_unavailable when Redis cannot be reached', async () => {
    const store = redisKeyStores(url, 'shell').open({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 300 });
    const t = await build({ store });
    const res = await t.app.inject({ url: '/v1/categories', headers: t.auth('pmk_anything') });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
  });
});
