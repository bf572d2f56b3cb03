// venue_1's `trading_fees` (spec: "Market detail", trading_fees paragraph): what the venue publishes
// about its fees, read into the fee model of pipelines/venues/fees.ts. Pure.
import { feesUnavailable, zeroFees, zeroLeg, type FeeLeg, type TradingFees } from '../../fees.ts';
import { arr, isRec, num } from '../native.ts';

/** venue_1 series fee schedule with the latest fee change already in effect applied. */
export interface Venue1Schedule {
  fee_type: string;
  fee_multiplier: number;
  maker_fee_multiplier?: number;
}

export interface Venue1FeeChange {
  fee_type?: string;
  fee_multiplier?: number;
  scheduled_ts?: string | number;
}

/** The schedule in effect at `now`: the series' own, overridden by the latest change scheduled at or before now. */
export function venue1Effective(series: Venue1Schedule, changes: readonly Venue1FeeChange[], now: number): Venue1Schedule {
  let best: { at: number; c: Venue1FeeChange } | undefined;
  for (const c of changes) {
    const at = venue1ChangeAt(c);
    if (Number.isFinite(at) && at <= now && (!best || at > best.at)) best = { at, c };
  }
  if (!best) return series;
  return {
    ...series,
    fee_type: best.c.fee_type ?? series.fee_type,
    fee_multiplier: best.c.fee_multiplier ?? series.fee_multiplier,
  };
}

/**
 * venue_1: taker fee per contract = ceil to the cent of multiplier x P x (1-P); maker zero, or the
 * same formula with the maker multiplier; `fee_free` is a genuine zero.
 */
export function venue1Fees(s: Venue1Schedule, observedAt: string): TradingFees {
  const source = 'series_fee_schedule';
  if (s.fee_type === 'fee_free') return zeroFees(observedAt, source, 'contracts');
  if (s.fee_type !== 'quadratic' && s.fee_type !== 'quadratic_with_maker_fees') return feesUnavailable(observedAt, source);
  const leg = (rate: number): FeeLeg =>
    rate === 0 ? zeroLeg() : { model: 'quadratic', rate, exponent: 1, rounding: { direction: 'up', increment: 0.01 } };
  return {
    availability: 'published',
    observed_at: observedAt,
    source,
    charge_basis: 'contracts',
    taker: leg(s.fee_multiplier),
    maker: leg(s.fee_type === 'quadratic_with_maker_fees' ? (s.maker_fee_multiplier ?? s.fee_multiplier) : 0),
  };
}

/** The series a venue_1 market or event ticker belongs to: its first segment (`KXNFLGAME-26NOV22…` -> `KXNFLGAME`). */
export const venue1SeriesOf = (ticker: string): string => ticker.split('-')[0]!.toUpperCase();

/** When a scheduled change takes effect (Unix ms; seconds and ISO times read too), NaN when unreadable. */
export function venue1ChangeAt(c: Venue1FeeChange): number {
  return typeof c.scheduled_ts === 'number' ? (c.scheduled_ts < 1e12 ? c.scheduled_ts * 1000 : c.scheduled_ts) : Date.parse(String(c.scheduled_ts));
}

/** `GET /venue_1/series/{series}` (`{series: {fee_type, fee_multiplier, maker_fee_multiplier}}`) as a schedule; null without one. */
export function venue1ScheduleOf(answer: unknown): Venue1Schedule | null {
  if (!isRec(answer) || !isRec(answer.series)) return null;
  const sr = answer.series;
  return {
    fee_type: String(sr.fee_type ?? ''),
    fee_multiplier: num(sr.fee_multiplier) ?? 0,
    maker_fee_multiplier: num(sr.maker_fee_multiplier) ?? undefined,
  };
}

/** `GET /venue_1/series/fee_changes?series_ticker=` (`{series_fee_change_arr: [...]}`) as its list; empty when none. */
export function venue1ChangesOf(answer: unknown): Venue1FeeChange[] {
  return isRec(answer) ? (arr(answer.series_fee_change_arr).filter(isRec) as Venue1FeeChange[]) : [];
}
