// What reading quotes and fees off the listing records adds to canonicalization
// (bench/sports-prices.md, "Canonicalization"): the simulator's `hard` slate crawled once, then, in
// each of three rounds, canonicalize() over every record (which now includes source-quotes.ts) and
// sourceQuotesOf() alone over the same (record, market) pairs; and the canonical markets' JSON size
// with and without their quotes (what canonical.markets bodies and the change check carry).
//
//   npx tsx bench/source-quotes.ts
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { createClock } from '../pipelines/venues/simulator/core.ts';
import { crawlVenue, PROVIDER_LIST, readRosters, type CrawledRecord } from '../pipelines/matching/crawl.ts';
import { canonicalize, isListedApart, sourceQuotesOf, withListedEvent } from '../pipelines/matching/canonicalize.ts';
import type { Provider, CanonicalMarket } from '../pipelines/matching/types.ts';
const AT = Date.parse('2026-11-21T18:00:00Z');
const sim = await startSimulator({ port: 0, scenario: 'hard', clock: createClock(AT, { frozen: true }) });
const rosters = await readRosters(sim.baseUrl, AT);
const crawled: CrawledRecord[] = [];
for (const p of PROVIDER_LIST) crawled.push(...(await crawlVenue(sim.baseUrl, p, () => AT)));
await sim.close();
const events = new Map<string, unknown>();
for (const r of crawled) if (isListedApart(r.provider as Provider, r.recordType)) events.set(`${r.provider}|${r.nativeId}`, r.payload);
const inputs = crawled.filter((r) => !isListedApart(r.provider as Provider, r.recordType)).map((r) => ({ p: r.provider as Provider, rec: withListedEvent(r.provider as Provider, r.payload as Record<string, unknown>, (t) => events.get(`${r.provider}|${t}`)) }));
const pairs: { p: Provider; rec: unknown; m: CanonicalMarket }[] = [];
let withQ = 0;
for (const x of inputs) for (const m of canonicalize(x.p, x.rec, AT, rosters).markets) { pairs.push({ p: x.p, rec: x.rec, m }); if (m.quotes) withQ++; }
console.log('records', inputs.length, 'markets', pairs.length, 'with quotes', withQ);
const byVenue = new Map<string, number>();
for (const x of pairs) if (x.m.quotes) byVenue.set(x.p, (byVenue.get(x.p) ?? 0) + 1);
console.log([...byVenue]);
for (let k = 0; k < 3; k++) {
  let t0 = performance.now();
  for (const x of inputs) canonicalize(x.p, x.rec, AT, rosters);
  const all = performance.now() - t0;
  t0 = performance.now();
  for (const x of pairs) sourceQuotesOf(x.p, x.rec, x.m);
  const q = performance.now() - t0;
  let bytes = 0;
  let bytesNo = 0;
  for (const x of pairs) {
    bytes += JSON.stringify(x.m).length;
    const { quotes: _q, ...rest } = x.m;
    void _q;
    bytesNo += JSON.stringify(rest).length;
  }
  console.log(`canonicalize every record ${all.toFixed(0)} ms; sourceQuotesOf alone over the same markets ${q.toFixed(0)} ms (${((100 * q) / all).toFixed(1)}%); market JSON bytes ${bytes} vs ${bytesNo} without quotes`);
}
