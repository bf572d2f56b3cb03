// What price_latest written by the candles' roll-up (migrations/005_price_latest_rollup.sql) saves
// chdb against price_latest's materialized view: one read's quote changes written as the sink writes
// them (--split inserts into price_history) and the roll-up after it, on two databases of one chdb
// session in this process, alternating: `view` as before 005 (the view fills price_latest on every
// insert; the roll-up of --view-rollup, the tree before the change, writes the candles only), `rollup`
// as now (no view; this tree's roll-up writes the candles and price_latest).
// CPU is process.cpuUsage() (this thread and chdb's pools) over the inserts, the roll-up and the
// --settle-ms after them (chdb's merges of the parts just written), per round; medians and the
// per-record figure for the pipeline bench's timed part (--records).
//
//   node --import tsx bench/price-latest.ts --view-rollup <tree before 005>/pipelines/readmodels/price-rollup.ts [--rows 13000] [--split 7] [--rounds 15] [--settle-ms 500] [--records 24290]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import type { History } from '../pipelines/readmodels/history.ts';
import { migrate } from '../pipelines/readmodels/migrate.ts';
import { rollUpCandles } from '../pipelines/readmodels/price-rollup.ts';

const { values } = parseArgs({
  options: {
    'view-rollup': { type: 'string' },
    rows: { type: 'string', default: '13000' },
    split: { type: 'string', default: '7' },
    rounds: { type: 'string', default: '15' },
    'settle-ms': { type: 'string', default: '500' },
    records: { type: 'string', default: '24290' },
  },
});
if (!values['view-rollup']) throw new Error('--view-rollup: the price-rollup.ts of a tree before 005_price_latest_rollup.sql');
const viewRollUp = ((await import(path.resolve(values['view-rollup']))) as { rollUpCandles: (h: History) => Promise<unknown> }).rollUpCandles;
const N = Number(values.rows);
const split = Number(values.split);
const settleMs = Number(values['settle-ms']);

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-price-latest-'));
const rollup = await ChdbHistory.open(dir, 'rollup');
await migrate(rollup);
const view = await ChdbHistory.open(dir, 'viewed');
await migrate(view);
// As before 005: the view of 002_price_history.sql.
await view.exec(`CREATE MATERIALIZED VIEW IF NOT EXISTS price_latest_mv TO price_latest AS
  SELECT provider, market_id, outcome_id, bid, ask, last, price, bid_size, ask_size, observed_at FROM price_history`);

/**
 * One read's changes: N rows over 5,000 markets of `split` providers, two outcomes each. Each side
 * gets the same sequence of reads (its own clock and seeded generator), so both end with the same
 * price_latest.
 */
const sides = { view: { t: Date.UTC(2026, 10, 1), seed: 1 }, rollup: { t: Date.UTC(2026, 10, 1), seed: 1 } };
function read(side: { t: number; seed: number }): Record<string, unknown>[] {
  const t = (side.t += 10_000);
  return Array.from({ length: N }, (_, i) => {
    side.seed = (side.seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const bid = (side.seed % 91) / 100;
    return {
      provider: `venue_${(i % split) + 1}`, market_id: `m${Math.floor(i / 2) % 5000}`, outcome_id: i % 2 ? 'yes' : 'no',
      bid, ask: bid + 0.02, last: null, price: null, mid: bid + 0.01, bid_size: null, ask_size: null, venue_time: t - 500, observed_at: t,
    };
  });
}

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
async function round(viewed: boolean): Promise<number> {
  const rows = read(viewed ? sides.view : sides.rollup);
  const h = viewed ? view : rollup;
  const c0 = process.cpuUsage();
  for (let k = 0; k < split; k++) await h.insert('price_history', rows.filter((r) => r.provider === `venue_${k + 1}`));
  await (viewed ? viewRollUp(h) : rollUpCandles(h));
  await new Promise((r) => setTimeout(r, settleMs));
  return cpuMs(process.cpuUsage(c0));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${new Date().toISOString()} load ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${N} rows a read in ${split} inserts, then a roll-up`);
for (let w = 0; w < 3; w++) {
  await round(true);
  await round(false);
}
const before: number[] = [];
const after: number[] = [];
for (let i = 0; i < Number(values.rounds); i++) {
  if (i % 2) {
    after.push(await round(false));
    before.push(await round(true));
  } else {
    before.push(await round(true));
    after.push(await round(false));
  }
}
// Both ways hold the same newest quotes.
const latest = async (h: History) => h.query(`SELECT provider, market_id, outcome_id, bid, toUnixTimestamp64Milli(observed_at) AS t FROM price_latest FINAL ORDER BY provider, market_id, outcome_id`);
const same = JSON.stringify(await latest(view)) === JSON.stringify(await latest(rollup));
const b = median(before);
const a = median(after);
console.log(`per round incl. ${settleMs} ms after (ms of CPU, median of ${before.length}): view ${b.toFixed(1)} (${Math.min(...before).toFixed(1)}-${Math.max(...before).toFixed(1)}); roll-up ${a.toFixed(1)} (${Math.min(...after).toFixed(1)}-${Math.max(...after).toFixed(1)}); saved ${(b - a).toFixed(1)} ms, ${(((b - a) * 1000) / Number(values.records)).toFixed(2)} µs a record of the pipeline bench's ${values.records} timed records; price_latest the same both ways: ${same}`);
console.log(`${new Date().toISOString()} load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
await view.close();
await rollup.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
