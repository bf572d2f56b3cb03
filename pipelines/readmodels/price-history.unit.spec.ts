// Price history's pure part: quotes read off listing records, change detection, candle grouping.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { bucketAtOrAfter, bucketOf, changedQuotes, groupCandles, midOf, QuoteMemory, quoteKey, quoteKeysOf, quotesOfPayload, quotesOfRecord, type CandleRow, type ObservedQuote, type StoredQuote } from './price-history.ts';

const rid = () => randomBytes(4).toString('hex').toUpperCase();
const T0 = 1_767_225_600_000;

function obs(over: Partial<ObservedQuote> = {}): ObservedQuote {
  return { provider: 'venue_3', market_id: '1000201', outcome_id: 'a', bid: 0.44, ask: 0.46, last: 0.45, price: 0.45, bid_size: null, ask_size: null, venue_time: null, observed_at: T0, ...over };
}

describe('midOf', () => {
  it('is the midpoint rounded to 6 places when both sides are quoted, else null', () => {
    expect(midOf(0.1, 0.2)).toBe(0.15);
    expect(midOf(0.333333, 0.333334)).toBe(0.333334); // 0.3333335 rounds up at the 6th place
    expect(midOf(null, 0.2)).toBeNull();
    expect(midOf(0.1, null)).toBeNull();
  });
});

describe('quotesOfPayload: the listing record read as market detail reads it', () => {
  it('venue_1: a market record in cents gives Yes and No, the No side complementary; events give nothing', () => {
    const ticker = `KXNBAGAME-26NOV21LALBOS-${rid()}`;
    const m = { ticker, event_ticker: 'KXNBAGAME-26NOV21LALBOS', title: 't', status: 'active', result: '', yes_bid: 44, yes_ask: 46, no_bid: 54, no_ask: 56, last_price: 45 };
    const { quotes, aliases } = quotesOfPayload('venue_1', 'market', m, T0);
    expect(aliases).toEqual([]);
    expect(quotes.map((q) => [q.market_id, q.outcome_id, q.bid, q.ask, q.last, q.price, q.observed_at])).toEqual([
      [ticker, 'yes', 0.44, 0.46, 0.45, 0.45, T0],
      [ticker, 'no', 0.54, 0.56, 0.55, 0.55, T0],
    ]);
    expect(quotesOfPayload('venue_1', 'event', { event_ticker: 'E' }, T0)).toEqual({ quotes: [], aliases: [] });
  });

  it('venue_2: quotes under the numeric id, with the slug and the lower-cased condition id as aliases', () => {
    const id = String(9_000_000 + Math.floor(Math.random() * 99_999));
    const cond = `0x${'AB'.repeat(32)}`;
    const m = { id, slug: `nba-lal-bos-${rid().toLowerCase()}`, conditionId: cond, question: 'q', active: true, closed: false, outcomes: '["Lakers","Celtics"]', clobTokenIds: '["111","222"]', outcomePrices: '["0.45","0.55"]', bestBid: 0.44, bestAsk: 0.46, lastTradePrice: 0.45, updatedAt: '2026-01-01T00:00:00Z' };
    const { quotes, aliases } = quotesOfPayload('venue_2', 'market', m, T0);
    expect(quotes.map((q) => [q.outcome_id, q.bid, q.ask, q.venue_time])).toEqual([
      ['111', 0.44, 0.46, Date.parse('2026-01-01T00:00:00Z')],
      ['222', 0.54, 0.56, Date.parse('2026-01-01T00:00:00Z')],
    ]);
    expect(aliases.map((a) => [a.alias, a.market_id])).toEqual([
      [m.slug, id],
      [cond.toLowerCase(), id],
    ]);
  });

  it('venue_7: one market per line under the three-part id, the favourite line also under the pair; sizes from the offers', () => {
    const ev = 30_000_000 + Math.floor(Math.random() * 999_999);
    const sel = (id: number, odds: number, stake: number) => ({ id, name: `s${id}`, back: [{ odds, stake }], lay: [] });
    const e = {
      event_id: ev,
      name: 'Lakers at Celtics',
      state: 'open',
      commission_pct: 2,
      markets: [{ id: `${ev}:2`, event_id: ev, type_id: 2, name: 'Handicap', state: 'open', lines: [
        { line: -3.5, favourite: true, selections: [sel(1, 2, 500), sel(2, 2, 300)] },
        { line: -4.5, favourite: false, selections: [sel(1, 2.5, 100), sel(2, 1.6, 100)] },
      ] }],
    };
    const { quotes, aliases } = quotesOfPayload('venue_7', 'event', e, T0);
    expect([...new Set(quotes.map((q) => q.market_id))]).toEqual([`${ev}:2:-3.5`, `${ev}:2:-4.5`]);
    const first = quotes[0];
    // Odds 2.0 is an ask of 0.5; a 500 stake at 2.0 buys 1,000 shares (market detail's conversion).
    expect([first.outcome_id, first.ask, first.ask_size]).toEqual(['1', 0.5, 1000]);
    expect(aliases.map((a) => [a.alias, a.market_id])).toEqual([[`${ev}:2`, `${ev}:2:-3.5`]]);
  });

  it('venue_4 and venue_5 list no prices: nothing; a malformed record is skipped, not thrown', () => {
    expect(quotesOfPayload('venue_4', 'market', { marketHash: '0x1' }, T0).quotes).toEqual([]);
    expect(quotesOfPayload('venue_5', 'question', { question_id: 1 }, T0).quotes).toEqual([]);
    const base = { venue: 'venue_3', native_id: '1', read_started_at: T0, read_id: null, source_url: null };
    expect(quotesOfRecord({ ...base, record_type: 'market', payload: '{not json' }, T0).quotes).toEqual([]);
    // A venue_3 market without its id cannot be read by market detail either.
    expect(quotesOfRecord({ ...base, record_type: 'market', payload: JSON.stringify({ outcomes: [] }) }, T0).quotes).toEqual([]);
  });
});

describe('changedQuotes: change detection', () => {
  it('writes the first observation of an outcome, then only what differs from the last one written', () => {
    const latest = new Map<string, StoredQuote>();
    const rows = changedQuotes(latest, [
      obs({ observed_at: T0 }),
      obs({ observed_at: T0 + 1000 }), // unchanged poll
      obs({ observed_at: T0 + 2000, bid: 0.45 }), // bid moved
      obs({ observed_at: T0 + 3000, bid: 0.45 }), // unchanged again
      obs({ observed_at: T0 + 4000, bid: 0.45, ask_size: 10 }), // only a size moved: a change
      obs({ observed_at: T0 + 5000, outcome_id: 'b' }), // another outcome: its own history
    ]);
    expect(rows.map((r) => [r.outcome_id, r.observed_at, r.bid, r.mid])).toEqual([
      ['a', T0, 0.44, 0.45],
      ['a', T0 + 2000, 0.45, 0.455],
      ['a', T0 + 4000, 0.45, 0.455],
      ['b', T0 + 5000, 0.44, 0.45],
    ]);
    expect(latest.get(quoteKey('venue_3', '1000201', 'a'))?.observed_at).toBe(T0 + 4000);
  });

  it('compares with the stored quote: an unchanged first poll after a restart writes nothing', () => {
    const latest = new Map<string, StoredQuote>([[quoteKey('venue_3', '1000201', 'a'), obs({ observed_at: T0 })]]);
    expect(changedQuotes(latest, [obs({ observed_at: T0 + 60_000 })])).toEqual([]);
    expect(changedQuotes(latest, [obs({ observed_at: T0 + 120_000, last: 0.5 })]).map((r) => r.last)).toEqual([0.5]);
  });

  it('writes nothing for a redelivered batch: an observation not newer than the stored one is skipped even when it differs', () => {
    const latest = new Map<string, StoredQuote>([[quoteKey('venue_3', '1000201', 'a'), obs({ observed_at: T0 + 5000, bid: 0.4 })]]);
    expect(changedQuotes(latest, [obs({ observed_at: T0 + 1000 }), obs({ observed_at: T0 + 5000, bid: 0.41 })])).toEqual([]);
  });

  it('a written row is the observation, every field of it, with its midpoint', () => {
    const o = obs({ market_id: rid(), bid_size: 12, ask_size: 7, venue_time: T0 - 500, last: null, price: 0.451 });
    expect(changedQuotes(new Map(), [o])).toEqual([{ ...o, mid: 0.45 }]);
  });

  it('keys given by the caller (quoteKeysOf) decide as the keys it would build itself', () => {
    const m = rid();
    const batch = [obs({ market_id: m }), obs({ market_id: m, observed_at: T0 + 1, bid: 0.43 }), obs({ market_id: m, outcome_id: 'b', observed_at: T0 + 2 })];
    expect(quoteKeysOf(batch)).toEqual([quoteKey('venue_3', m, 'a'), quoteKey('venue_3', m, 'a'), quoteKey('venue_3', m, 'b')]);
    const stored = () => new Map<string, StoredQuote>([[quoteKey('venue_3', m, 'a'), obs({ market_id: m, observed_at: T0 - 1 })]]);
    const [withKeys, without] = [stored(), stored()];
    expect(changedQuotes(withKeys, batch, quoteKeysOf(batch))).toEqual(changedQuotes(without, batch));
    expect(withKeys).toEqual(without);
  });

  it('a side that empties is a change to null, and the midpoint goes null with it', () => {
    const latest = new Map<string, StoredQuote>();
    const rows = changedQuotes(latest, [obs(), obs({ observed_at: T0 + 1, ask: null })]);
    expect(rows.map((r) => [r.ask, r.mid])).toEqual([
      [0.46, 0.45],
      [null, null],
    ]);
  });
});

describe('QuoteMemory: what the sink may keep between batches of a partition', () => {
  const kept = (m: Map<string, StoredQuote>, ...keys: string[]) => {
    for (const k of keys) m.set(k, obs({ outcome_id: k }));
  };

  it('keeps a partition quotes for the next batch under the same claim, starting where the last one ended', () => {
    const mem = new QuoteMemory(100);
    const part = `p-${rid()}`;
    const claim = rid();
    kept(mem.begin(part, claim, '0'), 'a', 'b');
    mem.done(part, '5');
    expect([...mem.begin(part, claim, '5').keys()]).toEqual(['a', 'b']);
  });

  it('trusts nothing under another claim (a restart, a rebalance), for a redelivered batch, or after a batch that never finished', () => {
    const mem = new QuoteMemory(100);
    const part = `p-${rid()}`;
    const claim = rid();
    const fill = (first: string, next: string) => {
      kept(mem.begin(part, claim, first), 'a');
      mem.done(part, next);
    };
    fill('0', '5');
    expect(mem.begin(part, rid(), '5').size).toBe(0);
    fill('0', '5');
    // The batch written at 0..4 again: its write may have failed, so what was kept for it was never stored.
    expect(mem.begin(part, claim, '0').size).toBe(0);
    fill('0', '5');
    // Begun, then failed before done(): a retry of the same batch starts from what is stored.
    kept(mem.begin(part, claim, '5'), 'b');
    expect(mem.begin(part, claim, '5').size).toBe(0);
  });

  it('partitions are kept apart', () => {
    const mem = new QuoteMemory(100);
    const claim = rid();
    const [p1, p2] = [`p-${rid()}`, `p-${rid()}`];
    kept(mem.begin(p1, claim, '0'), 'a');
    mem.done(p1, '1');
    kept(mem.begin(p2, claim, '0'), 'b');
    mem.done(p2, '1');
    expect([...mem.begin(p1, claim, '1').keys()]).toEqual(['a']);
  });

  it('past its limit drops the quotes kept longest', () => {
    const mem = new QuoteMemory(3);
    const claim = rid();
    const [p1, p2] = [`p-${rid()}`, `p-${rid()}`];
    kept(mem.begin(p1, claim, '0'), 'a', 'b');
    mem.done(p1, '1');
    kept(mem.begin(p2, claim, '0'), 'c', 'd', 'e');
    mem.done(p2, '1');
    expect(mem.size()).toBe(3);
    expect([...mem.begin(p2, claim, '1').keys()]).toEqual(['e']);
    mem.done(p2, '1');
    expect([...mem.begin(p1, claim, '1').keys()]).toEqual(['a', 'b']);
  });
});

describe('candles', () => {
  const row = (bucket: number, outcome_id: string, over: Partial<CandleRow> = {}): CandleRow => ({ bucket, outcome_id, mid_open: 0.4, mid_high: 0.6, mid_low: 0.3, mid_close: 0.5, last_open: null, last_high: null, last_low: null, last_close: null, price_open: 0.41, price_high: 0.41, price_low: 0.41, price_close: 0.41, changes: 3, ...over });

  it('groups rows into buckets newest first, outcomes in id order, end_time the bucket last second, an all-null side null', () => {
    const c = groupCandles([row(3600, 'b'), row(7200, 'a'), row(3600, 'a', { changes: 1 })], '1h');
    expect(c).toEqual([
      { start_time: 7200, end_time: 10_799, outcomes: [{ outcome_id: 'a', mid: { open: 0.4, high: 0.6, low: 0.3, close: 0.5 }, last: null, price: { open: 0.41, high: 0.41, low: 0.41, close: 0.41 }, changes: 3 }] },
      {
        start_time: 3600,
        end_time: 7199,
        outcomes: [
          { outcome_id: 'a', mid: { open: 0.4, high: 0.6, low: 0.3, close: 0.5 }, last: null, price: { open: 0.41, high: 0.41, low: 0.41, close: 0.41 }, changes: 1 },
          { outcome_id: 'b', mid: { open: 0.4, high: 0.6, low: 0.3, close: 0.5 }, last: null, price: { open: 0.41, high: 0.41, low: 0.41, close: 0.41 }, changes: 3 },
        ],
      },
    ]);
  });

  it('buckets start at whole multiples of the interval (UTC days for 1d)', () => {
    expect(bucketOf(1_767_225_659, '1m')).toBe(1_767_225_600);
    expect(bucketOf(1_767_229_199, '1h')).toBe(1_767_225_600);
    expect(bucketOf(1_767_311_999, '1d')).toBe(1_767_225_600);
    expect(bucketAtOrAfter(1_767_225_601, '1m')).toBe(1_767_225_660);
    expect(bucketAtOrAfter(1_767_225_600, '1d')).toBe(1_767_225_600);
  });
});
