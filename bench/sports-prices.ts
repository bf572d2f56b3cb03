// include_prices on the sports list against the same list without it, in one process
// (bench/sports-prices.md). Games go through the real canonicalizer, matcher and snapshot sink
// (stages/inline.ts) into an in-process SnapshotStore; requests go through app.inject, so the
// figures are the service's own work per request (router, key check, shaping, pricing,
// serialization, gzip), without sockets.
//
// Two cases, each alternating priced and unpriced requests run by run:
//   cold  the first request after a new publish (the memo of pages is per snapshot, so this is what
//         the first client after each publish pays; a publish comes every SPORTS_PUBLISH_MS when
//         anything moved);
//   warm  the same page again within the snapshot (and, priced, within the second).
//
//   npx tsx bench/sports-prices.ts [--games 200] [--rounds 200] [--limit 100]
import { parseArgs } from 'node:util';
import { buildApp } from '../api/app.ts';
import { handlers } from '../api/routes/index.ts';
import { authDepsFor } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { loadConfig } from '../lib/config.ts';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { InlineSports } from '../pipelines/matching/stages/inline.ts';
import { sportsDepsOf } from '../pipelines/matching/readmodel.ts';
import { crawlComplete, raw, venue1Records, venue2Records, type GameSpec } from '../pipelines/matching/fixtures.ts';
import { TEAMS } from '../pipelines/matching/teams.ts';
import type { RawRecord } from '../pipelines/topics.ts';
import { benchKey } from './bench-keys.ts';

const { values } = parseArgs({ options: { games: { type: 'string', default: '200' }, rounds: { type: 'string', default: '200' }, limit: { type: 'string', default: '100' } } });
const GAMES = Number(values.games);
const ROUNDS = Number(values.rounds);
const LIMIT = Number(values.limit);
const NOW = Date.parse('2026-11-21T15:00:00Z');

function withQuotes(records: RawRecord[], fn: (p: Record<string, unknown>) => void): RawRecord[] {
  return records.map((r) => {
    const p = JSON.parse(r.payload) as Record<string, unknown>;
    fn(p);
    return { ...r, payload: JSON.stringify(p) };
  });
}

function venue7(eventId: number, away: string, home: string, start: number): RawRecord {
  const sel = (id: number, n: string, o: number) => ({ id, name: n, back: [{ odds: o, stake: 500 }], lay: [] });
  const rules = 'Winners and losers are determined by the final score (including overtime). Rules: https://venue7.example/rules';
  return raw(
    'venue_7',
    'event',
    String(eventId),
    {
      event_id: eventId,
      name: `${away} at ${home}`,
      sport: 'basketball',
      league: 'NBA',
      start: new Date(start).toISOString(),
      state: 'open',
      commission_pct: 2.0,
      markets: [{ id: `${eventId}:1`, type_id: 1, name: 'Match Odds', state: 'open', rules, lines: [{ line: null, favourite: true, selections: [sel(1, away, 2.1), sel(2, home, 1.8)] }] }],
    },
    NOW,
  );
}

const nba = TEAMS.nba;
const records: RawRecord[] = [];
for (let i = 0; i < GAMES; i++) {
  const a = nba[(2 * i) % nba.length]!;
  const h = nba[(2 * i + 1) % nba.length]!;
  const g: GameSpec = { league: 'nba', away: a.key, home: h.key, start: NOW + 86_400_000 * (1 + Math.floor((2 * i) / nba.length)) + 9 * 3600_000, spread: { team: h.key, size: 4.5 }, total: 221.5 };
  records.push(
    ...withQuotes(venue1Records(g, NOW), (p) => Object.assign(p, { yes_bid: 44, yes_ask: 46, no_bid: 54, no_ask: 56 })),
    ...withQuotes(venue2Records(g, NOW), (p) => Object.assign(p, { bestBid: 0.45, bestAsk: 0.47, feesEnabled: p.sportsMarketType !== 'moneyline', takerBaseFee: p.sportsMarketType === 'moneyline' ? 0 : 200 })),
    venue7(30_000_000 + i, a.nickname, h.nickname, g.start),
  );
}

const store = new MemorySnapshotStore();
const clock = { now: NOW };
const proc = new InlineSports(store, () => clock.now);
proc.ingest(records);
await proc.publish();
const config = loadConfig({ LOG_LEVEL: 'silent' });
const auth = authDepsFor(new MemoryKeyStore(), config.KEY_PEPPER, () => clock.now, true);
const key = await benchKey(auth.admin, { plan: 'business', permissions: ['markets.matching.read'] });
const app = await buildApp({ config, clock: () => clock.now, auth, sports: sportsDepsOf(store) }, handlers, { logger: false });
const headers = { authorization: `Bearer ${key}` };
const base = `/v1/matching-markets/sports?include_submarkets=true&limit=${LIMIT}`;

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const t0 = process.hrtime.bigint();
  const res = await app.inject({ url, headers: { ...headers, 'accept-encoding': 'gzip' } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return { ms, bytes: res.rawPayload.length };
}

const quantile = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const plainBody = await app.inject({ url: base, headers });
const pricedBody = await app.inject({ url: `${base}&include_prices=true`, headers });
const sample = pricedBody.json().data[0].submarkets[0].prices;
if (!sample?.complete_set) throw new Error('the priced page carries no complete set: the bench data is not what it means to measure');

const cold = { plain: [] as number[], priced: [] as number[] };
const warm = { plain: [] as number[], priced: [] as number[] };
let gz = { plain: 0, priced: 0 };
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of r % 2 === 0 ? (['plain', 'priced'] as const) : (['priced', 'plain'] as const)) {
    // A new publish (a crawl marker moves observed_at): both snapshots get new ids, memos are cold.
    clock.now += 1000;
    proc.ingest([crawlComplete('venue_2', `c${r}-${mode}`, clock.now)]);
    await proc.publish();
    const url = mode === 'priced' ? `${base}&include_prices=true` : base;
    const c = await timed(url);
    cold[mode].push(c.ms);
    warm[mode].push((await timed(url)).ms);
    gz = { ...gz, [mode]: c.bytes };
  }
}

const line = (name: string, s: { plain: number[]; priced: number[] }) => {
  const p50 = [quantile(s.plain, 0.5), quantile(s.priced, 0.5)];
  const p95 = [quantile(s.plain, 0.95), quantile(s.priced, 0.95)];
  return `| ${name} | ${p50[0]!.toFixed(2)} | ${p50[1]!.toFixed(2)} | ${(p50[1]! / p50[0]!).toFixed(2)} | ${p95[0]!.toFixed(2)} | ${p95[1]!.toFixed(2)} | ${(p95[1]! / p95[0]!).toFixed(2)} |`;
};
console.log(`games ${GAMES}, events served ${plainBody.json().pagination.total}, page limit ${LIMIT}, rounds ${ROUNDS}`);
console.log(`body bytes (identity) plain ${plainBody.rawPayload.length}, priced ${pricedBody.rawPayload.length}; gzip plain ${gz.plain}, priced ${gz.priced}`);
console.log('| case | p50 ms plain | p50 ms priced | p50 ratio | p95 ms plain | p95 ms priced | p95 ratio |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
console.log(line('cold (first request after a publish)', cold));
console.log(line('warm (same page again)', warm));
await app.close();
