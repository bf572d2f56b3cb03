// venue_4's `trading_fees` (spec: "Market detail", trading_fees paragraph): what the venue publishes
// about its fees, read into the fee model of pipelines/venues/fees.ts. Pure.
import { feesUnavailable, zeroFees, zeroLeg, proportional, bps, type TradingFees } from '../../fees.ts';

/** venue_4: venue-wide metadata in basis points on the stake. */
export function venue4Fees(meta: { makerFeeBps?: unknown; takerFeeBps?: unknown; feeBasis?: unknown }, observedAt: string): TradingFees {
  const taker = Number(meta.takerFeeBps);
  const maker = Number(meta.makerFeeBps);
  if (!Number.isFinite(taker) || !Number.isFinite(maker)) return feesUnavailable(observedAt, 'venue_metadata');
  const basis = typeof meta.feeBasis === 'string' ? meta.feeBasis : 'stake';
  if (taker === 0 && maker === 0) return zeroFees(observedAt, 'venue_metadata', basis);
  return {
    availability: 'published',
    observed_at: observedAt,
    source: 'venue_metadata',
    charge_basis: basis,
    taker: taker === 0 ? zeroLeg() : proportional(bps(taker)),
    maker: maker === 0 ? zeroLeg() : proportional(bps(maker)),
  };
}
