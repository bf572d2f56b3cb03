// Pure builders of market detail on venue-native fixtures (shapes from
// pipelines/venues/simulator/FORMATS.md): the pricing rules without any venue running.
import { describe, expect, it, vi } from 'vitest';
import { BOOK_FAILED, builtOnce, iso, type LiveIO } from './live.ts';
import { buildVenue2 } from './venue_2/market.ts';
import { buildVenue3, venue3Get } from './venue_3/market.ts';
import { buildVenue6 } from './venue_6/market.ts';
import { buildVenue7 } from './venue_7/market.ts';
import { buildVenue9Parent } from './venue_9/market.ts';
import { NOT_FOUND } from '../client/http.ts';
import { ApiError } from '../../../lib/errors.ts';

const at = '2026-11-21T21:00:00.000Z';
const H = (c: string) => '0x' + c.repeat(64);

describe('pricing rules per venue', () => {
  it('venue_3: a book wider than quote_rules.max_spread is indicative; a resolved market is settled', () => {
    const m = {
      id: 1000201, title: 'A @ B', status: 'open', quote_rules: { max_spread: 0.1 }, updated_at: '2026-11-21T20:00:00Z',
      outcomes: [{ token: 't1', name: 'A', best_bid: 0.3, best_ask: 0.45, last_price: 0.4 }, { token: 't2', name: 'B', best_bid: 0.55, best_ask: 0.7, last_price: 0.6 }],
      fees: { schedule: 'account' },
    };
    const d = buildVenue3(m, at);
    expect(d.pricing).toMatchObject({ availability: 'indicative', source: 'market_record', as_of: '2026-11-21T20:00:00.000Z', as_of_kind: 'record_refresh' });
    expect(d.outcomes[0]).toMatchObject({ bid: 0.3, ask: 0.45, price: 0.375 });
    const s = buildVenue3({ ...m, status: 'resolved', resolution: 't2' }, at);
    expect(s.status).toBe('settled');
    expect(s.outcomes.map((o) => o.price)).toEqual([0, 1]);
    expect(s.pricing.availability).not.toBe('live');
  });

  it('venue_2: settled prices from outcomePrices; not live once closed', () => {
    const m = {
      id: '9000123', question: 'Lakers vs. Celtics', outcomes: '["Lakers","Celtics"]', clobTokenIds: '["1","2"]',
      outcomePrices: '["0.5","0.5"]', bestBid: 0.44, bestAsk: 0.46, lastTradePrice: 0.45, active: true, closed: true,
      umaResolutionStatus: 'resolved', negRisk: true, feesEnabled: false, takerBaseFee: 0, makerBaseFee: 0, events: [{ id: '71001' }],
    };
    const d = buildVenue2(m, at);
    expect(d.status).toBe('settled');
    expect(d.outcomes.map((o) => [o.price, o.bid, o.ask])).toEqual([[0.5, null, null], [0.5, null, null]]);
    expect(d.pricing).toMatchObject({ availability: 'indicative', neg_risk: true });
    expect(d.event_id).toBe('71001');
    expect(d.trading_fees.availability).toBe('zero');
  });

  it('venue_6: a failed book keeps the record mark, indicative; a live four-sided book is live', () => {
    const m = { id: '01JD5ZQ8M3W6Y9B2C4E7F0G1H2', question: 'Q', status: 'open', mark: 0.45, mark_ts: '2026-11-21T20:59:00Z', outcomes: [{ token: 'a' }, { token: 'b' }], fee_info: { type: 'per_account' } };
    const f = buildVenue6(m, BOOK_FAILED, at);
    expect(f.outcomes.map((o) => o.price)).toEqual([0.45, 0.55]);
    expect(f.pricing).toMatchObject({ availability: 'indicative', as_of_kind: 'record_refresh' });
    const book = { yes: { bids: [{ p: 0.44, q: 10 }], asks: [{ p: 0.47, q: 5 }] }, no: { bids: [{ p: 0.54, q: 8 }], asks: [] }, mark: 0.45, ts: '2026-11-21T21:00:00Z' };
    const l = buildVenue6(m, book, at);
    expect(l.pricing).toMatchObject({ availability: 'live', as_of_kind: 'quote' });
    expect(l.outcomes[0]).toMatchObject({ bid: 0.44, ask: 0.46, ask_size: 8 }); // 1 - NO bid 0.54 beats 0.47
    expect(l.outcomes.map((o) => o.outcome_id)).toEqual(['a', 'b']);
    expect(l.trading_fees.availability).toBe('per_account');
  });

  it('venue_7: favourite line for the pair, the named line for three parts, 404 for an unlisted line', () => {
    const sel = (id: number, name: string, odds: number) => ({ id, name, back: [{ odds, stake: 100 }], lay: [] });
    const ev = {
      event_id: 3001, name: 'Lakers at Celtics', state: 'open', commission_pct: 2,
      markets: [{ id: '3001:2', type_id: 2, name: 'Handicap', state: 'open', lines: [
        { line: -3.5, favourite: false, selections: [sel(1, 'Celtics -3.5', 2.0), sel(2, 'Lakers +3.5', 2.0)] },
        { line: -5.5, favourite: true, selections: [sel(1, 'Celtics -5.5', 2.5), sel(2, 'Lakers +5.5', 1.6)] },
      ] }],
    };
    const fav = buildVenue7(ev, '3001:2', at);
    expect(fav).not.toBe(NOT_FOUND);
    if (fav === NOT_FOUND) return;
    expect(fav.outcomes.map((o) => o.name)).toEqual(['Celtics -5.5', 'Lakers +5.5']);
    expect(fav.outcomes[0]).toMatchObject({ ask: 0.4, bid: 0.375, price: 0.3875 });
    const named = buildVenue7(ev, '3001:2:-3.5', at);
    expect(named !== NOT_FOUND && named.outcomes[0].name).toBe('Celtics -3.5');
    expect(buildVenue7(ev, '3001:2:-7.5', at)).toBe(NOT_FOUND);
    expect(buildVenue7(ev, '3001:9', at)).toBe(NOT_FOUND);
  });

  it('venue_9 parent: one outcome per child, no price unless settled', () => {
    const p = {
      id: H('a'), title: 'LAL vs BOS',
      children: [
        { id: H('b'), pair: `${H('a')}:${H('b')}`, title: 'Lakers', yes_price: 0.4, status: 'trading', fee_rate_bps: 100 },
        { id: H('c'), pair: `${H('a')}:${H('c')}`, title: 'Celtics', yes_price: 0.6, status: 'resolved', resolved_to: 'yes', fee_rate_bps: 100 },
      ],
    };
    const d = buildVenue9Parent(p, at);
    expect(d.outcomes.map((o) => [o.name, o.price])).toEqual([['Lakers', null], ['Celtics', 1]]);
    expect(d.pricing.source).toBe('market_record');
    expect(d.trading_fees.taker?.rate).toBe(0.01);
  });
});

describe('builtOnce (one body for the requests that share a venue answer)', () => {
  const answer = { id: 1000201, title: 'A @ B', status: 'open', outcomes: [] };
  it('builds once for the same answer and the same inputs, again when any input differs', () => {
    let builds = 0;
    const build = (observedAt: string) => () => (builds++, buildVenue3(answer, observedAt));
    const first = builtOnce(answer, ['b', at], build(at));
    expect(builtOnce(answer, ['b', at], build(at))).toBe(first);
    expect(builds).toBe(1);
    const later = '2026-11-21T21:00:00.001Z';
    const other = builtOnce(answer, ['b', later], build(later));
    expect(builds).toBe(2);
    expect(other).not.toBe(first);
    expect(other).toEqual(buildVenue3(answer, later));
    expect(builtOnce(answer, ['c', later], build(later))).not.toBe(other);
    expect(builtOnce({ ...answer }, ['c', later], build(later))).not.toBe(other);
    expect(builds).toBe(4);
  });
  it('a body that is not an object (a primitive answer, NOT_FOUND) is built every time', () => {
    let builds = 0;
    expect(builtOnce(null, [at], () => (builds++, NOT_FOUND))).toBe(NOT_FOUND);
    expect(builtOnce(null, [at], () => (builds++, NOT_FOUND))).toBe(NOT_FOUND);
    expect(builds).toBe(2);
  });
});

describe('iso (observed_at as ISO text)', () => {
  it('writes Date\'s ISO text, once for the requests of one millisecond', () => {
    const spy = vi.spyOn(Date.prototype, 'toISOString');
    try {
      const t = Date.UTC(2026, 10, 27, 12, 0, 0, 7);
      expect(iso(t)).toBe('2026-11-27T12:00:00.007Z');
      expect(iso(t)).toBe('2026-11-27T12:00:00.007Z');
      expect(iso(t)).toBe('2026-11-27T12:00:00.007Z');
      expect(spy).toHaveBeenCalledTimes(1);
      // Another instant, then the first again: each its own text.
      expect(iso(t + 1)).toBe('2026-11-27T12:00:00.008Z');
      expect(iso(t)).toBe('2026-11-27T12:00:00.007Z');
      expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
      expect(spy).toHaveBeenCalledTimes(4);
    } finally {
      spy.mockRestore();
    }
    // Out of Date's range it throws as toISOString does, every time.
    expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});

describe('venue3Get (a venue_3 market read by id)', () => {
  const io = (answer: () => Promise<unknown>, paths: string[] = []): LiveIO => ({
    get: (_venue, path) => (paths.push(path), answer()),
    book: async () => BOOK_FAILED,
    now: () => 0,
  });
  const rejected = new ApiError('upstream_rejected', 'venue_3 rejected the request (HTTP 400): bad id');
  const outcome = (p: Promise<unknown>) => p.then((v) => ({ value: v }), (e: unknown) => ({ error: e }));
  it('reads /venue_3/v1/markets/{id}; a numeric id\'s answer and errors as they come', async () => {
    const paths: string[] = [];
    const data = { data: { id: 42 } };
    expect(await venue3Get(io(async () => data, paths), '42')).toBe(data);
    expect(await venue3Get(io(async () => NOT_FOUND, paths), '42')).toBe(NOT_FOUND);
    expect(await outcome(venue3Get(io(() => Promise.reject(rejected)), '42'))).toEqual({ error: rejected });
    await venue3Get(io(async () => data, paths), 'a b/c');
    expect(paths).toEqual(['/venue_3/v1/markets/42', '/venue_3/v1/markets/42', '/venue_3/v1/markets/a%20b%2Fc']);
  });
  it('a slug (from the venue_2/venue_3 probe): the venue\'s 400 means not held here (NOT_FOUND); other errors as thrown', async () => {
    expect(await venue3Get(io(() => Promise.reject(rejected)), 'some-slug')).toBe(NOT_FOUND);
    const other = new ApiError('upstream_unavailable', 'venue_3 gave no valid answer: down');
    expect(await outcome(venue3Get(io(() => Promise.reject(other)), 'some-slug'))).toEqual({ error: other });
    const plain = new Error('boom');
    expect(await outcome(venue3Get(io(() => Promise.reject(plain)), 'some-slug'))).toEqual({ error: plain });
  });
});
