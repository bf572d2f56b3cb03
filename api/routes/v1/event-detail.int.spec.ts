/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// GET /v1/events/{event_id} through the API against the built-in simulator: inference and
// probing (the 409 of an id both candidates hold), venue_1 sibling fanout (parallel, missing siblings listed, only the primary fails the
// request), each venue's wrapping rule, props not gathered.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { simulatorForSuite, findSimMarket, liveApp, schemaProblems, simJson } from '../../live/testkit.ts';
import { EventDetailSchema } from '../../live/schemas.ts';
import { VENUE1_SIBLINGS } from '../../../pipelines/venues/adapters/venue_1/event.ts';

let sim: Simulator;
simulatorForSuite(11, (s) => (sim = s));

const shape = (b: Record<string, any>, provider: string) => {
  expect(schemaProblems(EventDetailSchema, b)).toEqual([]);
  expect(Object.keys(b).filter((k) => k !== 'fanout').sort()).toEqual(['event_id', 'markets', 'provider', 'title']);
  expect(b.provider).toBe(provider);
  for (const m of b.markets) {
    expect(Object.keys(m).sort()).toEqual(['market_id', 'title']);
    expect(m.market_id.startsWith(`${provider}:`)).toBe(false);
  }
};

async function nbaEventTicker(): Promise<string> {
  const { markets } = await simJson(sim, '/venue_1/markets?series_ticker=KXNBAGAME&limit=1');
  return markets[0].event_ticker;
}

describe('venue_1 sibling fanout', () => {
  it('fetches the other series of the game and merges their markets; props are not gathered', async () => {
    const { get } = await liveApp(sim);
    const ticker = await nbaEventTicker();
    const r = await get(`/v1/events/${ticker}`);
    expect(r.status).toBe(200);
    shape(r.body, 'venue_1');
    const others = VENUE1_SIBLINGS.nba.filter((s) => s !== 'KXNBAGAME');
    expect(r.body.fanout.siblings_attempted).toEqual(others);
    expect(r.body.fanout.siblings_missing).toEqual([]);
    // Every returned sibling exists on the venue; every existing sibling is returned.
    const rest = ticker.slice(ticker.indexOf('-'));
    for (const s of others) {
      const exists = await simJson(sim, `/venue_1/events/${s}${rest}`).then(() => true, () => false);
      expect(r.body.fanout.siblings_returned.includes(s)).toBe(exists);
    }
    const series = new Set(r.body.markets.map((m: any) => m.market_id.split('-')[0]));
    expect(series.has('KXNBAGAME')).toBe(true);
    for (const s of r.body.fanout.siblings_returned) expect(series.has(s)).toBe(true);
    for (const s of series) expect([...VENUE1_SIBLINGS.nba]).toContain(s); // no prop series
  });

  it('a sibling that errors is listed in siblings_missing; the request still succeeds', async () => {
    const { get } = await liveApp(sim);
    const ticker = await nbaEventTicker();
    sim.faults.set('venue_1', { kind: 'down', paths: '/events/KXNBATOTAL-' });
    try {
      const r = await get(`/v1/events/${ticker}`);
      expect(r.status).toBe(200);
      expect(r.body.fanout.siblings_missing).toEqual(['KXNBATOTAL']);
      expect(r.body.fanout.siblings_returned).not.toContain('KXNBATOTAL');
      expect(r.body.markets.some((m: any) => m.market_id.startsWith('KXNBATOTAL-'))).toBe(false);
    } finally {
      sim.faults.set('venue_1', null);
    }
  });

  it('a sibling slower than its share of the deadline is missing; the answer comes before the deadline', async () => {
    const { get } = await liveApp(sim, { UPSTREAM_DEADLINE_MS: '2000' });
    const ticker = await nbaEventTicker();
    sim.faults.set('venue_1', { kind: 'slow', delay_ms: 5000, paths: '/events/KXNBASPREAD-' });
    try {
      const r = await get(`/v1/events/${ticker.toLowerCase()}`);
      expect(r.status).toBe(200);
      expect(r.body.event_id).toBe(ticker);
      expect(r.body.fanout.siblings_missing).toEqual(['KXNBASPREAD']);
    } finally {
      sim.faults.set('venue_1', null);
    }
  });

  it('only a failure of the primary fetch fails the request', async () => {
    const { get } = await liveApp(sim);
    const ticker = await nbaEventTicker();
    sim.faults.set('venue_1', { kind: 'rate_limit', retry_after_s: 3, paths: `/events/${ticker}` });
    try {
      const r = await get(`/v1/events/${ticker}`);
      expect(r.status).toBe(429);
      expect(r.body.code).toBe('upstream_rate_limited');
      expect(r.headers['retry-after']).toBe('3');
    } finally {
      sim.faults.set('venue_1', null);
    }
    const missing = await get(`/v1/events/KXNBAGAME-26JAN01XXXYYY`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('event_not_found');
  });
});

describe('venue_1 without a sibling registry', () => {
  it('a non-sports event has no fanout block', async () => {
    const { get } = await liveApp(sim);
    // The first option of a procedural group: the simulator's other options currently carry event
    // tickers that its events endpoint does not resolve.
    const m = await findSimMarket(sim, (x) => x.category !== 'Sports' && !x.mve_collection_ticker && x.ticker.endsWith('-O0'));
    expect(m, 'a non-sports venue_1 market').toBeTruthy();
    const r = await get(`/v1/events/${m.event_ticker}`);
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('fanout');
    expect(r.body.markets.map((x: any) => x.market_id)).toContain(m.ticker);
  });
});

describe('venue_2 events nest their markets', () => {
  it('by numeric id (probed) and by slug; player props are not gathered', async () => {
    const { get } = await liveApp(sim);
    const [ev] = (await simJson(sim, '/venue_2/events?tag_slug=nba&limit=1')) as any[];
    const byId = await get(`/v1/events/${ev.id}`);
    expect(byId.status).toBe(200);
    shape(byId.body, 'venue_2');
    const props = new Set(['points', 'rebounds', 'assists', 'passing_yards', 'rushing_yards', 'receiving_yards', 'receptions']);
    const want = ev.markets.filter((m: any) => !props.has(m.sportsMarketType)).map((m: any) => m.id);
    expect(byId.body.markets.map((m: any) => m.market_id)).toEqual(want);
    const bySlug = await get(`/v1/events/${ev.slug}`);
    expect(bySlug.body.markets).toEqual(byId.body.markets);
  });
});

describe('shared numeric ids are probed on venue_2 and venue_3', () => {
  // Spec, event route rule 1: "shared numeric/slug shapes are probed as above and give `409` when
  // both hold the id"; Errors: 409 `ambiguous_identifier`, `param` is `event_id`, `candidates` the
  // provider tokens, `message` quotes the offending value. The simulator gives some venue_2 events
  // ids that are also venue_3 market ids (pipelines/venues/simulator/FORMATS.md).
  const held = async (path: string) => {
    const res = await request(sim.baseUrl + path);
    await res.body.text();
    return res.statusCode === 200;
  };

  it('an id that is a venue_2 event and a venue_3 market is 409 ambiguous_identifier; naming either provider answers', async () => {
    const { get } = await liveApp(sim);
    const v3 = (await simJson(sim, '/venue_3/v1/markets?per_page=250')).data as any[];
    let shared: string | undefined;
    for (const m of v3) {
      if (await held(`/venue_2/events/${m.id}`)) {
        shared = String(m.id);
        break;
      }
    }
    expect(shared, 'the simulator publishes venue_2 event ids that are venue_3 market ids').toBeTruthy();

    const amb = await get(`/v1/events/${shared}`);
    expect(amb.status).toBe(409);
    expect(amb.headers['content-type']).toMatch(/^application\/json/);
    expect(amb.headers['x-request-id']).toBeTruthy();
    // The whole body: no field beyond the spec's for a 409; candidates in any order.
    expect({ ...amb.body, candidates: [...amb.body.candidates].sort() }).toEqual({
      code: 'ambiguous_identifier',
      message: expect.stringContaining(`"${shared}"`),
      status_code: 409,
      param: 'event_id',
      candidates: ['venue_2', 'venue_3'],
    });

    // "for 409 resend with a provider from candidates": each answers, the composite form too.
    const v2 = await get(`/v1/events/${shared}?provider=venue_2`);
    expect(v2.status).toBe(200);
    shape(v2.body, 'venue_2');
    const ev2 = await simJson(sim, `/venue_2/events/${shared}`);
    expect(v2.body.title).toBe(ev2.title);
    const v3named = await get(`/v1/events/${shared}?provider=venue_3`);
    expect(v3named.status).toBe(200);
    shape(v3named.body, 'venue_3');
    expect(v3named.body.markets.map((m: any) => m.market_id)).toEqual([shared]);
    expect((await get(`/v1/events/venue_3:${shared}`)).body).toEqual(v3named.body);
  });

  it('an id only one candidate holds answers from it; one neither holds is 404 event_not_found', async () => {
    const { get } = await liveApp(sim);
    const v3 = (await simJson(sim, '/venue_3/v1/markets?per_page=250')).data as any[];
    let only3: string | undefined;
    for (const m of v3) {
      if (!(await held(`/venue_2/events/${m.id}`))) {
        only3 = String(m.id);
        break;
      }
    }
    expect(only3).toBeTruthy();
    const one = await get(`/v1/events/${only3}`);
    expect(one.status).toBe(200);
    expect(one.body.provider).toBe('venue_3');
    const none = await get('/v1/events/1');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'event_not_found', status_code: 404 });
  });
});

describe('wrapping rules', () => {
  it('venue_3 wraps a market as a one-element event', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_3/v1/markets?per_page=1')).data;
    const r = await get(`/v1/events/${m.id}?provider=venue_3`);
    expect(r.status).toBe(200);
    shape(r.body, 'venue_3');
    expect(r.body.markets).toEqual([{ market_id: String(m.id), title: m.title }]);
  });

  it('venue_5 maps a question to its outcome markets, or wraps a standalone outcome', async () => {
    const { get } = await liveApp(sim);
    const [q] = (await simJson(sim, '/venue_5/questions?take=1')).questions;
    const r = await get(`/v1/events/venue_5:${q.question_id}`);
    expect(r.status).toBe(200);
    expect(r.body.markets.map((m: any) => m.market_id)).toEqual(q.outcomes.map((o: any) => String(o.outcome_id)));
    const o = await get(`/v1/events/${q.outcomes[0].outcome_id}?provider=venue_5`);
    expect(o.body.markets).toEqual([{ market_id: String(q.outcomes[0].outcome_id), title: q.outcomes[0].label }]);
  });

  it('venue_6: an event lists its markets; a binary market is a single-market event; ULIDs need a provider', async () => {
    const { get } = await liveApp(sim);
    const { items } = await simJson(sim, '/venue_6/api/markets?page_size=1');
    const ev = await simJson(sim, `/venue_6/api/events/${items[0].event_id}`);
    const r = await get(`/v1/events/venue_6:${ev.id}`);
    expect(r.status).toBe(200);
    expect(r.body.markets.map((m: any) => m.market_id)).toEqual(ev.markets.map((m: any) => m.id));
    const single = await get(`/v1/events/${items[0].id}?provider=venue_6`);
    expect(single.body.markets.map((m: any) => m.market_id)).toEqual([items[0].id]);
    const bare = await get(`/v1/events/${ev.id}`);
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ code: 'invalid_identifier', param: 'event_id' });
  });

  it('venue_7: markets are event:type pairs; props (type 100+) are not gathered', async () => {
    const { get } = await liveApp(sim);
    const { events } = await simJson(sim, '/venue_7/events?count=20');
    const e = events.find((x: any) => x.markets.some((m: any) => m.type_id >= 100)) ?? events[0];
    const r = await get(`/v1/events/${e.event_id}?provider=venue_7`);
    expect(r.status).toBe(200);
    expect(r.body.markets.map((m: any) => m.market_id)).toEqual(e.markets.filter((m: any) => m.type_id < 100).map((m: any) => m.id));
    const c = await get(`/v1/events/venue_2:${e.event_id}?provider=venue_7`);
    expect(c.status).toBe(400);
    expect(c.body.param).toBe('provider');
  });

  it('venue_8: a market slug is its own event; a group slug lists its markets', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_8/v0/markets?limit=1')) as any[];
    const r = await get(`/v1/events/venue_8:${m.slug}`);
    expect(r.body.markets).toEqual([{ market_id: m.slug, title: m.question }]);
    const g = await simJson(sim, `/venue_8/v0/group/${m.groupSlugs[0]}`);
    const rg = await get(`/v1/events/${m.groupSlugs[0]}?provider=venue_8`);
    expect(rg.body.markets.map((x: any) => x.market_id)).toEqual(g.markets.map((x: any) => x.slug));
  });

  it('venue_9: a parent lists its children as pairs', async () => {
    const { get } = await liveApp(sim);
    const p = (await simJson(sim, '/venue_9/parents?limit=1')).data[0];
    const r = await get(`/v1/events/venue_9:${p.id}`);
    expect(r.status).toBe(200);
    expect(r.body.markets.map((m: any) => m.market_id)).toEqual(p.children.map((c: any) => c.pair));
  });
});

describe('venue_4 fixtures resolve only while trading', () => {
  it('a fixture id is inferred; once the game is finished it is 404 while its market still resolves', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_4/markets/active?pageSize=1')).data.markets;
    const live = await get(`/v1/events/${m.sportXeventId}`);
    expect(live.status).toBe(200);
    shape(live.body, 'venue_4');
    expect(live.body.markets.map((x: any) => x.market_id)).toContain(m.marketHash);
    const saved = sim.clock.now();
    sim.clock.set(m.gameTime * 1000 + 2 * 86_400_000);
    try {
      const done = await get(`/v1/events/${m.sportXeventId}`);
      expect(done.status).toBe(404);
      expect(done.body.code).toBe('event_not_found');
      const mk = await get(`/v1/markets/${m.marketHash}`);
      expect(mk.status).toBe(200);
      expect(mk.body.status).not.toBe('open');
    } finally {
      sim.clock.set(saved);
    }
  });
});

describe('field order as the spec lists it', () => {
  it('event_id, provider, title, markets (market_id, title), then fanout (attempted, returned, missing)', async () => {
    const { get } = await liveApp(sim);
    const v1 = await get(`/v1/events/${await nbaEventTicker()}`);
    expect(v1.status).toBe(200);
    expect(Object.keys(v1.body)).toEqual(['event_id', 'provider', 'title', 'markets', 'fanout']);
    expect(Object.keys(v1.body.fanout)).toEqual(['siblings_attempted', 'siblings_returned', 'siblings_missing']);
    for (const m of v1.body.markets) expect(Object.keys(m)).toEqual(['market_id', 'title']);
    const [ev] = (await simJson(sim, '/venue_2/events?tag_slug=nba&limit=1')) as any[];
    const v2 = await get(`/v1/events/venue_2:${ev.slug}`);
    expect(Object.keys(v2.body)).toEqual(['event_id', 'provider', 'title', 'markets']);
    for (const m of v2.body.markets) expect(Object.keys(m)).toEqual(['market_id', 'title']);
  });
});

describe('every accepted id form names the same event', () => {
  it('venue_1: bare (any case), composite (any prefix case), with provider in a tolerated spelling; contradictions and unknown prefixes are 400', async () => {
    const { get } = await liveApp(sim);
    const ticker = await nbaEventTicker();
    const want = (await get(`/v1/events/${ticker}`)).body;
    expect(want.event_id).toBe(ticker);
    for (const form of [ticker.toLowerCase(), `venue_1:${ticker}`, `VENUE_1:${ticker.toLowerCase()}`, `${ticker}?provider=v1`, `${ticker}?provider=VENUE-1`, `venue_1:${ticker}?provider=venue1`]) {
      const r = await get(`/v1/events/${form}`);
      expect(r.status, form).toBe(200);
      expect(r.body, form).toEqual(want);
    }
    const contra = await get(`/v1/events/venue_1:${ticker}?provider=venue_2`);
    expect(contra.status).toBe(400);
    expect(contra.body).toMatchObject({ code: 'invalid_parameter', param: 'provider' });
    for (const prefix of ['v1', 'venue_10', 'kalshi']) {
      const r = await get(`/v1/events/${prefix}:${ticker}`);
      expect(r.status, prefix).toBe(400);
      expect(r.body, prefix).toMatchObject({ code: 'invalid_identifier', param: 'event_id' });
      expect(r.body.message, prefix).toContain(JSON.stringify(prefix));
    }
    const bogus = await get(`/v1/events/${ticker}?provider=bogus`);
    expect(bogus.body).toMatchObject({ code: 'invalid_parameter', param: 'provider' });
    const unknown = await get('/v1/events/KXNBAGAME-99JAN01ZZZYYY');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'event_not_found', param: 'event_id' });
  });

  it('venue_4: a fixture id in lower case is inferred too', async () => {
    const { get } = await liveApp(sim);
    const [m] = (await simJson(sim, '/venue_4/markets/active?pageSize=1')).data.markets;
    const upper = await get(`/v1/events/${m.sportXeventId}`);
    const lower = await get(`/v1/events/${String(m.sportXeventId).toLowerCase()}`);
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual(upper.body);
  });
});
