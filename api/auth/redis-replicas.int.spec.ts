// API keys across API replicas sharing one Redis (spec: "Authentication", "Limits"), each replica with
// its own connection, as two processes: a key revoked or rerolled through one is refused by the other
// on its very next request; an account's concurrent streams are counted across the stores of both;
// a Redis that stalls is a 502 upstream_unavailable within the key store's bound, and served again
// once Redis answers, without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { build, redisKeyStores } from '../../test/helper.ts';
import { available, requireRedis } from '../../test/services/index.ts';

const redis = await available('redis');

describe.skipIf(!redis.ok)(`API keys across two replicas sharing Redis (${redis.reason})`, () => {
  let url = '';
  let admin: Redis;
  beforeAll(async () => {
    ({ url } = await requireRedis());
    admin = new Redis(url);
  });
  afterAll(async () => {
    await admin?.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    admin?.disconnect();
  });

  async function twoReplicas() {
    const stores = redisKeyStores(url, 'replicas');
    const a = await build({ store: stores.open() });
    const b = await build({ store: stores.open() });
    return { a, b };
  }

  it('a key revoked through one replica is refused by the other on its next request; a rerolled key likewise, the new value accepted there', async () => {
    const { a, b } = await twoReplicas();
    const account = `acct-rep-${Math.random().toString(36).slice(2, 8)}`;
    const k1 = await a.createKey({ account, plan: 'pro' });
    const k2 = await a.createKey({ account, plan: 'pro' });
    const get = (t: typeof a, key: string) => t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect((await get(b, k1)).statusCode).toBe(200);
    expect((await get(b, k2)).statusCode).toBe(200);
    const [r1, r2] = await a.authDeps.admin.list(account);
    await a.authDeps.admin.revoke(r1.id);
    const refused = await get(b, k1);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'invalid_api_key', status_code: 401 });
    const fresh = await a.authDeps.admin.reroll(r2.id);
    expect((await get(b, k2)).statusCode).toBe(401);
    expect((await get(b, fresh)).statusCode).toBe(200);
  });

  it("an account's concurrent streams are one count across the replicas' stores", async () => {
    const stores = redisKeyStores(url, 'replicas');
    const [a, b] = [stores.open(), stores.open()];
    const now = Date.now();
    const acct = `acct-st-${Math.random().toString(36).slice(2, 8)}`;
    expect(await a.acquireStreamSlot(acct, 'a1', 2, now, now + 60_000)).toBe(true);
    expect(await b.acquireStreamSlot(acct, 'b1', 2, now, now + 60_000)).toBe(true);
    expect(await b.acquireStreamSlot(acct, 'b2', 2, now, now + 60_000)).toBe(false);
    expect(await a.acquireStreamSlot(acct, 'a2', 2, now, now + 60_000)).toBe(false);
    // Released through one replica: the other's next stream fits.
    await a.releaseStreamSlot(acct, 'a1');
    expect(await b.acquireStreamSlot(acct, 'b2', 2, now, now + 60_000)).toBe(true);
  });

  it('a Redis that stalls is 502 upstream_unavailable while it stalls (the key store waits 2 s), then served again without a restart', async () => {
    const { a } = await twoReplicas();
    const key = await a.createKey({ plan: 'pro' });
    const get = () => a.app.inject({ url: '/v1/categories', headers: a.auth(key) });
    expect((await get()).statusCode).toBe(200);
    // A request held until Redis answers would be a 200: the 502 says it was answered during the stall.
    await admin.call('CLIENT', 'PAUSE', '6000', 'ALL');
    const res = await get();
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
    // Once Redis answers again the same replica serves.
    let status = 0;
    const until = Date.now() + 10_000;
    while (status !== 200 && Date.now() < until) {
      status = (await get()).statusCode;
      if (status !== 200) await new Promise((s) => setTimeout(s, 200));
    }
    expect(status).toBe(200);
  }, 20_000);
});
