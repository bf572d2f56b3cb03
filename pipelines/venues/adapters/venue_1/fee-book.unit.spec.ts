// venue_1's fee state from `reference.fee_schedules` records (Venue1FeeBook), and the sports
// snapshot sink pricing venue_1's quotes with it: the schedule, a scheduled change before and after
// its time (applied at its time with no new record), a missing schedule, a tombstone.
import { describe, expect, it } from 'vitest';
import type { RawRecord } from '../../../topics.ts';
import { feeScheduleKey, Venue1FeeBook } from './fee-book.ts';
import { SportsSnapshotSink } from '../../../matching/stages/sports-snapshot.ts';
import { SPORTS_PRICES_SNAPSHOT, type PricesEntry } from '../../../matching/readmodel.ts';
import type { StageOutput } from '../../../runtime/types.ts';
import { serializeDoc } from '../../../readmodels/snapshots.ts';
import { randomName } from '../../../../test/services/index.ts';

const NOW = Date.parse('2026-12-31T23:00:00Z');
const CHANGE = Date.parse('2027-01-01T00:00:00Z');

function record(series: string, body: unknown): { key: string; value: RawRecord } {
  return { key: feeScheduleKey('venue_1', series), value: { venue: 'venue_1', record_type: 'fee_schedule', native_id: series, read_started_at: NOW, payload: JSON.stringify(body), read_id: null, source_url: null } };
}

const schedule = (series: string, changes: unknown[] = []) =>
  record(series, { series: { ticker: series, fee_type: 'quadratic', fee_multiplier: 0.07 }, series_fee_change_arr: changes });

describe('Venue1FeeBook', () => {
  it('a market of a series with a schedule has its published fees; a market of another series is unavailable', () => {
    const series = `KX${randomName('s').replace(/\W/g, '').toUpperCase()}`;
    const book = new Venue1FeeBook();
    const r = schedule(series);
    expect(book.apply(r.key, r.value)).toBe(true);
    const f = book.feesOf(`${series}-26NOV21LALBOS-LAL`, NOW);
    expect(f).toMatchObject({ availability: 'published', source: 'series_fee_schedule', charge_basis: 'contracts', observed_at: new Date(NOW).toISOString() });
    expect(f.taker).toEqual({ model: 'quadratic', rate: 0.07, exponent: 1, rounding: { direction: 'up', increment: 0.01 } });
    expect(book.feesOf(`KXOTHER-26NOV21LALBOS-LAL`, NOW)).toMatchObject({ availability: 'unavailable', source: 'series_fee_schedule', taker: null });
  });

  it('a scheduled change is not in effect before its time and is from it on, from the same record', () => {
    const series = `KX${randomName('s').replace(/\W/g, '').toUpperCase()}`;
    const book = new Venue1FeeBook();
    const r = schedule(series, [{ series_ticker: series, fee_type: 'quadratic', fee_multiplier: 0.05, scheduled_ts: new Date(CHANGE).toISOString() }]);
    book.apply(r.key, r.value);
    const m = `${series}-27JAN02LALBOS-LAL`;
    expect(book.feesOf(m, CHANGE - 1).taker?.rate).toBe(0.07);
    expect(book.feesOf(m, CHANGE).taker?.rate).toBe(0.05);
    expect(book.nextChangeAfter(NOW)).toBe(CHANGE);
    expect(book.nextChangeAfter(CHANGE)).toBeNull();
    // A change to fee_free is a genuine zero from its time.
    const free = schedule(series, [{ fee_type: 'fee_free', scheduled_ts: CHANGE / 1000 }]);
    book.apply(free.key, free.value);
    expect(book.feesOf(m, CHANGE).availability).toBe('zero');
  });

  it('a tombstone, a record without a schedule and a record of another venue leave the series unavailable', () => {
    const series = `KX${randomName('s').replace(/\W/g, '').toUpperCase()}`;
    const book = new Venue1FeeBook();
    const r = schedule(series);
    book.apply(r.key, r.value);
    expect(book.apply(r.key, null)).toBe(true);
    expect(book.feesOf(`${series}-X`, NOW).availability).toBe('unavailable');
    const empty = record(series, { series: null, series_fee_change_arr: [] });
    expect(book.apply(empty.key, empty.value)).toBe(false);
    expect(book.apply(`fees|venue_2|${series}`, r.value)).toBe(false);
    expect(book.apply(r.key, { ...r.value, payload: 'not json' })).toBe(false);
    expect(book.size).toBe(0);
  });
});

describe('the sports snapshot sink prices venue_1 quotes with the polled schedule', () => {
  const pricesOf = (out: StageOutput): PricesEntry[] => (out.publishes ?? []).find((p) => p.name === SPORTS_PRICES_SNAPSHOT)!.entries.map((e) => JSON.parse(serializeDoc(e.value)) as PricesEntry);

  /** A sink serving one event whose only source market is a quoted venue_1 market of `series`. */
  function sinkWith(series: string): SportsSnapshotSink {
    const s = new SportsSnapshotSink();
    const marketId = `${series}-26DEC31LALBOS-LAL`;
    const quotes = { outcomes: [{ outcome_id: 'yes', bid: 0.38, ask: 0.39 }, { outcome_id: 'no', bid: 0.61, ask: 0.62 }], as_of: null, as_of_kind: 'unknown', fees: { availability: 'unavailable', source: 'series_fee_schedule', charge_basis: null, taker: null } };
    const market = { provider: 'venue_1', source: { market_id: marketId }, observedAt: NOW, quotes };
    s.market(`venue_1:${marketId}`, { provider: 'venue_1', market_id: marketId, title: 't', status: 'open', read_started_at: NOW, body: JSON.stringify({ kind: 'sports_matching', market, nativeKey: 'n', readId: null }) });
    const event = { event_id: 'nba-lal-bos-2026-12-31', scheduled_start: null, scheduled_date: '2026-12-31', submarkets: [{ source_markets: [{ provider: 'venue_1', market_id: marketId }] }] };
    s.event(event.event_id, { event_id: event.event_id, league: 'nba', sport: 'basketball', title: 't', scheduled_date: event.scheduled_date, scheduled_start: null, participant_keys: [], population: 'current', submarket_count: 1, observed_at: NOW, body: JSON.stringify(event) }, 1);
    return s;
  }

  it('no schedule: unavailable; the schedule: published; its scheduled change at the first publish at or after its time, with no new record', () => {
    const series = `KX${randomName('s').replace(/\W/g, '').toUpperCase()}`;
    const s = sinkWith(series);
    expect(pricesOf(s.publish(NOW))[0]!.quotes[0]!.fees.availability).toBe('unavailable');
    const r = schedule(series, [{ fee_type: 'quadratic', fee_multiplier: 0.05, scheduled_ts: new Date(CHANGE).toISOString() }]);
    s.feeSchedule(r.key, r.value);
    expect(pricesOf(s.publish(NOW + 1))[0]!.quotes[0]!.fees).toMatchObject({ availability: 'published', taker: { rate: 0.07 } });
    // Nothing moved and the change is not due: nothing is published.
    expect(s.publish(CHANGE - 1)).toEqual({});
    // Due: published again, with the new rate, although no record came.
    expect(pricesOf(s.publish(CHANGE))[0]!.quotes[0]!.fees.taker?.rate).toBe(0.05);
    expect(s.publish(CHANGE + 1)).toEqual({});
    // The schedule withdrawn: unavailable again.
    s.feeSchedule(r.key, null);
    expect(pricesOf(s.publish(CHANGE + 2))[0]!.quotes[0]!.fees.availability).toBe('unavailable');
  });
});
