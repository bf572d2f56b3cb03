// venue_9's `trading_fees` (spec: "Market detail", trading_fees paragraph): what the venue publishes
// about its fees, read into the fee model of pipelines/venues/fees.ts. Pure.
import { feesUnavailable, zeroFees, proportional, bps, type TradingFees } from '../../fees.ts';

/** venue_9: per-child rate in basis points. */
export function venue9Fees(rateBps: unknown, observedAt: string): TradingFees {
  const r = Number(rateBps);
  if (rateBps === undefined || rateBps === null || !Number.isFinite(r)) return feesUnavailable(observedAt, 'market_record');
  if (r === 0) return zeroFees(observedAt, 'market_record', 'notional');
  return {
    availability: 'published',
    observed_at: observedAt,
    source: 'market_record',
    charge_basis: 'notional',
    taker: proportional(bps(r)),
    maker: proportional(bps(r)),
  };
}
