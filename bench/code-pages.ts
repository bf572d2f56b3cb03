// What dropping the code pages (pipelines/runtime/code-pages.ts) costs the work that runs after it:
// one process, one chdb session (ChdbHistory, the service's pool arguments) with the backbone's
// tables, a round of chdb work (--batches inserts of --rows rows into raw_records, a count query, an
// OPTIMIZE ... FINAL merging them), --rounds rounds, every other one right after a drop. Per round: its
// wall time, the process's CPU (every thread's, chdb's included), its minor page faults and the file
// pages resident after it (RssFile). The first round (chdb's first insert, query and merge) is left out.
//
//   node --import tsx bench/code-pages.ts [--rounds 12] [--batches 10] [--rows 2000]
//
// Needs the addon (`make install`, or `node --import tsx bin/build-workers.ts`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import { migrate } from '../pipelines/readmodels/migrate.ts';
import { codePagesDroppable, dropCodePages } from '../pipelines/runtime/code-pages.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ rounds: 12, batches: 10, rows: 2000 });
const ROUNDS = cli.rounds;
const BATCHES = cli.batches;
const ROWS = cli.rows;

if (!codePagesDroppable()) throw new Error('the code-pages addon is not built (node --import tsx bin/build-workers.ts)');
const status = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))![1]);
const minflt = () => process.resourceUsage().minorPageFault;

const dir = mkdtempSync(path.join(tmpdir(), 'code-pages-'));
try {
  const h = await ChdbHistory.open(path.join(dir, 'chdb'), 'bench_code_pages');
  await migrate(h);
  let offset = 0;
  const round = async () => {
    const now = Date.now();
    for (let b = 0; b < BATCHES; b++) {
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        venue: `venue_${(i % 9) + 1}`, record_type: 'market', native_id: `M${offset + i}`, read_started_at: now, read_id: `listing:venue_${(i % 9) + 1}:${b}`,
        source_url: `http://127.0.0.1/venue_${(i % 9) + 1}/markets?page=${i >> 7}`, payload: JSON.stringify({ id: `M${offset + i}`, title: `Market ${offset + i}`, yes: i % 100 }),
        topic: `raw.venue_${(i % 9) + 1}`, partition: i % 3, offset: offset + i, logged_at: now,
      }));
      offset += ROWS;
      await h.insert('raw_records', rows);
    }
    await h.query('SELECT venue, count() AS n FROM raw_records GROUP BY venue ORDER BY venue');
    await h.exec('OPTIMIZE TABLE raw_records FINAL');
  };
  await round();
  const rows: { drop: boolean; ms: number; cpuMs: number; faults: number; fileMB: number; droppedMB: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const drop = r % 2 === 0;
    let droppedMB = 0;
    const c0 = process.cpuUsage();
    const f0 = minflt();
    const t0 = performance.now();
    if (drop) droppedMB = Math.round((dropCodePages() ?? 0) / 1024);
    await round();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    rows.push({ drop, ms: Math.round(ms), cpuMs: Math.round((c.user + c.system) / 1000), faults: minflt() - f0, fileMB: Math.round(status('RssFile') / 1024), droppedMB });
  }
  await h.close();
  for (const x of rows) console.log(JSON.stringify(x));
  const mean = (drop: boolean, k: 'ms' | 'cpuMs' | 'faults') => rows.filter((x) => x.drop === drop).reduce((s, x) => s + x[k], 0) / rows.filter((x) => x.drop === drop).length;
  console.log(
    `rounds with a drop before them / without: wall ${mean(true, 'ms').toFixed(0)} / ${mean(false, 'ms').toFixed(0)} ms (x${(mean(true, 'ms') / mean(false, 'ms')).toFixed(3)}), ` +
      `CPU ${mean(true, 'cpuMs').toFixed(0)} / ${mean(false, 'cpuMs').toFixed(0)} ms (+${(mean(true, 'cpuMs') - mean(false, 'cpuMs')).toFixed(0)} ms), minor faults ${mean(true, 'faults').toFixed(0)} / ${mean(false, 'faults').toFixed(0)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
