// What gathering the price-history sink's rows into one insert would save chdb: the quote changes of
// one read written as the sink writes them (one insert per raw topic with changes: --split inserts
// into price_history, each with price_latest's view, and 2 into price_aliases) against one insert per
// table (the gathering tried in 0098acc and reverted, bench/history.md 2026-11-27), alternating, on
// one chdb database in this process.
// CPU is process.cpuUsage() (this thread and chdb's pools) over the inserts and the --settle-ms
// after them (chdb's merges of the parts just written), per round; medians and the per-record figure
// for the pipeline bench's timed part (--records).
//
//   node --import tsx bench/price-inserts.ts [--rows 13000] [--split 7] [--rounds 15] [--settle-ms 500] [--records 24169]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import { migrate } from '../pipelines/readmodels/migrate.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '13000' },
    split: { type: 'string', default: '7' },
    rounds: { type: 'string', default: '15' },
    'settle-ms': { type: 'string', default: '500' },
    records: { type: 'string', default: '24169' },
  },
});
const N = Number(values.rows);
const split = Number(values.split);
const settleMs = Number(values['settle-ms']);

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-price-inserts-'));
const h = await ChdbHistory.open(dir, 'bench');
await migrate(h);

let t = Date.UTC(2026, 10, 1);
/** One read's changes: N rows over 1,000 markets of `split` providers, two outcomes each. */
function read(): { rows: Record<string, unknown>[]; aliases: Record<string, unknown>[] } {
  t += 10_000;
  const rows = Array.from({ length: N }, (_, i) => {
    const bid = Math.round(Math.random() * 90) / 100;
    return {
      provider: `venue_${(i % split) + 1}`,
      market_id: `m${Math.floor(i / 2) % 5000}`,
      outcome_id: i % 2 ? 'yes' : 'no',
      bid,
      ask: bid + 0.02,
      last: null,
      price: null,
      mid: bid + 0.01,
      bid_size: null,
      ask_size: null,
      venue_time: t - 500,
      observed_at: t,
    };
  });
  const aliases = Array.from({ length: 200 }, (_, i) => ({ provider: i % 2 ? 'venue_2' : 'venue_8', alias: `a${i}`, market_id: `m${i}`, observed_at: t }));
  return { rows, aliases };
}

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
async function round(gathered: boolean): Promise<number> {
  const { rows, aliases } = read();
  const c0 = process.cpuUsage();
  if (gathered) {
    await h.insert('price_history', rows);
    await h.insert('price_aliases', aliases);
  } else {
    for (let k = 0; k < split; k++) await h.insert('price_history', rows.filter((r) => r.provider === `venue_${k + 1}`));
    await h.insert('price_aliases', aliases.filter((a) => a.provider === 'venue_2'));
    await h.insert('price_aliases', aliases.filter((a) => a.provider === 'venue_8'));
  }
  await new Promise((r) => setTimeout(r, settleMs));
  return cpuMs(process.cpuUsage(c0));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${new Date().toISOString()} load ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${N} rows a read, ${split} inserts a read before`);
for (let w = 0; w < 3; w++) {
  await round(false);
  await round(true);
}
const before: number[] = [];
const after: number[] = [];
for (let i = 0; i < Number(values.rounds); i++) {
  if (i % 2) {
    after.push(await round(true));
    before.push(await round(false));
  } else {
    before.push(await round(false));
    after.push(await round(true));
  }
}
const b = median(before);
const a = median(after);
console.log(`per insert round incl. ${settleMs} ms after (ms of CPU, median of ${before.length}): ${split}+2 inserts ${b.toFixed(1)} (${Math.min(...before).toFixed(1)}-${Math.max(...before).toFixed(1)}); 1+1 ${a.toFixed(1)} (${Math.min(...after).toFixed(1)}-${Math.max(...after).toFixed(1)}); saved ${(b - a).toFixed(1)} ms, ${(((b - a) * 1000) / Number(values.records)).toFixed(2)} µs a record of the pipeline bench's ${values.records} timed records`);
console.log(`${new Date().toISOString()} load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
await h.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
