/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// Live routes benchmark. One process: the simulator and the API (both
// listening on loopback), the client below. Two figures, each a ratio against a baseline measured
// in the same run:
//   1. market detail: median latency of GET /v1/markets/{id} through the API against the median of
//      a direct call to the same simulator endpoint the route reads (target <= 1.3);
//      measured twice: against the loopback simulator as is (sub-millisecond venue, so the API's
//      fixed cost dominates) and with the venue answering in VENUE_MS, as a venue across a network;
//   2. venue_1 event fanout: median of GET /v1/events/{ticker} (primary + 5 sibling series in
//      parallel) against the median of the slowest sibling alone, read directly (target <= 1.2).
//      The slowest sibling is made slow by the simulator's `slow` fault (SLOW_MS), so the ratio
//      shows parallel (~1.0) versus serial (~6x) fetching.
// Usage: npx tsx bench/live.ts [N=300] [SLOW_MS=150] [VENUE_MS=20]
import { request, Agent } from 'undici';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { buildApp } from '../api/app.ts';
import { loadConfig } from '../lib/config.ts';
import { authDepsFor } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { PERMISSIONS } from '../api/routes/table.ts';
import { createLiveDeps } from '../api/live/io.ts';
import { benchKey } from './bench-keys.ts';

const N = Number(process.argv[2] ?? 300);
const SLOW_MS = Number(process.argv[3] ?? 150);
const VENUE_MS = Number(process.argv[4] ?? 20);
const agent = new Agent({ connections: 16 });

async function timeGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  const t0 = process.hrtime.bigint();
  const res = await request(url, { dispatcher: agent, headers });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url}: HTTP ${res.statusCode}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Alternate the two calls so both see the same machine load; warm up first. */
async function compare(n: number, a: () => Promise<number>, b: () => Promise<number>) {
  for (let i = 0; i < Math.min(30, n); i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < n; i++) {
    ta.push(await a());
    tb.push(await b());
  }
  return { a: median(ta), b: median(tb) };
}

async function main() {
  const sim = await startSimulator({ seed: 42 });
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0' });
  const store = new MemoryKeyStore();
  const auth = authDepsFor(store, config.KEY_PEPPER);
  const app = await buildApp({ config, clock: Date.now, auth, live: createLiveDeps(sim.baseUrl) });
  const api = await app.listen({ host: '127.0.0.1', port: 0 });
  const key = async () => {
    return benchKey(auth.admin, { account: `bench_${Math.random().toString(36).slice(2)}`, plan: 'business', permissions: PERMISSIONS });
  };
  const get = async (path: string) => (await (await request(sim.baseUrl + path)).body.json()) as any;

  const lines: string[] = [];
  const venue3 = (await get('/venue_3/v1/markets?per_page=1')).data[0];
  const venue2 = (await get('/venue_2/markets?limit=1'))[0];
  // The API's own fixed cost on a route with no upstream read, for scale.
  const hRef = { authorization: `Bearer ${await key()}` };
  const ref = await compare(N, () => timeGet(api + '/v1/categories', hRef), () => timeGet(sim.baseUrl + `/venue_3/v1/markets/${venue3.id}`));
  const fixed = ref.a;
  lines.push(`reference: GET /v1/categories (no upstream) median ${ref.a.toFixed(3)} ms`);
  const venue6 = (await get('/venue_6/api/markets?page_size=1')).items[0];
  const venue1 = (await get('/venue_1/markets?category=Sports&limit=1')).markets[0];
  const cases = [
    { name: 'venue_3 market (record)', api: `/v1/markets/venue_3:${venue3.id}`, direct: `/venue_3/v1/markets/${venue3.id}` },
    { name: 'venue_2 market (record)', api: `/v1/markets/venue_2:${venue2.id}`, direct: `/venue_2/markets/${venue2.id}` },
  ];
  const loopCases = [
    ...cases,
    { name: 'venue_6 market (record + book in parallel)', api: `/v1/markets/venue_6:${venue6.id}`, direct: `/venue_6/api/markets/${venue6.id}` },
    { name: 'venue_1 market (record + 2 fee hops in parallel)', api: `/v1/markets/${venue1.ticker}`, direct: `/venue_1/markets/${venue1.ticker}` },
  ];
  for (const c of loopCases) {
    const h = { authorization: `Bearer ${await key()}` };
    const r = await compare(N, () => timeGet(api + c.api, h), () => timeGet(sim.baseUrl + c.direct));
    lines.push(
      `market detail, ${c.name}: API median ${r.a.toFixed(3)} ms, direct median ${r.b.toFixed(3)} ms, ratio ${(r.a / r.b).toFixed(2)} (target <= 1.3); API - categories - direct record read ${(r.a - fixed - r.b).toFixed(3)} ms`,
    );
  }

  // The same two reads with a venue that answers in VENUE_MS (the simulator's `slow` fault on both
  // venues): what a client sees against a real venue across a network.
  for (const c of cases) {
    const venue = c.api.includes('venue_3') ? 'venue_3' : 'venue_2';
    sim.faults.set(venue, { kind: 'slow', delay_ms: VENUE_MS });
    const h = { authorization: `Bearer ${await key()}` };
    const n = Math.max(20, Math.floor(N / 4));
    const r = await compare(n, () => timeGet(api + c.api, h), () => timeGet(sim.baseUrl + c.direct));
    sim.faults.set(venue, null);
    lines.push(`market detail, ${c.name}, venue answering in ${VENUE_MS} ms: API median ${r.a.toFixed(2)} ms, direct median ${r.b.toFixed(2)} ms, ratio ${(r.a / r.b).toFixed(3)} (target <= 1.3)`);
  }

  // Fanout: a venue_1 nba game whose sibling KXNBATOTAL is made slow.
  const ev = (await get('/venue_1/markets?series_ticker=KXNBAGAME&limit=1')).markets[0].event_ticker as string;
  const slowSibling = `KXNBATOTAL${ev.slice(ev.indexOf('-'))}`;
  sim.faults.set('venue_1', { kind: 'slow', delay_ms: SLOW_MS, paths: `/events/${slowSibling}` });
  const h = { authorization: `Bearer ${await key()}` };
  const fn = Math.max(20, Math.floor(N / 5));
  const f = await compare(fn, () => timeGet(`${api}/v1/events/${ev}`, h), () => timeGet(`${sim.baseUrl}/venue_1/events/${slowSibling}`));
  sim.faults.set('venue_1', null);
  const check = (await (await request(`${api}/v1/events/${ev}`, { headers: h })).body.json()) as any;
  lines.push(
    `event fanout, ${ev} (${check.fanout.siblings_attempted.length} siblings, ${slowSibling} slowed by ${SLOW_MS} ms): API median ${f.a.toFixed(1)} ms, slowest sibling alone ${f.b.toFixed(1)} ms, ratio ${(f.a / f.b).toFixed(2)} (target <= 1.2)`,
  );

  console.log(`node ${process.version}, N=${N}, fanout N=${fn}`);
  for (const l of lines) console.log(l);
  await app.close();
  await store.close();
  await sim.close();
  await agent.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
