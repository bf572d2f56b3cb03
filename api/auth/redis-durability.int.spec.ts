// Keys, accounts and the rate limiter across Redis restarts, on a redis-server of the test's own
// started and stopped by infra/scripts (start-redis.sh, stop-redis.sh), as the stack runs it:
// a key created before a restart (clean or SIGKILL) still works after it, and the rolling window
// keeps every admitted request, so a free key never gets more than its 10 per 60 s across restarts.
// While Redis is down a keyed request is answered at once with the spec's key-verification error
// (502 upstream_unavailable), not after the command timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../test/helper.ts';
import { ownRedisAvailable, randomName, startOwnRedis, type OwnRedis } from '../../test/services/index.ts';
import { RedisKeyStore } from './redis-store.ts';
import type { TestApp } from '../../test/helper.ts';

const redisServer = await ownRedisAvailable();

/** Statuses of n sequential keyed requests. */
async function statuses(t: TestApp, key: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode);
  return out;
}

/** The first keyed request that gets an answer other than 502 once Redis is back. */
async function firstAnswerAfterRestart(t: TestApp, key: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const s = (await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode;
    if (s !== 502) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the key store did not come back within 200 attempts');
}

describe.skipIf(!redisServer.ok)(`API keys and the rate limiter across Redis restarts (${redisServer.reason})`, () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await startOwnRedis();
  });
  afterAll(async () => {
    await redis?.remove();
  });

  it('a free key survives a clean restart and a SIGKILL, and is never admitted more than 10 times in 60 s', async () => {
    // A command timeout longer than the test's: an answer during the outage cannot come from it.
    const store = new RedisKeyStore({ url: redis.url, prefix: `${randomName('durable')}:`, commandTimeoutMs: 120_000 });
    try {
      // The Redis clock (TIME) for the window, as in the stack: it is the one that survives a restart.
      const t = await build({ store, useAppClock: false });
      const key = await t.createKey({ plan: 'free', permissions: ['markets.read'] });
      expect(await statuses(t, key, 6)).toEqual([200, 200, 200, 200, 200, 200]);

      await redis.stop();
      const down = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
      expect(down.statusCode).toBe(502);
      expect(down.json()).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
      expect(down.json().message).toContain('key store is unreachable');

      await redis.start();
      // The key still works (not 401), and the six admitted before the restart still count.
      expect(await firstAnswerAfterRestart(t, key)).toBe(200);
      expect(await statuses(t, key, 4)).toEqual([200, 200, 200, 429]);

      await redis.kill();
      await redis.start();
      // After a crash too: the window still holds all ten, the key is still known (429, not 401).
      expect(await firstAnswerAfterRestart(t, key)).toBe(429);
      expect((await t.authDeps.admin.list()).map((k) => k.revokedAt)).toEqual([undefined]);
    } finally {
      await store.close();
    }
  });
});
