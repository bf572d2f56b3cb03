// One contract for every History: chdb (embedded default) and a ClickHouse server (CLICKHOUSE_URL).
// The same migrations and SQL must give the same rows on both. Each test gets its own database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { History } from './history.ts';
import { loadMigrations, migrate, truncateTables } from './migrate.ts';

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
