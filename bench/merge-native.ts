// What one of chdb's background merges costs the process's RSS, without the rest of the service: one
// process, one chdb session (ChdbHistory, the service's pool arguments), the backbone's tables. It stages
// --parts parts of raw_records (--batch rows each, payloads of about --payload bytes of random text, merges
// held off), then merges them (OPTIMIZE TABLE ... FINAL) and reports the RSS before, its peak during the
// merge (VmHWM, reset through /proc/self/clear_refs), and after. In a scale-1 soak the process's high-water
// was set while chdb's merge threads ran after a listing crawl's inserts (bench/soak.md, runs 95-98).
//
//   MALLOC_ARENA_MAX=2 GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 \
//     node --expose-gc --import tsx bench/merge-native.ts [--parts 20] [--batch 3000] [--payload 1500]
//                                   [--block default|1024] [--args '...']  (more chdb connection arguments)
//
// --block: the table's merge_max_block_size (`default` leaves ClickHouse's own, 8192 rows; the service sets
// none). A/B: alternate the values in fresh processes (the peak is per process).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChdbHistory, CHDB_POOL_ARGS } from '../pipelines/readmodels/chdb-history.ts';
import { migrate } from '../pipelines/readmodels/migrate.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ parts: 20, batch: 3000, payload: 1500, block: 'default', args: '' });
const PARTS = cli.parts;
const BATCH = cli.batch;
const PAYLOAD = cli.payload;
const BLOCK = cli.block;
CHDB_POOL_ARGS.push(...cli.args.split(/\s+/).filter((a) => a.length > 0));

const mb = (key: string) => Math.round(Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024);
const text = (n: number) => Array.from({ length: Math.ceil(n / 11) }, () => Math.random().toString(36).slice(2, 13)).join('');

const dir = mkdtempSync(path.join(tmpdir(), 'merge-native-'));
try {
  const h = await ChdbHistory.open(path.join(dir, 'chdb'), 'bench_merge_native');
  await migrate(h);
  if (BLOCK !== 'default') await h.exec(`ALTER TABLE raw_records MODIFY SETTING merge_max_block_size = ${Number(BLOCK)}`);
  await h.exec('SYSTEM STOP MERGES raw_records');
  const now = Date.now();
  for (let p = 0; p < PARTS; p++) {
    const rows = Array.from({ length: BATCH }, (_, i) => ({
      venue: `venue_${(i % 9) + 1}`, record_type: 'market', native_id: `M${p}-${i}`, read_started_at: now, read_id: `listing:venue_${(i % 9) + 1}:${p}`,
      source_url: `http://127.0.0.1/venue_${(i % 9) + 1}/markets?page=${i >> 7}`, payload: JSON.stringify({ id: `M${p}-${i}`, text: text(PAYLOAD) }),
      topic: `raw.venue_${(i % 9) + 1}`, partition: i % 3, offset: p * BATCH + i, logged_at: now,
    }));
    await h.insert('raw_records', rows);
  }
  (globalThis as { gc?: () => void }).gc?.();
  const [staged] = await h.query<{ parts: number; bytes: number }>(
    `SELECT count() AS parts, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = currentDatabase() AND table = 'raw_records' AND active`,
  );
  await new Promise((r) => setTimeout(r, 1000));
  const before = mb('VmRSS');
  writeFileSync('/proc/self/clear_refs', '5');
  const t = performance.now();
  await h.exec('SYSTEM START MERGES raw_records');
  await h.exec('OPTIMIZE TABLE raw_records FINAL');
  const ms = Math.round(performance.now() - t);
  const peak = mb('VmHWM');
  const after = mb('VmRSS');
  const [merged] = await h.query<{ parts: number; rows: number }>(
    `SELECT count() AS parts, sum(rows) AS rows FROM system.parts WHERE database = currentDatabase() AND table = 'raw_records' AND active`,
  );
  const [block] = await h.query<{ create_table_query: string }>(`SELECT create_table_query FROM system.tables WHERE database = currentDatabase() AND name = 'raw_records'`);
  await h.close();
  console.log(JSON.stringify({
    block: /merge_max_block_size = (\d+)/.exec(block!.create_table_query)?.[1] ?? 'default (8192)', parts: PARTS, batch: BATCH, payload: PAYLOAD,
    stagedMB: Math.round(Number(staged!.bytes) / 2 ** 20), mergedParts: Number(merged!.parts), rows: Number(merged!.rows), beforeMB: before, peakMB: peak, afterMB: after, riseMB: peak - before, ms,
  }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
