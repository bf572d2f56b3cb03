// The canonicalize stage path of two checkouts, alternating in one process, in CPU time: on a
// machine shared with other engineers' processes a wall-clock comparison of two runs swings by 2x,
// and one process sees the same slate, the same warm-up and the same machine state for both.
// In one run, per round (orders alternating): JSON.parse of every payload (the baseline); for each
// checkout, a fresh canonicalizer (handed the rosters) and matcher over the `hard` slate then a whole round (what
// bench/matching.ts times as the stage path); and a re-read of the unchanged slate a minute later by
// a canonicalizer that holds it (what a poll of an unchanged listing costs).
// A checkout of a commit: git archive <commit> | tar -x -C <dir> && ln -s "$PWD/node_modules" <dir>/node_modules
// Usage: npx tsx bench/matching-ab.ts --base <dir> [--branch <dir, default this checkout>] [--rounds 10]
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { createClock } from '../pipelines/venues/simulator/core.ts';
import { crawlVenue, PROVIDER_LIST, readRosters, type CrawledRecord } from '../pipelines/matching/crawl.ts';
import { rosterRecords } from '../pipelines/matching/fixtures.ts';
import type { RawRecord } from '../pipelines/topics.ts';
import type { Canonicalizer } from '../pipelines/matching/stages/canonicalize.ts';
import type { Matcher } from '../pipelines/matching/stages/match.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, branch: { type: 'string', default: path.resolve(fileURLToPath(new URL('..', import.meta.url))) }, rounds: { type: 'string', default: '10' } } });
if (!values.base) throw new Error('--base <dir>: a checkout of the commit to compare with');
const ROUNDS = Number(values.rounds);
const AT = Date.parse('2026-11-21T18:00:00Z');

interface Tree {
  Canonicalizer: new () => Canonicalizer;
  Matcher: new () => Matcher;
}
async function load(dir: string): Promise<Tree> {
  const c = (await import(path.join(dir, 'pipelines/matching/stages/canonicalize.ts'))) as { Canonicalizer: Tree['Canonicalizer'] };
  const m = (await import(path.join(dir, 'pipelines/matching/stages/match.ts'))) as { Matcher: Tree['Matcher'] };
  return { Canonicalizer: c.Canonicalizer, Matcher: m.Matcher };
}
const trees = { base: await load(path.resolve(values.base)), branch: await load(values.branch) };
type Name = keyof typeof trees;

const sim = await startSimulator({ port: 0, scenario: 'hard', clock: createClock(AT, { frozen: true }) });
// Each canonicalizer is handed the rosters as the stage reads them (a reference.rosters batch).
const rosters = rosterRecords(await readRosters(sim.baseUrl, AT));
const crawled: CrawledRecord[] = [];
for (const p of PROVIDER_LIST) crawled.push(...(await crawlVenue(sim.baseUrl, p, () => AT)));
await sim.close();
const payloads = crawled.map((r) => JSON.stringify(r.payload));
const raws = (at: number): RawRecord[] => crawled.map((r, i) => ({ venue: r.provider, record_type: r.recordType, native_id: r.nativeId, read_started_at: at, payload: payloads[i], read_id: 'c1', source_url: null }));
const slate = raws(AT);
const later = raws(AT + 60_000);

function stagePath(n: Name): void {
  const c = new trees[n].Canonicalizer();
  c.rosterBatch(rosters);
  const m = new trees[n].Matcher();
  for (const r of c.ingest(slate)) if (r.topic === 'canonical.markets') m.apply(String(r.key), r.value as never);
  m.round(AT);
}
const holding = { base: new trees.base.Canonicalizer(), branch: new trees.branch.Canonicalizer() };
for (const n of ['base', 'branch'] as const) {
  holding[n].rosterBatch(rosters);
  holding[n].ingest(slate);
}
function reread(n: Name): void {
  const written = holding[n].ingest(later).length;
  if (written !== 0) throw new Error(`${n}: a re-read of the unchanged slate wrote ${written} records`);
}
function parseOnly(): number {
  let k = 0;
  for (const p of payloads) k += (JSON.parse(p) as object) ? 1 : 0;
  return k;
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
// Warm-up: both trees read every rules text once (each keeps its readings), and the JIT settles.
for (const n of ['base', 'branch'] as const) {
  stagePath(n);
  stagePath(n);
  reread(n);
}
const t: Record<string, number[]> = { parse: [], 'base stage path': [], 'branch stage path': [], 'base re-read': [], 'branch re-read': [] };
for (let i = 0; i < ROUNDS; i++) {
  const order: Name[] = i % 2 ? ['branch', 'base'] : ['base', 'branch'];
  let c = cpuMs();
  parseOnly();
  t.parse.push(cpuMs() - c);
  for (const n of order) {
    c = cpuMs();
    stagePath(n);
    t[`${n} stage path`].push(cpuMs() - c);
  }
  for (const n of order) {
    c = cpuMs();
    reread(n);
    t[`${n} re-read`].push(cpuMs() - c);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${crawled.length} records; base ${values.base}, branch ${values.branch}; CPU ms over ${ROUNDS} alternating rounds`);
for (const [k, xs] of Object.entries(t)) console.log(`${k.padEnd(18)} median ${median(xs).toFixed(0)} ms, best ${Math.min(...xs).toFixed(0)} ms, ${(median(xs) / median(t.parse)).toFixed(1)}x JSON.parse`);
console.log(`branch / base: stage path ${(median(t['branch stage path']) / median(t['base stage path'])).toFixed(2)}, re-read ${(median(t['branch re-read']) / median(t['base re-read'])).toFixed(2)}`);
