// Market detail, read live from the venue (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the shape and arithmetic every venue's reader shares (each venue's reader is its adapter's
// venue_N/market.ts, readMarket).
// In: a resolved provider + native id and a LiveIO (the request's venue reads, all under one
// deadline). Out: the Market detail body, NOT_FOUND, or a thrown ApiError (upstream faults).
// Each venue has one reader: the record read (and, where the spec says, one bounded second fetch
// to the book and venue_1's fee hops) is I/O; turning the native records into the body is done by
// the pure `build*` functions, unit-tested on native fixtures. Nothing is cached.
import { arr, isRec, num } from './native.ts';
import type { NotFound, Query } from '../client/http.ts';
import type { Provider } from '../../../lib/vocabulary.ts';
import type { TradingFees } from '../fees.ts';
import { binaryFromYesSide, round6, type Level, type Quote } from '../../../lib/quotes.ts';

/** The request's venue reads. `book` never throws: a failed book read is BOOK_FAILED (degrade). */
export interface LiveIO {
  get(venue: Provider, path: string, query?: Query): Promise<unknown | NotFound>;
  book(venue: Provider, path: string, query?: Query): Promise<unknown | NotFound | BookFailed>;
  /** Wall-clock now (ms) of the app clock, for observed_at. */
  now(): number;
}
export const BOOK_FAILED: unique symbol = Symbol('book-failed');
export type BookFailed = typeof BOOK_FAILED;

export type Availability = 'live' | 'indicative' | 'unavailable';
export type AsOfKind = 'quote' | 'record_refresh' | 'record_static' | 'unknown';

export interface OutcomeDetail extends Quote {
  name: string;
  outcome_id: string;
}

export interface Pricing {
  availability: Availability;
  scale: 'probability_0_1';
  source: 'market_record' | 'orderbook';
  as_of: string | null;
  as_of_kind: AsOfKind;
  observed_at: string;
  neg_risk: boolean;
}

export interface MarketDetail {
  id: string;
  provider: Provider;
  provider_id: string;
  title: string;
  status: string;
  event_id?: string;
  close_time?: string;
  outcomes: OutcomeDetail[];
  pricing: Pricing;
  trading_fees: TradingFees;
  liquidity_usd: number | null;
  volume_24h_usd: number | null;
  volume_total_usd: number | null;
  volume_24h_contracts?: number;
  volume_total_contracts?: number;
  open_interest?: number;
}

/** The last body built, with the venue answer and the other inputs it was built from. */
let built: { answer: object; inputs: readonly unknown[]; body: unknown } | undefined;

/**
 * `build()`, or the body it returned last if that was for the same venue `answer` and the same
 * `inputs` (each compared with ===). Requests that share a venue read share its parsed answer
 * (VenueHttp.getJson) and are answered one after the other, so those that asked for one market at
 * once build one body and serialize it once, where each built and serialized the same thing before.
 * `inputs` is everything else the body is made of (the other answers, the request's observed_at,
 * the id asked): a request gets exactly the body it would have built alone, and a later read is a
 * new answer, so no body outlives its read's requests but the last one, held until the next build.
 * One remembered body, not one per answer (a WeakMap): nothing is kept per answer, so the
 * reads that share nothing leave no entries behind.
 */
export function builtOnce<T extends MarketDetail | NotFound>(answer: unknown, inputs: readonly unknown[], build: () => T): T {
  if (answer === null || typeof answer !== 'object') return build();
  const had = built;
  if (had !== undefined && had.answer === answer && had.inputs.length === inputs.length && had.inputs.every((x, i) => x === inputs[i])) return had.body as T;
  const body = build();
  built = { answer, inputs, body };
  return body;
}

export const EMPTY: Quote = { price: null, bid: null, ask: null, last: null };
/** The last instant iso() wrote and its text: the requests of one millisecond (observed_at) write it once. */
let isoMs = Number.NaN;
let isoText = '';

/**
 * An instant (epoch ms) as ISO 8601 UTC with milliseconds, `Date.prototype.toISOString`'s text (and its
 * RangeError for an instant out of its range). The last one is remembered: every live request writes
 * its observed_at, and at a few thousand requests a second most share their millisecond with the one
 * before; the text depends on the instant alone, so a request gets the text it would have written.
 */
export function iso(ms: number): string {
  if (ms === isoMs) return isoText;
  const text = new Date(ms).toISOString();
  isoMs = ms;
  isoText = text;
  return text;
}

/**
 * "A market that is not open is never live"; otherwise live unless the venue's own rule says the
 * quotes are only indicative; no quote at all is unavailable.
 */
export function availabilityOf(status: string, outcomes: readonly Quote[], indicative = false): Availability {
  const any = outcomes.some((o) => o.price !== null || o.bid !== null || o.ask !== null);
  if (!any) return 'unavailable';
  if (status !== 'open' || indicative) return 'indicative';
  return 'live';
}

export interface Base {
  provider: Provider;
  providerId: string;
  title: string;
  status: string;
  eventId?: string | null;
  closeTime?: string | null;
  outcomes: OutcomeDetail[];
  pricing: Omit<Pricing, 'scale' | 'observed_at'> & { observed_at?: string };
  fees: TradingFees;
  liquidityUsd?: number | null;
  volume24hUsd?: number | null;
  volumeTotalUsd?: number | null;
  volume24hContracts?: number | null;
  volumeTotalContracts?: number | null;
  openInterest?: number | null;
}

export function assemble(b: Base, observedAt: string): MarketDetail {
  // Built in the spec's field order: identity, then outcomes, pricing, fees, aggregates.
  const d = {
    id: `${b.provider}:${b.providerId}`,
    provider: b.provider,
    provider_id: b.providerId,
    title: b.title,
    status: b.status,
  } as MarketDetail;
  // "close times and parent event ids are omitted, not null"
  if (b.eventId) d.event_id = b.eventId;
  if (b.closeTime) d.close_time = b.closeTime;
  d.outcomes = b.outcomes;
  d.pricing = {
    availability: b.pricing.availability,
    scale: 'probability_0_1',
    source: b.pricing.source,
    as_of: b.pricing.as_of,
    as_of_kind: b.pricing.as_of_kind,
    observed_at: b.pricing.observed_at ?? observedAt,
    neg_risk: b.pricing.neg_risk,
  };
  d.trading_fees = b.fees;
  d.liquidity_usd = b.liquidityUsd ?? null;
  d.volume_24h_usd = b.volume24hUsd ?? null;
  d.volume_total_usd = b.volumeTotalUsd ?? null;
  // Contract-count mirrors only "where the venue reports contracts".
  if (typeof b.volume24hContracts === 'number') d.volume_24h_contracts = b.volume24hContracts;
  if (typeof b.volumeTotalContracts === 'number') d.volume_total_contracts = b.volumeTotalContracts;
  if (typeof b.openInterest === 'number') d.open_interest = b.openInterest;
  return d;
}

export const outcome = (name: string, outcomeId: string, q: Quote): OutcomeDetail => ({ name, outcome_id: outcomeId, ...q });

/** `as_of` and its kind: a book's time is a `quote` time, a record's a `record_refresh`; none is `unknown`. */
export const stamped = (at: string | null, kind: 'quote' | 'record_refresh'): Pick<Pricing, 'as_of' | 'as_of_kind'> => ({ as_of: at, as_of_kind: at ? kind : 'unknown' });

// A quote from a record's best bid and ask (no sizes reported): one function for market detail and
// the listings' quotes, so a stored quote means what the route shows.
export { recordQuote } from './quotes.ts';

/** A settled binary [yes, no]: the settlement (1 or 0, null when void) and its complement, no bid/ask. */
export const settledBinary = (p: number | null): [Quote, Quote] => [
  { ...EMPTY, price: p },
  { ...EMPTY, price: p === null ? null : 1 - p },
];

export const pairs = (v: unknown): Level[] =>
  arr(v).flatMap((l) => {
    if (Array.isArray(l)) {
      const p = num(l[0]);
      const q = num(l[1]);
      return p === null || q === null ? [] : [{ price: p, size: q }];
    }
    if (isRec(l)) {
      const p = num(l.price ?? l.p);
      const q = num(l.size ?? l.q);
      return p === null || q === null ? [] : [{ price: p, size: q }];
    }
    return [];
  });

export interface BinaryQuotes {
  yes: Quote;
  no: Quote;
  availability: Availability;
  stamp: Pick<Pricing, 'as_of' | 'as_of_kind'>;
}

/**
 * A binary market with a YES-side book (venue_8, venue_9 child). Settled: the settlement. With a
 * book: quoted from it, the record's mark standing in for a missing price ("a price mark that
 * outlives an empty book is indicative"). Without one (not read, or failed): "keep the record's
 * marks", indicative.
 */
export function yesSideBinary(
  status: string,
  r: { settlement: number | null; mark: number | null; recordTime: string | null; book: { bids: unknown; asks: unknown; time: string | null } | null },
): BinaryQuotes {
  if (status === 'settled') {
    const [yes, no] = settledBinary(r.settlement);
    return { yes, no, availability: availabilityOf(status, [yes, no]), stamp: stamped(r.recordTime, 'record_refresh') };
  }
  if (r.book) {
    const [yes, no] = binaryFromYesSide(pairs(r.book.bids), pairs(r.book.asks));
    if (yes.price === null && r.mark !== null) {
      yes.price = round6(r.mark);
      no.price = round6(1 - r.mark);
    }
    return { yes, no, availability: availabilityOf(status, [yes, no], yes.bid === null && yes.ask === null), stamp: stamped(r.book.time, 'quote') };
  }
  const yes = { ...EMPTY, price: r.mark === null ? null : round6(r.mark) };
  const no = { ...EMPTY, price: r.mark === null ? null : round6(1 - r.mark) };
  return { yes, no, availability: availabilityOf(status, [yes, no], true), stamp: stamped(r.recordTime, 'record_refresh') };
}
