// The History contract on chdb (always) and on a ClickHouse server (where CLICKHOUSE_URL is set).
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { historyContract } from './history.contract.ts';
import { ChdbHistory } from './chdb-history.ts';
import { ClickhouseHistory } from './clickhouse-history.ts';
import { randomBytes } from 'node:crypto';
import { applyHistoryTtl, migrate, splitStatements } from './migrate.ts';
import { clickhouseUrlForTests } from '../runtime/test-services.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-chdb-'));
historyContract('chdb', (database) => ChdbHistory.open(dir, database));

const url = await clickhouseUrlForTests();
if (url) historyContract('clickhouse server', (database) => ClickhouseHistory.open(url, database));
else describe.skip('History contract: clickhouse server (CLICKHOUSE_URL not set)', () => it('skipped', () => {}));

describe('splitStatements', () => {
  it('splits at a semicolon ending a line and drops comment-only chunks', () => {
    expect(splitStatements('-- head\nCREATE TABLE a (x UInt8) ENGINE = Memory;\n\n-- only a comment;\nSELECT \'a;b\';\n')).toEqual([
      "-- head\nCREATE TABLE a (x UInt8) ENGINE = Memory",
      "SELECT 'a;b'",
    ]);
  });
});

describe('history TTL (HISTORY_TTL_DAYS) on chdb', () => {
  const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().replace('T', ' ').replace('Z', '');
  it('drops rows of raw_records and matched_events older than the TTL and keeps the newer ones', async () => {
    const h = await ChdbHistory.open(dir, `ttl_${randomBytes(4).toString('hex')}`);
    try {
      await migrate(h);
      await applyHistoryTtl(h, 2);
      const raw = (id: string, msAgo: number) => ({ venue: 'venue_1', record_type: 'market', native_id: id, read_started_at: at(msAgo), read_id: null, source_url: null, payload: '{}', topic: 'raw.venue_1', partition: 0, offset: 0, logged_at: at(0) });
      await h.insert('raw_records', [raw('old', 3 * 86_400_000), raw('new', 60_000)]);
      const ev = (id: string, msAgo: number) => ({ event_id: id, league: 'nba', sport: 'basketball', title: id, scheduled_date: at(msAgo).slice(0, 10), scheduled_start: null, participant_keys: [], population: 'p', submarket_count: 0, observed_at: at(msAgo), body: '{}', topic: 't', partition: 0, offset: 0 });
      await h.insert('matched_events', [ev('old', 3 * 86_400_000), ev('new', 60_000)]);
      for (const t of ['raw_records', 'matched_events']) await h.exec(`OPTIMIZE TABLE ${t} FINAL`);
      expect(await h.query('SELECT native_id FROM raw_records ORDER BY native_id')).toEqual([{ native_id: 'new' }]);
      expect(await h.query('SELECT event_id FROM matched_events ORDER BY event_id')).toEqual([{ event_id: 'new' }]);
      // Set again at the next start: the same statement, no error.
      await applyHistoryTtl(h, 2);
      await expect(applyHistoryTtl(h, 0)).rejects.toThrow(/HISTORY_TTL_DAYS must be a whole number of days >= 1, got 0/);
    } finally {
      await h.close();
    }
  });
});
