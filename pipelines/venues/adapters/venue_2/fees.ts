// venue_2's `trading_fees` (spec: "Market detail", trading_fees paragraph): what the venue publishes
// about its fees, read into the fee model of pipelines/venues/fees.ts. Pure.
import { feesUnavailable, zeroFees, zeroLeg, proportional, bps, type TradingFees } from '../../fees.ts';

/** venue_2: feesEnabled false with zero base fees is a genuine zero; otherwise basis points. */
export function venue2Fees(m: { feesEnabled?: unknown; takerBaseFee?: unknown; makerBaseFee?: unknown }, observedAt: string): TradingFees {
  const taker = Number(m.takerBaseFee ?? 0);
  const maker = Number(m.makerBaseFee ?? 0);
  if (!Number.isFinite(taker) || !Number.isFinite(maker)) return feesUnavailable(observedAt, 'market_record');
  if (m.feesEnabled !== true && taker === 0 && maker === 0) return zeroFees(observedAt, 'market_record', 'notional');
  return {
    availability: 'published',
    observed_at: observedAt,
    source: 'market_record',
    charge_basis: 'notional',
    taker: taker === 0 ? zeroLeg() : proportional(bps(taker)),
    maker: maker === 0 ? zeroLeg() : proportional(bps(maker)),
  };
}
