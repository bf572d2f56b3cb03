// Matching evaluation: precision and recall of matched venue-market pairs, and of settlement
// verdicts, against a scenario's separate ground-truth file. In: the simulator started on a scenario
// (default `hard`, the hardest it has) with its clock frozen at the scenario start, crawled over HTTP
// exactly as the pollers read it; the ground truth from export-truth (generated when absent). Out: a
// report on stdout (and --json for machines). Only this command reads the ground truth; the matching
// it evaluates works from what the venues publish.
//
//   npx tsx bin/eval-matching.ts [--scenario hard] [--at 2026-11-21T18:00:00Z] [--truth file] [--json]
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { createClock } from '../pipelines/venues/simulator/core.ts';
import { crawlVenue, PROVIDER_LIST, readRosters } from '../pipelines/matching/crawl.ts';
import { canonicalize, isListedApart, withListedEvent } from '../pipelines/matching/canonicalize.ts';
import { matchMarkets } from '../pipelines/matching/match.ts';
import type { CanonicalMarket } from '../pipelines/matching/types.ts';

const args = process.argv.slice(2);
const opt = (n: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const scenario = opt('scenario') ?? 'hard';
const at = opt('at') ?? '2026-11-21T18:00:00Z';
// The ground truth is regenerated for each run unless --truth names a file: a stale truth file from
// an older simulator build would measure nothing.
const truthFile = opt('truth') ?? join(tmpdir(), `ground-truth-${scenario}-${process.pid}.json`);

interface TruthSource { provider: string; market_id: string; outcomes: { outcome_id: string; canonical_outcome_key: string }[] }
interface TruthSub {
  key: string;
  market_type: string;
  expect_match: boolean;
  settlement_equivalence: string;
  rule_values: Record<string, Record<string, string>>;
  source_markets: TruthSource[];
}

/** The truth's verdict over the venues actually compared (the truth lists every venue of the line). */
function truthVerdict(s: TruthSub, providers: Set<string>): string {
  const rows = Object.entries(s.rule_values).filter(([p]) => providers.has(p)).map(([, v]) => v);
  const keys = Object.keys(rows[0] ?? {});
  let unknown = false;
  let differ = false;
  for (const k of keys) {
    const known = rows.map((r) => r[k]).filter((v) => v !== 'unknown');
    if (known.length < rows.length) unknown = true;
    if (new Set(known).size > 1) differ = true;
  }
  return differ ? 'different' : unknown ? 'unverified' : 'equivalent';
}
interface Truth { games: { event_id: string; submarkets: TruthSub[] }[] }

if (!existsSync(truthFile)) {
  console.error(`generating ${truthFile} ...`);
  execFileSync('npx', ['tsx', 'pipelines/venues/simulator/bin/export-truth.ts', '--scenario', scenario, '--at', at, '--out', truthFile], { stdio: 'inherit' });
}
const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Truth;

const sim = await startSimulator({ port: 0, scenario, clock: createClock(Date.parse(at), { frozen: true }) });
const now = sim.clock.now();
const rosters = await readRosters(sim.baseUrl, now);
const markets: CanonicalMarket[] = [];
const listed = new Set<string>();
const t0 = performance.now();
let rawCount = 0;
for (const p of PROVIDER_LIST) {
  const recs = await crawlVenue(sim.baseUrl, p, () => now);
  rawCount += recs.length;
  const listedEvents = new Map<string, unknown>();
  for (const r of recs) if (isListedApart(p, r.recordType)) listedEvents.set(r.nativeId, r.payload);
  for (const r of recs) {
    if (isListedApart(p, r.recordType)) continue;
    const pl = r.payload as Record<string, unknown>;
    const input = withListedEvent(p, pl, (t) => listedEvents.get(t));
    // What the venue lists (for a fair recall: an unlisted market cannot be matched).
    listed.add(`${p}:${r.nativeId}`);
    markets.push(...canonicalize(p, input, r.readStartedAt, rosters).markets);
  }
}
const events = matchMarkets(markets);
const elapsed = performance.now() - t0;
await sim.close();

// A truth market is listed when the crawl saw it (venue_7 and venue_9 nest markets in events/parents).
const listedMarket = (provider: string, id: string) => {
  if (listed.has(`${provider}:${id}`)) return true;
  if (provider === 'venue_7') return listed.has(`venue_7:${id.split(':')[0]}`);
  if (provider === 'venue_9') return listed.has(`venue_9:${id.split(':')[0]}`);
  return false;
};
const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
function pairsOf(ids: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) out.push(pairKey(ids[i], ids[j]));
  return out;
}

const truePairs = new Set<string>();
const truthBySet = new Map<string, TruthSub>();
const truthOutcome = new Map<string, string>();
for (const g of truth.games)
  for (const s of g.submarkets) {
    if (!s.expect_match) continue;
    const ids = s.source_markets.filter((m) => listedMarket(m.provider, m.market_id)).map((m) => `${m.provider}:${m.market_id}`);
    if (new Set(s.source_markets.filter((m) => listedMarket(m.provider, m.market_id)).map((m) => m.provider)).size < 2) continue;
    for (const p of pairsOf(ids)) truePairs.add(`${s.market_type}#${p}`);
    truthBySet.set([...ids].sort().join(','), s);
    for (const m of s.source_markets) for (const o of m.outcomes) truthOutcome.set(`${m.provider}:${m.market_id}#${o.outcome_id}`, o.canonical_outcome_key);
  }
const predPairs = new Set<string>();
let verdictTotal = 0;
let verdictRight = 0;
let outcomeChecked = 0;
let outcomeWrong = 0;
const wrongVerdicts: string[] = [];
for (const e of events)
  for (const s of e.event.submarkets) {
    const ids = s.source_markets.map((m) => `${m.provider}:${m.market_id}`);
    for (const p of pairsOf(ids)) predPairs.add(`${s.market_type}#${p}`);
    const t = truthBySet.get([...ids].sort().join(','));
    if (t) {
      verdictTotal++;
      const want = truthVerdict(t, new Set(s.source_markets.map((m) => m.provider)));
      if (want === s.settlement_equivalence) verdictRight++;
      else if (wrongVerdicts.length < 5) wrongVerdicts.push(`${e.event.event_id} ${s.key}: ${s.settlement_equivalence} (truth ${want})`);
    }
    for (const m of s.source_markets)
      for (const o of m.outcomes) {
        const want = truthOutcome.get(`${m.provider}:${m.market_id}#${o.outcome_id}`);
        if (want === undefined) continue;
        outcomeChecked++;
        if (want !== o.canonical_outcome_key) outcomeWrong++;
      }
  }
let tp = 0;
for (const p of predPairs) if (truePairs.has(p)) tp++;
const precision = predPairs.size ? tp / predPairs.size : 1;
const recall = truePairs.size ? tp / truePairs.size : 1;
const byType: Record<string, { tp: number; pred: number; truth: number }> = {};
const bump = (k: string, f: 'tp' | 'pred' | 'truth') => ((byType[k] ??= { tp: 0, pred: 0, truth: 0 })[f] += 1);
for (const p of predPairs) {
  bump(p.split('#')[0], 'pred');
  if (truePairs.has(p)) bump(p.split('#')[0], 'tp');
}
for (const p of truePairs) bump(p.split('#')[0], 'truth');
const sampleN = Number(opt('samples') ?? 5);
const fp = [...predPairs].filter((p) => !truePairs.has(p)).slice(0, sampleN);
const missedAll = [...truePairs].filter((p) => !predPairs.has(p));
const fn = missedAll.filter((_, i) => i % Math.max(1, Math.floor(missedAll.length / sampleN)) === 0).slice(0, sampleN);
const report = {
  scenario,
  clock: at,
  raw_records: rawCount,
  canonical_markets: markets.length,
  events: events.filter((e) => e.event.submarkets.length).length,
  pairs: { truth: truePairs.size, predicted: predPairs.size, true_positive: tp, precision, recall },
  by_market_type: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, { ...v, precision: v.pred ? v.tp / v.pred : 1, recall: v.truth ? v.tp / v.truth : 1 }])),
  verdicts: { compared: verdictTotal, agree: verdictRight, accuracy: verdictTotal ? verdictRight / verdictTotal : 1 },
  outcome_mapping: { checked: outcomeChecked, wrong: outcomeWrong },
  canonicalize_and_match_ms: Math.round(elapsed),
  samples: { false_positive_pairs: fp, missed_pairs: fn, wrong_verdicts: wrongVerdicts },
};
if (args.includes('--json')) console.log(JSON.stringify(report, null, 1));
else {
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  console.log(`scenario ${scenario} at ${at}: ${rawCount} raw records, ${markets.length} canonical markets, ${report.events} matched events`);
  console.log(`pairs: precision ${pct(precision)} recall ${pct(recall)} (tp ${tp}, predicted ${predPairs.size}, truth ${truePairs.size})`);
  for (const [k, v] of Object.entries(report.by_market_type)) console.log(`  ${k.padEnd(12)} precision ${pct(v.precision)} recall ${pct(v.recall)} (tp ${v.tp}/${v.pred} pred, ${v.truth} truth)`);
  console.log(`verdicts: ${verdictRight}/${verdictTotal} agree (${pct(report.verdicts.accuracy)}); outcome mapping wrong ${outcomeWrong}/${outcomeChecked}`);
  console.log('samples:', JSON.stringify(report.samples, null, 1));
}
process.exit(0);
