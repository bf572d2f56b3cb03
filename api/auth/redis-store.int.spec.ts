import { beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'ioredis';
import { keyStoreContract } from './store.contract.ts';
import { KeyAdmin, hashKey } from './keys.ts';
import { billingPeriod } from './plans.ts';
import { AUTHORIZE_BATCH_MAX, type RedisKeyStore } from './redis-store.ts';
import { available, requireRedis } from '../../test/services/index.ts';
import { redisKeyStores } from '../../test/helper.ts';

const redis = await available('redis');
let url = '';

describe.skipIf(!redis.ok)(`RedisKeyStore (${redis.reason})`, () => {
  beforeAll(async () => {
    ({ url } = await requireRedis());
  });

  // A fresh prefix per test, deleted when it finishes.
  keyStoreContract('redis', async () => redisKeyStores(url, 'auth').open());

  const PEPPER = 'batch-pepper';
  const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

  /** A store whose script runs (EVALSHA, or EVAL when Redis lacks the script) are counted. */
  function counted(store: RedisKeyStore): { scripts: () => number } {
    let n = 0;
    const send = store.redis.sendCommand.bind(store.redis);
    store.redis.sendCommand = (cmd: Command, ...rest: unknown[]) => {
      if (cmd.name === 'evalsha' || cmd.name === 'eval') n++;
      return (send as (c: Command, ...r: unknown[]) => unknown)(cmd, ...rest);
    };
    return { scripts: () => n };
  }

  it('the requests asked in one turn of the event loop are authorized by one script run, in the order asked, each with its own window', async () => {
    const stores = redisKeyStores(url, 'batch');
    const store = stores.open();
    const admin = new KeyAdmin(store, PEPPER, () => T0);
    const a = await admin.create({ accountId: 'batch-a', plan: 'pro' });
    const b = await admin.create({ accountId: 'batch-b', plan: 'starter', permissions: ['events.read'] });
    const authorize = (key: string, at: number | undefined, permission: 'markets.read' | 'events.read' = 'events.read') =>
      store.authorize({ hash: hashKey(PEPPER, key), permission, now: at, period: billingPeriod(T0) });
    const c = counted(store);
    const verdicts = await Promise.all([
      ...Array.from({ length: 10 }, () => authorize(a.key, T0)),
      authorize(b.key, T0, 'markets.read'),
      authorize('pmk_unknown', T0),
      ...Array.from({ length: 10 }, () => authorize(b.key, T0 + 5)),
      // On the store's clock (Redis TIME), read once for the batch.
      authorize(a.key, undefined),
    ]);
    expect(c.scripts()).toBe(1);
    expect(verdicts.slice(0, 10).map((v) => v.kind === 'ok' && v.window.remaining)).toEqual([299, 298, 297, 296, 295, 294, 293, 292, 291, 290]);
    expect(verdicts[10].kind === 'forbidden' && [verdicts[10].window.limit, verdicts[10].window.remaining, verdicts[10].window.resetAt]).toEqual([60, 60, T0]);
    expect(verdicts[11].kind).toBe('invalid');
    expect(verdicts.slice(12, 22).map((v) => v.kind === 'ok' && [v.window.remaining, v.window.resetAt])).toEqual(Array.from({ length: 10 }, (_, i) => [59 - i, T0 + 5 + 60_000]));
    // Redis's clock is now, far past T0: the ten requests at T0 have aged out of its window.
    const late = verdicts[22];
    expect(late.kind === 'ok' && late.window.remaining).toBe(299);
    expect(late.kind === 'ok' && Math.abs(late.window.resetAt - (Date.now() + 60_000))).toBeLessThan(5_000);
    expect(await store.usage('batch-a', billingPeriod(T0))).toBe(11);
    expect(await store.usage('batch-b', billingPeriod(T0))).toBe(10);
  });

  it(`more than ${AUTHORIZE_BATCH_MAX} requests in one turn are cut into script runs of at most that many, every request answered`, async () => {
    const store = redisKeyStores(url, 'batch').open();
    const admin = new KeyAdmin(store, PEPPER, () => T0);
    const a = await admin.create({ accountId: 'batch-big', plan: 'business' });
    const c = counted(store);
    const n = 2 * AUTHORIZE_BATCH_MAX + 3;
    const verdicts = await Promise.all(Array.from({ length: n }, () => store.authorize({ hash: hashKey(PEPPER, a.key), permission: 'markets.read', now: T0, period: billingPeriod(T0) })));
    expect(c.scripts()).toBe(3);
    expect(verdicts.map((v) => v.kind === 'ok' && v.window.remaining)).toEqual(Array.from({ length: n }, (_, i) => 999 - i));
  });

  it("a request whose commands fail is refused alone: the others of its script run are answered", async () => {
    const stores = redisKeyStores(url, 'batch');
    const store = stores.open();
    const admin = new KeyAdmin(store, PEPPER, () => T0);
    const good = await admin.create({ accountId: 'batch-good', plan: 'pro' });
    const bad = await admin.create({ accountId: 'batch-bad', plan: 'pro' });
    // The bad key's window is not a sorted set: its ZREMRANGEBYSCORE fails with WRONGTYPE.
    await store.redis.set(stores.prefix + 'rl:' + bad.record.id, 'not a window');
    const c = counted(store);
    const ask = (key: string) => store.authorize({ hash: hashKey(PEPPER, key), permission: 'markets.read', now: T0, period: billingPeriod(T0) });
    const settled = await Promise.allSettled([ask(good.key), ask(bad.key), ask(good.key)]);
    expect(c.scripts()).toBe(1);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[1].status === 'rejected' && String(settled[1].reason)).toMatch(/WRONGTYPE/);
    expect(settled.map((s) => s.status === 'fulfilled' && s.value.kind === 'ok' && s.value.window.remaining)).toEqual([299, false, 298]);
  });
});
