// What each venue's listing record carries as quotes and taker fee (source-quotes.ts), read through
// canonicalize() as the canonicalizer reads it. Records are written by hand from FORMATS.md.
import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonicalize.ts';
import { venue7SourceQuotes } from '../venues/adapters/venue_7/source-quotes.ts';
import { venue1Records, venue2Records, venue3Records, venue4Records, type GameSpec } from './fixtures.ts';
import type { CanonicalMarket, Provider } from './types.ts';

const AT = Date.parse('2026-11-21T15:00:00Z');
const g: GameSpec = { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-22T00:30:00Z'), total: 221.5 };

function markets(provider: Provider, payload: unknown): CanonicalMarket[] {
  return canonicalize(provider, payload, AT).markets;
}
type Obj = Record<string, unknown>;
/** The payload of the fixture record that `pick` chooses. */
const payloadOf = (records: { payload: string }[], pick: (p: Obj) => boolean): Obj => records.map((r) => JSON.parse(r.payload) as Obj).find(pick)!;

describe('source quotes from listing records', () => {
  it('venue_1: cents to probabilities, 0 is an empty side; fees unavailable from the listing', () => {
    const p = payloadOf(venue1Records(g, AT), (p) => String(p.ticker).endsWith('-LAL'));
    const [m] = markets('venue_1', { ...p, yes_bid: 44, yes_ask: 46, no_bid: 0, no_ask: 56 });
    expect(m!.quotes!.outcomes).toEqual([
      { outcome_id: 'yes', bid: 0.44, ask: 0.46 },
      { outcome_id: 'no', bid: null, ask: 0.56 },
    ]);
    expect(m!.quotes!.fees).toMatchObject({ availability: 'unavailable', source: 'series_fee_schedule' });
    // No price on either side: no quotes at all.
    expect(markets('venue_1', { ...p, yes_bid: 0, yes_ask: 0, no_bid: 0, no_ask: 0 })[0]!.quotes).toBeUndefined();
  });

  it('venue_2: the record quotes the first outcome, the second is its complement; fees from the record', () => {
    const recs = venue2Records(g, AT);
    const ml = payloadOf(recs, (p) => p.sportsMarketType === 'moneyline');
    const [m] = markets('venue_2', { ...ml, bestBid: 0.44, bestAsk: 0.46 });
    const tokens = JSON.parse(String(ml.clobTokenIds)) as string[];
    expect(m!.quotes!.outcomes).toEqual([
      { outcome_id: tokens[0], bid: 0.44, ask: 0.46 },
      { outcome_id: tokens[1], bid: 0.54, ask: 0.56 },
    ]);
    expect(m!.quotes!.fees).toMatchObject({ availability: 'zero' });
    const total = payloadOf(recs, (p) => p.sportsMarketType === 'totals');
    const [t] = markets('venue_2', { ...total, bestBid: 0.5, bestAsk: 0.52, feesEnabled: true, takerBaseFee: 200, makerBaseFee: 0 });
    // 200 bps on the notional.
    expect(t!.quotes!.fees).toEqual({ availability: 'published', source: 'market_record', charge_basis: 'notional', taker: { model: 'proportional', rate: 0.02, exponent: null, rounding: { direction: 'none', increment: null } } });
  });

  it('venue_3: per-outcome best bid and ask, as_of from updated_at (record_refresh), fees per account', () => {
    const p = payloadOf(venue3Records(g, AT), (x) => x.type === 'moneyline');
    const outs = (p.outcomes as Obj[]).map((o, i): Obj => ({ ...o, best_bid: [0.44, 0.54][i], best_ask: [0.46, 0.56][i] }));
    const [m] = markets('venue_3', { ...p, outcomes: outs, updated_at: '2026-11-21T14:59:00Z', fees: { schedule: 'account' } });
    expect(m!.quotes).toMatchObject({
      outcomes: [
        { outcome_id: outs[0]!.token, bid: 0.44, ask: 0.46 },
        { outcome_id: outs[1]!.token, bid: 0.54, ask: 0.56 },
      ],
      as_of: Date.parse('2026-11-21T14:59:00Z'),
      as_of_kind: 'record_refresh',
      fees: { availability: 'per_account' },
    });
  });

  it('venue_7: odds offers of the line the market id names; commission on net winnings', () => {
    const sel = (id: number, name: string, odds: number) => ({ id, name, back: [{ odds, stake: 100 }], lay: [] });
    const event = {
      event_id: 30000412,
      name: 'Lakers at Celtics',
      sport: 'basketball',
      league: 'NBA',
      start: '2026-11-22T00:30:00Z',
      state: 'open',
      commission_pct: 2.0,
      markets: [
        {
          id: '30000412:3',
          type_id: 3,
          name: 'Total',
          state: 'open',
          lines: [
            { line: 221.5, favourite: true, selections: [sel(1, 'Over 221.5', 2.0), sel(2, 'Under 221.5', 1.8)] },
            { line: 224.5, favourite: false, selections: [sel(1, 'Over 224.5', 2.5), sel(2, 'Under 224.5', 1.5)] },
          ],
        },
      ],
    };
    const ms = markets('venue_7', event);
    const byId = new Map(ms.map((m) => [m.source.market_id, m]));
    // The favourite line is the pair form; 1/2.0 = 0.5 over, 1/1.8 = 0.555556 under (bids are the
    // complements of the other side's ask).
    expect(byId.get('30000412:3')!.quotes!.outcomes).toEqual([
      { outcome_id: '1', bid: 0.444444, ask: 0.5 },
      { outcome_id: '2', bid: 0.5, ask: 0.555556 },
    ]);
    // The alternate line by its three-part id: 1/2.5 = 0.4, 1/1.5 = 0.666667.
    expect(byId.get('30000412:3:224.5')!.quotes!.outcomes.map((o) => o.ask)).toEqual([0.4, 0.666667]);
    expect(byId.get('30000412:3')!.quotes!.fees).toMatchObject({ availability: 'published', charge_basis: 'net_winnings', taker: { model: 'proportional', rate: 0.02 } });
  });

  it('venue_7: a line printed as a threshold (`25+`) is found by its printed text', () => {
    const sel = (id: number, name: string, odds: number) => ({ id, name, back: [{ odds, stake: 100 }], lay: [] });
    const event = {
      event_id: 30000412,
      commission_pct: 2.0,
      markets: [{ id: '30000412:101', type_id: 101, lines: [{ line: '25+', favourite: false, selections: [sel(1, 'Yes', 2.5), sel(2, 'No', 1.5)] }] }],
    };
    const m = { source: { market_id: '30000412:101:25+' } } as CanonicalMarket;
    expect(venue7SourceQuotes(event, m)!.outcomes.map((o) => o.ask)).toEqual([0.4, 0.666667]);
  });

  it('no quotes for a market that is not open, nor for venues whose listing has no top of book', () => {
    const p = payloadOf(venue1Records(g, AT, { status: 'closed' }), (p) => String(p.ticker).endsWith('-LAL'));
    expect(markets('venue_1', { ...p, yes_bid: 44, yes_ask: 46 })[0]!.quotes).toBeUndefined();
    const v4 = venue4Records(g, AT).map((r) => JSON.parse(r.payload));
    const got = v4.flatMap((x) => markets('venue_4', x));
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((m) => m.quotes === undefined)).toBe(true);
  });
});
