// `trading_fees` of market detail (spec: "Market detail", trading_fees paragraph). In: what a
// venue publishes about its fees (series fee schedule, market record fields, venue metadata,
// event commission), as market detail reads it live or the sports canonicalizer finds it on a listing
// record (pipelines/matching/source-quotes.ts). Out: the always-present fee object. Pure.
//
// availability values:
//   published        the venue publishes the rate that applies to everyone
//   zero             a genuine zero fee the venue publishes as such
//   per_account      rates depend on the caller's venue account (needs venue credentials)
//   not_published    the venue publishes nothing about fees
//   unavailable      the venue publishes fees but they could not be read for this request
// model values: quadratic (rate x contracts x (P(1-P))^exponent), proportional (rate x basis),
// none. charge_basis values: contracts, notional, stake, net_winnings.

export interface FeeLeg {
  model: 'quadratic' | 'proportional' | 'none';
  rate: number;
  exponent: number | null;
  rounding: { direction: 'up' | 'down' | 'nearest' | 'none'; increment: number | null };
}

export interface TradingFees {
  availability: 'published' | 'zero' | 'per_account' | 'not_published' | 'unavailable';
  observed_at: string;
  source: string | null;
  charge_basis: string | null;
  taker: FeeLeg | null;
  maker: FeeLeg | null;
}

const NO_ROUNDING = { direction: 'none', increment: null } as const;
const zeroLeg = (): FeeLeg => ({ model: 'none', rate: 0, exponent: null, rounding: { ...NO_ROUNDING } });
const proportional = (rate: number): FeeLeg => ({ model: 'proportional', rate, exponent: null, rounding: { ...NO_ROUNDING } });
const bps = (x: number) => Math.round(x) / 10_000;

export function feesUnavailable(observedAt: string, source: string | null): TradingFees {
  return { availability: 'unavailable', observed_at: observedAt, source, charge_basis: null, taker: null, maker: null };
}

export function feesPerAccount(observedAt: string, source: string): TradingFees {
  return { availability: 'per_account', observed_at: observedAt, source, charge_basis: null, taker: null, maker: null };
}

export function feesNotPublished(observedAt: string): TradingFees {
  return { availability: 'not_published', observed_at: observedAt, source: null, charge_basis: null, taker: null, maker: null };
}

function zeroFees(observedAt: string, source: string, basis: string | null): TradingFees {
  return { availability: 'zero', observed_at: observedAt, source, charge_basis: basis, taker: zeroLeg(), maker: zeroLeg() };
}

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
    const at = typeof c.scheduled_ts === 'number' ? (c.scheduled_ts < 1e12 ? c.scheduled_ts * 1000 : c.scheduled_ts) : Date.parse(String(c.scheduled_ts));
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

/** venue_7: commission on net winnings, the same for backers and layers. */
export function venue7Fees(commissionPct: unknown, observedAt: string): TradingFees {
  const pct = Number(commissionPct);
  if (commissionPct === undefined || commissionPct === null || !Number.isFinite(pct)) return feesUnavailable(observedAt, 'event_record');
  if (pct === 0) return zeroFees(observedAt, 'event_record', 'net_winnings');
  const leg = proportional(Math.round(pct * 1e6) / 1e8);
  return { availability: 'published', observed_at: observedAt, source: 'event_record', charge_basis: 'net_winnings', taker: leg, maker: { ...leg } };
}

/** venue_8: platform, creator and liquidity fees; all zero is a genuine zero. */
export function venue8Fees(fees: unknown, observedAt: string): TradingFees {
  const f = fees as Record<string, unknown> | null | undefined;
  if (!f || typeof f !== 'object') return feesNotPublished(observedAt);
  const total = ['platformFee', 'creatorFee', 'liquidityFee'].reduce((s, k) => s + (Number(f[k]) || 0), 0);
  if (total === 0) return zeroFees(observedAt, 'market_record', 'notional');
  const leg = proportional(total);
  return { availability: 'published', observed_at: observedAt, source: 'market_record', charge_basis: 'notional', taker: leg, maker: { ...leg } };
}

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
