// include_prices on the two sports routes, through app.inject, fed by native venue records (with the
// quotes their listings carry) through the real canonicalizers, matcher, snapshot sink and readers
// (stages/inline.ts, a memory SnapshotStore). Expected numbers are worked out by hand beside them.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';
import { MemorySnapshotStore } from '../../../pipelines/readmodels/memory-store.ts';
import { InlineSports } from '../../../pipelines/matching/stages/inline.ts';
import { SportsReader, sportsDepsOf } from '../../../pipelines/matching/readmodel.ts';
import { crawlComplete, raw, venue1Records, venue2Records, type GameSpec } from '../../../pipelines/matching/fixtures.ts';
import type { RawRecord } from '../../../pipelines/topics.ts';
import { buildOpenApi } from '../../openapi.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const LIST = '/v1/matching-markets/sports';

async function harness(o: { prices?: boolean } = {}) {
  const store = new MemorySnapshotStore();
  const clock = { now: NOW };
  const proc = new InlineSports(store, () => clock.now);
  const sports = o.prices === false ? { reader: new SportsReader(store) } : sportsDepsOf(store);
  const t = await build({ now: NOW, deps: { sports } });
  const key = await t.createKey({ plan: 'pro', permissions: ['markets.matching.read'] });
  const get = async (url: string) => {
    const res = await t.app.inject({ url, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() as Record<string, any> };
  };
  const feed = async (records: RawRecord[]) => {
    proc.ingest(records);
    await proc.publish();
  };
  const setNow = (ms: number) => {
    clock.now = ms;
    t.clock.set(ms);
  };
  return { get, feed, setNow, proc };
}

/** A record's payload changed the way a test needs (the fixtures carry no quotes). */
function edit(records: RawRecord[], fn: (p: any, r: RawRecord) => void): RawRecord[] {
  return records.map((r) => {
    const p = JSON.parse(r.payload);
    fn(p, r);
    return { ...r, payload: JSON.stringify(p) };
  });
}

const V7_OT = 'Winners and losers are determined by the final score (including overtime). Second-half wagers do not include overtime. Rules: https://venue7.example/rules';

/** A venue_7 event record (FORMATS.md): a moneyline of back offers, commission on net winnings. */
function venue7Event(eventId: number, name: string, start: number, odds: [number, number], readAt: number, rules = V7_OT): RawRecord {
  const [away, home] = name.split(' at ');
  const sel = (id: number, n: string, o: number) => ({ id, name: n, back: [{ odds: o, stake: 500 }], lay: [] });
  return raw(
    'venue_7',
    'event',
    String(eventId),
    {
      event_id: eventId,
      name,
      sport: 'basketball',
      league: 'NBA',
      start: new Date(start).toISOString(),
      state: 'open',
      commission_pct: 2.0,
      markets: [{ id: `${eventId}:1`, event_id: eventId, type_id: 1, name: 'Match Odds', state: 'open', rules, lines: [{ line: null, favourite: true, selections: [sel(1, away!, odds[0]), sel(2, home!, odds[1])] }] }],
    },
    readAt,
  );
}

const lalBos: GameSpec = { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-22T00:30:00Z') };

function quoted(readAt = NOW): RawRecord[] {
  // venue_1: one binary market per team, cents; its fee schedule is not on the listing.
  const v1 = edit(venue1Records(lalBos, readAt), (p) => {
    if (p.ticker?.endsWith('-LAL')) Object.assign(p, { yes_bid: 38, yes_ask: 39, no_bid: 61, no_ask: 62 });
    if (p.ticker?.endsWith('-BOS')) Object.assign(p, { yes_bid: 60, yes_ask: 62, no_bid: 38, no_ask: 40 });
  });
  // venue_2 moneyline: the record quotes the first outcome (Lakers); Celtics is the complement.
  const v2 = edit(venue2Records(lalBos, readAt, { onlyMoneyline: true }), (p) => Object.assign(p, { bestBid: 0.44, bestAsk: 0.46 }));
  // venue_7: Lakers 2.5 -> ask 0.4; Celtics 1.7 -> ask 1/1.7 = 0.588235
  return [...v1, ...v2, venue7Event(30000412, 'Lakers at Celtics', lalBos.start, [2.5, 1.7], readAt)];
}

const moneyline = (body: any) => body.data[0].submarkets.find((s: any) => s.key === 'moneyline|full|winner');

describe('include_prices', () => {
  it('adds per-outcome quotes, effective asks after the taker fee, the best venue and the cheapest complete set', async () => {
    const h = await harness();
    await h.feed(quoted());
    const { status, body } = await h.get(`${LIST}?include_prices=true`);
    expect(status).toBe(200);
    const ml = moneyline(body);
    expect(ml.source_markets.map((s: any) => s.provider)).toEqual(['venue_1', 'venue_1', 'venue_2', 'venue_7']);
    const [lal, bos] = ml.prices.outcomes;
    expect(lal.outcome_key).toBe('winner:lal');
    const row = (q: any) => [q.provider, q.outcome_id, q.bid, q.ask, q.fee_availability, q.fee, q.effective_ask, q.stale];
    expect(lal.quotes.map(row)).toEqual([
      // venue_1 BOS no, LAL yes (source markets in id order): the lowest asks, but the fee is
      // unknown from the listing
      ['venue_1', 'no', 0.38, 0.4, 'unavailable', null, null, false],
      ['venue_1', 'yes', 0.38, 0.39, 'unavailable', null, null, false],
      // venue_2 moneylines are fee free (a genuine zero)
      ['venue_2', expect.any(String), 0.44, 0.46, 'zero', 0, 0.46, false],
      // venue_7: bid = 1 - Celtics ask = 0.411765; 0.4 + 0.02 x 0.6 = 0.412
      ['venue_7', '1', 0.411765, 0.4, 'published', 0.012, 0.412, false],
    ]);
    expect(lal.quotes[3]).toMatchObject({ as_of: null, as_of_kind: 'unknown', observed_at: new Date(NOW).toISOString() });
    expect(lal.best).toMatchObject({ provider: 'venue_7', outcome_id: '1', ask: 0.4, effective_ask: 0.412 });
    // Celtics: venue_2 1 - 0.44 = 0.56 (no fee); venue_7 0.588235 + 0.02 x 0.411765 (0.0082353, up to
    // 0.008236) = 0.596471 -> venue_2.
    expect(bos.quotes.find((q: any) => q.provider === 'venue_7')).toMatchObject({ ask: 0.588235, fee: 0.008236, effective_ask: 0.596471 });
    expect(bos.best).toMatchObject({ provider: 'venue_2', ask: 0.56, effective_ask: 0.56 });
    // 0.412 + 0.56 = 0.972 -> edge 0.028, across two venues.
    expect(ml.prices.complete_set).toMatchObject({ cost: 0.972, edge: 0.028 });
    expect(ml.prices.complete_set.legs.map((l: any) => [l.outcome_key, l.provider])).toEqual([
      ['winner:lal', 'venue_7'],
      ['winner:bos', 'venue_2'],
    ]);
    // The fields served are the ones the OpenAPI document requires.
    const schemas = (buildOpenApi() as any).components.schemas;
    expect(Object.keys(ml.prices).sort()).toEqual([...schemas.SubmarketPrices.required].sort());
    for (const q of [...lal.quotes, ...bos.quotes]) expect(Object.keys(q).sort()).toEqual([...schemas.VenueQuote.required].sort());
    expect(Object.keys(lal.best).sort()).toEqual([...schemas.PriceLeg.required].sort());
    expect(Object.keys(ml.prices.complete_set).sort()).toEqual([...schemas.SubmarketPrices.properties.complete_set.anyOf[0].required].sort());
    // Every venue's text says overtime counts on an nba moneyline: equivalent, so settlement-safe.
    expect(ml.settlement_equivalence).toBe('equivalent');
    expect(ml.prices.complete_set.settlement_safe).toBe(true);
  });

  it("prices venue_1 with its polled fee schedule: effective asks, the best venue and the complete set move with it, a scheduled change at its time", async () => {
    const h = await harness();
    await h.feed(quoted());
    // reference.fee_schedules as the fee schedule poller writes it: KXNBAGAME quadratic 0.07, 0.035 from NOW + 30 s.
    const change = NOW + 30_000;
    const payload = { series: { ticker: 'KXNBAGAME', fee_type: 'quadratic', fee_multiplier: 0.07 }, series_fee_change_arr: [{ series_ticker: 'KXNBAGAME', fee_type: 'quadratic', fee_multiplier: 0.035, scheduled_ts: new Date(change).toISOString() }] };
    h.proc.feeSchedules([{ key: 'fees|venue_1|KXNBAGAME', value: raw('venue_1', 'fee_schedule', 'KXNBAGAME', payload, NOW) }]);
    await h.proc.publish();
    let ml = moneyline((await h.get(`${LIST}?include_prices=true`)).body);
    const row = (q: any) => [q.provider, q.outcome_id, q.ask, q.fee_availability, q.fee, q.effective_ask];
    // Lakers on venue_1: BOS no 0.07 x 0.4 x 0.6 = 0.0168 and LAL yes 0.07 x 0.39 x 0.61 = 0.016653,
    // each up to the cent 0.02 -> 0.42 and 0.41; 0.41 beats venue_7's 0.412.
    expect(ml.prices.outcomes[0].quotes.filter((q: any) => q.provider === 'venue_1').map(row)).toEqual([
      ['venue_1', 'no', 0.4, 'published', 0.02, 0.42],
      ['venue_1', 'yes', 0.39, 'published', 0.02, 0.41],
    ]);
    expect(ml.prices.outcomes[0].best).toMatchObject({ provider: 'venue_1', outcome_id: 'yes', effective_ask: 0.41 });
    // Celtics on venue_1: 0.62 + 0.02 = 0.64 each; venue_2's 0.56 stays best. 0.41 + 0.56 = 0.97.
    expect(ml.prices.outcomes[1].quotes.filter((q: any) => q.provider === 'venue_1').map((q: any) => q.effective_ask)).toEqual([0.64, 0.64]);
    expect(ml.prices.complete_set).toMatchObject({ cost: 0.97, edge: 0.03 });
    expect(ml.prices.complete_set.legs.map((l: any) => [l.outcome_key, l.provider])).toEqual([
      ['winner:lal', 'venue_1'],
      ['winner:bos', 'venue_2'],
    ]);
    // The change's time passes with nothing read again: 0.035 x 0.2379 = 0.0083265 -> 0.01 -> 0.40.
    h.setNow(change + 1_000);
    await h.proc.publish();
    ml = moneyline((await h.get(`${LIST}?include_prices=true`)).body);
    expect(ml.prices.outcomes[0].quotes.find((q: any) => q.provider === 'venue_1' && q.outcome_id === 'yes')).toMatchObject({ fee: 0.01, effective_ask: 0.4 });
    expect(ml.prices.outcomes[0].best).toMatchObject({ provider: 'venue_1', outcome_id: 'yes', effective_ask: 0.4 });
    expect(ml.prices.complete_set).toMatchObject({ cost: 0.96, edge: 0.04 });
  });

  it('settlement_safe is false when a venue leaves a rule unknown (unverified)', async () => {
    const h = await harness();
    await h.feed([...quoted().filter((r) => r.venue !== 'venue_7'), venue7Event(30000412, 'Lakers at Celtics', lalBos.start, [2.5, 1.7], NOW, 'Rules: https://venue7.example/rules')]);
    const ml = moneyline((await h.get(`${LIST}?include_prices=true`)).body);
    expect(ml.settlement_equivalence).toBe('unverified');
    expect(ml.prices.complete_set).toMatchObject({ cost: 0.972, edge: 0.028, settlement_safe: false });
  });

  it('settlement_safe is false on an equivalent nfl moneyline whose venues all say a tie loses: a tie pays neither leg', async () => {
    const h = await harness();
    const kcBuf: GameSpec = { league: 'nfl', away: 'kc', home: 'buf', start: Date.parse('2026-11-22T18:00:00Z') };
    const v1 = edit(venue1Records(kcBuf, NOW), (p) => {
      if (p.ticker?.endsWith('-KC')) Object.assign(p, { yes_bid: 38, yes_ask: 39, no_bid: 61, no_ask: 62 });
      if (p.ticker?.endsWith('-BUF')) Object.assign(p, { yes_bid: 60, yes_ask: 62, no_bid: 38, no_ask: 40 });
    });
    const v7 = edit([venue7Event(30000413, 'Chiefs at Bills', kcBuf.start, [2.5, 1.7], NOW, 'Winners and losers are determined by the final score (including overtime). A tie loses. Rules: https://venue7.example/rules')], (p) =>
      Object.assign(p, { sport: 'american_football', league: 'NFL' }),
    );
    await h.feed([...v1, ...v7]);
    for (const q of ['include_prices=true', 'include_prices=true&include_rules=true']) {
      const { body } = await h.get(`${LIST}?${q}`);
      const ml = moneyline(body);
      expect(ml.source_markets.map((s: any) => s.provider), q).toEqual(['venue_1', 'venue_1', 'venue_7']);
      expect(ml.settlement_equivalence, q).toBe('equivalent');
      expect(ml.prices.complete_set, q).not.toBeNull();
      expect(ml.prices.complete_set.settlement_safe, q).toBe(false);
      if (q.includes('rules')) expect(ml.rule_comparisons.find((r: any) => r.rule === 'tie').source_values.map((v: any) => v.value)).toEqual(['loses', 'loses', 'loses']);
    }
  });

  it('marks quotes read longer ago than PRICES_STALE_MS stale and leaves them out; a later complete crawl counts as a read', async () => {
    const h = await harness();
    await h.feed([...quoted(), crawlComplete('venue_2', 'crawl-1', NOW), crawlComplete('venue_7', 'crawl-1', NOW)]);
    h.setNow(NOW + 61_000);
    let ml = moneyline((await h.get(`${LIST}?include_prices=true`)).body);
    expect(ml.prices.outcomes[0].quotes.filter((q: any) => q.provider !== 'venue_1').every((q: any) => q.stale)).toBe(true);
    expect(ml.prices.outcomes.map((o: any) => o.best)).toEqual([null, null]);
    expect(ml.prices.complete_set).toBeNull();
    // venue_7 completes a crawl that began at NOW + 50 s and found its record unchanged (not written
    // again): its quotes were read then. venue_2's were not.
    await h.feed([crawlComplete('venue_7', 'crawl-2', NOW + 50_000)]);
    ml = moneyline((await h.get(`${LIST}?include_prices=true`)).body);
    const v7 = ml.prices.outcomes[0].quotes.find((q: any) => q.provider === 'venue_7');
    expect(v7).toMatchObject({ stale: false, observed_at: new Date(NOW + 50_000).toISOString() });
    expect(ml.prices.outcomes[0].quotes.find((q: any) => q.provider === 'venue_2').stale).toBe(true);
    expect(ml.prices.outcomes[0].best).toMatchObject({ provider: 'venue_7' });
    // Celtics' only fresh quote is venue_7's.
    expect(ml.prices.outcomes[1].best).toMatchObject({ provider: 'venue_7', effective_ask: 0.596471 });
    // 0.412 + 0.596471 = 1.008471: a loss, reported as such.
    expect(ml.prices.complete_set).toMatchObject({ cost: 1.008471, edge: -0.008471 });
  });

  it('a new quote replaces the old one on the next publish', async () => {
    const h = await harness();
    const first = quoted();
    await h.feed(first);
    const version = () => h.proc.sink.entries.get('nba-lal-bos-2026-11-21')!.version;
    const v0 = version();
    const moved = edit(
      first.filter((r) => r.venue === 'venue_2'),
      (p) => Object.assign(p, { bestBid: 0.5, bestAsk: 0.51 }),
    ).map((r) => ({ ...r, read_started_at: NOW + 5000 }));
    await h.feed(moved);
    const ml = moneyline((await h.get(`${LIST}?include_prices=true`)).body);
    const q = ml.prices.outcomes[0].quotes.filter((x: any) => x.provider === 'venue_2');
    expect(q.map((x: any) => [x.bid, x.ask, x.observed_at])).toEqual([[0.5, 0.51, new Date(NOW + 5000).toISOString()]]);
    // Lakers: venue_7 0.412 is still best; Celtics: venue_2 1 - 0.5 = 0.5 -> 0.912, edge 0.088.
    expect(ml.prices.complete_set).toMatchObject({ cost: 0.912, edge: 0.088 });
    // A quote is not part of the matched event: no new matched.events version (nor a push-stream
    // event.updated) for it.
    expect(version()).toBe(v0);
  });

  it('leaves the list and lookup bodies exactly as they were without it, and on the lookup adds the same prices', async () => {
    const h = await harness();
    await h.feed(quoted());
    const plain = await h.get(`${LIST}?include_submarkets=true`);
    const off = await h.get(`${LIST}?include_submarkets=true&include_prices=false`);
    expect(off.body).toEqual(plain.body);
    expect(JSON.stringify(plain.body)).not.toContain('"prices"');
    const on = await h.get(`${LIST}?include_submarkets=true&include_prices=TRUE`);
    const stripped = { ...on.body, data: on.body.data.map((e: any) => ({ ...e, submarkets: e.submarkets.map(({ prices: _p, ...s }: any) => s) })) };
    expect(stripped).toEqual(plain.body);

    const lookupPlain = await h.get('/v1/matching-markets/sports/lookup?event_id=nba-lal-bos-2026-11-21');
    expect(JSON.stringify(lookupPlain.body)).not.toContain('"prices"');
    const lookup = await h.get('/v1/matching-markets/sports/lookup?event_id=nba-lal-bos-2026-11-21&include_prices=true');
    expect(lookup.status).toBe(200);
    expect(moneyline(lookup.body).prices).toEqual(moneyline(on.body).prices);
  });

  it('is validated like every other boolean parameter, with the same error bodies', async () => {
    const h = await harness();
    await h.feed(quoted());
    for (const base of [`${LIST}?`, '/v1/matching-markets/sports/lookup?event_id=nba-lal-bos-2026-11-21&']) {
      for (const bad of ['yes', '', '1']) {
        const r = await h.get(`${base}include_prices=${bad}`);
        const ref = await h.get(`${base}include_settled=${bad}`);
        expect(r.status, bad).toBe(400);
        expect(r.body.code).toBe('invalid_parameter');
        expect(r.body.param).toBe('include_prices');
        expect(JSON.stringify(r.body)).toBe(JSON.stringify(ref.body).replaceAll('include_settled', 'include_prices'));
      }
      const twice = await h.get(`${base}include_prices=true&include_prices=false`);
      const twiceRef = await h.get(`${base}include_settled=true&include_settled=false`);
      expect(twice.status).toBe(400);
      expect(JSON.stringify(twice.body)).toBe(JSON.stringify(twiceRef.body).replaceAll('include_settled', 'include_prices'));
    }
  });

  it('answers 503 when the process has no prices reader, and only when asked for prices', async () => {
    const h = await harness({ prices: false });
    await h.feed(quoted());
    expect((await h.get(LIST)).status).toBe(200);
    const r = await h.get(`${LIST}?include_prices=true`);
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('service_unavailable');
  });
});
