// The History contract on chdb (always) and on a ClickHouse server (where CLICKHOUSE_URL is set).
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { historyContract } from './history.contract.ts';
import { ChdbHistory } from './chdb-history.ts';
import { ClickhouseHistory } from './clickhouse-history.ts';
import { splitStatements } from './migrate.ts';
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
