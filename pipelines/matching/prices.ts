// Cross-venue prices of a matched submarket (`include_prices=true` on the sports routes). In: the
// submarket as served (canonical outcomes, source markets, settlement_equivalence), each source
// market's top of book and taker fee as the pipeline last read them (SourceQuotes, carried by the
// canonical market and published beside the sports snapshot), the request time and the age after
// which a quote is stale. Out: per canonical outcome every venue's quote with the effective price
// of buying one contract after the venue's taker fee, the best venue, and for a two-outcome
// submarket the cheapest complete set across venues with its cost and edge. Pure.
//
// Arithmetic is exact. A price is a whole number of micro-units (quotes are rounded to 6 places) and
// a fee rate or rounding increment a whole number of 1e-10 units, both as BigInt, so a fee rounded
// up to the cent is never one cent short the way 0.07 x 0.25 in floating point can be. The fee of
// one contract is rounded as the venue publishes (its `rounding`), then the effective price is
// rounded UP to the micro-unit: a complete set's cost is never understated, so its edge is never
// overstated (and never reported positive when the fees make it negative).

/** One fee leg of the normalized `trading_fees` (spec: Market detail, `taker` / `maker`). */
export interface FeeLegInput {
  model: string;
  rate: number;
  exponent: number | null;
  rounding: { direction: string; increment: number | null };
}

/** What pricing needs of a market's `trading_fees`: buying is taking, so the taker leg. */
export interface SourceFees {
  availability: string;
  source: string | null;
  charge_basis: string | null;
  taker: FeeLegInput | null;
}

/** One venue outcome's top of book (probabilities 0..1; null on an empty side). */
export interface OutcomeQuote {
  outcome_id: string;
  bid: number | null;
  ask: number | null;
}

/** The quotes and fees of one venue market as read from its record. */
export interface MarketQuotes {
  outcomes: OutcomeQuote[];
  /** The venue's own time of the quotes when its record carries one (spec: pricing.as_of). */
  as_of: number | null;
  as_of_kind: 'quote' | 'record_refresh' | 'record_static' | 'unknown';
  fees: SourceFees;
}

/** A source market's quotes with when the service last read them (Unix ms). */
export interface SourceQuotes extends MarketQuotes {
  provider: string;
  market_id: string;
  observed_at: number;
}

// ---------------------------------------------------------------- exact fee arithmetic

const MICRO = 1_000_000n;
const RATE_UNIT = 10_000_000_000n; // 1e-10

/** A non-negative rational n/d. */
interface Ratio {
  n: bigint;
  d: bigint;
}

const ceilDiv = (n: bigint, d: bigint): bigint => (n + d - 1n) / d;

/** A probability as whole micro-units, or null outside [0, 1]. */
export function toMicro(p: number | null | undefined): bigint | null {
  if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) return null;
  return BigInt(Math.round(p * 1e6));
}

function toRateUnits(x: number): bigint | null {
  if (!Number.isFinite(x) || x < 0) return null;
  return BigInt(Math.round(x * 1e10));
}

/** Why a fee could not be computed, or the fee of one contract bought at `askMicro`. */
export type FeeOutcome = { fee: Ratio } | { unknown: string };

/**
 * The taker fee of buying one contract (payout 1) at `askMicro`. Models (api/live README:
 * `trading_fees`): `none`; `proportional`, rate x the charge basis (`notional` and `stake`: the
 * price paid; `net_winnings`: 1 - price, charged only when the contract wins, counted here as if it
 * does so the cost is an upper bound; `contracts`: rate per contract); `quadratic`, rate x
 * (P(1-P))^exponent per contract (exponent a whole number 0..4); `per_contract`, a flat rate per
 * contract. Then the leg's rounding (`up`, `down`, `nearest` half up, to `increment`).
 */
export function takerFee(fees: SourceFees, askMicro: bigint): FeeOutcome {
  if (fees.availability === 'zero') return { fee: { n: 0n, d: 1n } };
  if (fees.availability !== 'published') return { unknown: fees.availability };
  const leg = fees.taker;
  if (!leg) return { unknown: 'unavailable' };
  const rate = toRateUnits(leg.rate);
  if (rate === null) return { unknown: 'unsupported_fee' };
  const p = askMicro;
  const q = MICRO - askMicro;
  let fee: Ratio;
  switch (leg.model) {
    case 'none':
      fee = { n: 0n, d: 1n };
      break;
    case 'per_contract':
      fee = { n: rate, d: RATE_UNIT };
      break;
    case 'proportional': {
      const basis = fees.charge_basis;
      if (basis === 'notional' || basis === 'stake') fee = { n: rate * p, d: RATE_UNIT * MICRO };
      else if (basis === 'net_winnings') fee = { n: rate * q, d: RATE_UNIT * MICRO };
      else if (basis === 'contracts') fee = { n: rate, d: RATE_UNIT };
      else return { unknown: 'unsupported_fee' };
      break;
    }
    case 'quadratic': {
      const e = leg.exponent ?? 1;
      if (!Number.isInteger(e) || e < 0 || e > 4) return { unknown: 'unsupported_fee' };
      const k = BigInt(e);
      fee = { n: rate * (p * q) ** k, d: RATE_UNIT * (MICRO * MICRO) ** k };
      break;
    }
    default:
      return { unknown: 'unsupported_fee' };
  }
  const r = leg.rounding;
  if (r.direction === 'none' || r.increment === null || r.increment === 0) return { fee };
  const inc = toRateUnits(r.increment);
  if (inc === null || inc === 0n) return { unknown: 'unsupported_fee' };
  // fee / increment = (n / d) / (inc / RATE_UNIT)
  const num = fee.n * RATE_UNIT;
  const den = fee.d * inc;
  let steps: bigint;
  if (r.direction === 'up') steps = ceilDiv(num, den);
  else if (r.direction === 'down') steps = num / den;
  else if (r.direction === 'nearest') steps = (2n * num + den) / (2n * den);
  else return { unknown: 'unsupported_fee' };
  return { fee: { n: steps * inc, d: RATE_UNIT } };
}

/** A fee rounded up to whole micro-units (what the effective price adds). */
export const feeMicro = (f: Ratio): bigint => ceilDiv(f.n * MICRO, f.d);

const fromMicro = (m: bigint): number => Number(m) / 1e6;

// ---------------------------------------------------------------- submarket prices

/** The parts of a served submarket that pricing reads. */
export interface PricedSubmarket {
  outcomes: { key: string }[];
  source_markets: { provider: string; market_id: string; outcomes: { canonical_outcome_key: string; outcome_id: string }[] }[];
  settlement_equivalence?: string;
  /** The rule rows (whether or not the response shows them): each venue's tie and push values. */
  rule_comparisons?: readonly { rule: string; source_values: readonly { value: string }[] }[];
}

/**
 * Agreed tie and push values under which a two-outcome set still returns 1: the case cannot happen,
 * or each leg pays half. A tie or push that loses pays neither leg, one that is void refunds both
 * (the edge is not earned), and one that is an outcome of its own is a third outcome.
 */
const PAYS_ONCE = new Set(['not_possible', 'not_applicable', 'half_payout']);

/** Every venue settles alike (`equivalent`) and the agreed tie and push rules leave exactly one leg paying. */
function settlementSafe(sm: PricedSubmarket): boolean {
  if (sm.settlement_equivalence !== 'equivalent') return false;
  return (sm.rule_comparisons ?? []).every((r) => (r.rule !== 'tie' && r.rule !== 'push') || r.source_values.every((v) => PAYS_ONCE.has(v.value)));
}

export interface VenueQuote {
  provider: string;
  market_id: string;
  outcome_id: string;
  bid: number | null;
  ask: number | null;
  as_of: string | null;
  as_of_kind: string | null;
  observed_at: string | null;
  /** Read longer ago than the stale age: shown, never a best price. */
  stale: boolean;
  /** The `trading_fees.availability` the fee came from (`published`, `zero`, `per_account`, ...). */
  fee_availability: string | null;
  /** Taker fee of one contract at `ask`; null when the fee or the ask is unknown. */
  fee: number | null;
  /** ask + fee, rounded up to 6 places; null when either is unknown. */
  effective_ask: number | null;
}

export interface Leg {
  outcome_key: string;
  provider: string;
  market_id: string;
  outcome_id: string;
  ask: number;
  effective_ask: number;
}

export interface OutcomePrices {
  outcome_key: string;
  quotes: VenueQuote[];
  /** The lowest effective ask among fresh quotes with a known fee; null when there is none. */
  best: Leg | null;
}

export interface CompleteSet {
  legs: Leg[];
  /** Sum of the legs' effective asks: what one contract of every outcome costs. */
  cost: number;
  /** 1 - cost: what the set returns per contract whatever the result (negative: a loss). */
  edge: number;
  /** True only when the submarket's settlement_equivalence is `equivalent` and its agreed tie and push rules leave exactly one leg paying. */
  settlement_safe: boolean;
}

export interface SubmarketPrices {
  outcomes: OutcomePrices[];
  /** Two-outcome submarkets with a best price on both sides; null otherwise. */
  complete_set: CompleteSet | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What one venue outcome's quote prices at, whatever the request time. */
interface PricedOutcome {
  oq: OutcomeQuote | undefined;
  askMicro: bigint | null;
  fee: bigint | null;
  effective: bigint | null;
  feeNumber: number | null;
  effectiveNumber: number | null;
  asOf: string | null;
  observedAt: string;
}

// A SourceQuotes object is immutable and shared by every request of one prices snapshot (the reader
// hands out the same objects), so what does not depend on the request time is worked out once.
const pricedCache = new WeakMap<SourceQuotes, Map<string, PricedOutcome>>();

function pricedOutcome(q: SourceQuotes, outcomeId: string): PricedOutcome {
  let byId = pricedCache.get(q);
  if (!byId) pricedCache.set(q, (byId = new Map()));
  let p = byId.get(outcomeId);
  if (p) return p;
  const oq = q.outcomes.find((x) => x.outcome_id === outcomeId);
  const askMicro = toMicro(oq?.ask);
  let fee: bigint | null = null;
  if (askMicro !== null) {
    const f = takerFee(q.fees, askMicro);
    if ('fee' in f) fee = feeMicro(f.fee);
  }
  const effective = fee !== null && askMicro !== null ? askMicro + fee : null;
  p = {
    oq,
    askMicro,
    fee,
    effective,
    feeNumber: fee === null ? null : fromMicro(fee),
    effectiveNumber: effective === null ? null : fromMicro(effective),
    asOf: iso(q.as_of),
    observedAt: iso(q.observed_at)!,
  };
  byId.set(outcomeId, p);
  return p;
}

/**
 * Prices of one submarket. `quotesOf` returns a source market's quotes (`provider:market_id`), with
 * `observed_at` already the newest read that saw them; a quote read before `now - staleMs` is stale.
 */
export function submarketPrices(
  sm: PricedSubmarket,
  quotesOf: (id: string) => SourceQuotes | undefined,
  now: number,
  staleMs: number,
): SubmarketPrices {
  const byOutcome = new Map<string, { quote: VenueQuote; effective: bigint | null; askMicro: bigint | null }[]>();
  for (const o of sm.outcomes) byOutcome.set(o.key, []);
  for (const src of sm.source_markets) {
    const q = quotesOf(`${src.provider}:${src.market_id}`);
    for (const so of src.outcomes) {
      const list = byOutcome.get(so.canonical_outcome_key);
      if (!list) continue;
      const p = q ? pricedOutcome(q, so.outcome_id) : undefined;
      list.push({
        askMicro: p?.askMicro ?? null,
        effective: p?.effective ?? null,
        quote: {
          provider: src.provider,
          market_id: src.market_id,
          outcome_id: so.outcome_id,
          bid: p?.oq?.bid ?? null,
          ask: p?.oq?.ask ?? null,
          as_of: p?.asOf ?? null,
          as_of_kind: q?.as_of_kind ?? null,
          observed_at: p?.observedAt ?? null,
          stale: q ? q.observed_at < now - staleMs : false,
          fee_availability: q?.fees.availability ?? null,
          fee: p?.feeNumber ?? null,
          effective_ask: p?.effectiveNumber ?? null,
        },
      });
    }
  }
  const bestMicro = new Map<string, bigint>();
  const outcomes: OutcomePrices[] = sm.outcomes.map((o) => {
    const list = byOutcome.get(o.key)!;
    let best: (typeof list)[number] | null = null;
    for (const x of list) {
      if (x.quote.stale || x.effective === null || x.askMicro === null) continue;
      // Ties keep the first listed (source markets are in the snapshot's venue order).
      if (!best || x.effective < best.effective!) best = x;
    }
    if (best) bestMicro.set(o.key, best.effective!);
    return {
      outcome_key: o.key,
      quotes: list.map((x) => x.quote),
      best: best
        ? { outcome_key: o.key, provider: best.quote.provider, market_id: best.quote.market_id, outcome_id: best.quote.outcome_id, ask: best.quote.ask!, effective_ask: best.quote.effective_ask! }
        : null,
    };
  });
  let complete_set: CompleteSet | null = null;
  if (outcomes.length === 2 && outcomes.every((o) => o.best)) {
    const cost = outcomes.reduce((s, o) => s + bestMicro.get(o.outcome_key)!, 0n);
    complete_set = {
      legs: outcomes.map((o) => o.best!),
      cost: fromMicro(cost),
      edge: fromMicro(MICRO - cost),
      settlement_safe: settlementSafe(sm),
    };
  }
  return { outcomes, complete_set };
}
