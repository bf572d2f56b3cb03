// Price-history benchmark on the embedded default (chdb). In one run:
//  1. candles: p50/p95 of one page of GET /v1/markets/{id}/history's read (candleRows + groupCandles,
//     the route's whole History work) for one market with 30 days of quote changes (a change every
//     30 s, two outcomes), at 1m, 1h and 1d, and the same read for one market among 10,000 markets
//     with 30 days of hourly changes each, against a baseline in the same run: `SELECT 1` through the
//     same History (the fixed cost of a chdb call);
//  2. sink throughput: records/s and CPU per record of sink.price-history against sink.raw-history,
//     each consuming the same raw listing records (venue_3 market records, a quote moving on one poll
//     of four) from the embedded log through the history worker, as the service runs them;
//     (the price sink's figure includes the candles' roll-up of its rows, run once it caught up: the
//     work the processors' timer does off the insert path);
//  3. storage: bytes on disk per stored quote change (price_history, and with price_latest and the
//     three candle tables), after OPTIMIZE FINAL.
// Order: 2, 3, then 1 (storage is measured on the sink's own rows).
// Usage: npx tsx bench/history.ts [--queries 200] [--records 100000] [--markets 10000]
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { embeddedBackbone, produceRaw, randomPrefix } from '../pipelines/runtime/testkit.ts';
import { priceHistorySink, rawHistorySink } from '../pipelines/runtime/sinks.ts';
import { startStage } from '../pipelines/runtime/runner.ts';
import { candleRows } from '../pipelines/readmodels/price-queries.ts';
import { rollUpCandles, ROLLUP_TABLES } from '../pipelines/readmodels/price-rollup.ts';
import { groupCandles, type CandleInterval } from '../pipelines/readmodels/price-history.ts';
import type { RawRecord } from '../pipelines/topics.ts';
import type { History } from '../pipelines/readmodels/history.ts';

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '200' },
    records: { type: 'string', default: '100000' },
    markets: { type: 'string', default: '10000' },
  },
});
const QUERIES = Number(values.queries);
const RECORDS = Number(values.records);
const MARKETS = Number(values.markets);

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-history-'));
const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: avroSerde(registry), partitions: 1, historyWorker: { registry } });
const h: History = b.history;
const END = Math.floor(Date.parse('2026-11-25T00:00:00Z') / 1000);
const START = END - 30 * 86_400;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, c) => a - c);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (ms: number) => ms.toFixed(2);

async function timed(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 5; i++) await fn(); // warm up (first reads load marks and parts)
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

// ---- 2. sink throughput, each sink over the same records from the log, one after the other
// venue_3 market records as the listing gives them: 1,000 markets polled in turn, a quote moving on
// one poll of four (the sink writes that one), read_started_at 10 s apart per crawl.
const listing = (i: number): RawRecord => {
  const m = i % 1000;
  const poll = Math.floor(i / 1000);
  const moved = Math.floor(poll / 4);
  // A deterministic scramble of (market, move): quotes as irregular as a real book's, so the bytes
  // per stored change are not flattered by a repeating pattern.
  const r = (Math.imul(m * 7919 + moved * 104_729 + 1, 2_654_435_761) >>> 0) / 2 ** 32;
  const bid = Math.round((0.05 + r * 0.85) * 100) / 100;
  return {
    venue: 'venue_3', record_type: 'market', native_id: String(2_000_000 + m), read_started_at: (END + poll * 10) * 1000, read_id: null, source_url: null,
    payload: JSON.stringify({ id: 2_000_000 + m, title: `Market ${m}`, category: 'Sports', type: 'moneyline', status: 'open', starts_at: '2026-11-30T00:30:00Z',
      outcomes: [{ token: `${m}1`, name: 'Los Angeles Lakers', best_bid: bid, best_ask: bid + 0.02, last_price: 0.45 }, { token: `${m}2`, name: 'Boston Celtics', best_bid: 0.98 - bid - 0.02, best_ask: 0.98 - bid, last_price: 0.55 }],
      quote_rules: { max_spread: 0.1 }, volume_usd: 15230.5, liquidity_usd: 12500, fees: { schedule: 'account' }, rules: 'Winners are determined by the final score including overtime.', updated_at: '2026-11-21T21:00:00Z' }),
  };
};
const producer = await b.log.producer();
for (let i = 0; i < RECORDS; i += 5000) await produceRaw(b, producer, Array.from({ length: Math.min(5000, RECORDS - i) }, (_, k) => listing(i + k)));
await producer.close();
console.log(`\n${RECORDS} venue_3 listing records (1,000 markets, a quote moving on one poll of four) in raw.venue_3`);
console.log('\n| sink | records/s | CPU us per record (all threads) | rows written |');
console.log('|---|---:|---:|---:|');
const sinkRun = async (def: typeof rawHistorySink, after?: () => Promise<unknown>) => {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = await startStage(def, b);
  await r.caughtUp(600_000);
  await after?.();
  const s = (performance.now() - t) / 1000;
  const c = process.cpuUsage(cpu);
  await r.stop();
  return { rps: RECORDS / s, cpu: (c.user + c.system) / RECORDS };
};
const raw = await sinkRun(rawHistorySink);
const rawRows = (await h.query<{ n: number }>('SELECT count() AS n FROM raw_records'))[0].n;
console.log(`| sink.raw-history (baseline) | ${raw.rps.toFixed(0)} | ${raw.cpu.toFixed(1)} | ${rawRows} |`);
const price = await sinkRun(priceHistorySink, () => rollUpCandles(h));
const priceRows = (await h.query<{ n: number }>('SELECT count() AS n FROM price_history'))[0].n;
console.log(`| sink.price-history | ${price.rps.toFixed(0)} | ${price.cpu.toFixed(1)} | ${priceRows} |`);
console.log(`\nprice / raw: throughput ${(price.rps / raw.rps).toFixed(2)}, CPU per record ${(price.cpu / raw.cpu).toFixed(2)}`);


// ---- 3. storage, of the rows the sink wrote (the generated rows below are too regular to say it)
await h.exec('OPTIMIZE TABLE price_history FINAL');
for (const t of ['price_latest', ...Object.values(ROLLUP_TABLES)]) await h.exec(`OPTIMIZE TABLE ${t} FINAL`);
const parts = await h.query<{ table: string; bytes: number; raw: number; rows: number }>(
  `SELECT table, sum(bytes_on_disk) AS bytes, sum(data_uncompressed_bytes) AS raw, sum(rows) AS rows FROM system.parts WHERE database = currentDatabase() AND active AND startsWith(table, 'price_') GROUP BY table ORDER BY table`,
);
const [{ rows: sinkRows }] = await h.query<{ rows: number }>('SELECT count() AS rows FROM price_history');
console.log(`\n${sinkRows} quote changes stored by the sink run, after OPTIMIZE FINAL:`);
console.log('\n| table | rows | bytes on disk | uncompressed bytes | bytes on disk per stored quote change |');
console.log('|---|---:|---:|---:|---:|');
let all = 0;
for (const p of parts) {
  all += p.bytes;
  console.log(`| ${p.table} | ${p.rows} | ${p.bytes} | ${p.raw} | ${(p.bytes / sinkRows).toFixed(1)} |`);
}
console.log(`| all price tables | | ${all} | | ${(all / sinkRows).toFixed(1)} |`);


// ---- 1. candles (the sink's rows are market ids 2000000.., apart from these)
// Rows are generated in SQL (INSERT ... SELECT FROM numbers()), then rolled up into the candle tables
// as the processors' timer rolls up the sink's inserts. One market: a change every 30 s for 30 days, two outcomes.
const t0 = performance.now();
const oneMonth = 30 * 2880;
await h.exec(
  `INSERT INTO price_history (provider, market_id, outcome_id, bid, ask, last, price, mid, bid_size, ask_size, venue_time, observed_at)
   SELECT 'venue_3', 'ONE', if(number % 2 = 0, 'a', 'b'), 0.40 + (intDiv(number, 2) % 17) / 100, 0.45 + (intDiv(number, 2) % 13) / 100, NULL,
          NULL, round((0.85 + (intDiv(number, 2) % 17) / 100 + (intDiv(number, 2) % 13) / 100) / 2, 6), 100, 120, NULL,
          toDateTime64(${START} + intDiv(number, 2) * 30, 3, 'UTC')
   FROM numbers(${oneMonth * 2})`,
);
// Many markets: 10,000 markets, one outcome, a change every hour for 30 days.
await h.exec(
  `INSERT INTO price_history (provider, market_id, outcome_id, bid, ask, last, price, mid, bid_size, ask_size, venue_time, observed_at)
   SELECT 'venue_3', toString(1000000 + number % ${MARKETS}), 'a', 0.40 + (number % 17) / 100, 0.5, NULL, NULL, round((0.9 + (number % 17) / 100) / 2, 6), NULL, NULL, NULL,
          toDateTime64(${START} + intDiv(number, ${MARKETS}) * 3600 + number % 3600, 3, 'UTC')
   FROM numbers(${MARKETS * 720})`,
);
const [{ rows }] = await h.query<{ rows: number }>('SELECT count() AS rows FROM price_history');
console.log(`loaded ${rows} quote changes in ${((performance.now() - t0) / 1000).toFixed(1)} s (one market: ${oneMonth * 2}; ${MARKETS} markets: ${MARKETS * 720})`);
const t1 = performance.now();
const rolled = await rollUpCandles(h);
console.log(`rolled up ${rolled.rows} quote changes into the candles in ${((performance.now() - t1) / 1000).toFixed(1)} s`);

// Merged as a running service's tables are between inserts: a bulk load leaves hundreds of parts
// that background merges would otherwise be folding during the measurement.
for (const t of Object.values(ROLLUP_TABLES)) await h.exec(`OPTIMIZE TABLE ${t} FINAL`);
const base = await timed(QUERIES, () => h.query('SELECT 1'));
console.log(`\nbaseline SELECT 1 through the History: p50 ${fmt(pct(base, 50))} ms, p95 ${fmt(pct(base, 95))} ms (n=${QUERIES})`);
console.log('\n| market | interval | range | buckets returned | p50 ms | p95 ms | p95 / baseline p95 |');
console.log('|---|---|---|---:|---:|---:|---:|');
const page = async (marketId: string, interval: CandleInterval) =>
  groupCandles(await candleRows(h, { provider: 'venue_3', marketId, interval, from: START, to: END, buckets: 101 }), interval);
for (const [label, id] of [
  ['one market, 30 days, 172,800 changes', 'ONE'],
  [`one of ${MARKETS.toLocaleString('en-US')} markets, 30 days hourly`, String(1_000_000 + Math.floor(MARKETS / 2))],
] as const) {
  for (const interval of ['1m', '1h', '1d'] as CandleInterval[]) {
    const n = (await page(id, interval)).length;
    const xs = await timed(QUERIES, () => page(id, interval));
    console.log(`| ${label} | ${interval} | 30 days | ${Math.min(n, 100)} (+1 for has_more) | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} | ${(pct(xs, 95) / pct(base, 95)).toFixed(1)} |`);
  }
}
// A page in the middle of the month, as a cursor walk reads it (end 15 days back).
{
  const xs = await timed(QUERIES, async () => groupCandles(await candleRows(h, { provider: 'venue_3', marketId: 'ONE', interval: '1m', from: START, to: END - 15 * 86_400, buckets: 101 }), '1m'));
  console.log(`| one market, 30 days | 1m | a cursor page 15 days back | 100 | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} | ${(pct(xs, 95) / pct(base, 95)).toFixed(1)} |`);
}

// The same market right after changes the roll-up has not reached: 240 more in its newest hour (both
// outcomes, between the ones there), so the route recomputes the newest minutes, hour and day from
// price_history and merges them over the rolled-up candles (price-queries.ts candleRows).
await h.exec(
  `INSERT INTO price_history (provider, market_id, outcome_id, bid, ask, last, price, mid, bid_size, ask_size, venue_time, observed_at)
   SELECT 'venue_3', 'ONE', if(number % 2 = 0, 'a', 'b'), 0.41, 0.47, NULL, NULL, 0.44, 100, 120, NULL, toDateTime64(${END - 3600 + 15} + intDiv(number, 2) * 30, 3, 'UTC')
   FROM numbers(240)`,
);
for (const interval of ['1m', '1h', '1d'] as CandleInterval[]) {
  const xs = await timed(QUERIES, () => page('ONE', interval));
  console.log(`| one market, 30 days, its newest hour not rolled up (240 changes) | ${interval} | 30 days | | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} | ${(pct(xs, 95) / pct(base, 95)).toFixed(1)} |`);
}

// A roll-up as the processors' timer runs it over this month of changes: 3,000 changes of 3,000 of
// the markets (a simulator read's worth, bench/price-pipeline.ts) plus the 240 above, then one
// roll-up; CPU of the whole process (chdb's threads included).
await h.exec(
  `INSERT INTO price_history (provider, market_id, outcome_id, bid, ask, last, price, mid, bid_size, ask_size, venue_time, observed_at)
   SELECT 'venue_3', toString(1000000 + number * 3 % ${MARKETS}), 'a', 0.42, 0.5, NULL, NULL, 0.46, NULL, NULL, NULL, toDateTime64(${END - 30} + number % 30, 3, 'UTC')
   FROM numbers(3000)`,
);
{
  const c = process.cpuUsage();
  const t = performance.now();
  const r = await rollUpCandles(h);
  const cpu = process.cpuUsage(c);
  console.log(`
roll-up of ${r.rows} new changes over the ${rows.toLocaleString('en-US')} stored: ${(performance.now() - t).toFixed(1)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms (${((cpu.user + cpu.system) / r.rows).toFixed(1)} µs a change)`);
}

await b.close();
