// One roller per history database: two rollers (two processes' timers, each with its own lease
// client against one lease store) on one history give exactly the candles of one, however their
// roll-ups interleave with the writes and with each other; and a roller that loses its lease in the
// middle of a roll-up (paused between its check and its write while the lease expired and passed to
// the other) adds nothing twice. The candles are compared with the candles computed from the raw
// rows (price_history) in the same database. On the in-process lease always, on Redis where
// REDIS_URL is set (test/services starts one where it can); the history is chdb's in both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import type { History } from '../readmodels/history.ts';
import { migrate } from '../readmodels/migrate.ts';
import { midOf } from '../readmodels/price-history.ts';
import { BUCKET_OF, CANDLE_OF_CHANGES, CANDLE_OF_STATES, claimRollup, ROLLUP_TABLES, rollUpCandles, RollupFenced } from '../readmodels/price-rollup.ts';
import { MemoryLease, MemoryLeaseRegistry, type Lease } from './lease.ts';
import { RedisLease } from './redis-lease.ts';
import { startCandleRollup, type RunningRollup } from './price-rollup.ts';
import { redisUrlForTests } from './test-services.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-rollup-lease-'));
const rnd = () => randomBytes(4).toString('hex');
const DAY = 1_767_225_600; // 2026-01-01T00:00:00Z, Unix seconds
/** The timers never fire in these tests: each roll-up is asked for (runOnce). */
const NEVER = 1_000_000_000;

interface Change {
  market: number;
  outcome: 'a' | 'b';
  sec: number;
  bid: number | null;
  ask: number | null;
  last: number | null;
}

const price = fc.option(fc.integer({ min: 1, max: 99 }).map((n) => n / 100), { nil: null });
const change: fc.Arbitrary<Change> = fc.record({
  market: fc.integer({ min: 0, max: 2 }),
  outcome: fc.constantFrom('a' as const, 'b' as const),
  // Three days: several minutes, hours and days, and buckets shared by many changes.
  sec: fc.oneof(fc.integer({ min: 0, max: 3 * 86_400 - 1 }), fc.integer({ min: 0, max: 180 })),
  bid: price,
  ask: price,
  last: price,
});
/** A write of some changes, or both rollers rolling up at once. */
type Step = { write: Change[] } | { roll: true };
/**
 * One change per outcome and observed time, as the sink writes them (one poll observes one quote of
 * an outcome): two values of one outcome at one millisecond would leave a candle's open and close to
 * the engine's choice among equals, which the raw rows and the merged states may make differently.
 */
const oneChangePerInstant = (plan: Step[]): Step[] => {
  const seen = new Set<string>();
  return plan
    .map((step) => ('write' in step ? { write: step.write.filter((c) => !seen.has(`${c.market}/${c.outcome}/${c.sec}`) && seen.add(`${c.market}/${c.outcome}/${c.sec}`)) } : step))
    .filter((step) => !('write' in step) || step.write.length > 0);
};
const steps: fc.Arbitrary<Step[]> = fc
  .array(fc.oneof(fc.record({ write: fc.array(change, { minLength: 1, maxLength: 12 }) }), fc.constant({ roll: true as const })), { minLength: 1, maxLength: 10 })
  .map(oneChangePerInstant);

const rowsOf = (prefix: string, changes: Change[]) =>
  changes.map((c) => ({
    provider: 'venue_3', market_id: `${prefix}${c.market}`, outcome_id: c.outcome, bid: c.bid, ask: c.ask, last: c.last, price: null,
    mid: midOf(c.bid, c.ask), bid_size: null, ask_size: null, venue_time: null, observed_at: (DAY + c.sec) * 1000 + (c.market % 7),
  }));

/** Every width's candles as the roll-ups wrote them, and as computed from the raw rows. */
async function candles(h: History) {
  const rolled: Record<string, unknown[]> = {};
  const raw: Record<string, unknown[]> = {};
  for (const width of ['1m', '1h', '1d'] as const) {
    rolled[width] = await h.query(
      `SELECT market_id, toUnixTimestamp(bucket) AS b, outcome_id, ${CANDLE_OF_STATES} FROM ${ROLLUP_TABLES[width]} GROUP BY market_id, b, outcome_id ORDER BY market_id, b, outcome_id`,
    );
    raw[width] = await h.query(
      `SELECT market_id, toUnixTimestamp(${BUCKET_OF[width]}(observed_at)) AS b, outcome_id, ${CANDLE_OF_CHANGES} FROM price_history GROUP BY market_id, b, outcome_id ORDER BY market_id, b, outcome_id`,
    );
  }
  return { rolled, raw };
}

/** Until `roller` takes the lease (a real store's TTL runs out in real time). */
async function untilRolls(roller: RunningRollup): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await roller.runOnce()) !== null) return;
    await sleep(50);
  }
  throw new Error('the roller never took the lease');
}

interface Store {
  /** A new client of one lease store (another process). */
  client(): Lease;
  /** Lets the store's time pass beyond a lease of ttlMs. */
  expire(ttlMs: number): Promise<void>;
  ttlMs: number;
}

function rollerSuite(name: string, makeStore: () => Store) {
  describe(`two rollers on one history database, lease: ${name}`, () => {
    let h: History;
    beforeAll(async () => {
      h = await ChdbHistory.open(dir, `t_${rnd()}`);
      await migrate(h);
    });
    afterAll(async () => {
      await h?.exec(`DROP DATABASE IF EXISTS ${h.database}`).catch(() => {});
      await h?.close();
    });

    it('rolling up concurrently and repeatedly over random writes, they give exactly the candles of the raw rows', async () => {
      await fc.assert(
        fc.asyncProperty(steps, async (plan) => {
          // Each run its own database (the roll-up's mark and fence are per database), its own store.
          const db = await ChdbHistory.open(dir, `t_${rnd()}`);
          const store = makeStore();
          const leases = [store.client(), store.client()];
          const rollers = leases.map((lease) => startCandleRollup(db, { intervalMs: NEVER, lease, leaseTtlMs: 60_000 }));
          try {
            await migrate(db);
            const prefix = `m${rnd()}-`;
            for (const step of plan) {
              if ('write' in step) await db.insert('price_history', rowsOf(prefix, step.write));
              else await Promise.all(rollers.map((r) => r.runOnce()));
            }
            // Both once more at once: the holder rolls up the rest.
            const last = await Promise.all(rollers.map((r) => r.runOnce()));
            expect(last.filter((r) => r !== null)).toHaveLength(1);
            const { rolled, raw } = await candles(db);
            expect(rolled).toEqual(raw);
          } finally {
            for (const r of rollers) await r.stop();
            for (const l of leases) await l.close();
            await db.exec(`DROP DATABASE IF EXISTS ${db.database}`).catch(() => {});
            await db.close();
          }
        }),
        { numRuns: 8 },
      );
    });

    it('a roller whose lease expired while it was paused in a roll-up adds nothing twice; the roller after it rolls up all', async () => {
      const store = makeStore();
      const [la, lb] = [store.client(), store.client()];
      // Roller a is paused just before its third write (the start mark, the 1m states, then the 1h
      // states): after its check of the lease, before the engine runs the statement.
      let writes = 0;
      let resume!: () => void;
      const resumed = new Promise<void>((r) => (resume = r));
      let paused!: () => void;
      const pausing = new Promise<void>((r) => (paused = r));
      const ha = new Proxy(h, {
        get(target, prop, receiver) {
          if (prop === 'exec')
            return async (sql: string, params?: Record<string, unknown>) => {
              const s = sql.trimStart();
              if (s.startsWith('INSERT INTO price_rollup_') && !s.startsWith('INSERT INTO price_rollup_fence') && ++writes === 3) {
                frozen = true;
                paused();
                await resumed;
              }
              return target.exec(sql, params);
            };
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      // Paused as a whole process is (a GC pause): its renewals do not reach the store until it resumes.
      let frozen = false;
      const laPaused: Lease = {
        acquire: (n, ttl) => la.acquire(n, ttl),
        renew: async (g, ttl) => {
          if (frozen) await resumed;
          return la.renew(g, ttl);
        },
        release: (g) => la.release(g),
        close: () => la.close(),
      };
      const a = startCandleRollup(ha, { intervalMs: NEVER, lease: laPaused, leaseTtlMs: store.ttlMs });
      const b = startCandleRollup(h, { intervalMs: NEVER, lease: lb, leaseTtlMs: 60_000 });
      try {
        const prefix = `m${rnd()}-`;
        const [first] = oneChangePerInstant([{ write: fc.sample(fc.array(change, { minLength: 20, maxLength: 40 }), { numRuns: 1, seed: 7 })[0] }]);
        const changes = 'write' in first ? first.write : [];
        await h.insert('price_history', rowsOf(prefix, changes));
        const inA = a.runOnce();
        await Promise.race([pausing, inA.then((r) => Promise.reject(new Error(`a rolled up without pausing: ${JSON.stringify(r)}`)))]);
        expect(await b.runOnce()).toBeNull();
        await store.expire(store.ttlMs);
        await untilRolls(b);
        resume();
        const ended: unknown = await inA.then(() => 'finished', (err: unknown) => err);
        const after = await candles(h);
        expect(after.rolled).toEqual(after.raw);
        expect(ended).toBeInstanceOf(RollupFenced);
        // Later writes: b rolls them up, a no longer does.
        await h.insert('price_history', rowsOf(prefix, changes.slice(0, 5).map((c, i) => ({ ...c, sec: 3 * 86_400 + i }))));
        expect(await a.runOnce()).toBeNull();
        expect(await b.runOnce()).not.toBeNull();
        const { rolled, raw } = await candles(h);
        expect(rolled).toEqual(raw);
      } finally {
        resume();
        await a.stop().catch(() => {});
        await b.stop();
        await la.close();
        await lb.close();
      }
    });
  });
}

// Each statement costs chdb a few ms of CPU however small (bench/history.md, 2026-11-27): a timer's
// roll-up under a fence reads its window once, writes the start mark, the three widths' states and the
// mark, and reads the fence back once; with nothing new, it reads its window and stops.
describe('statements of a roll-up under a fence', () => {
  it('one day of new rows: one read of the window and its days, five writes, one read of the fence; nothing new: one read', async () => {
    const h = await ChdbHistory.open(dir, `t_${rnd()}`);
    try {
      await migrate(h);
      await claimRollup(h, 5);
      const seen: string[] = [];
      const counted = new Proxy(h, {
        get(target, prop, receiver) {
          if (prop === 'exec' || prop === 'query')
            return (sql: string, params?: Record<string, unknown>) => {
              const s = sql.replace(/\s+/g, ' ').trim();
              const read = s.includes('FROM price_history') ? 'window' : s.includes('FROM price_rollup_fence') ? 'fence' : s;
              seen.push(s.startsWith('INSERT INTO ') ? `write ${s.split(' ')[2]}` : `read ${read}`);
              return prop === 'exec' ? target.exec(sql, params) : target.query(sql, params);
            };
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      await h.insert('price_history', rowsOf('m-', [{ market: 0, outcome: 'a', sec: 10, bid: 0.4, ask: 0.5, last: null }, { market: 1, outcome: 'b', sec: 20, bid: null, ask: null, last: 0.3 }]));
      expect(await rollUpCandles(counted, { fence: 5, held: () => true })).toMatchObject({ rows: 2 });
      expect(seen).toEqual(['read window', 'write price_rollup_state', 'write price_rollup_1m', 'write price_rollup_1h', 'write price_rollup_1d', 'write price_rollup_state', 'read fence']);
      const { rolled, raw } = await candles(h);
      expect(rolled).toEqual(raw);
      seen.length = 0;
      expect(await rollUpCandles(counted, { fence: 5, held: () => true })).toMatchObject({ rows: 0 });
      expect(seen).toEqual(['read window']);
    } finally {
      await h.exec(`DROP DATABASE IF EXISTS ${h.database}`).catch(() => {});
      await h.close();
    }
  });
});

rollerSuite('in-process', () => {
  let now = Date.now();
  const registry = new MemoryLeaseRegistry(() => now);
  return {
    client: () => new MemoryLease(registry),
    expire: (ttlMs) => {
      now += ttlMs + 1;
      return Promise.resolve();
    },
    ttlMs: 60_000,
  };
});

const url = await redisUrlForTests();
if (url) {
  rollerSuite('redis', () => {
    const namespace = `t${rnd()}:`;
    return { client: () => new RedisLease({ url, namespace }), expire: (ttlMs) => sleep(ttlMs + 50), ttlMs: 600 };
  });
} else {
  describe.skip('two rollers on one history database, lease: redis (REDIS_URL not set)', () => it('skipped', () => {}));
}
