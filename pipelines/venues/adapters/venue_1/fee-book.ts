// venue_1's fee schedules as the pipeline holds them: the latest record of each series on
// `reference.fee_schedules` (the fee schedule poller, pipelines/venues/pollers/fee-schedules.ts),
// and the `trading_fees` of a market at a given time from them, by the same arithmetic as the live
// market detail (fees.ts: venue1Effective, venue1Fees). Pure: the caller says what time it is.
//
// A scheduled change is kept with its schedule, not applied when it is read, so the fees at any
// time are the ones in effect then: a change that takes effect after the last poll applies at its
// time without another poll. nextChangeAfter() tells the holder when the fees next move, so it can
// republish then (the sports snapshot sink does at its first tick at or after that time).
import type { RawRecord } from '../../../topics.ts';
import { feesUnavailable, type TradingFees } from '../../fees.ts';
import { venue1ChangeAt, venue1ChangesOf, venue1Effective, venue1Fees, venue1ScheduleOf, venue1SeriesOf, type Venue1FeeChange, type Venue1Schedule } from './fees.ts';

/** Where venue_1's fees come from (spec: trading_fees.source). */
export const VENUE1_FEE_SOURCE = 'series_fee_schedule';

/** The key of one series' record on `reference.fee_schedules`. */
export const feeScheduleKey = (venue: string, series: string) => `fees|${venue}|${series}`;

/**
 * The payload of one record: both answers as read, in the venue's own shapes (`series` from
 * `GET /venue_1/series/{series}`, `series_fee_change_arr` from `GET /venue_1/series/fee_changes`).
 */
export interface Venue1FeePayload {
  series: unknown;
  series_fee_change_arr: unknown;
}

interface Held {
  schedule: Venue1Schedule;
  changes: Venue1FeeChange[];
  /** When each change takes effect (Unix ms), ascending. */
  times: number[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export class Venue1FeeBook {
  private readonly bySeries = new Map<string, Held>();

  get size(): number {
    return this.bySeries.size;
  }

  /**
   * One record of `reference.fee_schedules` (null: a tombstone, the series has no schedule now).
   * Records of other venues are ignored. Returns whether the book changed.
   */
  apply(key: string, v: RawRecord | null): boolean {
    const m = /^fees\|venue_1\|(.+)$/.exec(key);
    if (!m) return false;
    const series = m[1]!;
    let payload: unknown = null;
    if (v) {
      try {
        payload = JSON.parse(v.payload);
      } catch {
        payload = null;
      }
    }
    const schedule = venue1ScheduleOf(payload);
    if (!schedule) return this.bySeries.delete(series);
    const changes = venue1ChangesOf(payload);
    const times = changes.map(venue1ChangeAt).filter(Number.isFinite).sort((a, b) => a - b);
    this.bySeries.set(series, { schedule, changes, times });
    return true;
  }

  /** The `trading_fees` of a venue_1 market at `now`; `unavailable` when its series has no schedule. */
  feesOf(marketId: string, now: number): TradingFees {
    const held = this.bySeries.get(venue1SeriesOf(marketId));
    if (!held) return feesUnavailable(iso(now), VENUE1_FEE_SOURCE);
    return venue1Fees(venue1Effective(held.schedule, held.changes, now), iso(now));
  }

  /** The earliest time after `t` at which some series' fees change (a scheduled change), or null. */
  nextChangeAfter(t: number): number | null {
    let next: number | null = null;
    for (const h of this.bySeries.values())
      for (const at of h.times)
        if (at > t) {
          if (next === null || at < next) next = at;
          break;
        }
    return next;
  }
}
