import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { embeddedDiskUse, formatDiskUse } from './disk.ts';

describe('disk use of the embedded default', () => {
  it('sums each topic directory and each chdb table (found through its UUID), and formats them largest first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-disk-'));
    const topic = (name: string, bytes: number) => {
      mkdirSync(join(dir, 'log', 'topics', name, '0'), { recursive: true });
      writeFileSync(join(dir, 'log', 'topics', name, '0', '00000000000000000000.log'), Buffer.alloc(bytes));
    };
    topic('raw.venue_1', 3 * 1024 * 1024);
    topic('raw.venue_2', 1024);
    const db = `db_${randomUUID().slice(0, 8)}`;
    mkdirSync(join(dir, 'chdb', 'metadata', db), { recursive: true });
    const uuid = randomUUID();
    writeFileSync(join(dir, 'chdb', 'metadata', db, 'raw_records.sql'), `ATTACH TABLE _ UUID '${uuid}'\n(\n    \`venue\` String\n)`);
    mkdirSync(join(dir, 'chdb', 'store', uuid.slice(0, 3), uuid, 'all_1_1_0'), { recursive: true });
    writeFileSync(join(dir, 'chdb', 'store', uuid.slice(0, 3), uuid, 'all_1_1_0', 'data.bin'), Buffer.alloc(2 * 1024 * 1024));
    writeFileSync(join(dir, 'chdb', 'metadata', db, 'empty_table.sql'), `ATTACH TABLE _ UUID '${randomUUID()}'\n()`);

    const d = await embeddedDiskUse(dir, db);
    expect(Object.fromEntries(d.topics)).toEqual({ 'raw.venue_1': 3 * 1024 * 1024, 'raw.venue_2': 1024 });
    expect(Object.fromEntries(d.tables)).toEqual({ raw_records: 2 * 1024 * 1024, empty_table: 0 });
    expect(formatDiskUse(d)).toEqual([
      'disk: log 3.0 MB (raw.venue_1 3.0 MB, raw.venue_2 0.0 MB)',
      'disk: history 2.0 MB (raw_records 2.0 MB, empty_table 0.0 MB)',
    ]);
  });

  it('reports nothing for a data directory that does not exist', async () => {
    const d = await embeddedDiskUse(join(tmpdir(), `pm-missing-${randomUUID()}`), 'pm');
    expect(formatDiskUse(d)).toEqual(['disk: log 0.0 MB (none)', 'disk: history 0.0 MB (none)']);
  });
});
