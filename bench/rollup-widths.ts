// A candle roll-up by this tree's rollUpCandles against another tree's (--base-rollup, its
// readmodels/price-rollup.ts), alternating, on one chdb database migrated to this tree. Written for
// the three widths in one statement (f2a0bb6, migration 005, reverted: bench/history.md 2026-11-28);
// run it from the tree with the newer migrations, the other tree's roll-up against it. Each round
// inserts --rows new price_history rows of one read time (not timed), rolls them up (timed), then
// rolls up with nothing new (timed apart). CPU is process.cpuUsage() (this thread and chdb's pools)
// around each roll-up and the --settle-ms after it (chdb's merges of the parts just written); medians
// of --rounds rounds after 3 warm-up rounds. After the last round, each width's changes are summed
// (every row counted once per width, by whichever side rolled it up).
//
//   node --import tsx bench/rollup-widths.ts --base-rollup <git archive of the base>/pipelines/readmodels/price-rollup.ts [--rows 13000] [--rounds 15] [--settle-ms 300]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import { migrate } from '../pipelines/readmodels/migrate.ts';
import { rollUpCandles } from '../pipelines/readmodels/price-rollup.ts';
import { benchArgs } from './args.ts';

const o = benchArgs({ 'base-rollup': '', rows: 13_000, rounds: 15, 'settle-ms': 300 });
if (!o['base-rollup']) throw new Error('--base-rollup <DIR/pipelines/readmodels/price-rollup.ts> is required');
const base = (await import(pathToFileURL(path.resolve(o['base-rollup'])).href)) as { rollUpCandles: typeof rollUpCandles };

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-rollup-widths-'));
const h = await ChdbHistory.open(dir, 'bench');
await migrate(h);

let t = Date.now() - 3_600_000;
let inserted = 0;
async function insertRead(): Promise<void> {
  t += 10_000;
  const rows = Array.from({ length: o.rows }, (_, i) => {
    const bid = Math.round(Math.random() * 90) / 100;
    return { provider: `venue_${(i % 7) + 1}`, market_id: `m${Math.floor(i / 2) % 5000}`, outcome_id: i % 2 ? 'yes' : 'no', bid, ask: bid + 0.02, last: null, price: null, mid: bid + 0.01, bid_size: null, ask_size: null, venue_time: t - 500, observed_at: t };
  });
  await h.insert('price_history', rows);
  inserted += rows.length;
  await sleep(5);
}
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
async function timed(f: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await f();
  await sleep(o['settle-ms']);
  return cpuMs(process.cpuUsage(c0));
}
const sides = { base: { full: [] as number[], empty: [] as number[] }, change: { full: [] as number[], empty: [] as number[] } };
for (let round = 0; round < o.rounds + 3; round++) {
  const order = round % 2 ? (['change', 'base'] as const) : (['base', 'change'] as const);
  for (const side of order) {
    const roll = side === 'base' ? base.rollUpCandles : rollUpCandles;
    await insertRead();
    const full = await timed(() => roll(h));
    const empty = await timed(() => roll(h));
    if (round >= 3) {
      sides[side].full.push(full);
      sides[side].empty.push(empty);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sums = await h.query<{ w: string; n: number }>(
  `SELECT '1m' AS w, sum(changes) AS n FROM price_rollup_1m UNION ALL SELECT '1h', sum(changes) FROM price_rollup_1h UNION ALL SELECT '1d', sum(changes) FROM price_rollup_1d`,
);
console.log(`${new Date().toISOString()} load ${loadavg()[0]!.toFixed(1)}; ${o.rows} new rows a roll-up, ${o.rounds} rounds after 3 warm-up, the ${o['settle-ms']} ms after each counted`);
console.log(`each width's changes sum to the rows written (${inserted}): ${sums.map((r) => `${r.w} ${Number(r.n)}`).join(', ')}`);
console.log('\n| roll-up | base, CPU ms (median) | change | change / base |');
console.log('|---|---:|---:|---:|');
for (const k of ['full', 'empty'] as const) console.log(`| ${k === 'full' ? `${o.rows} new rows` : 'nothing new'} | ${median(sides.base[k]).toFixed(1)} | ${median(sides.change[k]).toFixed(1)} | ${(median(sides.change[k]) / median(sides.base[k])).toFixed(3)} |`);
await h.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
