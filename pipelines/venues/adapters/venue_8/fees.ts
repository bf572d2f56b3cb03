// venue_8's `trading_fees` (spec: "Market detail", trading_fees paragraph): what the venue publishes
// about its fees, read into the fee model of pipelines/venues/fees.ts. Pure.
import { feesNotPublished, zeroFees, proportional, type TradingFees } from '../../fees.ts';

/** venue_8: platform, creator and liquidity fees; all zero is a genuine zero. */
export function venue8Fees(fees: unknown, observedAt: string): TradingFees {
  const f = fees as Record<string, unknown> | null | undefined;
  if (!f || typeof f !== 'object') return feesNotPublished(observedAt);
  const total = ['platformFee', 'creatorFee', 'liquidityFee'].reduce((s, k) => s + (Number(f[k]) || 0), 0);
  if (total === 0) return zeroFees(observedAt, 'market_record', 'notional');
  const leg = proportional(total);
  return { availability: 'published', observed_at: observedAt, source: 'market_record', charge_basis: 'notional', taker: leg, maker: { ...leg } };
}
