// Storage growth from a soak run's samples (bench/soak.ts writes them to bench/out/*.json with each
// sample's disk use per topic and per history table): the growth per hour of every topic and table,
// extrapolated to 24 hours and to the horizon that bounds it (README "Storage budget"), so the budget
// can be checked against a run shorter than a day. An extrapolation, not a measurement of a day.
//
//   npx tsx bench/soak-growth.ts bench/out/soak-<date>.json [--from-min 5]
//
// In: the soak's JSON (samples with t in seconds and disk.topics / disk.tables in bytes); --from-min
// leaves out the start (the first crawls and snapshot builds write what steady state does not).
// Out: per topic and table: first and last size, the least-squares slope over the samples and over
// the minima of 10-minute windows (chdb keeps merged-away parts for about 8 minutes, so single samples
// swing by tens of MB), and the size at 24 h and at the bound (raw topics: RAW_RETENTION_BYTES plus a
// segment per partition, or 7 days at the measured rate when that is less; history tables: their TTL;
// compacted topics and current-state tables: no time bound, they grow only with what is listed).
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx bench/soak-growth.ts bench/out/soak-<date>.json [--from-min 5]');
  process.exit(2);
}
const i = process.argv.indexOf('--from-min');
const FROM_S = (i === -1 ? 5 : Number(process.argv[i + 1])) * 60;

interface Row {
  t: number;
  rssMB: number;
  hwmMB: number;
  disk?: { topics: Record<string, number>; tables: Record<string, number> };
}
const run = JSON.parse(readFileSync(file, 'utf8')) as { args: string[]; samples: Row[] };
const rows = run.samples.filter((r) => r.disk && r.t >= FROM_S && Object.keys(r.disk.topics).length > 0);
if (rows.length < 3) {
  console.error(`${file}: ${rows.length} samples with disk use after ${FROM_S / 60} min; need 3`);
  process.exit(1);
}

const MiB = 2 ** 20;
const HOUR = 3600;
// The bounds of the embedded default (lib/config.ts defaults; README "Storage budget").
const RAW_CAP = 512 * MiB + 64 * MiB; // RAW_RETENTION_BYTES + one 64 MiB segment, one partition each
const RAW_HOURS = 7 * 24; // RAW_RETENTION_MS
const HISTORY_HOURS = 7 * 24; // HISTORY_TTL_DAYS
const PRICE_HOURS = 30 * 24; // PRICE_HISTORY_TTL_DAYS
const CATALOG_HOURS = 8; // CATALOG_RETENTION_MS
const bound = (kind: 'topic' | 'table', name: string): { hours: number; cap?: number; why: string } => {
  if (kind === 'topic') {
    if (name.startsWith('raw.') || name === 'dead.letters') return { hours: RAW_HOURS, cap: RAW_CAP, why: '7 d or 576 MiB' };
    return { hours: Infinity, why: 'compacted: latest per key' };
  }
  if (name === 'raw_records' || name === 'matched_events' || name === 'catalog_crawls' || name === 'catalog_crawl_rows')
    return { hours: HISTORY_HOURS, why: 'TTL 7 d' };
  // One row per outcome (its latest quote, its ids): bounded by what is listed, like canonical_markets.
  if (name === 'price_latest' || name === 'price_aliases') return { hours: Infinity, why: 'current state (TTL 30 d)' };
  if (name.startsWith('price_')) return { hours: PRICE_HOURS, why: 'TTL 30 d' };
  if (name.startsWith('catalog_')) return { hours: CATALOG_HOURS, why: 'catalog retention 8 h' };
  return { hours: Infinity, why: 'current state' };
};

function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let k = 0; k < n; k++) {
    num += (xs[k]! - mx) * (ys[k]! - my);
    den += (xs[k]! - mx) ** 2;
  }
  return den ? num / den : 0;
}

/** Slope (bytes per second) of the minima of 10-minute windows: merges' leftovers taken out. */
function floorSlope(ts: number[], ys: number[]): number {
  const byWindow = new Map<number, { t: number; y: number }>();
  ts.forEach((t, k) => {
    const w = Math.floor(t / 600);
    const cur = byWindow.get(w);
    if (!cur || ys[k]! < cur.y) byWindow.set(w, { t, y: ys[k]! });
  });
  const pts = [...byWindow.values()];
  return pts.length >= 2 ? slope(pts.map((p) => p.t), pts.map((p) => p.y)) : NaN;
}

const ts = rows.map((r) => r.t);
const spanH = (ts.at(-1)! - ts[0]!) / HOUR;
const mb = (b: number) => (b / MiB).toFixed(1);
console.log(`${file}: ${rows.length} samples from ${(ts[0]! / 60).toFixed(1)} to ${(ts.at(-1)! / 60).toFixed(1)} min (${(spanH * 60).toFixed(0)} minutes)`);
console.log('growth per hour = least-squares slope over every sample (and over 10-minute minima); extrapolated, not measured, beyond the run');
console.log('| what | first MB | last MB | MB/h | MB/h (10-min minima) | at 24 h MB | bound | at the bound MB |');
console.log('|---|---:|---:|---:|---:|---:|---|---:|');
let total24 = 0;
let totalBound = 0;
for (const kind of ['topic', 'table'] as const) {
  const names = [...new Set(rows.flatMap((r) => Object.keys(kind === 'topic' ? r.disk!.topics : r.disk!.tables)))].sort();
  for (const name of names) {
    const ys = rows.map((r) => (kind === 'topic' ? r.disk!.topics : r.disk!.tables)[name] ?? 0);
    const perS = Math.max(0, slope(ts, ys));
    const last = ys.at(-1)!;
    const b = bound(kind, name);
    // From the last sample on at the measured rate; a size limit caps it.
    const at = (hours: number) => Math.min(b.cap ?? Infinity, last + perS * Math.max(0, hours * HOUR - ts.at(-1)!));
    const at24 = at(24);
    const atBound = Number.isFinite(b.hours) ? at(b.hours) : at24;
    total24 += at24;
    totalBound += atBound;
    if (Math.max(...ys) < 0.05 * MiB) continue;
    console.log(
      `| ${kind} ${name} | ${mb(ys[0]!)} | ${mb(last)} | ${mb(perS * HOUR)} | ${mb(Math.max(0, floorSlope(ts, ys)) * HOUR)} | ${mb(at24)} | ${b.why} | ${Number.isFinite(b.hours) ? mb(atBound) : '(no time bound)'} |`,
    );
  }
}
console.log(`total at 24 h: ${(total24 / 2 ** 30).toFixed(2)} GiB; at every bound (the largest the data directory reaches at this rate): ${(totalBound / 2 ** 30).toFixed(2)} GiB`);
const rss = rows.map((r) => r.rssMB);
console.log(
  `RSS over these samples: ${Math.min(...rss)}-${Math.max(...rss)} MB, high-water mark ${Math.max(...rows.map((r) => r.hwmMB))} MB, slope ${slope(ts, rss).toFixed(3)} MB/s = ${(slope(ts, rss) * HOUR).toFixed(0)} MB/h`,
);
