/* eslint-disable @typescript-eslint/no-explicit-any -- reads the nine venues' native JSON records loosely */
// The simulator's contract: determinism from the seed, identifier shapes per venue, O(page)
// procedural paging, fault injection, scenario files and the scenario clock.
import { mkdtempSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Whole-venue renders on a shared 2-core machine: generous per-test time, no timing assertions.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
import { createClock, decToken, decTokenIndex, hexId, hexIndex, ulidId, ulidIndex } from './core.ts';
import { loadScenario } from './scenario.ts';
import { buildSimulatorApp, startSimulator } from './server.ts';
import { buildTruth } from './truth.ts';
import { v2MarketId } from './venues/venue2.ts';
import { v4Fixture } from './venues/venue4.ts';
import { GAME_LENGTH_MS } from './world.ts';

const T0 = Date.parse('2026-11-21T18:00:00Z');
type Sim = Awaited<ReturnType<typeof buildSimulatorApp>>;
const build = (o: Parameters<typeof buildSimulatorApp>[0] = {}) =>
  buildSimulatorApp({ seed: 11, clock: createClock(T0, { frozen: true }), ...o });
async function get(sim: Sim, url: string): Promise<{ status: number; json: any; headers: Record<string, unknown>; body: string }> {
  const r = await sim.app.inject(url);
  let json: unknown;
  try {
    json = JSON.parse(r.body);
  } catch {
    json = undefined;
  }
  return { status: r.statusCode, json, headers: r.headers, body: r.body };
}

describe('determinism from the seed', () => {
  it('the same seed gives the same records; another seed gives others', async () => {
    const [a, b, c] = await Promise.all([build(), build(), build({ seed: 12 })]);
    for (const url of ['/venue_2/markets?limit=50', '/venue_1/markets?limit=50&cursor=' + Buffer.from('p500').toString('base64url'), '/venue_9/parents?limit=5']) {
      const [ra, rb, rc] = await Promise.all([get(a, url), get(b, url), get(c, url)]);
      expect(ra.body).toBe(rb.body);
      expect(ra.body).not.toBe(rc.body);
    }
    await Promise.all([a.app.close(), b.app.close(), c.app.close()]);
  });
});

describe('invertible ids', () => {
  it('hash, token and ULID ids map back to their index and reject look-alikes', () => {
    for (const i of [0, 1, 77, 123_456, 4_000_000]) {
      expect(hexIndex(5, 'sp', hexId(5, 'sp', i))).toBe(i);
      expect(decTokenIndex(5, 'sp', decToken(5, 'sp', i))).toBe(i);
      expect(ulidIndex(5, 'sp', ulidId(5, 'sp', i, 1_700_000_000_000 + i), (j) => 1_700_000_000_000 + j)).toBe(i);
    }
    const h = hexId(5, 'sp', 9);
    expect(hexIndex(5, 'sp', h.slice(0, -1) + (h.endsWith('0') ? '1' : '0'))).toBeNull();
    expect(hexIndex(6, 'sp', h)).toBeNull();
  });
});

describe('venues', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await build();
  });
  afterAll(() => sim.app.close());

  it('publish the identifier shapes of the spec table', async () => {
    const v1 = (await get(sim, '/venue_1/markets?limit=1000')).json.markets;
    expect(v1.length).toBeGreaterThan(100);
    for (const m of v1) {
      expect(m.ticker).toMatch(/^[A-Z0-9]+(-[A-Z0-9.]+)+$/);
      expect(m.event_ticker).toMatch(/^[A-Z0-9]+-[A-Z0-9]+$/);
    }
    expect(v1.some((m: any) => /^KXNBAGAME-\d\d[A-Z]{3}\d\d[A-Z]+-[A-Z]+$/.test(m.ticker))).toBe(true);
    expect(v1.some((m: any) => m.mve_collection_ticker && m.mve_selected_legs.length >= 2)).toBe(true);

    const v2 = (await get(sim, '/venue_2/markets?limit=500')).json;
    for (const m of v2) {
      expect(m.id).toMatch(/^\d+$/);
      expect(m.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      for (const tok of JSON.parse(m.clobTokenIds)) expect(tok).toMatch(/^\d{60,}$/);
    }
    const v3 = (await get(sim, '/venue_3/v1/markets?per_page=250')).json.data;
    for (const m of v3) expect(String(m.id)).toMatch(/^\d{7}$/);
    const v4 = (await get(sim, '/venue_4/markets/active?pageSize=300')).json.data.markets;
    for (const m of v4) {
      expect(m.marketHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.sportXeventId).toMatch(/^L\d+$/);
    }
    const v5 = (await get(sim, '/venue_5/questions?take=200')).json.questions;
    for (const q of v5) for (const o of q.outcomes) expect(o.token).toBe(`#${o.outcome_id}`);
    const v6 = (await get(sim, '/venue_6/api/markets?page_size=200')).json.items;
    for (const m of v6) expect(m.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    // venue_6 game lines reuse the tokens of the venue_2 market they mirror.
    const mirrored = v6.find((m: any) => m.mirror);
    const twin = (await get(sim, `/venue_2/markets/${mirrored.mirror.market_id}`)).json;
    expect(mirrored.outcomes.map((o: any) => o.token)).toEqual(JSON.parse(twin.clobTokenIds));
    // venue_6 non-sports: multi-choice events and single-market binary events.
    const v6p = (await get(sim, `/venue_6/api/markets?page_size=60&page_token=${Buffer.from('p0').toString('base64url')}`)).json.items;
    const types = new Set<string>();
    for (const m of v6p.slice(0, 30)) {
      const e = (await get(sim, `/venue_6/api/events/${m.event_id}`)).json;
      types.add(e.type);
      expect(e.markets.some((x: any) => x.id === m.id)).toBe(true);
      if (e.type === 'binary') expect(e.markets).toHaveLength(1);
    }
    expect(types).toEqual(new Set(['multi', 'binary']));
    const v7 = (await get(sim, '/venue_7/events?count=100')).json.events;
    for (const e of v7) for (const m of e.markets) expect(m.id).toMatch(new RegExp(`^${e.event_id}:\\d+$`));
    const v8 = (await get(sim, '/venue_8/v0/markets?limit=1000')).json;
    for (const m of v8) expect(m.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const v9 = (await get(sim, '/venue_9/parents?limit=100')).json.data;
    for (const p of v9) for (const c of p.children) expect(c.pair).toMatch(/^0x[0-9a-f]{64}:0x[0-9a-f]{64}$/);
  });

  it('resolves every published id form back to its record', async () => {
    const m = (await get(sim, '/venue_2/markets?limit=1&offset=900')).json[0];
    for (const key of [m.slug, m.conditionId, JSON.parse(m.clobTokenIds)[1]]) {
      const r = await get(sim, key.startsWith('0x') ? `/venue_2/markets?condition_ids=${key}` : /^\d+$/.test(key) ? `/venue_2/book?token_id=${key}` : `/venue_2/markets/slug/${key}`);
      expect(r.status).toBe(200);
    }
    const t = (await get(sim, '/venue_7/events?count=1')).json.events[0];
    const line = t.markets.find((x: any) => x.lines[0].line !== null);
    expect((await get(sim, `/venue_7/markets/${line.id}:${line.lines[0].line}`)).status).toBe(200);
    expect((await get(sim, `/venue_7/markets/${line.id}:999.5`)).status).toBe(404);
    const p = (await get(sim, '/venue_9/parents?limit=1')).json.data[0];
    expect((await get(sim, `/venue_9/markets/${p.children[0].pair}`)).json.parent.id).toBe(p.id);
    expect((await get(sim, `/venue_9/parents/${p.id}`)).json.children.length).toBeGreaterThan(0);
  });

  it('has bare numeric ids on both venue_2 and venue_3, and on venue_3 only', async () => {
    const v3 = (await get(sim, '/venue_3/v1/markets?per_page=250&page=2')).json.data as any[];
    const both: number[] = [];
    const only3: number[] = [];
    for (const m of v3.slice(0, 60)) ((await get(sim, `/venue_2/markets/${m.id}`)).status === 200 ? both : only3).push(m.id);
    expect(both.length).toBeGreaterThan(0);
    expect(only3.length).toBeGreaterThan(0);
    // Event ids too: some venue_2 event ids are venue_3 market ids (the event route's 409 case).
    let shared = 0;
    for (const m of v3.slice(0, 30)) if ((await get(sim, `/venue_2/events/${m.id}`)).status === 200) shared++;
    expect(shared).toBeGreaterThan(0);
  });

  it('publishes the fee availability cases', async () => {
    expect((await get(sim, '/venue_1/series/KXNBAGAME')).json.series.fee_type).toBe('quadratic');
    expect((await get(sim, '/venue_1/series/KXNBA1QSPREAD')).json.series.fee_type).toBe('fee_free');
    const v3 = (await get(sim, '/venue_3/v1/markets?per_page=1')).json.data[0];
    expect(v3.fees.schedule).toBe('account');
    expect((await get(sim, '/venue_4/metadata')).json.data.takerFeeBps).toBeGreaterThan(0);
    const v5 = (await get(sim, '/venue_5/questions?take=1')).json.questions[0];
    expect(JSON.stringify(v5)).not.toMatch(/fee/i);
    const v8 = (await get(sim, '/venue_8/v0/markets?limit=1')).json[0];
    expect(v8.fees).toEqual({ platformFee: 0, creatorFee: 0, liquidityFee: 0 });
  });

  it('venue_1 fees take extra hops: market -> series -> fee schedule; event tickers are not markets', async () => {
    const m = (await get(sim, '/venue_1/markets?limit=1&series_ticker=KXNBAGAME')).json.markets[0];
    expect((await get(sim, `/venue_1/series/${m.series_ticker}`)).json.series.fee_multiplier).toBe(0.07);
    expect((await get(sim, `/venue_1/series/fee_changes?series_ticker=${m.series_ticker}`)).json.series_fee_change_arr).toEqual([]);
    expect((await get(sim, `/venue_1/markets/${m.event_ticker}`)).status).toBe(404);
    const p = (await get(sim, `/venue_1/markets?limit=1&cursor=${Buffer.from('p300').toString('base64url')}`)).json.markets[0];
    expect((await get(sim, `/venue_1/markets/${p.ticker}`)).status).toBe(200);
    expect((await get(sim, `/venue_1/markets/${p.event_ticker}`)).status).toBe(404);
    expect((await get(sim, `/venue_1/events/${p.event_ticker}`)).json.markets.length).toBeGreaterThan(0);
    expect((await get(sim, `/venue_1/events/${p.ticker}`)).status).toBe(404);
  });

  it('venue_1 event tickers have sibling series for the same game', async () => {
    const ev = (await get(sim, '/venue_1/events?series_ticker=KXNBAGAME&limit=200')).json.events as any[];
    const withSibling = ev.find((e) => e.event_ticker);
    const part = withSibling.event_ticker.split('-')[1];
    const spread = await get(sim, `/venue_1/events/KXNBASPREAD-${part}`);
    const total = await get(sim, `/venue_1/events/KXNBATOTAL-${part}`);
    expect([spread.status, total.status]).toContain(200);
    expect((await get(sim, '/venue_1/events/KXNBAGAME-26JAN01XXXYYY')).status).toBe(404);
  });
});

describe('procedural paging', () => {
  it('walks every open market once, and a deep page costs the same shape as the first', async () => {
    const sim = await build({ scale: 0.5 });
    const seen = new Set<string>();
    let cursor = '';
    let pages = 0;
    do {
      const r = (await get(sim, `/venue_1/markets?limit=997${cursor ? `&cursor=${cursor}` : ''}`)).json;
      for (const m of r.markets) {
        expect(seen.has(m.ticker)).toBe(false);
        seen.add(m.ticker);
      }
      cursor = r.cursor;
      pages++;
    } while (cursor && pages < 100);
    const sports = (await get(sim, '/venue_1/markets?limit=1000&category=Sports')).json.markets.length;
    expect(seen.size).toBe(sim.ctx.proc.venue_1.count + sports);
    expect(parlaysOf(seen)).toBeGreaterThan(0);
    // Offsets deep into the catalog render directly from the index.
    const deep = (await get(sim, '/venue_2/markets?limit=3&offset=900')).json;
    expect(deep).toHaveLength(3);
    await sim.app.close();
  });
  it('markets close and open as the clock moves', async () => {
    const sim = await build();
    const first = (await get(sim, '/venue_8/v0/markets?limit=1000')).json.filter((m: any) => m.id.startsWith('p'));
    sim.clock.advance(10 * 60_000);
    const later = (await get(sim, '/venue_8/v0/markets?limit=1000')).json.filter((m: any) => m.id.startsWith('p'));
    expect(later[0].id).not.toBe(first[0].id);
    const closed = await get(sim, `/venue_8/v0/market/${first[0].id}`);
    expect(closed.status).toBe(200);
    expect(closed.json.id).toBe(first[0].id);
    // The record says it closed (its closeTime is past), as the listing says by leaving it out:
    // market detail reads venue_8's status from closeTime alone.
    expect(closed.json.closeTime).toBeLessThanOrEqual(sim.clock.now());
    expect(first[0].closeTime).toBeGreaterThan(sim.clock.now() - 10 * 60_000);
    await sim.app.close();
  });
});
function parlaysOf(seen: Set<string>): number {
  return [...seen].filter((t) => t.startsWith('KXMVE')).length;
}

describe('default clock', () => {
  it('starts at clockStart, else SIM_CLOCK_START when set (a test run pinned to an instant), else now; an explicit clock wins', async () => {
    vi.stubEnv('SIM_CLOCK_START', '2026-11-28T21:00:00Z');
    try {
      const pinned = await buildSimulatorApp({ seed: 11 });
      expect(pinned.clock.now() - Date.parse('2026-11-28T21:00:00Z')).toBeGreaterThanOrEqual(0);
      expect(pinned.clock.now() - Date.parse('2026-11-28T21:00:00Z')).toBeLessThan(60_000);
      await pinned.app.close();
      const own = await build();
      expect(own.clock.now()).toBe(T0);
      await own.app.close();
      // A Config's SIM_CLOCK_START (bin/run.ts passes it as clockStart) wins over the environment's.
      const asked = await buildSimulatorApp({ seed: 11, clockStart: T0 });
      expect(asked.clock.now() - T0).toBeGreaterThanOrEqual(0);
      expect(asked.clock.now() - T0).toBeLessThan(60_000);
      await asked.app.close();
      vi.stubEnv('SIM_CLOCK_START', 'tonight');
      await expect(buildSimulatorApp({ seed: 11 })).rejects.toThrow('SIM_CLOCK_START="tonight"');
      vi.stubEnv('SIM_CLOCK_START', '');
      const now = await buildSimulatorApp({ seed: 11 });
      expect(Math.abs(now.clock.now() - Date.now())).toBeLessThan(60_000);
      await now.app.close();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('faults', () => {
  it('answers each fault kind per venue and leaves other venues alone', async () => {
    const sim = await build();
    sim.faults.set('venue_3', { kind: 'down' });
    expect((await get(sim, '/venue_3/v1/markets')).status).toBe(503);
    expect((await get(sim, '/venue_2/markets?limit=1')).status).toBe(200);
    sim.faults.set('venue_3', { kind: 'rate_limit', retry_after_s: 7 });
    let r = await get(sim, '/venue_3/v1/markets');
    expect([r.status, r.headers['retry-after']]).toEqual([429, '7']);
    sim.faults.set('venue_3', { kind: 'rate_limit' });
    r = await get(sim, '/venue_3/v1/markets');
    expect([r.status, r.headers['retry-after']]).toEqual([429, undefined]);
    sim.faults.set('venue_3', { kind: 'malformed' });
    r = await get(sim, '/venue_3/v1/markets');
    expect(r.status).toBe(200);
    expect(r.json).toBeUndefined();
    sim.faults.set('venue_3', { kind: 'reject' });
    expect((await get(sim, '/venue_3/v1/markets')).status).toBe(400);
    sim.faults.set('venue_3', { kind: 'slow', delay_ms: 150 });
    const t = Date.now();
    expect((await get(sim, '/venue_3/v1/markets?per_page=1')).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    sim.faults.set('venue_3', { kind: 'down', paths: '/book' });
    expect((await get(sim, '/venue_3/v1/markets?per_page=1')).status).toBe(200);
    sim.faults.set('venue_3', null);
    // The admin endpoint drives the same controller.
    const res = await sim.app.inject({ method: 'POST', url: '/__admin/faults', payload: { venue: 'venue_5', kind: 'down' } });
    expect(res.statusCode).toBe(200);
    expect((await get(sim, '/venue_5/questions')).status).toBe(503);
    expect((await sim.app.inject({ method: 'POST', url: '/__admin/faults', payload: { venue: 'venue_5', kind: 'sideways' } })).statusCode).toBe(400);
    await sim.app.inject({ method: 'DELETE', url: '/__admin/faults' });
    expect((await get(sim, '/venue_5/questions')).status).toBe(200);
    await sim.app.close();
  });
  it('refuse drops the connection without an answer', async () => {
    const sim = await startSimulator({ seed: 3, clock: createClock(T0, { frozen: true }), scale: 0.1 });
    sim.faults.set('venue_6', { kind: 'refuse' });
    await expect(fetch(`${sim.url('venue_6')}/api/markets`)).rejects.toThrow();
    expect((await fetch(`${sim.url('venue_7')}/events?count=1`)).status).toBe(200);
    await sim.close();
  });
});

describe('scenario clock: games start, settle, postpone, cancel', () => {
  it('republishes a postponed start, settles a cancelled moneyline 50-50 on venue_2, drops finished venue_4 fixtures', async () => {
    const sim = await build({ scenario: 'hard' });
    const pg = sim.world.games.find((g) => g.postpone && g.venues.includes('venue_2'))!;
    const cg = sim.world.games.find((g) => g.cancel && g.venues.includes('venue_2'))!;
    const before = (await get(sim, `/venue_2/markets/${v2MarketId(pg, pg.lines[0])}`)).json.gameStartTime;
    sim.clock.set(pg.postpone!.at + 1);
    const after = (await get(sim, `/venue_2/markets/${v2MarketId(pg, pg.lines[0])}`)).json.gameStartTime;
    expect(Date.parse(after.replace(' ', 'T').replace('+00', 'Z')) - Date.parse(before.replace(' ', 'T').replace('+00', 'Z'))).toBe(24 * 3600e3);
    sim.clock.set(cg.cancel!.at + 1);
    const c = (await get(sim, `/venue_2/markets/${v2MarketId(cg, cg.lines[0])}`)).json;
    expect([c.outcomePrices, c.closed]).toEqual(['["0.5","0.5"]', true]);
    const g4 = sim.world.games.find((g) => g.venues.includes('venue_4') && !g.cancel && !g.postpone && g.start > T0)!;
    sim.clock.set(g4.start - 1000);
    expect((await get(sim, `/venue_4/fixture/${v4Fixture(g4)}`)).status).toBe(200);
    sim.clock.set(g4.start + GAME_LENGTH_MS[g4.league] + 1000);
    expect((await get(sim, `/venue_4/fixture/${v4Fixture(g4)}`)).status).toBe(404);
    await sim.app.close();
  });
});

describe('scenario files', () => {
  it('loads native records and applies the timeline as the clock passes it', async () => {
    const sim = await buildSimulatorApp({ scenario: 'example', clock: createClock(Date.parse('2026-11-21T15:00:00Z'), { frozen: true }) });
    expect(sim.world.games).toHaveLength(0);
    const m = await get(sim, '/venue_2/markets/9100001');
    expect(m.json.gameStartTime).toBe('2026-11-22 00:30:00+00');
    expect((await get(sim, '/venue_2/events/slug/nba-lal-bos-2026-11-22')).json.markets[0].id).toBe('9100001');
    expect((await get(sim, '/venue_1/events/KXNBAGAME-26NOV21LALBOS')).json.markets).toHaveLength(2);
    expect((await get(sim, '/venue_7/markets/39000001:1')).status).toBe(200);
    sim.clock.set(Date.parse('2026-11-21T20:01:00Z'));
    expect((await get(sim, '/venue_2/markets/9100001')).json.gameStartTime).toBe('2026-11-22 17:00:00+00');
    expect((await get(sim, '/venue_7/events/39000001')).json.start).toBe('2026-11-22T00:30:00Z');
    sim.clock.set(Date.parse('2026-11-22T21:00:00Z'));
    expect((await get(sim, '/venue_1/markets/KXNBAGAME-26NOV21LALBOS-BOS')).json.market.result).toBe('yes');
    expect((await get(sim, '/venue_2/markets?limit=100')).json.some((x: any) => x.id === '9100001')).toBe(false);
    await sim.app.close();
  });
  it('never opens ground-truth.json and rejects malformed venue files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scn-'));
    cpSync(join(__dirname, '..', '..', '..', 'infra', 'scenarios', 'example'), dir, { recursive: true });
    writeFileSync(join(dir, 'ground-truth.json'), '{not json');
    expect(loadScenario(dir).manifest.name).toBe('example');
    writeFileSync(join(dir, 'venue_3.json'), '[]');
    expect(() => loadScenario(dir)).toThrow(/venue_3.json/);
  });
});

describe('ground truth', () => {
  it('pairs venue markets that the venues themselves resolve', async () => {
    const sim = await build({ scenario: 'hard' });
    const truth = buildTruth(sim.ctx);
    const subs = truth.games.flatMap((g) => g.submarkets.filter((s) => s.expect_match));
    expect(subs.length).toBeGreaterThan(500);
    for (const s of subs) expect(new Set(s.source_markets.map((x) => x.provider)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(subs.map((s) => s.settlement_equivalence))).toEqual(new Set(['equivalent', 'different', 'unverified']));
    expect(truth.games.some((g) => g.doubleheader === 2)).toBe(true);
    expect(truth.games.some((g) => g.roster_gap)).toBe(true);
    const whyNot = truth.games.flatMap((g) => g.submarkets.map((x) => x.why_not ?? ''));
    for (const reason of ['missing', 'stale', 'ambiguous']) expect(whyNot.some((w) => w.includes(reason)), reason).toBe(true);
    const [lg, code] = [...sim.world.staleRosters][0].split(':');
    const roster = (await get(sim, `/sportsdata/${lg}/teams/${code}/roster`)).json;
    expect(sim.clock.now() - Date.parse(roster.updated_at)).toBeGreaterThan(7 * 86400e3);
    // Every venue's source markets in the truth resolve on that venue (ids are what venues publish).
    const url: Record<string, (id: string) => string> = {
      venue_1: (id) => `/venue_1/markets/${id}`,
      venue_2: (id) => `/venue_2/markets/${id}`,
      venue_3: (id) => `/venue_3/v1/markets/${id}`,
      venue_4: (id) => `/venue_4/markets/find?marketHashes=${id}`,
      venue_5: (id) => `/venue_5/questions/${id}`,
      venue_6: (id) => `/venue_6/api/markets/${id}`,
      venue_7: (id) => `/venue_7/markets/${id}`,
      venue_8: (id) => `/venue_8/v0/slug/${id}`,
      venue_9: (id) => `/venue_9/markets/${id}`,
    };
    const checked = new Set<string>();
    let k = 0;
    for (const s of subs) {
      for (const src of s.source_markets) {
        // The first of each venue, then every 25th source market.
        if (checked.has(src.provider) && k++ % 25 !== 0) continue;
        checked.add(src.provider);
        const r = await get(sim, url[src.provider](src.market_id));
        expect(r.status, `${src.provider} ${src.market_id}`).toBe(200);
        if (src.provider === 'venue_4') expect(r.json.data).toHaveLength(1);
      }
    }
    expect(checked.size).toBe(9);
    await sim.app.close();
  });
});

describe('heterogeneity for matching', () => {
  it('names, orders and dates one game differently on each venue', async () => {
    const sim = await build({ scenario: 'hard' });
    const g = sim.world.games.find(
      (x) => x.league === 'nba' && ['venue_1', 'venue_2', 'venue_3', 'venue_5', 'venue_7', 'venue_9'].every((v) => x.venues.includes(v as never)) && x.start > T0,
    )!;
    const { VENUE_MODULES } = await import('./venues/index.ts');
    const { gameState } = await import('./world.ts');
    const title = (v: keyof typeof VENUE_MODULES) => {
      const recs = VENUE_MODULES[v].renderGame(sim.ctx, g, gameState(g, T0), T0);
      const r = recs.find((x) => x.meta?.l?.kind === 'moneyline' || x.type === 'events' || x.type === 'parents')!.rec as any;
      return String(r.title ?? r.question ?? r.name);
    };
    const [a, h] = [g.away, g.home];
    expect(title('venue_1')).toContain(' at ');
    expect(title('venue_2')).toBe(`${a.nickname} vs. ${h.nickname}`);
    expect(title('venue_3')).toBe(`${a.name} @ ${h.name}`);
    expect(title('venue_5')).toBe(`${h.name} vs ${a.name}`); // home first
    expect(title('venue_7')).toBe(`${a.nickname} at ${h.nickname}`);
    expect(title('venue_9')).toMatch(/^[A-Z0-9]{3} vs [A-Z0-9]{3}$/);
    // venue_2 slugs carry the UTC date: an evening Eastern game is dated the next day.
    const late = sim.world.games.find((x) => x.venues.includes('venue_2') && new Date(x.start).getUTCHours() < 5)!;
    const ml = (await get(sim, `/venue_2/markets/${v2MarketId(late, late.lines[0])}`)).json;
    const { eastern } = await import('./core.ts');
    expect(ml.slug).toContain(new Date(late.start).toISOString().slice(0, 10));
    expect(ml.slug).not.toContain(eastern(late.start).date);
    // mlb doubleheaders: same teams, same Eastern day, two starts.
    const dh = sim.world.games.filter((x) => x.dh > 0);
    expect(dh.length).toBeGreaterThanOrEqual(2);
    expect(dh[0].away.code).toBe(dh[1].away.code);
    expect(dh[0].start).not.toBe(dh[1].start);
    await sim.app.close();
  });
});

describe('a generated world written as a scenario', () => {
  it('serves the same sports records when loaded back, and replays its lifecycle from the timeline', async () => {
    const { writeScenario } = await import('./dump.ts');
    const gen = await build();
    const dir = mkdtempSync(join(tmpdir(), 'dump-'));
    writeScenario(gen.ctx, dir, T0);
    const back = await buildSimulatorApp({ scenario: dir, clock: createClock(T0, { frozen: true }) });
    expect(back.world.games).toHaveLength(0);
    for (const url of ['/venue_7/events?count=100&sport=basketball', '/venue_1/markets?limit=1000&category=Sports', '/venue_5/questions?take=200&topic=NHL']) {
      expect((await get(back, url)).body, url).toBe((await get(gen, url)).body);
    }
    // After a game has been played, both say so.
    const g = gen.world.games.find((x) => x.venues.includes('venue_4') && x.start > T0 && !x.postpone && !x.cancel)!;
    const later = g.start + GAME_LENGTH_MS[g.league] + 60_000;
    gen.clock.set(later);
    back.clock.set(later);
    const status = async (s: Sim) => {
      const ms = (await get(s, '/venue_4/markets/active?pageSize=300&sportIds=Basketball,Football,Baseball,Hockey')).json.data.markets as any[];
      return ms.map((m) => m.marketHash).sort();
    };
    expect(await status(back)).toEqual(await status(gen));
    expect((await get(back, `/venue_4/fixture/${v4Fixture(g)}`)).status).toBe(404);
    await Promise.all([gen.app.close(), back.app.close()]);
  });
});
