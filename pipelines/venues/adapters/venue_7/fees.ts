// venue_7's `trading_fees` (spec: "Market detail", trading_fees paragraph): what the venue publishes
// about its fees, read into the fee model of pipelines/venues/fees.ts. Pure.
import { feesUnavailable, zeroFees, proportional, type TradingFees } from '../../fees.ts';

/** venue_7: commission on net winnings, the same for backers and layers. */
export function venue7Fees(commissionPct: unknown, observedAt: string): TradingFees {
  const pct = Number(commissionPct);
  if (commissionPct === undefined || commissionPct === null || !Number.isFinite(pct)) return feesUnavailable(observedAt, 'event_record');
  if (pct === 0) return zeroFees(observedAt, 'event_record', 'net_winnings');
  const leg = proportional(Math.round(pct * 1e6) / 1e8);
  return { availability: 'published', observed_at: observedAt, source: 'event_record', charge_basis: 'net_winnings', taker: leg, maker: { ...leg } };
}
