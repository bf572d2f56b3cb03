// The price-history sink reads quotes off listing records (pipelines/readmodels/price-history.ts,
// which may not import the API); market detail reads them off the same records with its builders.
// Both must give the same outcome ids and quotes, or a stored history would not mean what the route
// shows: each venue whose listing carries quotes, record by record, read both ways.
import { describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mayQuote, quotesOfPayload, quotesOfRecord, topicMayQuote } from '../../readmodels/price-history.ts';
import { createClock } from '../simulator/core.ts';
import { buildSimulatorApp } from '../simulator/server.ts';
import { adapterFor } from './index.ts';
import type { ListedRecord, PageRequest } from './listing.ts';
import { BOOK_FAILED, type MarketDetail } from './live.ts';
import { buildVenue1 } from './venue_1/market.ts';
import { buildVenue2 } from './venue_2/market.ts';
import { buildVenue3 } from './venue_3/market.ts';
import { buildVenue6 } from './venue_6/market.ts';
import { buildVenue7 } from './venue_7/market.ts';
import { buildVenue8 } from './venue_8/market.ts';
import { buildVenue9Child } from './venue_9/market.ts';
import { feesNotPublished } from '../fees.ts';
import { PROVIDERS, type Provider } from '../../../lib/vocabulary.ts';

const T = Date.parse('2026-11-21T20:00:00Z');
const ISO = new Date(T).toISOString();
const hex = (n: number) => randomBytes(n).toString('hex');

/** The route's outcomes in the sink's terms. */
const routeQuotes = (d: MarketDetail) =>
  d.outcomes.map((o) => ({ market_id: d.provider_id, outcome_id: o.outcome_id, bid: o.bid, ask: o.ask, last: o.last, price: o.price, bid_size: o.bid_size ?? null, ask_size: o.ask_size ?? null }));
const sinkQuotes = (provider: Provider, type: string, m: Record<string, unknown>) =>
  quotesOfPayload(provider, type, m, T).quotes.map(({ market_id, outcome_id, bid, ask, last, price, bid_size, ask_size }) => ({ market_id, outcome_id, bid, ask, last, price, bid_size, ask_size }));

describe('listing quotes: the sink reads what market detail reads', () => {
  it('venue_1 (cents, empty sides at 0 and 100)', () => {
    for (const [yb, ya, nb, na, lp] of [[44, 46, 54, 56, 45], [0, 46, 54, 100, 0], [1, 99, 1, 99, 50]]) {
      const m = { ticker: `KXNBAGAME-26NOV21LALBOS-${hex(2).toUpperCase()}`, event_ticker: 'E', title: 't', status: 'active', result: '', yes_bid: yb, yes_ask: ya, no_bid: nb, no_ask: na, last_price: lp };
      expect(sinkQuotes('venue_1', 'market', m)).toEqual(routeQuotes(buildVenue1(m, feesNotPublished(ISO), ISO)));
    }
  });

  it('venue_2 (first outcome quoted, second its complement; numeric strings)', () => {
    const m = { id: String(9_000_000 + randomBytes(2).readUInt16BE()), slug: 'nba-lal-bos-2026-11-22', conditionId: `0x${hex(32)}`, question: 'q', active: true, closed: false, outcomes: '["Lakers","Celtics"]', clobTokenIds: `["${hex(8)}","${hex(8)}"]`, outcomePrices: '["0.45","0.55"]', bestBid: '0.43', bestAsk: 0.47, lastTradePrice: 0.451, updatedAt: '2026-11-21T19:00:00Z' };
    expect(sinkQuotes('venue_2', 'market', m)).toEqual(routeQuotes(buildVenue2(m, ISO)));
    expect(sinkQuotes('venue_2', 'market', { ...m, bestBid: null })).toEqual(routeQuotes(buildVenue2({ ...m, bestBid: null }, ISO)));
  });

  it('venue_3 (per outcome)', () => {
    const m = { id: 1_000_000 + randomBytes(2).readUInt16BE(), title: 't', status: 'open', outcomes: [{ token: hex(6), name: 'A', best_bid: 0.44, best_ask: 0.46, last_price: 0.45 }, { token: hex(6), name: 'B', best_bid: null, best_ask: 0.56, last_price: null }], quote_rules: { max_spread: 0.1 }, updated_at: '2026-11-21T19:00:00Z' };
    expect(sinkQuotes('venue_3', 'market', m)).toEqual(routeQuotes(buildVenue3(m, ISO)));
  });

  it('venue_6, venue_8, venue_9 (the record mark, no book)', () => {
    const v6 = { id: '01JD' + hex(11).toUpperCase().slice(0, 22), status: 'open', outcomes: [{ token: hex(6) }, { token: hex(6) }], mark: 0.4567, mark_ts: '2026-11-21T19:00:00Z' };
    expect(sinkQuotes('venue_6', 'market', v6)).toEqual(routeQuotes(buildVenue6(v6, BOOK_FAILED, ISO)));
    const v8 = { id: 'a8Xk' + hex(3), slug: `will-the-lakers-win-${hex(2)}`, question: 'q', probability: 0.31, closeTime: T + 86_400_000, isResolved: false, lastUpdatedTime: T - 1000 };
    expect(sinkQuotes('venue_8', 'market', v8)).toEqual(routeQuotes(buildVenue8(v8, BOOK_FAILED, ISO, T)));
    const pair = `0x${hex(32)}:0x${hex(32)}`;
    const child = { id: pair.split(':')[1], pair, title: 'Los Angeles Lakers', yes_price: 0.62, status: 'trading', resolved_to: null, fee_rate_bps: 100, updated_at: '2026-11-21T19:00:00Z' };
    expect(sinkQuotes('venue_9', 'parent', { id: pair.split(':')[0], kind: 'game', children: [child] })).toEqual(routeQuotes(buildVenue9Child(child, BOOK_FAILED, ISO)));
  });

  it('venue_7 (odds offers of each line; the favourite line under the pair too)', () => {
    const ev = 30_000_000 + randomBytes(2).readUInt16BE();
    const sel = (id: number, odds: number[], stake: number) => ({ id, name: `s${id}`, back: odds.map((o) => ({ odds: o, stake })), lay: [] });
    const e = { event_id: ev, name: 'Lakers at Celtics', state: 'open', commission_pct: 2, markets: [
      { id: `${ev}:1`, type_id: 1, name: 'Moneyline', state: 'open', lines: [{ line: null, favourite: true, selections: [sel(1, [1.8, 1.9], 200), sel(2, [2.1], 50)] }] },
      { id: `${ev}:3`, type_id: 3, name: 'Total', state: 'open', lines: [{ line: 221.5, favourite: true, selections: [sel(1, [1.91], 500), sel(2, [], 0)] }, { line: 219.5, favourite: false, selections: [sel(1, [1.7], 10), sel(2, [2.3], 10)] }] },
    ] };
    const sink = sinkQuotes('venue_7', 'event', e);
    const route = [`${ev}:1`, `${ev}:3:221.5`, `${ev}:3:219.5`].flatMap((id) => routeQuotes(buildVenue7(e, id, ISO) as MarketDetail));
    expect(sink).toEqual(route);
    // The pair resolves to the favourite line on the route; the sink writes that as an alias.
    expect((buildVenue7(e, `${ev}:3`, ISO) as MarketDetail).outcomes).toEqual((buildVenue7(e, `${ev}:3:221.5`, ISO) as MarketDetail).outcomes);
    expect(quotesOfPayload('venue_7', 'event', e, T).aliases.map((a) => [a.alias, a.market_id])).toEqual([[`${ev}:3`, `${ev}:3:221.5`]]);
  });
});

describe('listing quotes: the readers on odd records', () => {
  const q = (price: number | null, bid: number | null, ask: number | null, last: number | null) => ({ price, bid, ask, last, bid_size: null, ask_size: null });
  const read = (provider: Provider, type: string, m: Record<string, unknown>) => sinkQuotes(provider, type, m).map(({ market_id, outcome_id, ...rest }) => [market_id, outcome_id, rest]);

  it('venue_2: lists of outcomes, tokens and prices of unequal lengths', () => {
    const m = { id: '7', active: true, closed: false, outcomes: '["A","B","C"]', clobTokenIds: '["t1"]', outcomePrices: '["0.4",null]', bestBid: 0.43, bestAsk: 0.47, lastTradePrice: 0.45 };
    expect(read('venue_2', 'market', m)).toEqual([
      ['7', 't1', q(0.45, 0.43, 0.47, 0.45)],
      ['7', '1', q(0.55, 0.53, 0.57, 0.55)],
      ['7', '2', q(0.55, 0.53, 0.57, 0.55)],
    ]);
    // Tokens that are numbers are read as their text; a list that is not JSON is an empty list.
    expect(read('venue_2', 'market', { ...m, outcomes: '["A"]', clobTokenIds: '[12]', outcomePrices: 'not json', bestBid: null, bestAsk: null, lastTradePrice: null })).toEqual([['7', '12', q(null, null, null, null)]]);
    expect(read('venue_2', 'market', { ...m, outcomes: 'not json' })).toEqual([]);
  });

  it('venue_7: offers without a numeric odds or stake, and entries that are not objects, are passed over', () => {
    const e = { event_id: 5, state: 'open', markets: [{ type_id: 1, lines: [{ line: null, selections: [{ id: 1, back: [{ odds: 'x', stake: 9 }, 7, { odds: '2', stake: '10' }, { odds: 4, stake: null }] }, { back: 'none' }] }] }] };
    expect(read('venue_7', 'event', e)).toEqual([
      // The one offer kept: odds 2 for a stake of 10, an ask of 0.5 for 20 shares; the other selection's bid its complement.
      ['5:1', '1', { ...q(null, null, 0.5, null), ask_size: 20 }],
      ['5:1', '2', { ...q(null, 0.5, null, null), bid_size: 20 }],
    ]);
  });

  it('venue_9: only trading children that are objects', () => {
    const p = { children: [{ pair: 'P:A', yes_price: 0.25, status: 'trading', updated_at: '2026-11-21T19:00:00Z' }, 'x', null, { pair: 'P:B', yes_price: 0.5, status: 'halted' }, { pair: 'P:C', status: 'trading' }] };
    expect(read('venue_9', 'parent', p)).toEqual([
      ['p:a', 'yes', q(0.25, null, null, null)],
      ['p:a', 'no', q(0.75, null, null, null)],
      ['p:c', 'yes', q(null, null, null, null)],
      ['p:c', 'no', q(null, null, null, null)],
    ]);
    expect(read('venue_9', 'parent', { children: 'none' })).toEqual([]);
  });
});

/** Every record a listing crawl of a simulated world reads, venue by venue, through each adapter's listing steps. */
async function listedBySimulator(seed: number, at: number, advance: number[]): Promise<Map<Provider, ListedRecord[]>> {
  const clock = createClock(at, { frozen: true });
  const sim = await buildSimulatorApp({ seed, scale: 0.25, clock });
  const out = new Map<Provider, ListedRecord[]>();
  // A crawl now and after each advance: markets open, closed and settled in between.
  for (const ms of [0, ...advance]) {
    clock.advance(ms);
    for (const venue of PROVIDERS) {
      for (const step of adapterFor(venue).listingSteps()) {
        for (let req: PageRequest | null = step.first(); req; ) {
          const u = new URL(`http://sim${req.path}`);
          for (const [k, v] of Object.entries(req.query)) u.searchParams.set(k, String(v));
          const page = step.parse((await sim.app.inject({ url: u.pathname + u.search })).json(), req);
          out.set(venue, [...(out.get(venue) ?? []), ...page.records]);
          req = page.next;
        }
      }
    }
  }
  await sim.app.close();
  return out;
}

describe('the record types each venue quotes (quotedRecordTypes): the sink parses no other', () => {
  it('cover every record type listingQuotes quotes in a simulated world, and each declared type quotes somewhere', async () => {
    const listed = await listedBySimulator(7, T, [3_600_000, 86_400_000]);
    for (const venue of PROVIDERS) {
      const a = adapterFor(venue);
      const records = listed.get(venue) ?? [];
      expect(records.length, venue).toBeGreaterThan(0);
      const quoting = new Set<string>();
      const seen = new Set<string>();
      for (const r of records) {
        seen.add(r.recordType);
        if (a.listingQuotes(r.recordType, r.payload as Record<string, unknown>).length > 0) quoting.add(r.recordType);
      }
      // A type listingQuotes quotes but the adapter does not declare would lose its quotes silently.
      expect([...quoting].filter((t) => !a.quotedRecordTypes.includes(t)), venue).toEqual([]);
      // A declared type the listing never quotes is a stale declaration (or a reader gone wrong).
      expect([...a.quotedRecordTypes].filter((t) => !quoting.has(t)), `${venue} lists ${[...seen].join(', ')}`).toEqual([]);
    }
  }, 60_000);

  it('venue_4 and venue_5 quote nothing, by record type and by topic', () => {
    for (const venue of PROVIDERS) {
      const none = venue === 'venue_4' || venue === 'venue_5';
      expect(topicMayQuote(`raw.${venue}`), venue).toBe(!none);
      expect(adapterFor(venue).quotedRecordTypes.length === 0, venue).toBe(none);
    }
    expect(topicMayQuote('raw.venue_10')).toBe(false);
    expect(mayQuote('venue_10', 'market')).toBe(false);
  });

  it('a record of a type its venue does not quote is passed by without parsing its payload', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const rec = (venue: string, record_type: string) => ({ venue, record_type, native_id: 'x', read_started_at: T, payload: '{"status":"active","ticker":"K"}', read_id: null, source_url: null });
      for (const [venue, type] of [['venue_1', 'event'], ['venue_1', 'crawl_complete'], ['venue_7', 'market'], ['venue_9', 'market'], ['venue_4', 'market'], ['venue_5', 'question'], ['venue_10', 'market']])
        expect(quotesOfRecord(rec(venue, type), T)).toEqual({ quotes: [], aliases: [] });
      expect(parse).not.toHaveBeenCalled();
      expect(quotesOfRecord(rec('venue_1', 'market'), T).quotes.map((q) => q.market_id)).toEqual(['K', 'K']);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});
