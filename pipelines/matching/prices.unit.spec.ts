// Effective prices and complete sets (prices.ts). Every expected number is worked out by hand in the
// comment beside it; the property test holds the complete set's edge to an exact oracle written
// apart from the implementation (fractions of BigInt over the inputs' own decimal grid).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { feeMicro, submarketPrices, takerFee, toMicro, type FeeLegInput, type SourceFees, type SourceQuotes } from './prices.ts';

const leg = (model: string, rate: number, o: { exponent?: number | null; direction?: string; increment?: number | null } = {}): FeeLegInput => ({
  model,
  rate,
  exponent: o.exponent ?? null,
  rounding: { direction: o.direction ?? 'none', increment: o.increment ?? null },
});
const published = (taker: FeeLegInput, basis: string | null = 'contracts'): SourceFees => ({ availability: 'published', source: 'test', charge_basis: basis, taker });

/** The fee of one contract at `ask`, in dollars as the response prints it (rounded up to 6 places). */
function fee(fees: SourceFees, ask: number): number | null {
  const f = takerFee(fees, toMicro(ask)!);
  return 'fee' in f ? Number(feeMicro(f.fee)) / 1e6 : null;
}

describe('taker fee of one contract, per model', () => {
  it('quadratic (exponent 1), rounded up to the cent: rate x P x (1-P)', () => {
    const v1 = published(leg('quadratic', 0.07, { exponent: 1, direction: 'up', increment: 0.01 }));
    // 0.07 x 0.46 x 0.54 = 0.017388 -> up to the cent: 0.02
    expect(fee(v1, 0.46)).toBe(0.02);
    // 0.07 x 0.5 x 0.5 = 0.0175 exactly -> 0.02 (in floating point 0.0175 can land either side)
    expect(fee(v1, 0.5)).toBe(0.02);
    // 0.07 x 0.1 x 0.9 = 0.0063 -> 0.01
    expect(fee(v1, 0.1)).toBe(0.01);
    // 0.07 x 0.02 x 0.98 = 0.001372 -> 0.01: a one-contract order pays a whole cent
    expect(fee(v1, 0.02)).toBe(0.01);
  });
  it('quadratic rounding down and to the nearest (half up)', () => {
    // 0.0175: down 0.01, nearest (a half) 0.02
    expect(fee(published(leg('quadratic', 0.07, { exponent: 1, direction: 'down', increment: 0.01 })), 0.5)).toBe(0.01);
    expect(fee(published(leg('quadratic', 0.07, { exponent: 1, direction: 'nearest', increment: 0.01 })), 0.5)).toBe(0.02);
    // 0.017388 to the nearest cent: 0.02
    expect(fee(published(leg('quadratic', 0.07, { exponent: 1, direction: 'nearest', increment: 0.01 })), 0.46)).toBe(0.02);
    // 0.07 x 0.05 x 0.95 = 0.003325 -> nearest cent 0.00
    expect(fee(published(leg('quadratic', 0.07, { exponent: 1, direction: 'nearest', increment: 0.01 })), 0.05)).toBe(0);
  });
  it('quadratic with exponent 2, not rounded: rate x (P(1-P))^2', () => {
    // 0.3 x (0.4 x 0.6)^2 = 0.3 x 0.0576 = 0.01728
    expect(fee(published(leg('quadratic', 0.3, { exponent: 2 })), 0.4)).toBe(0.01728);
    // exponent null reads as 1: 0.3 x 0.24 = 0.072
    expect(fee(published(leg('quadratic', 0.3)), 0.4)).toBe(0.072);
    // a fractional exponent is not one this arithmetic takes: unknown, never guessed
    expect(fee(published(leg('quadratic', 0.3, { exponent: 1.5 })), 0.4)).toBeNull();
  });
  it('proportional on notional and stake: rate x price paid', () => {
    // venue_2 sports lines: takerBaseFee 200 bps = 0.02; 0.02 x 0.55 = 0.011
    expect(fee(published(leg('proportional', 0.02), 'notional'), 0.55)).toBe(0.011);
    // venue_4: 50 bps on the stake; 0.005 x 0.4 = 0.002
    expect(fee(published(leg('proportional', 0.005), 'stake'), 0.4)).toBe(0.002);
  });
  it('proportional on net winnings: rate x (1 - price), counted as if the contract wins', () => {
    // venue_7 commission 2%: odds 1.91 -> ask 1/1.91 = 0.523560 (6 places); 0.02 x 0.47644 = 0.0095288
    // -> up to the micro-unit 0.009529
    expect(fee(published(leg('proportional', 0.02), 'net_winnings'), 0.52356)).toBe(0.009529);
  });
  it('proportional per contract and a flat per_contract fee', () => {
    expect(fee(published(leg('proportional', 0.01), 'contracts'), 0.3)).toBe(0.01);
    expect(fee(published(leg('per_contract', 0.015)), 0.3)).toBe(0.015);
    // per_contract rounded up to the cent: 0.015 -> 0.02
    expect(fee(published(leg('per_contract', 0.015, { direction: 'up', increment: 0.01 })), 0.3)).toBe(0.02);
  });
  it('zero is a genuine zero; per-account, unpublished, unavailable and unknown models give no fee', () => {
    expect(fee({ availability: 'zero', source: 'market_record', charge_basis: 'notional', taker: leg('none', 0) }, 0.45)).toBe(0);
    expect(fee(published(leg('none', 0)), 0.45)).toBe(0);
    for (const availability of ['per_account', 'not_published', 'unavailable']) {
      expect(takerFee({ availability, source: null, charge_basis: null, taker: null }, 450_000n)).toEqual({ unknown: availability });
    }
    expect(fee(published(leg('tiered', 0.01)), 0.45)).toBeNull();
    expect(fee(published(leg('proportional', 0.01), null), 0.45)).toBeNull();
  });
});

// ---------------------------------------------------------------- submarkets

const NOW = Date.parse('2026-11-21T15:00:00Z');
const STALE = 60_000;
const ZERO: SourceFees = { availability: 'zero', source: 'market_record', charge_basis: 'notional', taker: leg('none', 0) };
const TWO_PCT_NET = published(leg('proportional', 0.02), 'net_winnings');

function src(provider: string, market_id: string, outcomes: [string, string][]) {
  return { provider, market_id, outcomes: outcomes.map(([canonical_outcome_key, outcome_id]) => ({ canonical_outcome_key, outcome_id })) };
}
function quotes(provider: string, market_id: string, asks: [string, number | null][], fees: SourceFees, observedAt = NOW - 1000): SourceQuotes {
  return { provider, market_id, outcomes: asks.map(([outcome_id, ask]) => ({ outcome_id, bid: ask === null ? null : ask - 0.02, ask })), as_of: null, as_of_kind: 'unknown', fees, observed_at: observedAt };
}

describe('submarketPrices', () => {
  const sm = (equivalence: string) => ({
    outcomes: [{ key: 'winner:lal' }, { key: 'winner:bos' }],
    source_markets: [
      src('venue_2', '9000123', [
        ['winner:lal', 't1'],
        ['winner:bos', 't2'],
      ]),
      src('venue_7', '3001:1', [
        ['winner:lal', '1'],
        ['winner:bos', '2'],
      ]),
      src('venue_3', '1000201', [
        ['winner:lal', 'k1'],
        ['winner:bos', 'k2'],
      ]),
    ],
    settlement_equivalence: equivalence,
  });

  it('best venue per outcome after fees, and the cheapest complete set across venues', () => {
    const book = new Map([
      ['venue_2:9000123', quotes('venue_2', '9000123', [['t1', 0.46], ['t2', 0.56]], ZERO)],
      // venue_7 lal ask 0.44 + 0.02 x 0.56 = 0.4512; bos 0.53 + 0.02 x 0.47 = 0.5394
      ['venue_7:3001:1', quotes('venue_7', '3001:1', [['1', 0.44], ['2', 0.53]], TWO_PCT_NET)],
      // venue_3's fee is per account: the lowest asks, but never a best price
      ['venue_3:1000201', quotes('venue_3', '1000201', [['k1', 0.3], ['k2', 0.3]], { availability: 'per_account', source: 'market_record', charge_basis: null, taker: null })],
    ]);
    const p = submarketPrices(sm('equivalent'), (id) => book.get(id), NOW, STALE);
    const [lal, bos] = p.outcomes;
    expect(lal!.quotes.map((q) => [q.provider, q.ask, q.fee, q.effective_ask])).toEqual([
      ['venue_2', 0.46, 0, 0.46],
      ['venue_7', 0.44, 0.0112, 0.4512],
      ['venue_3', 0.3, null, null],
    ]);
    expect(lal!.best).toMatchObject({ provider: 'venue_7', outcome_id: '1', ask: 0.44, effective_ask: 0.4512 });
    // bos: venue_2 0.56 (no fee) vs venue_7 0.5394 -> venue_7
    expect(bos!.best).toMatchObject({ provider: 'venue_7', effective_ask: 0.5394 });
    // 0.4512 + 0.5394 = 0.9906; edge 0.0094
    expect(p.complete_set).toMatchObject({ cost: 0.9906, edge: 0.0094, settlement_safe: true });
    expect(p.complete_set!.legs.map((l) => `${l.provider}/${l.outcome_id}`)).toEqual(['venue_7/1', 'venue_7/2']);
  });

  it('settlement_safe only when settlement_equivalence is equivalent', () => {
    const book = new Map([['venue_2:9000123', quotes('venue_2', '9000123', [['t1', 0.46], ['t2', 0.5]], ZERO)]]);
    for (const v of ['different', 'unverified']) expect(submarketPrices(sm(v), (id) => book.get(id), NOW, STALE).complete_set!.settlement_safe).toBe(false);
    // 0.46 + 0.5 = 0.96
    expect(submarketPrices(sm('equivalent'), (id) => book.get(id), NOW, STALE).complete_set).toMatchObject({ cost: 0.96, edge: 0.04, settlement_safe: true });
  });

  it('settlement_safe only where the agreed tie and push rules leave exactly one leg paying (or a half each): not when a tie or a push loses, is void or is an outcome of its own', () => {
    const book = new Map([['venue_2:9000123', quotes('venue_2', '9000123', [['t1', 0.46], ['t2', 0.5]], ZERO)]]);
    // Agreeing rows, as the rule matrix gives them: each venue's value, and `equivalent`.
    const row = (rule: string, value: string) => ({ rule, comparison: 'equivalent', source_values: [{ value }, { value }] });
    const rows = (tie: string, push: string) => [row('tie', tie), row('overtime', 'included'), row('push', push)];
    const safe = (tie: string, push: string) => submarketPrices({ ...sm('equivalent'), rule_comparisons: rows(tie, push) }, (id) => book.get(id), NOW, STALE).complete_set!.settlement_safe;
    expect(safe('not_possible', 'not_applicable')).toBe(true);
    // Half of 1 on each leg: the set still returns 1.
    expect(safe('half_payout', 'not_applicable')).toBe(true);
    for (const tie of ['loses', 'void', 'separate_outcome']) expect(safe(tie, 'not_applicable'), `tie ${tie}`).toBe(false);
    for (const push of ['loses', 'void']) expect(safe('not_possible', push), `push ${push}`).toBe(false);
    // Without rule rows (a caller that has none) the verdict alone decides, as before.
    expect(submarketPrices(sm('equivalent'), (id) => book.get(id), NOW, STALE).complete_set!.settlement_safe).toBe(true);
  });

  it('a stale quote is marked and left out of best prices; with no fresh quote on a side there is no complete set', () => {
    const book = new Map([
      ['venue_2:9000123', quotes('venue_2', '9000123', [['t1', 0.46], ['t2', 0.56]], ZERO, NOW - STALE - 1)],
      ['venue_7:3001:1', quotes('venue_7', '3001:1', [['1', 0.48], ['2', null]], TWO_PCT_NET, NOW - STALE)],
    ]);
    const p = submarketPrices(sm('equivalent'), (id) => book.get(id), NOW, STALE);
    expect(p.outcomes[0]!.quotes.map((q) => [q.provider, q.stale])).toEqual([
      ['venue_2', true],
      ['venue_7', false],
      ['venue_3', false],
    ]);
    // 0.48 + 0.02 x 0.52 = 0.4904
    expect(p.outcomes[0]!.best).toMatchObject({ provider: 'venue_7', effective_ask: 0.4904 });
    expect(p.outcomes[1]!.best).toBeNull();
    expect(p.complete_set).toBeNull();
    // A source market without quotes is listed with nulls.
    expect(p.outcomes[0]!.quotes[2]).toMatchObject({ provider: 'venue_3', bid: null, ask: null, observed_at: null, effective_ask: null });
  });

  it('no complete set on a submarket of more than two outcomes', () => {
    const three = { outcomes: [{ key: 'a' }, { key: 'b' }, { key: 'c' }], source_markets: [src('venue_2', 'm', [['a', 'a'], ['b', 'b'], ['c', 'c']])], settlement_equivalence: 'equivalent' };
    const book = new Map([['venue_2:m', quotes('venue_2', 'm', [['a', 0.2], ['b', 0.2], ['c', 0.2]], ZERO)]]);
    const p = submarketPrices(three, (id) => book.get(id), NOW, STALE);
    expect(p.outcomes.every((o) => o.best !== null)).toBe(true);
    expect(p.complete_set).toBeNull();
  });
});

// ---------------------------------------------------------------- property: edge never overstated

/** Exact non-negative rationals for the oracle. */
class Frac {
  constructor(
    readonly n: bigint,
    readonly d: bigint,
  ) {}
  static of(n: bigint | number, d: bigint | number = 1n) {
    return new Frac(BigInt(n), BigInt(d));
  }
  add(o: Frac) {
    return new Frac(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Frac) {
    return new Frac(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o: Frac) {
    return new Frac(this.n * o.n, this.d * o.d);
  }
  pow(k: number) {
    return new Frac(this.n ** BigInt(k), this.d ** BigInt(k));
  }
  cmp(o: Frac) {
    const l = this.n * o.d;
    const r = o.n * this.d;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  /** Rounded to a multiple of `inc` by direction. */
  roundTo(inc: Frac, dir: string) {
    const num = this.n * inc.d;
    const den = this.d * inc.n;
    const fl = num / den;
    const steps = dir === 'down' ? fl : dir === 'up' ? (num % den === 0n ? fl : fl + 1n) : 2n * (num - fl * den) >= den ? fl + 1n : fl;
    return Frac.of(steps).mul(inc);
  }
}

interface GenFee {
  model: 'quadratic' | 'proportional' | 'per_contract' | 'none';
  basis: 'notional' | 'stake' | 'net_winnings' | 'contracts';
  rateBps: number;
  exponent: 1 | 2;
  direction: 'up' | 'down' | 'nearest' | 'none';
  incTicks: 1 | 100;
  zero: boolean;
}

/** The oracle: the fee of one contract at price a/10^4, straight from the definitions. */
function oracleFee(f: GenFee, aTicks: number): Frac {
  if (f.zero || f.model === 'none') return Frac.of(0);
  const P = Frac.of(aTicks, 10_000);
  const rate = Frac.of(f.rateBps, 10_000);
  let fee: Frac;
  if (f.model === 'per_contract') fee = rate;
  else if (f.model === 'quadratic') fee = rate.mul(P.mul(Frac.of(1).sub(P)).pow(f.exponent));
  else if (f.basis === 'net_winnings') fee = rate.mul(Frac.of(1).sub(P));
  else if (f.basis === 'contracts') fee = rate;
  else fee = rate.mul(P);
  return f.direction === 'none' ? fee : fee.roundTo(Frac.of(f.incTicks, 10_000), f.direction);
}

const genFee: fc.Arbitrary<GenFee> = fc.record({
  model: fc.constantFrom('quadratic', 'proportional', 'per_contract', 'none'),
  basis: fc.constantFrom('notional', 'stake', 'net_winnings', 'contracts'),
  rateBps: fc.integer({ min: 0, max: 1500 }),
  exponent: fc.constantFrom(1, 2),
  direction: fc.constantFrom('up', 'down', 'nearest', 'none'),
  incTicks: fc.constantFrom(1, 100),
  zero: fc.boolean(),
});

const toFees = (f: GenFee): SourceFees =>
  f.zero
    ? ZERO
    : published(
        { model: f.model, rate: f.rateBps / 10_000, exponent: f.exponent, rounding: { direction: f.direction, increment: f.direction === 'none' ? null : f.incTicks / 10_000 } },
        f.basis,
      );

// A venue quoting both sides; asks near a sum of 1 so the fee-free set is often just profitable
// and the fees decide.
const genVenue = fc.record({ fee: genFee, a0: fc.integer({ min: 100, max: 9900 }), skew: fc.integer({ min: -300, max: 300 }) });

describe('complete set edge (property)', () => {
  it('is never reported positive when the fees make it zero or negative, and never above the exact edge', () => {
    fc.assert(
      fc.property(fc.array(genVenue, { minLength: 1, maxLength: 4 }), (venues) => {
        const sm = {
          outcomes: [{ key: 'over' }, { key: 'under' }],
          source_markets: venues.map((_, i) => src(`venue_${i + 1}`, `m${i}`, [['over', 'o'], ['under', 'u']])),
          settlement_equivalence: 'equivalent',
        };
        const book = new Map<string, SourceQuotes>();
        const asks = venues.map((v) => [v.a0, Math.min(9999, Math.max(1, 10_000 - v.a0 + v.skew))] as const);
        venues.forEach((v, i) => book.set(`venue_${i + 1}:m${i}`, quotes(`venue_${i + 1}`, `m${i}`, [['o', asks[i]![0] / 10_000], ['u', asks[i]![1] / 10_000]], toFees(v.fee))));
        const p = submarketPrices(sm, (id) => book.get(id), NOW, STALE);
        const set = p.complete_set;
        expect(set).not.toBeNull();
        // The exact cost of the legs reported, and the exact cheapest set over every venue.
        const exactEff = (i: number, side: 0 | 1) => Frac.of(asks[i]![side], 10_000).add(oracleFee(venues[i]!.fee, asks[i]![side]));
        const legIndex = (l: { provider: string }) => Number(l.provider.slice('venue_'.length)) - 1;
        const legsCost = exactEff(legIndex(set!.legs[0]!), 0).add(exactEff(legIndex(set!.legs[1]!), 1));
        const legsEdge = Frac.of(1).sub(legsCost);
        const min = (side: 0 | 1) => venues.map((_, i) => exactEff(i, side)).reduce((a, b) => (a.cmp(b) <= 0 ? a : b));
        const bestEdge = Frac.of(1).sub(min(0).add(min(1)));
        const reported = Frac.of(Math.round(set!.edge * 1e6), 1_000_000);
        if (set!.edge > 0) expect(legsEdge.cmp(Frac.of(0))).toBe(1);
        expect(reported.cmp(legsEdge)).toBeLessThanOrEqual(0);
        // Conservative by at most the two legs' rounding up to the micro-unit.
        expect(reported.add(Frac.of(2, 1_000_000)).cmp(bestEdge)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 3000 },
    );
  });
});
