// `trading_fees` of market detail (spec: "Market detail", trading_fees paragraph): the fee model
// every venue's fees are read into (each venue's own reading is in its adapter folder,
// pipelines/venues/adapters/venue_N/fees.ts). In: what a venue publishes about its fees (series fee
// schedule, market record fields, venue metadata, event commission), as market detail reads it live
// or the sports canonicalizer finds it on a listing record (the adapters' source quotes). Out: the
// always-present fee object. Pure.
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
export const zeroLeg = (): FeeLeg => ({ model: 'none', rate: 0, exponent: null, rounding: { ...NO_ROUNDING } });
export const proportional = (rate: number): FeeLeg => ({ model: 'proportional', rate, exponent: null, rounding: { ...NO_ROUNDING } });
export const bps = (x: number) => Math.round(x) / 10_000;

export function feesUnavailable(observedAt: string, source: string | null): TradingFees {
  return { availability: 'unavailable', observed_at: observedAt, source, charge_basis: null, taker: null, maker: null };
}

export function feesPerAccount(observedAt: string, source: string): TradingFees {
  return { availability: 'per_account', observed_at: observedAt, source, charge_basis: null, taker: null, maker: null };
}

export function feesNotPublished(observedAt: string): TradingFees {
  return { availability: 'not_published', observed_at: observedAt, source: null, charge_basis: null, taker: null, maker: null };
}

export function zeroFees(observedAt: string, source: string, basis: string | null): TradingFees {
  return { availability: 'zero', observed_at: observedAt, source, charge_basis: basis, taker: zeroLeg(), maker: zeroLeg() };
}
