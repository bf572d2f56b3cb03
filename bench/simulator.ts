/* eslint-disable @typescript-eslint/no-explicit-any -- reads the nine venues' native JSON records loosely */
// Simulator listing throughput: markets per second served over HTTP by each venue's open-market
// listing at SIM_SCALE=100 (1,000,000 open non-sports markets), on the first page and 10,000+
// rows deep, against a baseline in the same process: a bare Fastify route returning an
// already-built page of the same rows (the cost of HTTP and JSON alone).
// Usage: npx tsx bench/simulator.ts [seconds-per-case=3]
import Fastify from 'fastify';
import { createClock } from '../pipelines/venues/simulator/core.ts';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { procId as v8Id } from '../pipelines/venues/simulator/venues/venue8.ts';
import { openLo } from '../pipelines/venues/simulator/procedural.ts';

const SECONDS = Number(process.argv[2] ?? 3);
const sim = await startSimulator({ seed: 42, scale: 100, clock: createClock(Date.parse('2026-11-21T18:00:00Z'), { frozen: true }) });
const b = sim.baseUrl;
const lo = (v: keyof typeof sim.ctx.proc) => openLo(sim.ctx.proc[v], sim.clock.now());
const at = (v: keyof typeof sim.ctx.proc, k: number) => Buffer.from(`p${lo(v) + k}`).toString('base64url');

const n = (v: keyof typeof sim.ctx.proc) => sim.ctx.proc[v].count;
const grp = (v: keyof typeof sim.ctx.proc, k: number) => Buffer.from(`p${Math.floor(lo(v) / 3) + k}`).toString('base64url');
// [venue, page 10,000 rows into the catalog, page at the far end of the catalog, extract rows]
const cases: [string, string, string, (j: any) => unknown[]][] = [
  ['venue_1', `${b}/venue_1/markets?limit=1000&cursor=${at('venue_1', 10_000)}`, `${b}/venue_1/markets?limit=1000&cursor=${at('venue_1', n('venue_1') - 2000)}`, (j) => j.markets],
  ['venue_2', `${b}/venue_2/markets?limit=500&offset=10000`, `${b}/venue_2/markets?limit=500&offset=${n('venue_2') - 1000}`, (j) => j],
  ['venue_3', `${b}/venue_3/v1/markets?per_page=250&page=41`, `${b}/venue_3/v1/markets?per_page=250&page=${Math.floor((n('venue_3') - 500) / 250)}`, (j) => j.data],
  ['venue_4', `${b}/venue_4/markets/active?pageSize=300&paginationKey=${at('venue_4', 10_000)}`, `${b}/venue_4/markets/active?pageSize=300&paginationKey=${at('venue_4', n('venue_4') - 600)}`, (j) => j.data.markets],
  ['venue_5', `${b}/venue_5/questions?take=200&skip=3400`, `${b}/venue_5/questions?take=200&skip=${Math.floor(n('venue_5') / 3) - 300}`, (j) => j.questions.flatMap((q: any) => q.outcomes)],
  ['venue_6', `${b}/venue_6/api/markets?page_size=200&page_token=${at('venue_6', 10_000)}`, `${b}/venue_6/api/markets?page_size=200&page_token=${at('venue_6', n('venue_6') - 400)}`, (j) => j.items],
  ['venue_7', `${b}/venue_7/events?count=100&offset=10000`, `${b}/venue_7/events?count=100&offset=${n('venue_7') - 200}`, (j) => j.events],
  ['venue_8', `${b}/venue_8/v0/markets?limit=1000&before=${v8Id(42, lo('venue_8') + 9_999)}`, `${b}/venue_8/v0/markets?limit=1000&before=${v8Id(42, lo('venue_8') + n('venue_8') - 2001)}`, (j) => j],
  ['venue_9', `${b}/venue_9/parents?limit=100&cursor=${grp('venue_9', 3400)}`, `${b}/venue_9/parents?limit=100&cursor=${grp('venue_9', Math.floor(n('venue_9') / 3) - 200)}`, (j) => j.data.flatMap((p: any) => p.children)],
];

async function rate(url: string, rows: (j: any) => unknown[]): Promise<{ perSec: number; ms: number }> {
  const end = Date.now() + SECONDS * 1000;
  let n = 0;
  let reqs = 0;
  const t0 = performance.now();
  while (Date.now() < end) {
    const r = await fetch(url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    n += rows(await r.json()).length;
    reqs++;
  }
  const el = performance.now() - t0;
  return { perSec: (n / el) * 1000, ms: el / reqs };
}

const base = Fastify({ logger: false });
let cached: unknown = null;
base.get('/page', async () => cached);
const baseUrl = await base.listen({ port: 0, host: '127.0.0.1' });

console.log(`| venue | 10,000 deep: markets/s | far end: markets/s | far/near time per page | baseline (same page, prebuilt) markets/s | near/baseline |`);
console.log(`|---|---|---|---|---|---|`);
for (const [v, first, deepUrl, rows] of cases) {
  // Warm both pages first (JIT, caches), so the order of the two measurements does not matter.
  for (let k = 0; k < 5; k++) await Promise.all([fetch(first).then((r) => r.arrayBuffer()), fetch(deepUrl).then((r) => r.arrayBuffer())]);
  const f = await rate(first, rows);
  const d = await rate(deepUrl, rows);
  cached = await (await fetch(first)).json();
  if (rows(cached).length === 0) throw new Error(`${first}: empty page`);
  const bl = await rate(`${baseUrl}/page`, rows);
  console.log(`| ${v} | ${f.perSec.toFixed(0)} | ${d.perSec.toFixed(0)} | ${(d.ms / f.ms).toFixed(2)} | ${bl.perSec.toFixed(0)} | ${(f.perSec / bl.perSec).toFixed(2)} |`);
}
await base.close();
await sim.close();
