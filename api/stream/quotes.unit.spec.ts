// The quotes channel's pure parts: which markets a raw venue record quotes (per venue record type),
// what counts as a change of a market's quotes, and the ids that name a place inside a record.
import { describe, expect, it } from 'vitest';
import { quotesOfRecord } from './quotes.ts';
import { venue7Line } from '../../pipelines/venues/adapters/venue_7/identifiers.ts';
import { decodeQuoteId, encodeQuoteId } from './quotes-hub.ts';
import { layoutOf } from './position.ts';

const AT = Date.parse('2026-11-26T06:42:00.000Z');
const of = (venue: string, type: string, payload: unknown, at = AT) => quotesOfRecord(venue, type, JSON.stringify(payload), at);

const v3 = (bid: number, updated: string) => ({
  id: 9500780,
  title: 'Minnesota Wild @ Boston Bruins',
  status: 'open',
  outcomes: [
    { token: '3284', name: 'Minnesota Wild', best_bid: bid, best_ask: bid + 0.02, last_price: bid + 0.01 },
    { token: '3285', name: 'Boston Bruins', best_bid: 0.65, best_ask: 0.67, last_price: 0.66 },
  ],
  quote_rules: { max_spread: 0.1 },
  updated_at: updated,
});

describe('quotesOfRecord', () => {
  it('quotes a venue_3 market from its record, observed when the read began', () => {
    const [q] = of('venue_3', 'market', v3(0.33, '2026-11-26T06:41:55.847Z'));
    expect(q!.id).toBe('venue_3:9500780');
    expect(q!.body).toMatchObject({ market_id: 'venue_3:9500780', status: 'open', pricing: { availability: 'live', source: 'market_record', as_of_kind: 'record_refresh', observed_at: '2026-11-26T06:42:00.000Z' } });
    expect(q!.body.outcomes.map((o) => [o.outcome_id, o.bid, o.ask])).toEqual([
      ['3284', 0.33, 0.35],
      ['3285', 0.65, 0.67],
    ]);
  });

  it('judges a change on the quotes, not on when they were read or refreshed', () => {
    const a = of('venue_3', 'market', v3(0.33, '2026-11-26T06:41:55.847Z'))[0]!;
    const later = of('venue_3', 'market', v3(0.33, '2026-11-26T06:46:55.847Z'), AT + 300_000)[0]!;
    const moved = of('venue_3', 'market', v3(0.34, '2026-11-26T06:46:55.847Z'), AT + 300_000)[0]!;
    expect(later.body.pricing.observed_at).not.toBe(a.body.pricing.observed_at);
    expect(later.fingerprint).toBe(a.fingerprint);
    expect(moved.fingerprint).not.toBe(a.fingerprint);
    // A spread wider than the venue's threshold is indicative: a change of the envelope.
    const wide = of('venue_3', 'market', { ...v3(0.33, 'x'), quote_rules: { max_spread: 0.01 } })[0]!;
    expect(wide.body.pricing.availability).toBe('indicative');
    expect(wide.fingerprint).not.toBe(a.fingerprint);
  });

  it('quotes a venue_5 question and each of its outcome markets, unavailable without their books', () => {
    const qs = of('venue_5', 'question', {
      question_id: 100160,
      title: 'Utah Mammoth vs Dallas Stars',
      state: 'open',
      outcomes: [
        { outcome_id: 48000640, token: '#48000640', label: 'Dallas Stars', state: 'open' },
        { outcome_id: 48000641, token: '#48000641', label: 'Utah Mammoth', state: 'resolved_yes' },
      ],
    });
    expect(qs.map((q) => [q.id, q.body.status, q.body.pricing.availability])).toEqual([
      ['venue_5:100160', 'open', 'unavailable'],
      ['venue_5:48000640', 'open', 'unavailable'],
      ['venue_5:48000641', 'settled', 'indicative'],
    ]);
  });

  it('keeps the record marks of venue_6 and venue_8 markets, indicative (the pollers read no book)', () => {
    const [six] = of('venue_6', 'market', { id: '01M7V7FAM0JQ1V5P8YK9MGSA7H', question: 'Clippers vs Suns: winner', outcomes: [{ token: 'a' }, { token: 'b' }], mark: 0.46, mark_ts: '2026-11-26T06:42:25.869Z', status: 'open' });
    expect(six!.id).toBe('venue_6:01M7V7FAM0JQ1V5P8YK9MGSA7H');
    expect(six!.body.outcomes.map((o) => o.price)).toEqual([0.46, 0.54]);
    expect(six!.body.pricing).toMatchObject({ availability: 'indicative', as_of_kind: 'record_refresh' });
    const [eight] = of('venue_8', 'market', { id: 'sxl', slug: 'will-the-clippers-win', question: 'Will the Clippers win?', probability: 0.46, closeTime: AT + 86_400_000, isResolved: false, lastUpdatedTime: AT - 1000 });
    expect(eight!.id).toBe('venue_8:will-the-clippers-win');
    expect(eight!.body).toMatchObject({ status: 'open', pricing: { availability: 'indicative' } });
    // Closed by the time the record was read.
    const [closed] = of('venue_8', 'market', { id: 'sxl', slug: 'will-the-clippers-win', probability: 0.46, closeTime: AT - 1, isResolved: false });
    expect(closed!.body.status).toBe('closed');
  });

  it('names a venue_2 market by its slug and condition id too', () => {
    const [q] = of('venue_2', 'market', { id: '9000440', slug: 'nba-lac-phx', conditionId: '0xABCDEF', outcomes: '["A","B"]', outcomePrices: '["0.4","0.6"]', active: true, closed: false, bestBid: 0.39, bestAsk: 0.41 });
    expect([q!.id, q!.aliases]).toEqual(['venue_2:9000440', ['venue_2:nba-lac-phx', 'venue_2:0xabcdef']]);
  });

  it('quotes nothing for other record types, crawl markers, unknown venues and malformed records', () => {
    expect(of('venue_1', 'event', { event_ticker: 'KXA-1' })).toEqual([]);
    expect(of('venue_1', 'crawl_complete', { read_id: 'x' })).toEqual([]);
    expect(of('venue_10', 'market', { ticker: 'KXA-1' })).toEqual([]);
    expect(of('venue_1', 'market', { title: 'no ticker' })).toEqual([]);
    expect(quotesOfRecord('venue_1', 'market', '{not json', AT)).toEqual([]);
  });

  it('spells a venue_7 line one way', () => {
    expect(['-1.50', '-1.5', '-1.5e0', '-01.5'].map(venue7Line)).toEqual(['-1.5', '-1.5', '-1.5', '-1.5']);
    expect(venue7Line('+3')).toBe('3');
  });
});

describe('quote event ids', () => {
  const layout = layoutOf([
    { name: 'raw.venue_1', partitions: 2 },
    { name: 'raw.venue_7', partitions: 2 },
  ]);

  it('name a log position, and a place inside a record that is not done yet', () => {
    const pos = [3, 0, 41, 7];
    expect(decodeQuoteId(layout, encodeQuoteId(layout, AT, pos, null))).toEqual({ at: AT, pos, within: null });
    const inside = encodeQuoteId(layout, AT, pos, { part: 2, count: 2 });
    expect(inside.split('-')).toHaveLength(4);
    expect(decodeQuoteId(layout, inside)).toEqual({ at: AT, pos, within: { part: 2, count: 2 } });
  });

  it('are not resumable when they name no place of this layout', () => {
    const ok = encodeQuoteId(layout, AT, [1, 2, 3, 4], null);
    for (const bad of [`${ok}-9.1`, `${ok}-1.0`, `${ok}-x`, `${ok}-1.1-1`, encodeQuoteId(layoutOf([{ name: 'raw.venue_1', partitions: 4 }]), AT, [1, 2, 3, 4], null), 'catalog-01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      expect(decodeQuoteId(layout, bad), bad).toBeNull();
    }
  });
});
