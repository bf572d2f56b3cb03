/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// GET /v1/markets/{market_id} through the API against the built-in simulator: identity, quotes,
// pricing envelope and trading fees for every venue, and every resolution rule. Ids are found the
// way a client finds them: from each venue's own listing.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { request } from 'undici';
import { simulatorForSuite, findSimMarket, liveApp, schemaProblems, simJson } from '../../live/testkit.ts';
import { MarketDetailSchema } from '../../live/schemas.ts';

let sim: Simulator;
simulatorForSuite(11, (s) => (sim = s));

const IDENTITY = ['id', 'provider', 'provider_id', 'title', 'status', 'outcomes', 'pricing', 'trading_fees', 'liquidity_usd', 'volume_24h_usd', 'volume_total_usd'];
const PRICING = ['availability', 'scale', 'source', 'as_of', 'as_of_kind', 'observed_at', 'neg_risk'];
const FEES = ['availability', 'observed_at', 'source', 'charge_basis', 'taker', 'maker'];

function checkShape(body: Record<string, any>, provider: string) {
  expect(schemaProblems(MarketDetailSchema, body)).toEqual([]);
  for (const k of IDENTITY) expect(body, k).toHaveProperty(k);
  expect(body.provider).toBe(provider);
  expect(body.id).toBe(`${provider}:${body.provider_id}`);
  expect(Object.keys(body.pricing).sort()).toEqual([...PRICING].sort());
  expect(body.pricing.scale).toBe('probability_0_1');
  expect(Object.keys(body.trading_fees).sort()).toEqual([...FEES].sort());
  expect(Number.isNaN(Date.parse(body.pricing.observed_at))).toBe(false);
  for (const o of body.outcomes) {
    expect(typeof o.name).toBe('string');
    expect(typeof o.outcome_id).toBe('string');
    for (const f of ['price', 'bid', 'ask', 'last']) {
      expect(o, f).toHaveProperty(f);
      if (o[f] !== null) {
        expect(o[f]).toBeGreaterThanOrEqual(0);
        expect(o[f]).toBeLessThanOrEqual(1);
      }
    }
  }
  // "close times and parent event ids are omitted, not null"
  expect(body.close_time).not.toBeNull();
  expect(body.event_id).not.toBeNull();
  if (body.pricing.availability === 'live') expect(body.status).toBe('open');
}

/**
 * The first venue_1 sports market trading with a two-sided book. Not simply the first listed: a
 * live game's market is listed `closed` with 0 in every quote field (an empty book, served as null
 * quotes), so whether the first one had a book depended on the time of day the suite ran (with the
 * clock at 2026-11-30T00:30:00Z the first was live: bid null where these tests expected 0).
 */
async function tradingSportsMarket(): Promise<any> {
  const { markets } = await simJson(sim, '/venue_1/markets?category=Sports&limit=200');
  const m = markets.find((x: any) => x.status === 'active' && x.yes_bid > 0 && x.no_bid > 0);
  expect(m).toBeDefined();
  return m;
}

describe('venue_1 (tickers, market record, fee hops)', () => {
  it('infers a ticker; quotes come from the record in cents; fees from the series schedule', async () => {
    const { get } = await liveApp(sim);
    const m = await tradingSportsMarket();
    const { series } = await simJson(sim, `/venue_1/series/${m.series_ticker}`);
    const res = await get(`/v1/markets/${m.ticker}`);
    expect(res.status).toBe(200);
    checkShape(res.body, 'venue_1');
    expect(res.body.provider_id).toBe(m.ticker);
    expect(res.body.event_id).toBe(m.event_ticker);
    expect(res.body.outcomes.map((o: any) => [o.name, o.outcome_id])).toEqual([['Yes', 'yes'], ['No', 'no']]);
    expect(res.body.outcomes[0]).toMatchObject({ bid: m.yes_bid / 100, ask: m.yes_ask / 100, last: m.last_price / 100 });
    expect(res.body.outcomes[1]).toMatchObject({ bid: m.no_bid / 100, ask: m.no_ask / 100 });
    expect(res.body.pricing).toMatchObject({ source: 'market_record', availability: 'live' });
    expect(res.body.volume_total_contracts).toBe(m.volume);
    expect(res.body.open_interest).toBe(m.open_interest);
    expect(res.body.liquidity_usd).toBe(m.liquidity / 100);
    expect(res.body.trading_fees.availability).toBe(series.fee_type === 'fee_free' ? 'zero' : 'published');
    if (series.fee_type !== 'fee_free') {
      expect(res.body.trading_fees.taker).toEqual({ model: 'quadratic', rate: series.fee_multiplier, exponent: 1, rounding: { direction: 'up', increment: 0.01 } });
    }
  });

  it('is case-insensitive with a provider hint (tolerated spelling), and composite', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_1/markets?category=Sports&limit=1')).markets;
    const a = await get(`/v1/markets/${m.ticker.toLowerCase()}?provider=v1`);
    expect(a.status).toBe(200);
    expect(a.body.provider_id).toBe(m.ticker);
    const b = await get(`/v1/markets/venue_1:${m.ticker}`);
    expect(b.body.id).toBe(`venue_1:${m.ticker}`);
  });

  it('an event ticker is 404 market_not_found; a parlay ticker resolves', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_1/markets?category=Sports&limit=1')).markets;
    const ev = await get(`/v1/markets/${m.event_ticker}`);
    expect(ev.status).toBe(404);
    expect(ev.body.code).toBe('market_not_found');
    const parlay = await findSimMarket(sim, (x) => x.mve_collection_ticker);
    expect(parlay, 'a parlay in the open listing').toBeTruthy();
    const p = await get(`/v1/markets/${parlay.ticker}`);
    expect(p.status).toBe(200);
    expect(p.body.provider_id).toBe(parlay.ticker);
  });

  it('a settled market stays resolvable and reads settled, never live', async () => {
    const { get } = await liveApp(sim);
    const settled = (await simJson(sim, '/venue_1/markets?status=settled&limit=5')).markets as any[];
    expect(settled.length, 'the default scenario has games already settled').toBeGreaterThan(0);
    const res = await get(`/v1/markets/${settled[0].ticker}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('settled');
    expect(res.body.outcomes[0].price).toBe(settled[0].result === 'yes' ? 1 : settled[0].result === 'no' ? 0 : null);
    expect(res.body.pricing.availability).not.toBe('live');
  });

  it('fee cases of the series schedule: genuine zero, maker fees on props', async () => {
    const { get } = await liveApp(sim);
    const [q] = (await simJson(sim, '/venue_1/markets?series_ticker=KXNBA1QSPREAD&limit=1')).markets;
    const zero = await get(`/v1/markets/${q.ticker}`);
    expect(zero.body.trading_fees).toMatchObject({ availability: 'zero', taker: { rate: 0 }, maker: { rate: 0 } });
    const [p] = (await simJson(sim, '/venue_1/markets?series_ticker=KXNBAPTS&limit=1')).markets;
    const { series } = await simJson(sim, '/venue_1/series/KXNBAPTS');
    const prop = await get(`/v1/markets/${p.ticker}`);
    expect(prop.body.trading_fees.availability).toBe('published');
    expect(prop.body.trading_fees.maker).toMatchObject({ model: 'quadratic', rate: series.maker_fee_multiplier });
  });

  it("the fee hops failing degrades trading_fees to unavailable, the request still succeeds", async () => {
    const { get } = await liveApp(sim);
    const m = await tradingSportsMarket();
    sim.faults.set('venue_1', { kind: 'down', paths: '/series' });
    try {
      const res = await get(`/v1/markets/${m.ticker}`);
      expect(res.status).toBe(200);
      expect(res.body.trading_fees).toMatchObject({ availability: 'unavailable', taker: null, maker: null });
      expect(res.body.outcomes[0].bid).toBe(m.yes_bid / 100);
    } finally {
      sim.faults.set('venue_1', null);
    }
  });
});

describe('resolution rules', () => {
  it('an unknown prefix is 400 invalid_identifier; a contradicting provider is 400; an unknown provider is 400', async () => {
    const { get } = await liveApp(sim);
    const a = await get('/v1/markets/venue_12:abc');
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ code: 'invalid_identifier', param: 'market_id' });
    expect(a.body.message).toContain('venue_12:abc');
    const b = await get('/v1/markets/venue_2:9000001?provider=venue_3');
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ code: 'invalid_parameter', param: 'provider' });
    const c = await get('/v1/markets/9000001?provider=polymarket');
    expect(c.body).toMatchObject({ code: 'invalid_parameter', param: 'provider' });
  });

  it('venue_5..9 ids are never inferred', async () => {
    const { get } = await liveApp(sim);
    const { items } = await simJson(sim, '/venue_6/api/markets?page_size=1');
    const r = await get(`/v1/markets/${items[0].id}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_identifier');
    const p = (await simJson(sim, '/venue_9/parents?limit=1')).data[0];
    const r9 = await get(`/v1/markets/${p.children[0].pair}`);
    expect(r9.body.code).toBe('invalid_identifier');
  });

  it('a numeric id held by both venue_2 and venue_3 is 409 with candidates; naming the provider answers', async () => {
    const { get } = await liveApp(sim);
    const v3 = (await simJson(sim, '/venue_3/v1/markets?per_page=250')).data as any[];
    const onV2 = async (id: string) => (await request(`${sim.baseUrl}/venue_2/markets/${id}`).then((r) => r.body.text().then(() => r.statusCode))) === 200;
    let shared: string | undefined;
    let only3: string | undefined;
    for (const m of v3) {
      const id = String(m.id);
      if (await onV2(id)) shared ??= id;
      else only3 ??= id;
      if (shared && only3) break;
    }
    expect(shared, 'the simulator publishes some ids on both venues').toBeTruthy();
    const amb = await get(`/v1/markets/${shared}`);
    expect(amb.status).toBe(409);
    // The whole body: the spec's 409 fields, the id quoted, candidates in any order.
    expect({ ...amb.body, candidates: [...amb.body.candidates].sort() }).toEqual({
      code: 'ambiguous_identifier',
      message: expect.stringContaining(`"${shared}"`),
      status_code: 409,
      param: 'market_id',
      candidates: ['venue_2', 'venue_3'],
    });
    const named = await get(`/v1/markets/${shared}?provider=venue_3`);
    expect(named.status).toBe(200);
    expect(named.body.provider).toBe('venue_3');
    const one = await get(`/v1/markets/${only3}`);
    expect(one.status).toBe(200);
    expect(one.body.provider).toBe('venue_3');
    const none = await get('/v1/markets/1');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ code: 'market_not_found', message: expect.stringContaining('"1"'), status_code: 404, param: 'market_id' });
  });

  it('the probe fails (502) when either candidate is down; naming the provider depends on that one only', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_2/markets?limit=1')) as any[];
    sim.faults.set('venue_3', { kind: 'down' });
    try {
      const probe = await get(`/v1/markets/${m.id}`);
      expect(probe.status).toBe(502);
      expect(probe.body.code).toBe('upstream_unavailable');
      const named = await get(`/v1/markets/${m.id}?provider=venue_2`);
      expect(named.status).toBe(200);
      // Slugs are probed on both candidates too.
      const slug = await get(`/v1/markets/${m.slug}`);
      expect(slug.status).toBe(502);
      expect((await get(`/v1/markets/venue_2:${m.slug}`)).status).toBe(200);
    } finally {
      sim.faults.set('venue_3', null);
    }
  });

  it('venue_4 fixture ids and venue_7 event ids are 400 on this route', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_4/markets/active?pageSize=1')).data.markets;
    expect((await get(`/v1/markets/${m.sportXeventId}`)).body.code).toBe('invalid_identifier');
    const [e] = (await simJson(sim, '/venue_7/events?count=1')).events;
    const r = await get(`/v1/markets/${e.event_id}?provider=venue_7`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_identifier');
  });
});

describe('venue_2 (market record, slugs, condition ids)', () => {
  it('resolves by numeric id, slug and condition id to the same market; complement on the second outcome', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_2/markets?limit=1')) as any[];
    const byId = await get(`/v1/markets/venue_2:${m.id}`);
    const bySlug = await get(`/v1/markets/${m.slug}`);
    const byCond = await get(`/v1/markets/${m.conditionId}?provider=venue_2`);
    for (const r of [byId, bySlug, byCond]) {
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(`venue_2:${m.id}`);
    }
    checkShape(byId.body, 'venue_2');
    const toks = JSON.parse(m.clobTokenIds);
    expect(byId.body.outcomes.map((o: any) => o.outcome_id)).toEqual(toks);
    expect(byId.body.outcomes[0]).toMatchObject({ bid: m.bestBid, ask: m.bestAsk, last: m.lastTradePrice });
    expect(byId.body.outcomes[1].bid).toBeCloseTo(1 - m.bestAsk, 6);
    expect(byId.body.pricing).toMatchObject({ source: 'market_record', neg_risk: m.negRisk });
    expect(byId.body.trading_fees.availability).toBe(m.feesEnabled ? 'published' : 'zero');
    expect(byId.body.volume_total_usd).toBe(m.volumeNum);
  });

  it('a bare condition id is read as a venue_4 hash (never inferred as venue_2)', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_2/markets?limit=1')) as any[];
    const r = await get(`/v1/markets/${m.conditionId}`);
    expect(r.status).toBe(404);
    expect(r.body.message).toContain('venue_4');
  });

  it('a closed market resolves by slug and condition id', async () => {
    const { get } = await liveApp(sim);
    const closed = (await simJson(sim, '/venue_2/markets?closed=true&limit=5')) as any[];
    expect(closed.length, 'the default scenario has closed venue_2 markets').toBeGreaterThan(0);
    const m = closed[0];
    for (const url of [`/v1/markets/${m.slug}`, `/v1/markets/venue_2:${m.conditionId}`]) {
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(['closed', 'settled']).toContain(r.body.status);
      expect(r.body.pricing.availability).not.toBe('live');
    }
  });
});

describe('venue_3 (market record, spread threshold, per-account fees)', () => {
  it('quotes from the record; indicative beyond the venue spread threshold', async () => {
    const { get } = await liveApp(sim);
    const list = (await simJson(sim, '/venue_3/v1/markets?per_page=250')).data as any[];
    const wide = (m: any) => m.outcomes.some((o: any) => o.best_bid !== null && o.best_ask !== null && o.best_ask - o.best_bid > m.quote_rules.max_spread + 1e-9);
    const narrow = list.find((m) => m.status === 'open' && !wide(m) && m.outcomes.every((o: any) => o.best_bid !== null));
    const r = await get(`/v1/markets/venue_3:${narrow.id}`);
    checkShape(r.body, 'venue_3');
    expect(r.body.outcomes[0]).toMatchObject({ name: narrow.outcomes[0].name, outcome_id: narrow.outcomes[0].token, bid: narrow.outcomes[0].best_bid, ask: narrow.outcomes[0].best_ask });
    expect(r.body.pricing).toMatchObject({ availability: 'live', source: 'market_record', as_of_kind: 'record_refresh' });
    expect(r.body.trading_fees).toMatchObject({ availability: 'per_account', taker: null, maker: null });
    const w = list.find((m) => m.status === 'open' && wide(m));
    expect(w, 'the venue publishes some wide books').toBeTruthy();
    const rw = await get(`/v1/markets/venue_3:${w.id}`);
    expect(rw.body.pricing.availability).toBe('indicative');
  });
});

describe('venue_4 (book: one bounded second fetch)', () => {
  it('outcomeOne/outcomeTwo quoted from the book; published fees; a failed book read is unavailable', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_4/markets/active?pageSize=1')).data.markets;
    const r = await get(`/v1/markets/${m.marketHash}`);
    expect(r.status).toBe(200);
    checkShape(r.body, 'venue_4');
    expect(r.body.title).toBe(`${m.outcomeOneName} vs ${m.outcomeTwoName}`);
    expect(r.body.outcomes.map((o: any) => o.outcome_id)).toEqual(['outcomeOne', 'outcomeTwo']);
    expect(r.body.pricing).toMatchObject({ source: 'orderbook', as_of_kind: 'quote' });
    expect(r.body.trading_fees).toMatchObject({ availability: 'published', charge_basis: 'stake' });
    expect(r.body.trading_fees.taker.rate).toBe(0.005);
    sim.faults.set('venue_4', { kind: 'reject', paths: '/orders/book' });
    try {
      const d = await get(`/v1/markets/${m.marketHash}`);
      expect(d.status).toBe(200);
      expect(d.body.pricing.availability).toBe('unavailable');
      expect(d.body.outcomes.every((o: any) => o.price === null && o.bid === null && o.ask === null)).toBe(true);
    } finally {
      sim.faults.set('venue_4', null);
    }
  });
});

describe('venue_5 (outcome markets with books; questions as groups)', () => {
  it('an outcome id is a binary market quoted from its book; a question id is a group; nothing published about fees', async () => {
    const { get } = await liveApp(sim);
    const [q] = (await simJson(sim, '/venue_5/questions?take=1')).questions;
    const o = q.outcomes[0];
    const book = await simJson(sim, `/venue_5/outcomes/${o.outcome_id}/book`);
    const r = await get(`/v1/markets/venue_5:${o.outcome_id}`);
    expect(r.status).toBe(200);
    checkShape(r.body, 'venue_5');
    expect(r.body.pricing.source).toBe('orderbook');
    if (book.bids.length) expect(r.body.outcomes[0].bid).toBe(book.bids[0][0]);
    if (book.asks.length) expect(r.body.outcomes[1].bid).toBeCloseTo(1 - book.asks[0][0], 6);
    expect(r.body.trading_fees.availability).toBe('not_published');
    // A question is a grouped market keyed by the `#` tokens (the ids the sports routes publish),
    // each option quoted from its own outcome market's YES book.
    const g = await get(`/v1/markets/${q.question_id}?provider=venue_5`);
    expect(g.status).toBe(200);
    checkShape(g.body, 'venue_5');
    expect(g.body.outcomes.map((x: any) => x.outcome_id)).toEqual(q.outcomes.map((x: any) => x.token));
    expect(g.body.pricing.source).toBe('orderbook');
    const b1 = await simJson(sim, `/venue_5/outcomes/${q.outcomes[1].outcome_id}/book`);
    if (b1.asks.length) expect(g.body.outcomes[1].ask).toBe(b1.asks[0][0]);
    if (book.bids.length) expect(g.body.outcomes[0].bid).toBe(book.bids[0][0]);
    sim.faults.set('venue_5', { kind: 'down', paths: '/book' });
    try {
      const d = await get(`/v1/markets/venue_5:${o.outcome_id}`);
      expect(d.status).toBe(200);
      expect(d.body.pricing.availability).toBe('unavailable');
    } finally {
      sim.faults.set('venue_5', null);
    }
  });
});

describe('venue_6 (four-sided book, marks)', () => {
  it('quotes from the four-sided book; a failed book read keeps the record mark (indicative)', async () => {
    const { get } = await liveApp(sim);
    const { items } = await simJson(sim, '/venue_6/api/markets?page_size=50');
    const m = items.find((x: any) => x.status === 'open');
    const r = await get(`/v1/markets/${m.id.toLowerCase()}?provider=venue_6`);
    expect(r.status).toBe(200);
    checkShape(r.body, 'venue_6');
    expect(r.body.outcomes.map((o: any) => o.name)).toEqual(['Yes', 'No']);
    expect(r.body.outcomes.map((o: any) => o.outcome_id)).toEqual(m.outcomes.map((o: any) => o.token));
    expect(r.body.pricing.source).toBe('orderbook');
    expect(r.body.trading_fees.availability).toBe('per_account');
    sim.faults.set('venue_6', { kind: 'malformed', paths: '/book' });
    try {
      const d = await get(`/v1/markets/venue_6:${m.id}`);
      expect(d.status).toBe(200);
      expect(d.body.pricing).toMatchObject({ availability: 'indicative', as_of_kind: 'record_refresh' });
      expect(d.body.outcomes[0].price).toBe(m.mark);
      expect(d.body.outcomes[0].bid).toBeNull();
    } finally {
      sim.faults.set('venue_6', null);
    }
  });

  it('the book fetch is bounded: a book slower than its share of the deadline degrades, the request succeeds', async () => {
    const { get } = await liveApp(sim, { UPSTREAM_DEADLINE_MS: '3000' });
    const { items } = await simJson(sim, '/venue_6/api/markets?page_size=50');
    const m = items.find((x: any) => x.status === 'open');
    sim.faults.set('venue_6', { kind: 'slow', delay_ms: 5000, paths: '/book' });
    try {
      const d = await get(`/v1/markets/venue_6:${m.id}`);
      expect(d.status).toBe(200);
      expect(d.body.pricing.availability).toBe('indicative');
      expect(d.body.outcomes[0].price).toBe(m.mark);
    } finally {
      sim.faults.set('venue_6', null);
    }
  });

  it('an empty book under a surviving mark is indicative', async () => {
    const { get } = await liveApp(sim);
    const { items } = await simJson(sim, '/venue_6/api/markets?page_size=200');
    for (const m of items.filter((x: any) => x.status === 'open')) {
      const b = await simJson(sim, `/venue_6/api/markets/${m.id}/book`);
      if (b.yes.bids.length || b.yes.asks.length || b.no.bids.length || b.no.asks.length) continue;
      const r = await get(`/v1/markets/venue_6:${m.id}`);
      expect(r.body.pricing.availability).toBe('indicative');
      expect(r.body.outcomes[0].price).toBe(m.mark);
      return;
    }
    expect.fail('no open venue_6 market with an empty book in the first 200');
  });
});

describe('venue_7 (odds offers on the record)', () => {
  it('the pair resolves the favourite line; three-part names one line; an unlisted line is 404', async () => {
    const { get } = await liveApp(sim);
    const [e] = (await simJson(sim, '/venue_7/events?count=1')).events;
    const mk = e.markets.find((m: any) => m.lines.length > 1) ?? e.markets[0];
    const fav = mk.lines.find((l: any) => l.favourite) ?? mk.lines[0];
    const r = await get(`/v1/markets/venue_7:${mk.id}`);
    expect(r.status).toBe(200);
    checkShape(r.body, 'venue_7');
    expect(r.body.outcomes.map((o: any) => o.name)).toEqual(fav.selections.map((s: any) => s.name));
    expect(r.body.outcomes.map((o: any) => o.outcome_id)).toEqual(fav.selections.map((s: any) => String(s.id)));
    const best = (s: any) => 1 / Math.max(...s.back.map((b: any) => b.odds));
    expect(r.body.outcomes[0].ask).toBeCloseTo(best(fav.selections[0]), 5);
    expect(r.body.outcomes[0].bid).toBeCloseTo(1 - best(fav.selections[1]), 5);
    expect(r.body.outcomes[0].price).toBeCloseTo((r.body.outcomes[0].ask + r.body.outcomes[0].bid) / 2, 5);
    expect(r.body.pricing.source).toBe('orderbook');
    expect(r.body.trading_fees).toMatchObject({ availability: 'published', charge_basis: 'net_winnings' });
    expect(r.body.trading_fees.taker.rate).toBeCloseTo(e.commission_pct / 100, 8);
    const other = mk.lines.find((l: any) => l !== fav);
    if (other && other.line !== null) {
      const r3 = await get(`/v1/markets/${mk.id}:${other.line}?provider=venue_7`);
      expect(r3.status).toBe(200);
      expect(r3.body.outcomes.map((o: any) => o.name)).toEqual(other.selections.map((s: any) => s.name));
    }
    const miss = await get(`/v1/markets/venue_7:${e.event_id}:${mk.type_id}:999.5`);
    expect(miss.status).toBe(404);
    expect(miss.body.code).toBe('market_not_found');
  });
});

describe('venue_8 (YES-side book; group slugs)', () => {
  it('a single market is quoted from its YES book with the NO complement; a group slug is a record-marked group', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_8/v0/markets?limit=1')) as any[];
    const book = await simJson(sim, `/venue_8/v0/market/${m.id}/book`);
    const r = await get(`/v1/markets/venue_8:${m.slug}`);
    expect(r.status).toBe(200);
    checkShape(r.body, 'venue_8');
    expect(r.body.pricing.source).toBe('orderbook');
    if (book.yes.bids.length) {
      expect(r.body.outcomes[0].bid).toBe(book.yes.bids[0][0]);
      expect(r.body.outcomes[1].ask).toBeCloseTo(1 - book.yes.bids[0][0], 6);
    }
    expect(r.body.trading_fees.availability).toBe('zero');
    const g = await get(`/v1/markets/${m.groupSlugs[0]}?provider=venue_8`);
    expect(g.status).toBe(200);
    expect(g.body.pricing.source).toBe('market_record');
    expect(g.body.outcomes.length).toBeGreaterThan(1);
    sim.faults.set('venue_8', { kind: 'down', paths: '/book' });
    try {
      const d = await get(`/v1/markets/venue_8:${m.slug}`);
      expect(d.status).toBe(200);
      expect(d.body.outcomes[0].price).toBe(m.probability);
      expect(d.body.pricing.availability).toBe('indicative');
    } finally {
      sim.faults.set('venue_8', null);
    }
  });
});

describe('venue_9 (parent group view; child pair from its book)', () => {
  it('a bare parent is a group view with one outcome per child and no price unless settled', async () => {
    const { get } = await liveApp(sim);
    const p = (await simJson(sim, '/venue_9/parents?limit=1')).data[0];
    const r = await get(`/v1/markets/${p.id}?provider=venue_9`);
    expect(r.status).toBe(200);
    checkShape(r.body, 'venue_9');
    expect(r.body.pricing.source).toBe('market_record');
    expect(r.body.outcomes.map((o: any) => o.name)).toEqual(p.children.map((c: any) => c.title));
    for (const [i, c] of p.children.entries()) if (c.status !== 'resolved') expect(r.body.outcomes[i].price).toBeNull();
  });

  it('a pair is one binary child quoted from its YES book; a failed book keeps the record mark', async () => {
    const { get } = await liveApp(sim);
    const p = (await simJson(sim, '/venue_9/parents?limit=1')).data[0];
    const c = p.children.find((x: any) => x.status === 'trading');
    const r = await get(`/v1/markets/venue_9:${c.pair}`);
    expect(r.status).toBe(200);
    checkShape(r.body, 'venue_9');
    expect(r.body.pricing.source).toBe('orderbook');
    expect(r.body.trading_fees.taker.rate).toBe(c.fee_rate_bps / 10_000);
    sim.faults.set('venue_9', { kind: 'down', paths: '/book' });
    try {
      const d = await get(`/v1/markets/venue_9:${c.pair}`);
      expect(d.status).toBe(200);
      expect(d.body.outcomes[0].price).toBe(c.yes_price);
      expect(d.body.pricing.availability).toBe('indicative');
    } finally {
      sim.faults.set('venue_9', null);
    }
  });
});
