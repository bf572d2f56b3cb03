// One contract for every History: chdb (embedded default) and a ClickHouse server (CLICKHOUSE_URL).
// The same migrations and SQL must give the same rows on both. Each test gets its own database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { History } from './history.ts';
import { loadMigrations, migrate, truncateTables } from './migrate.ts';
import { candleRows, storedMarkets } from './price-queries.ts';
import { groupCandles, midOf } from './price-history.ts';
import { rollUpCandles } from './price-rollup.ts';

export type OpenHistory = (database: string) => Promise<History>;

const db = () => `t_${randomBytes(5).toString('hex')}`;

export function historyContract(name: string, open: OpenHistory): void {
  describe(`History contract: ${name}`, () => {
    let h: History;
    beforeAll(async () => {
      h = await open(db());
      await migrate(h);
    });
    afterAll(async () => {
      await h?.exec(`DROP DATABASE IF EXISTS ${h.database}`).catch(() => {});
      await h?.close();
    });

    it('applies every migration once', async () => {
      const versions = (await h.query<{ version: number }>('SELECT version FROM schema_migrations FINAL ORDER BY version')).map((r) => r.version);
      expect(versions).toEqual(loadMigrations().map((m) => m.version));
      expect(await migrate(h)).toEqual([]);
    });

    it('inserts JSON rows and queries them back with bound parameters, ms timestamps and nulls intact', async () => {
      await h.insert('raw_records', [
        { venue: 'venue_1', record_type: 'market', native_id: 'KX-1', read_started_at: 1_767_225_600_123, read_id: null, source_url: '/m', payload: '{"a":1}', topic: 'raw.venue_1', partition: 0, offset: 7, logged_at: 1_767_225_600_200 },
        { venue: 'venue_2', record_type: 'market', native_id: '42', read_started_at: 1_767_225_601_000, read_id: 'r1', source_url: null, payload: '{"b":2}', topic: 'raw.venue_2', partition: 1, offset: 9, logged_at: 1_767_225_601_000 },
      ]);
      const rows = await h.query<Record<string, unknown>>(
        `SELECT native_id, toUnixTimestamp64Milli(read_started_at) AS ms, read_id, source_url, offset, JSONExtractInt(payload, 'a') AS a
         FROM raw_records FINAL WHERE venue = {venue:String} ORDER BY native_id`,
        { venue: 'venue_1' },
      );
      expect(rows).toEqual([{ native_id: 'KX-1', ms: 1_767_225_600_123, read_id: null, source_url: '/m', offset: 7, a: 1 }]);
      const [c] = await h.query<{ c: number }>('SELECT count() AS c FROM raw_records');
      expect(c).toEqual({ c: 2 });
    });

    it('collapses a redelivered record into the row it wrote (idempotent sink)', async () => {
      const row = { venue: 'venue_3', record_type: 'market', native_id: 'n1', read_started_at: 1_767_225_700_000, payload: '{}', topic: 'raw.venue_3', partition: 2, offset: 100, logged_at: 1_767_225_700_000 };
      await h.insert('raw_records', [row]);
      await h.insert('raw_records', [row]);
      const [c] = await h.query<{ c: number }>(`SELECT count() AS c FROM raw_records FINAL WHERE venue = 'venue_3'`);
      expect(c!.c).toBe(1);
    });

    it('keeps the newest version of a canonical market whatever the arrival order; a tombstone hides it', async () => {
      const base = { provider: 'venue_2', market_id: 'm1', title: 't', status: 'open', read_started_at: 1_767_225_800_000, body: '{}' };
      await h.insert('canonical_markets', [{ ...base, title: 'v5', version: 5 }]);
      await h.insert('canonical_markets', [{ ...base, title: 'v3', version: 3 }]);
      let rows = await h.query<{ title: string }>(`SELECT title FROM canonical_markets FINAL WHERE market_id = 'm1'`);
      expect(rows).toEqual([{ title: 'v5' }]);
      await h.insert('canonical_markets', [{ ...base, title: 'gone', version: 6, is_deleted: 1 }]);
      rows = await h.query(`SELECT title FROM canonical_markets FINAL WHERE market_id = 'm1'`);
      expect(rows).toEqual([]);
    });

    it('price history: each insert fills price_latest; the 1m, 1h and 1d candles read back as OHLC with counts before any roll-up', async () => {
      const market = `m${randomBytes(4).toString('hex')}`;
      const day = 1_767_225_600; // 2026-01-01T00:00:00Z, Unix seconds
      const row = (sec: number, outcome: string, bid: number | null, ask: number | null, last: number | null) => ({
        provider: 'venue_3', market_id: market, outcome_id: outcome, bid, ask, last, price: null,
        mid: midOf(bid, ask), bid_size: null, ask_size: null, venue_time: null, observed_at: (day + sec) * 1000,
      });
      // Two inserts (two sink batches) into the same minute: the candles must merge them.
      await h.insert('price_history', [row(5, 'a', 0.4, 0.5, 0.45), row(20, 'a', 0.5, 0.6, null), row(30, 'b', 0.1, 0.2, 0.15)]);
      await h.insert('price_history', [row(50, 'a', 0.2, 0.3, 0.3), row(3_600 + 1, 'a', null, 0.7, 0.65), row(86_400 + 7, 'a', 0.6, 0.7, 0.7)]);
      await h.insert('price_aliases', [{ provider: 'venue_3', alias: `${market}-slug`, market_id: market, observed_at: day * 1000 }]);

      const latest = await h.query(`SELECT outcome_id, bid, ask, toUnixTimestamp64Milli(observed_at) AS t FROM price_latest FINAL WHERE market_id = {m:String} ORDER BY outcome_id`, { m: market });
      expect(latest).toEqual([
        { outcome_id: 'a', bid: 0.6, ask: 0.7, t: (day + 86_407) * 1000 },
        { outcome_id: 'b', bid: 0.1, ask: 0.2, t: (day + 30) * 1000 },
      ]);
      expect(await storedMarkets(h, ['venue_2', 'venue_3'], market)).toEqual([{ provider: 'venue_3', market_id: market }]);
      expect(await storedMarkets(h, ['venue_3'], `${market}-slug`)).toEqual([{ provider: 'venue_3', market_id: market }]);
      expect(await storedMarkets(h, ['venue_3'], `${market}-none`)).toEqual([]);

      const minute = groupCandles(await candleRows(h, { provider: 'venue_3', marketId: market, interval: '1m', from: 0, to: day + 86_400 * 2, buckets: 10 }), '1m');
      expect(minute.map((c) => c.start_time)).toEqual([day + 86_400, day + 3_600, day]);
      expect(minute[2].outcomes).toEqual([
        { outcome_id: 'a', mid: { open: 0.45, high: 0.55, low: 0.25, close: 0.25 }, last: { open: 0.45, high: 0.45, low: 0.3, close: 0.3 }, price: null, changes: 3 },
        { outcome_id: 'b', mid: { open: 0.15, high: 0.15, low: 0.15, close: 0.15 }, last: { open: 0.15, high: 0.15, low: 0.15, close: 0.15 }, price: null, changes: 1 },
      ]);
      // The 1h bucket of 01:00 has one change whose bid is missing: no mid at all, a last.
      expect(minute[1].outcomes).toEqual([{ outcome_id: 'a', mid: null, last: { open: 0.65, high: 0.65, low: 0.65, close: 0.65 }, price: null, changes: 1 }]);
      const hour = groupCandles(await candleRows(h, { provider: 'venue_3', marketId: market, interval: '1h', from: day, to: day + 3_600, buckets: 10 }), '1h');
      expect(hour.map((c) => [c.start_time, c.end_time, c.outcomes.map((o) => o.changes)])).toEqual([
        [day + 3_600, day + 7_199, [1]],
        [day, day + 3_599, [3, 1]],
      ]);
      const daily = groupCandles(await candleRows(h, { provider: 'venue_3', marketId: market, interval: '1d', from: 0, to: day * 2, buckets: 1 }), '1d');
      // buckets: 1 is the newest bucket only.
      expect(daily).toEqual([{ start_time: day + 86_400, end_time: day + 172_799, outcomes: [{ outcome_id: 'a', mid: { open: 0.65, high: 0.65, low: 0.65, close: 0.65 }, last: { open: 0.7, high: 0.7, low: 0.7, close: 0.7 }, price: null, changes: 1 }] }]);
      const both = groupCandles(await candleRows(h, { provider: 'venue_3', marketId: market, interval: '1d', from: 0, to: day, buckets: 5 }), '1d');
      expect(both.map((c) => [c.start_time, c.outcomes.map((o) => [o.outcome_id, o.changes, o.mid?.close])])).toEqual([[day, [['a', 4, 0.25], ['b', 1, 0.15]]]]);
    });

    it('candles: the same answers before a roll-up, after it, right after a later write, and after a roll-up stopped half way and done again', async () => {
      const market = `m${randomBytes(4).toString('hex')}`;
      const day = 1_767_312_000; // 2026-01-02T00:00:00Z, Unix seconds
      const row = (sec: number, outcome: string, bid: number | null, ask: number | null, last: number | null) => ({
        provider: 'venue_3', market_id: market, outcome_id: outcome, bid, ask, last, price: null,
        mid: midOf(bid, ask), bid_size: null, ask_size: null, venue_time: null, observed_at: (day + sec) * 1000,
      });
      const answers = async () => {
        const page = async (interval: '1m' | '1h' | '1d') => groupCandles(await candleRows(h, { provider: 'venue_3', marketId: market, interval, from: 0, to: day + 86_400 * 2, buckets: 10 }), interval);
        return { m: await page('1m'), h: await page('1h'), d: await page('1d') };
      };
      // What the roll-up wrote, read alone (the route would merge the changes after the mark over it).
      const rolled = (table: string) =>
        h.query(
          `SELECT toUnixTimestamp(bucket) AS b, outcome_id, argMinMerge(mid_open) AS mid_open, max(mid_high) AS mid_high, min(mid_low) AS mid_low, argMaxMerge(mid_close) AS mid_close,
                  argMaxMerge(last_close) AS last_close, toUInt64(sum(changes)) AS changes
           FROM ${table} WHERE market_id = {m:String} GROUP BY b, outcome_id ORDER BY b, outcome_id`,
          { m: market },
        );

      await h.insert('price_history', [row(5, 'a', 0.4, 0.5, 0.45), row(20, 'a', 0.5, 0.6, null), row(30, 'b', 0.1, 0.2, 0.15)]);
      await h.insert('price_history', [row(3_600 + 1, 'a', null, 0.7, 0.65), row(86_400 + 7, 'a', 0.6, 0.7, 0.7)]);
      const before = await answers();
      expect(before.m.map((c) => [c.start_time, c.outcomes.map((o) => [o.outcome_id, o.changes])])).toEqual([
        [day + 86_400, [['a', 1]]],
        [day + 3_600, [['a', 1]]],
        [day, [['a', 2], ['b', 1]]],
      ]);
      await rollUpCandles(h);
      expect(await answers()).toEqual(before);
      expect(await rolled('price_rollup_1h')).toEqual([
        { b: day, outcome_id: 'a', mid_open: 0.45, mid_high: 0.55, mid_low: 0.45, mid_close: 0.55, last_close: 0.45, changes: 2 },
        { b: day, outcome_id: 'b', mid_open: 0.15, mid_high: 0.15, mid_low: 0.15, mid_close: 0.15, last_close: 0.15, changes: 1 },
        { b: day + 3_600, outcome_id: 'a', mid_open: null, mid_high: null, mid_low: null, mid_close: null, last_close: 0.65, changes: 1 },
        { b: day + 86_400, outcome_id: 'a', mid_open: 0.65, mid_high: 0.65, mid_low: 0.65, mid_close: 0.65, last_close: 0.7, changes: 1 },
      ]);
      expect((await rolled('price_rollup_1d')).map((r) => [r.b, r.outcome_id, r.mid_open, r.mid_close, r.changes])).toEqual([
        [day, 'a', 0.45, 0.55, 3],
        [day, 'b', 0.15, 0.15, 1],
        [day + 86_400, 'a', 0.65, 0.65, 1],
      ]);

      // A change into a minute, hour and day already rolled up: in the next answer, before any roll-up.
      await h.insert('price_history', [row(50, 'a', 0.2, 0.3, 0.3)]);
      const after = await answers();
      expect(after.m.at(-1)!.outcomes[0]).toEqual({ outcome_id: 'a', mid: { open: 0.45, high: 0.55, low: 0.25, close: 0.25 }, last: { open: 0.45, high: 0.45, low: 0.3, close: 0.3 }, price: null, changes: 3 });
      expect(after.h.at(-1)!.outcomes.map((o) => [o.outcome_id, o.changes, o.mid?.close])).toEqual([['a', 3, 0.25], ['b', 1, 0.15]]);
      expect(after.d.at(-1)!.outcomes.map((o) => [o.outcome_id, o.changes, o.mid?.close])).toEqual([['a', 4, 0.25], ['b', 1, 0.15]]);

      // A roll-up stopped after its 1m insert (its start recorded, then the 1m states; as by a crash or
      // a restart): answers unchanged, the
      // mark not moved; the next roll-up does it again whole, and nothing is counted twice.
      let inserts = 0;
      const stopping = new Proxy(h, {
        get(target, prop, receiver) {
          if (prop === 'exec')
            return (sql: string, params?: Record<string, unknown>) => {
              if (sql.trimStart().startsWith('INSERT') && ++inserts === 3) return Promise.reject(new Error('stopped half way'));
              return target.exec(sql, params);
            };
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      await expect(rollUpCandles(stopping)).rejects.toThrow('stopped half way');
      expect(await answers()).toEqual(after);
      await rollUpCandles(h);
      expect(await answers()).toEqual(after);
      await rollUpCandles(h);
      expect(await answers()).toEqual(after);
      expect((await rolled('price_rollup_1d')).map((r) => [r.b, r.outcome_id, r.mid_open, r.mid_close, r.changes])).toEqual([
        [day, 'a', 0.45, 0.25, 4],
        [day, 'b', 0.15, 0.15, 1],
        [day + 86_400, 'a', 0.65, 0.65, 1],
      ]);
      expect((await rolled('price_rollup_1m')).map((r) => [r.b, r.outcome_id, r.changes])).toEqual([
        [day, 'a', 3],
        [day, 'b', 1],
        [day + 3_600, 'a', 1],
        [day + 86_400, 'a', 1],
      ]);
    });

    it('exec runs DDL and parameterized statements; truncate empties a table', async () => {
      await h.exec('CREATE TABLE IF NOT EXISTS scratch (k String, n UInt64) ENGINE = MergeTree ORDER BY k');
      await h.insert('scratch', [{ k: 'a', n: 1 }, { k: 'b', n: 2 }]);
      await h.exec('INSERT INTO scratch SELECT {k:String}, {n:UInt64}', { k: 'c', n: 3 });
      expect(await h.query('SELECT k, n FROM scratch ORDER BY k')).toEqual([
        { k: 'a', n: 1 },
        { k: 'b', n: 2 },
        { k: 'c', n: 3 },
      ]);
      await truncateTables(h, ['scratch']);
      expect(await h.query('SELECT k FROM scratch')).toEqual([]);
    });

    it('two Histories on different databases never see each other, even interleaved', async () => {
      const other = await open(db());
      try {
        await other.exec('CREATE TABLE IF NOT EXISTS only_here (x UInt8) ENGINE = Memory');
        await other.insert('only_here', [{ x: 1 }]);
        const [a, b] = await Promise.all([
          other.query<{ c: number }>('SELECT count() AS c FROM only_here'),
          h.query<{ c: number }>(`SELECT count() AS c FROM system.tables WHERE database = currentDatabase() AND name = 'only_here'`),
        ]);
        expect(a).toEqual([{ c: 1 }]);
        expect(b).toEqual([{ c: 0 }]);
      } finally {
        await other.exec(`DROP DATABASE IF EXISTS ${other.database}`).catch(() => {});
        await other.close();
      }
    });

    it('rejects a row naming a column the table does not have (a typo must not drop data silently)', async () => {
      await expect(h.insert('schema_migrations', [{ version: 999, name: 'x', no_such_column: 1 }])).rejects.toThrow();
      expect(await h.query('SELECT version FROM schema_migrations WHERE version = 999')).toEqual([]);
    });

    it('reports a SQL error as a rejected promise and keeps working', async () => {
      await expect(h.query('SELECT * FROM no_such_table')).rejects.toThrow();
      expect(await h.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });
  });
}
