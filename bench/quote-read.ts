// What the price-history sink's reading of quotes costs, venue by venue, on the pipeline bench's
// records (bench/price-pipeline.ts: one simulated world, seed 1, --scale, read 1 + --crawls times
// --step-ms apart, what the change-only pollers publish of each read; the first read whole).
//
// First the records' shares: by venue and record type, how many records (in the first read and in
// the timed reads after it), how many show at least one quote, and how many quotes. Then, warm, in
// this thread, per venue: CPU µs a record for `JSON.parse` of the payload, for the venue's reader
// (quotesOfPayload, its adapter's listingQuotes) on the parsed payload, and for the whole of
// quotesOfRecord (the sink's call: parse, reader, and whatever it skips before them), medians of
// --rounds rounds over the timed reads' records.
//
// --against DIR: quotesOfRecord of another checkout (DIR/pipelines/readmodels/price-history.ts)
// timed against this one's, alternating round by round in this process (an in-process A/B of a
// change to the reading), after checking that both give the same quotes and aliases for every record.
//
//   node --import tsx bench/quote-read.ts [--rounds 15] [--scale 1] [--crawls 6] [--step-ms 10000] [--against DIR]
import { isDeepStrictEqual } from 'node:util';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Provider } from '../lib/vocabulary.ts';
import type { RawRecord } from '../pipelines/topics.ts';
import { quotesOfPayload, quotesOfRecord } from '../pipelines/readmodels/price-history.ts';
import { benchArgs } from './args.ts';
import { successiveListings } from './listed-records.ts';
import { changeOnly } from './service-pipeline.ts';

const o = benchArgs({ rounds: 15, scale: 1, crawls: 6, 'step-ms': 10_000, against: '' });
const reads = changeOnly(await successiveListings({ seed: 1, scale: o.scale, reads: 1 + o.crawls, stepMs: o['step-ms'] }));
const timed = reads.slice(1).flat();
const AT = 1_700_000_000_000;

// The shares.
interface Share {
  first: number;
  firstQuoting: number;
  timed: number;
  timedQuoting: number;
  timedQuotes: number;
}
const shares = new Map<string, Share>();
const shareOf = (r: RawRecord) => {
  const k = `${r.venue}\u0000${r.record_type}`;
  let s = shares.get(k);
  if (!s) shares.set(k, (s = { first: 0, firstQuoting: 0, timed: 0, timedQuoting: 0, timedQuotes: 0 }));
  return s;
};
for (const r of reads[0]!) {
  const s = shareOf(r);
  s.first++;
  if (quotesOfRecord(r, AT).quotes.length) s.firstQuoting++;
}
for (const r of timed) {
  const s = shareOf(r);
  s.timed++;
  const n = quotesOfRecord(r, AT).quotes.length;
  if (n) s.timedQuoting++;
  s.timedQuotes += n;
}
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
console.log(`records: the first read ${reads[0]!.length}, then ${reads.slice(1).map((r) => r.length).join(', ')} (${timed.length} timed); load ${loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}`);
console.log('\n| venue | record type | first read | with a quote | timed | of the timed | timed with a quote | timed quotes |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
const tot = { first: 0, firstQuoting: 0, timed: 0, timedQuoting: 0, timedQuotes: 0 };
for (const [k, s] of [...shares].sort(([a], [b]) => a.localeCompare(b))) {
  const [venue, type] = k.split('\u0000');
  console.log(`| ${venue} | ${type} | ${s.first} | ${s.firstQuoting} | ${s.timed} | ${pct(s.timed, timed.length)} | ${s.timedQuoting} | ${s.timedQuotes} |`);
  for (const f of ['first', 'firstQuoting', 'timed', 'timedQuoting', 'timedQuotes'] as const) tot[f] += s[f];
}
console.log(`| all | | ${tot.first} | ${tot.firstQuoting} (${pct(tot.firstQuoting, tot.first)}) | ${tot.timed} | 100% | ${tot.timedQuoting} (${pct(tot.timedQuoting, tot.timed)}) | ${tot.timedQuotes} |`);

// The timings.
const byVenue = new Map<string, RawRecord[]>();
for (const r of timed) byVenue.set(r.venue, [...(byVenue.get(r.venue) ?? []), r]);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let sink = 0;
/**
 * µs a record of `f` over `rs`, the records read over again until there are 20,000 reads at least
 * (a few venues have few records: a timing of a millisecond or less is all noise on a shared machine).
 */
function time<T>(rs: readonly T[], f: (r: T) => number): number {
  const reps = Math.max(1, Math.ceil(20_000 / rs.length));
  // CPU time, not wall time: on a shared machine the wall clock also counts the other processes' turns.
  const c0 = process.cpuUsage();
  for (let k = 0; k < reps; k++) for (const r of rs) sink += f(r);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / rs.length / reps;
}
const parsedOf = new Map<RawRecord, Record<string, unknown>>(timed.map((r) => [r, JSON.parse(r.payload) as Record<string, unknown>]));
const readerOf = (r: RawRecord) => {
  const q = quotesOfPayload(r.venue as Provider, r.record_type, parsedOf.get(r)!, AT);
  return q.quotes.length + q.aliases.length;
};
const whole = (r: RawRecord) => {
  const q = quotesOfRecord(r, AT);
  return q.quotes.length + q.aliases.length;
};
const times = new Map<string, { parse: number[]; reader: number[]; whole: number[] }>();
for (let round = 0; round < o.rounds + 3; round++) {
  for (const [venue, rs] of byVenue) {
    const parse = time(rs, (r) => (JSON.parse(r.payload) ? 1 : 0));
    const reader = time(rs, readerOf);
    const w = time(rs, whole);
    if (round < 3) continue; // warm-up
    let t = times.get(venue);
    if (!t) times.set(venue, (t = { parse: [], reader: [], whole: [] }));
    t.parse.push(parse);
    t.reader.push(reader);
    t.whole.push(w);
  }
}
console.log(`\nwarm, in one thread, medians of ${o.rounds} rounds over the timed records (CPU µs a record: the process's, this thread being nearly all of it); load ${loadavg()[0]!.toFixed(1)}`);
console.log('\n| venue | timed records | JSON.parse | the reader | quotesOfRecord | its share of the sink\'s reading |');
console.log('|---|---:|---:|---:|---:|---:|');
const totalUs = [...byVenue].reduce((n, [v, rs]) => n + median(times.get(v)!.whole) * rs.length, 0);
for (const [venue, rs] of [...byVenue].sort(([a], [b]) => a.localeCompare(b))) {
  const t = times.get(venue)!;
  console.log(`| ${venue} | ${rs.length} | ${median(t.parse).toFixed(2)} | ${median(t.reader).toFixed(2)} | ${median(t.whole).toFixed(2)} | ${pct(median(t.whole) * rs.length, totalUs)} |`);
}
console.log(`| all | ${timed.length} | | | ${(totalUs / timed.length).toFixed(2)} | 100% |`);

if (o.against) {
  const other = (await import(pathToFileURL(path.resolve(o.against, 'pipelines/readmodels/price-history.ts')).href)) as { quotesOfRecord: typeof quotesOfRecord };
  let differ = 0;
  for (const r of reads.flat()) if (!isDeepStrictEqual(other.quotesOfRecord(r, AT), quotesOfRecord(r, AT))) differ++;
  console.log(`\n${o.against} against this tree: ${differ} of ${reads.flat().length} records read differently`);
  const ab = new Map<string, { base: number[]; change: number[] }>();
  // The first read (every record, as a fresh service's first crawl: untimed in the pipeline bench) as one more row.
  const firstRead = { base: [] as number[], change: [] as number[] };
  const all: { base: number[]; change: number[] } = { base: [], change: [] };
  const otherWhole = (r: RawRecord) => {
    const q = other.quotesOfRecord(r, AT);
    return q.quotes.length + q.aliases.length;
  };
  for (let round = 0; round < o.rounds + 3; round++) {
    const flip = round % 2 === 1;
    let base = 0;
    let change = 0;
    for (const [venue, rs] of byVenue) {
      const b = flip ? 0 : time(rs, otherWhole);
      const c = time(rs, whole);
      const b2 = flip ? time(rs, otherWhole) : b;
      base += b2 * rs.length;
      change += c * rs.length;
      if (round < 3) continue;
      let t = ab.get(venue);
      if (!t) ab.set(venue, (t = { base: [], change: [] }));
      t.base.push(b2);
      t.change.push(c);
    }
    const fb = flip ? 0 : time(reads[0]!, otherWhole);
    const fc = time(reads[0]!, whole);
    const fb2 = flip ? time(reads[0]!, otherWhole) : fb;
    if (round >= 3) {
      all.base.push(base / timed.length);
      all.change.push(change / timed.length);
      firstRead.base.push(fb2);
      firstRead.change.push(fc);
    }
  }
  console.log(`\nquotesOfRecord, CPU µs a record, medians of ${o.rounds} rounds alternating; load ${loadavg()[0]!.toFixed(1)}`);
  console.log('\n| venue | base | change | change / base |');
  console.log('|---|---:|---:|---:|');
  for (const [venue, t] of [...ab].sort(([a], [b]) => a.localeCompare(b))) console.log(`| ${venue} | ${median(t.base).toFixed(2)} | ${median(t.change).toFixed(2)} | ${(median(t.change) / median(t.base)).toFixed(3)} |`);
  console.log(`| all (the timed reads) | ${median(all.base).toFixed(2)} | ${median(all.change).toFixed(2)} | ${(median(all.change) / median(all.base)).toFixed(3)} |`);
  console.log(`| the first read, ${reads[0]!.length} records | ${median(firstRead.base).toFixed(2)} | ${median(firstRead.change).toFixed(2)} | ${(median(firstRead.change) / median(firstRead.base)).toFixed(3)} |`);
}
if (sink === -1) console.log(sink);
