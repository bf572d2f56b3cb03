// Market detail, read live from the venue (spec: "Market detail", "GET /v1/markets/{market_id}").
// In: a resolved provider + native id and a LiveIO (the request's venue reads, all under one
// deadline). Out: the Market detail body, NOT_FOUND, or a thrown ApiError (upstream faults).
// Each venue has one reader: the record read (and, where the spec says, one bounded second fetch
// to the book and venue_1's fee hops) is I/O; turning the native records into the body is done by
// the pure `build*` functions below, unit-tested on native fixtures. Nothing is cached.
import { NOT_FOUND, type NotFound, type Query } from '../../pipelines/venues/client/http.ts';
import type { Provider } from '../routes/table.ts';
import { isApiError } from '../errors.ts';
import { feesNotPublished, feesPerAccount, feesUnavailable, type TradingFees } from '../../pipelines/venues/fees.ts';
import { venue1Effective, venue1Fees, type Venue1FeeChange, type Venue1Schedule } from '../../pipelines/venues/adapters/venue_1/fees.ts';
import { venue2Fees } from '../../pipelines/venues/adapters/venue_2/fees.ts';
import { venue4Fees } from '../../pipelines/venues/adapters/venue_4/fees.ts';
import { venue7Fees } from '../../pipelines/venues/adapters/venue_7/fees.ts';
import { venue8Fees } from '../../pipelines/venues/adapters/venue_8/fees.ts';
import { venue9Fees } from '../../pipelines/venues/adapters/venue_9/fees.ts';
import { arr, isoTime, isRec, jsonArray, need, num, rec, str, type Rec } from './native.ts';
import { binaryFromFourSided, binaryFromYesSide, quoteOf, quotesFromOdds, round6, type Level, type Quote } from '../../lib/quotes.ts';
import { parseVenue7MarketId } from '../../pipelines/venues/adapters/venue_7/identifiers.ts';
import { parseVenue9Id } from '../../pipelines/venues/adapters/venue_9/identifiers.ts';

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

const EMPTY: Quote = { price: null, bid: null, ask: null, last: null };
const iso = (ms: number) => new Date(ms).toISOString();

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

interface Base {
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

function assemble(b: Base, observedAt: string): MarketDetail {
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

const outcome = (name: string, outcomeId: string, q: Quote): OutcomeDetail => ({ name, outcome_id: outcomeId, ...q });

/** `as_of` and its kind: a book's time is a `quote` time, a record's a `record_refresh`; none is `unknown`. */
const stamped = (at: string | null, kind: 'quote' | 'record_refresh'): Pick<Pricing, 'as_of' | 'as_of_kind'> => ({ as_of: at, as_of_kind: at ? kind : 'unknown' });

/** A quote from a record's best bid and ask: the record carries no sizes, so none are reported. */
function recordQuote(bid: number | null, ask: number | null, last: number | null, mark: number | null = null): Quote {
  const q = quoteOf(bid === null ? null : { price: bid, size: 0 }, ask === null ? null : { price: ask, size: 0 }, last, mark);
  delete q.bid_size;
  delete q.ask_size;
  return q;
}

/** A settled binary [yes, no]: the settlement (1 or 0, null when void) and its complement, no bid/ask. */
const settledBinary = (p: number | null): [Quote, Quote] => [
  { ...EMPTY, price: p },
  { ...EMPTY, price: p === null ? null : 1 - p },
];

// ---------------------------------------------------------------- venue_1 (market record)

const cents = (v: unknown): number | null => {
  const n = num(v);
  // 0 and 100 are the venue's "no order on this side".
  return n === null || n <= 0 || n >= 100 ? null : n / 100;
};

export function venue1Status(s: string, result: string): string {
  if (s === 'active') return 'open';
  if (s === 'settled' || (s === 'closed' && (result === 'yes' || result === 'no' || result === 'void'))) return 'settled';
  if (s === 'initialized') return 'unopened';
  return s === 'closed' ? 'closed' : s;
}

export function buildVenue1(marketRaw: unknown, fees: TradingFees, observedAt: string): MarketDetail {
  const m = rec(marketRaw, 'venue_1 market');
  const ticker = need(str(m.ticker), 'venue_1 market.ticker');
  const status = venue1Status(String(m.status ?? ''), String(m.result ?? ''));
  const last = cents(m.last_price);
  let yes = recordQuote(cents(m.yes_bid), cents(m.yes_ask), last);
  let no = recordQuote(cents(m.no_bid), cents(m.no_ask), last === null ? null : round6(1 - last));
  if (status === 'settled') {
    const r = String(m.result ?? '');
    const settle = r === 'yes' ? 1 : r === 'no' ? 0 : null;
    yes = { ...EMPTY, last: yes.last, price: settle };
    no = { ...EMPTY, last: no.last, price: settle === null ? null : 1 - settle };
  }
  const outcomes = [outcome('Yes', 'yes', yes), outcome('No', 'no', no)];
  return assemble(
    {
      provider: 'venue_1',
      providerId: ticker,
      title: str(m.title) ?? ticker,
      status,
      eventId: str(m.event_ticker),
      closeTime: isoTime(m.close_time),
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes),
        source: 'market_record',
        // The record carries no time of its quotes.
        as_of: null,
        as_of_kind: 'unknown',
        neg_risk: false,
      },
      fees,
      liquidityUsd: num(m.liquidity) === null ? null : num(m.liquidity)! / 100,
      volume24hContracts: num(m.volume_24h),
      volumeTotalContracts: num(m.volume),
      openInterest: num(m.open_interest),
    },
    observedAt,
  );
}

/** venue_1's extra fee hops: the series schedule and its scheduled changes. Failures degrade. */
async function venue1FeeRead(io: LiveIO, ticker: string): Promise<TradingFees> {
  const series = ticker.split('-')[0];
  const at = iso(io.now());
  try {
    const [s, changes] = await Promise.all([
      io.get('venue_1', `/venue_1/series/${encodeURIComponent(series)}`),
      io.get('venue_1', '/venue_1/series/fee_changes', { series_ticker: series }),
    ]);
    if (s === NOT_FOUND || !isRec(s) || !isRec(s.series)) return feesUnavailable(at, 'series_fee_schedule');
    const sr = s.series;
    const schedule: Venue1Schedule = {
      fee_type: String(sr.fee_type ?? ''),
      fee_multiplier: num(sr.fee_multiplier) ?? 0,
      maker_fee_multiplier: num(sr.maker_fee_multiplier) ?? undefined,
    };
    const list = changes !== NOT_FOUND && isRec(changes) ? (arr(changes.series_fee_change_arr) as Venue1FeeChange[]) : [];
    return venue1Fees(venue1Effective(schedule, list, io.now()), at);
  } catch {
    // "failures degrade to unavailable rather than failing the request"
    return feesUnavailable(at, 'series_fee_schedule');
  }
}

async function readVenue1(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const [m, fees] = await Promise.all([io.get('venue_1', `/venue_1/markets/${encodeURIComponent(id)}`), venue1FeeRead(io, id)]);
  if (m === NOT_FOUND) return NOT_FOUND;
  return buildVenue1(rec(m, 'venue_1 answer').market, fees, observedAt);
}

// ---------------------------------------------------------------- venue_2 (market record)

export function venue2Status(m: Rec): string {
  if (m.umaResolutionStatus === 'resolved') return 'settled';
  if (m.closed === true) return 'closed';
  if (m.active === true) return 'open';
  return 'closed';
}

export function buildVenue2(raw: unknown, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_2 market');
  const id = need(str(m.id), 'venue_2 market.id');
  const status = venue2Status(m);
  const names = jsonArray(m.outcomes).map(String);
  const tokens = jsonArray(m.clobTokenIds).map(String);
  const marks = jsonArray(m.outcomePrices).map(num);
  const bid = num(m.bestBid);
  const ask = num(m.bestAsk);
  const last = num(m.lastTradePrice);
  const outcomes: OutcomeDetail[] = names.map((name, i) => {
    let q: Quote;
    if (status === 'settled') {
      q = { ...EMPTY, price: marks[i] ?? null, last: i === 0 ? last : last === null ? null : round6(1 - last) };
    } else if (i === 0) {
      q = recordQuote(bid, ask, last, marks[0] ?? null);
    } else {
      // The record quotes the first outcome; the second is its complement.
      q = recordQuote(ask === null ? null : round6(1 - ask), bid === null ? null : round6(1 - bid), last === null ? null : round6(1 - last), marks[i] ?? null);
    }
    return outcome(name, tokens[i] ?? String(i), q);
  });
  const events = arr(m.events);
  const ev = isRec(events[0]) ? str(events[0].id) : null;
  return assemble(
    {
      provider: 'venue_2',
      providerId: id,
      title: str(m.question) ?? id,
      status,
      eventId: ev,
      closeTime: isoTime(m.endDate),
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes),
        source: 'market_record',
        ...stamped(isoTime(m.updatedAt), 'record_refresh'),
        neg_risk: m.negRisk === true,
      },
      fees: venue2Fees(m, observedAt),
      liquidityUsd: num(m.liquidityNum),
      volume24hUsd: num(m.volume24hr),
      volumeTotalUsd: num(m.volumeNum) ?? num(m.volume),
    },
    observedAt,
  );
}

async function readVenue2(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  if (/^0x[0-9a-f]{64}$/.test(id)) {
    // "a closed venue_2 market resolves by slug and condition id": the condition_ids filter of the
    // listing finds open and closed markets alike.
    const r = await io.get('venue_2', '/venue_2/markets', { condition_ids: id });
    const hit = (r === NOT_FOUND ? [] : arr(r)).find((m) => isRec(m) && String(m.conditionId).toLowerCase() === id);
    return hit ? buildVenue2(hit, observedAt) : NOT_FOUND;
  }
  const path = /^[0-9]+$/.test(id) ? `/venue_2/markets/${id}` : `/venue_2/markets/slug/${encodeURIComponent(id)}`;
  const m = await io.get('venue_2', path);
  return m === NOT_FOUND ? NOT_FOUND : buildVenue2(m, observedAt);
}

// ---------------------------------------------------------------- venue_3 (market record)

export function venue3Status(s: string): string {
  return s === 'resolved' ? 'settled' : s === 'halted' ? 'suspended' : s;
}

export function buildVenue3(raw: unknown, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_3 market');
  const id = need(str(m.id), 'venue_3 market.id');
  const status = venue3Status(String(m.status ?? ''));
  let wide = false;
  const maxSpread = isRec(m.quote_rules) ? num(m.quote_rules.max_spread) : null;
  const outcomes = arr(m.outcomes).map((o, i) => {
    const r = rec(o, 'venue_3 outcome');
    const bid = num(r.best_bid);
    const ask = num(r.best_ask);
    // "A market whose book is outside the venue's own published spread threshold reports indicative."
    if (maxSpread !== null && bid !== null && ask !== null && ask - bid > maxSpread + 1e-9) wide = true;
    const q = recordQuote(bid, ask, num(r.last_price));
    if (status === 'settled') {
      const res = str(m.resolution);
      q.bid = null;
      q.ask = null;
      q.price = res === null || res === 'void' ? null : res === str(r.token) ? 1 : 0;
    }
    return outcome(str(r.name) ?? `Outcome ${i + 1}`, str(r.token) ?? String(i), q);
  });
  const fees = isRec(m.fees) && m.fees.schedule === 'account' ? feesPerAccount(observedAt, 'market_record') : isRec(m.fees) ? feesUnavailable(observedAt, 'market_record') : feesNotPublished(observedAt);
  return assemble(
    {
      provider: 'venue_3',
      providerId: id,
      title: str(m.title) ?? id,
      status,
      closeTime: isoTime(m.closes_at),
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes, wide),
        source: 'market_record',
        ...stamped(isoTime(m.updated_at), 'record_refresh'),
        neg_risk: false,
      },
      fees,
      liquidityUsd: num(m.liquidity_usd),
      volume24hUsd: num(m.volume_24h_usd),
      volumeTotalUsd: num(m.volume_usd),
      openInterest: num(m.open_interest),
    },
    observedAt,
  );
}

/**
 * venue_3 read by id. venue_3 ids are numeric; a slug only reaches here from the venue_2/venue_3
 * probe, and the venue's 400 for a malformed id then means "not held here", not a rejection.
 */
export async function venue3Get(io: LiveIO, id: string): Promise<unknown | NotFound> {
  try {
    return await io.get('venue_3', `/venue_3/v1/markets/${encodeURIComponent(id)}`);
  } catch (e) {
    if (!/^[0-9]+$/.test(id) && isApiError(e) && e.code === 'upstream_rejected') return NOT_FOUND;
    throw e;
  }
}

async function readVenue3(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const r = await venue3Get(io, id);
  return r === NOT_FOUND ? NOT_FOUND : buildVenue3(rec(r, 'venue_3 answer').data, observedAt);
}

// ---------------------------------------------------------------- venue_4 (book)

export function venue4Status(s: string): string {
  return s === 'ACTIVE' ? 'open' : s === 'INACTIVE' ? 'closed' : s === 'SETTLED' ? 'settled' : s.toLowerCase();
}

export function buildVenue4(raw: unknown, book: unknown | BookFailed, fees: TradingFees, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_4 market');
  const hash = need(str(m.marketHash), 'venue_4 market.marketHash').toLowerCase();
  const status = venue4Status(String(m.status ?? ''));
  const one = str(m.outcomeOneName) ?? 'Outcome one';
  const two = str(m.outcomeTwoName) ?? 'Outcome two';
  const data = book !== BOOK_FAILED && isRec(book) && isRec(book.data) ? book.data : null;
  const side = (k: string): Quote => {
    if (status === 'settled') {
      const o = num(m.outcome);
      return { ...EMPTY, price: o === 1 ? (k === 'outcomeOne' ? 1 : 0) : o === 2 ? (k === 'outcomeTwo' ? 1 : 0) : null };
    }
    if (!data || !isRec(data[k])) return { ...EMPTY };
    const s = data[k] as Rec;
    const bid = num(s.bestBid);
    const ask = num(s.bestAsk);
    return quoteOf(bid === null ? null : { price: bid, size: num(s.bidSize) ?? 0 }, ask === null ? null : { price: ask, size: num(s.askSize) ?? 0 });
  };
  const outcomes = [outcome(one, 'outcomeOne', side('outcomeOne')), outcome(two, 'outcomeTwo', side('outcomeTwo'))];
  return assemble(
    {
      provider: 'venue_4',
      providerId: hash,
      // "A venue_4 market is named by its two outcome labels" (as the sports routes name it).
      title: `${one} vs ${two}`,
      status,
      eventId: str(m.sportXeventId),
      outcomes,
      pricing: {
        // Prices only in the book: a failed book read is unavailable.
        availability: data || status === 'settled' ? availabilityOf(status, outcomes) : 'unavailable',
        source: 'orderbook',
        ...stamped(data ? isoTime(data.updatedAt, 's') : null, 'quote'),
        neg_risk: false,
      },
      fees,
      volumeTotalUsd: num(m.volume),
    },
    observedAt,
  );
}

async function readVenue4(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  // The book and the venue-wide fee metadata do not depend on the record: read all three at once.
  const [found, book, meta] = await Promise.all([
    io.get('venue_4', '/venue_4/markets/find', { marketHashes: id }),
    io.book('venue_4', '/venue_4/orders/book', { marketHash: id }),
    io.book('venue_4', '/venue_4/metadata'),
  ]);
  if (found === NOT_FOUND) return NOT_FOUND;
  const list = arr(rec(found, 'venue_4 answer').data);
  const m = list.find((x) => isRec(x) && String(x.marketHash).toLowerCase() === id);
  if (!m) return NOT_FOUND;
  const fees = meta !== BOOK_FAILED && meta !== NOT_FOUND && isRec(meta) && isRec(meta.data) ? venue4Fees(meta.data, observedAt) : feesUnavailable(observedAt, 'venue_metadata');
  return buildVenue4(m, book === NOT_FOUND ? BOOK_FAILED : book, fees, observedAt);
}

// ---------------------------------------------------------------- venue_5 (book; question group)

export function venue5Status(s: string): string {
  if (s === 'resolved_yes' || s === 'resolved_no' || s === 'void') return 'settled';
  return s;
}

const pairs = (v: unknown): Level[] =>
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

interface BinaryQuotes {
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
function yesSideBinary(
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

export function buildVenue5Outcome(raw: unknown, book: unknown | BookFailed, observedAt: string): MarketDetail {
  const r = rec(raw, 'venue_5 answer');
  const o = rec(r.outcome, 'venue_5 outcome');
  const id = need(str(o.outcome_id), 'venue_5 outcome.outcome_id');
  const state = String(o.state ?? '');
  const status = venue5Status(state);
  const b = book !== BOOK_FAILED && isRec(book) ? book : null;
  let yes: Quote;
  let no: Quote;
  if (status === 'settled') [yes, no] = settledBinary(state === 'resolved_yes' ? 1 : state === 'resolved_no' ? 0 : null);
  else if (b) [yes, no] = binaryFromYesSide(pairs(b.bids), pairs(b.asks));
  else [yes, no] = [{ ...EMPTY }, { ...EMPTY }];
  const outcomes = [outcome('Yes', 'yes', yes), outcome('No', 'no', no)];
  return assemble(
    {
      provider: 'venue_5',
      providerId: id,
      title: str(o.label) ?? id,
      status,
      eventId: str(r.question_id),
      outcomes,
      pricing: {
        availability: b || status === 'settled' ? availabilityOf(status, outcomes) : 'unavailable',
        source: 'orderbook',
        ...stamped(b ? isoTime(b.ts) : null, 'quote'),
        neg_risk: false,
      },
      fees: feesNotPublished(observedAt),
      volumeTotalUsd: num(o.volume),
    },
    observedAt,
  );
}

/** At most this many outcome books are read for one question (a game has two). */
export const VENUE5_MAX_BOOKS = 20;

/**
 * A question id: a grouped market, one outcome per option ("a grouped market has one outcome per
 * option"), keyed by the venue's `#` token (the outcome id the sports routes publish for venue_5).
 * Prices live only in the books, so each option is quoted from its own outcome market's YES book,
 * read in parallel as the one bounded second fetch; a failed book leaves that option unquoted.
 */
export function buildVenue5Question(raw: unknown, books: readonly (unknown | BookFailed)[], observedAt: string): MarketDetail {
  const q = rec(rec(raw, 'venue_5 answer').question, 'venue_5 question');
  const id = need(str(q.question_id), 'venue_5 question.question_id');
  const opts = arr(q.outcomes).map((x) => rec(x, 'venue_5 outcome'));
  const states = opts.map((o) => venue5Status(String(o.state ?? '')));
  const status = states.length > 0 && states.every((s) => s === 'settled') ? 'settled' : q.state === 'open' ? 'open' : String(q.state ?? '');
  let read = 0;
  const stamps: string[] = [];
  const outcomes = opts.map((o, i) => {
    const st = String(o.state ?? '');
    const name = str(o.label) ?? String(o.outcome_id);
    const oid = str(o.token) ?? need(str(o.outcome_id), 'outcome_id');
    if (venue5Status(st) === 'settled') return outcome(name, oid, { ...EMPTY, price: st === 'resolved_yes' ? 1 : st === 'resolved_no' ? 0 : null });
    const b = books[i];
    if (b === undefined || b === BOOK_FAILED || !isRec(b)) return outcome(name, oid, { ...EMPTY });
    read++;
    const t = isoTime(b.ts);
    if (t) stamps.push(t);
    return outcome(name, oid, binaryFromYesSide(pairs(b.bids), pairs(b.asks))[0]);
  });
  stamps.sort();
  const vol = opts.reduce<number>((sum, o) => sum + (num(o.volume) ?? 0), 0);
  return assemble(
    {
      provider: 'venue_5',
      providerId: id,
      title: str(q.title) ?? id,
      status,
      outcomes,
      pricing: {
        availability: read === 0 && status !== 'settled' ? 'unavailable' : availabilityOf(status, outcomes, read < opts.filter((_, i) => states[i] !== 'settled').length),
        source: 'orderbook',
        ...stamped(stamps.length ? stamps[0] : null, 'quote'), // the oldest book read
        neg_risk: false,
      },
      fees: feesNotPublished(observedAt),
      volumeTotalUsd: vol,
    },
    observedAt,
  );
}

async function readVenue5(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  // An integer is an outcome id or a question id: ask both, and the outcome's book, at once.
  const [o, q, book] = await Promise.all([
    io.get('venue_5', `/venue_5/outcomes/${id}`),
    io.get('venue_5', `/venue_5/questions/${id}`),
    io.book('venue_5', `/venue_5/outcomes/${id}/book`),
  ]);
  if (o !== NOT_FOUND) return buildVenue5Outcome(o, book === NOT_FOUND ? BOOK_FAILED : book, observedAt);
  if (q === NOT_FOUND) return NOT_FOUND;
  const opts = arr(rec(rec(q, 'venue_5 answer').question, 'venue_5 question').outcomes).filter(isRec);
  const books =
    opts.length <= VENUE5_MAX_BOOKS
      ? await Promise.all(opts.map((x) => io.book('venue_5', `/venue_5/outcomes/${String(x.outcome_id)}/book`).then((b) => (b === NOT_FOUND ? BOOK_FAILED : b))))
      : [];
  return buildVenue5Question(q, books, observedAt);
}

// ---------------------------------------------------------------- venue_6 (four-sided book)

export function buildVenue6(raw: unknown, book: unknown | BookFailed, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_6 market');
  const id = need(str(m.id), 'venue_6 market.id');
  const status = String(m.status ?? '');
  const toks = arr(m.outcomes).map((o) => (isRec(o) ? (str(o.token) ?? '') : ''));
  const mark = num(m.mark);
  const b = book !== BOOK_FAILED && isRec(book) ? book : null;
  const side = (v: unknown) => ({ bids: pairs(isRec(v) ? v.bids : []), asks: pairs(isRec(v) ? v.asks : []) });
  let yes: Quote;
  let no: Quote;
  let availability: Availability;
  let stamp: Pick<Pricing, 'as_of' | 'as_of_kind'>;
  const bookMark = b ? (num(b.mark) ?? mark) : mark;
  const marks = { yes: bookMark, no: bookMark === null ? null : round6(1 - bookMark) };
  if (b) {
    [yes, no] = binaryFromFourSided(side(b.yes), side(b.no), marks);
    const empty = [yes, no].every((q) => q.bid === null && q.ask === null);
    availability = availabilityOf(status, [yes, no], empty); // "a price mark that outlives an empty book is indicative"
    stamp = stamped(isoTime(b.ts), 'quote');
  } else {
    // "If a book read fails ... venue_6 ... keep the record's marks."
    yes = { ...EMPTY, price: marks.yes };
    no = { ...EMPTY, price: marks.no };
    availability = availabilityOf(status, [yes, no], true);
    stamp = stamped(isoTime(m.mark_ts), 'record_refresh');
  }
  const outcomes = [outcome('Yes', toks[0] || 'yes', yes), outcome('No', toks[1] || 'no', no)];
  const feeInfo = isRec(m.fee_info) ? m.fee_info : null;
  return assemble(
    {
      provider: 'venue_6',
      providerId: id,
      title: str(m.question) ?? str(m.title) ?? id,
      status,
      eventId: str(m.event_id),
      outcomes,
      pricing: { availability, source: 'orderbook', ...stamp, neg_risk: false },
      fees: feeInfo?.type === 'per_account' ? feesPerAccount(observedAt, 'market_record') : feesNotPublished(observedAt),
      volumeTotalUsd: num(m.volume),
    },
    observedAt,
  );
}

async function readVenue6(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const [m, book] = await Promise.all([io.get('venue_6', `/venue_6/api/markets/${id}`), io.book('venue_6', `/venue_6/api/markets/${id}/book`)]);
  if (m === NOT_FOUND) return NOT_FOUND;
  return buildVenue6(m, book === NOT_FOUND ? BOOK_FAILED : book, observedAt);
}

// ---------------------------------------------------------------- venue_7 (odds offers on the record)

export function buildVenue7(eventRaw: unknown, marketId: string, observedAt: string): MarketDetail | NotFound {
  const ref = parseVenue7MarketId(marketId)!;
  const ev = rec(eventRaw, 'venue_7 event');
  const market = arr(ev.markets).find((x) => isRec(x) && String(x.type_id) === ref.marketTypeId) as Rec | undefined;
  if (!market) return NOT_FOUND;
  const lines = arr(market.lines).filter(isRec);
  // "the pair resolves the line the venue currently flags favourite; the three-part form names one line"
  const line = ref.line !== undefined ? lines.find((l) => num(l.line) !== null && num(l.line) === Number(ref.line)) : (lines.find((l) => l.favourite === true) ?? (lines.length === 1 ? lines[0] : undefined));
  if (!line) return NOT_FOUND;
  const status = String(market.state ?? ev.state ?? '');
  const sels = arr(line.selections).filter(isRec);
  const backs = sels.map((s) => arr(s.back).flatMap((o) => (isRec(o) && num(o.odds) !== null && num(o.stake) !== null ? [{ odds: num(o.odds)!, stake: num(o.stake)! }] : [])));
  let quotes = quotesFromOdds(backs);
  if (status === 'settled' || status === 'closed') quotes = quotes.map((q) => ({ ...EMPTY, last: q.last }));
  const outcomes = sels.map((s, i) => outcome(str(s.name) ?? `Selection ${i + 1}`, str(s.id) ?? String(i + 1), quotes[i]));
  const lineText = num(line.line) === null ? '' : ` ${num(line.line)}`;
  return assemble(
    {
      provider: 'venue_7',
      providerId: marketId,
      title: `${str(ev.name) ?? ''}: ${str(market.name) ?? ''}${lineText}`.trim(),
      status,
      eventId: str(ev.event_id),
      outcomes,
      // Offers are on the record itself; the record carries no time of its offers.
      pricing: { availability: availabilityOf(status === 'open' ? 'open' : status, outcomes), source: 'orderbook', as_of: null, as_of_kind: 'unknown', neg_risk: false },
      fees: venue7Fees(ev.commission_pct, observedAt),
      volumeTotalUsd: num(market.matched_volume),
    },
    observedAt,
  );
}

async function readVenue7(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const ref = parseVenue7MarketId(id)!;
  // One read: the event record nests every market with its offers and carries the commission.
  const ev = await io.get('venue_7', `/venue_7/events/${ref.eventId}`);
  return ev === NOT_FOUND ? NOT_FOUND : buildVenue7(ev, id, observedAt);
}

// ---------------------------------------------------------------- venue_8 (YES-side book; group view)

export function venue8Status(m: Rec, now: number): string {
  if (m.isResolved === true) return 'settled';
  const close = num(m.closeTime);
  return close !== null && close <= now ? 'closed' : 'open';
}

export function buildVenue8(raw: unknown, book: unknown | BookFailed, observedAt: string, now: number): MarketDetail {
  const m = rec(raw, 'venue_8 market');
  const slug = need(str(m.slug), 'venue_8 market.slug');
  const status = venue8Status(m, now);
  const b = book !== BOOK_FAILED && isRec(book) && isRec(book.yes) ? book : null;
  const resolution = String(m.resolution ?? '').toUpperCase();
  const q = yesSideBinary(status, {
    settlement: resolution === 'YES' ? 1 : resolution === 'NO' ? 0 : null,
    mark: num(m.probability),
    recordTime: isoTime(m.lastUpdatedTime, 'ms'),
    book: b ? { bids: (b.yes as Rec).bids, asks: (b.yes as Rec).asks, time: isoTime(b.ts, 'ms') } : null,
  });
  return assemble(
    {
      provider: 'venue_8',
      providerId: slug,
      title: str(m.question) ?? slug,
      status,
      eventId: slug, // "a market's slug is also its event id"
      closeTime: isoTime(m.closeTime, 'ms'),
      outcomes: [outcome('Yes', 'yes', q.yes), outcome('No', 'no', q.no)],
      pricing: { availability: q.availability, source: 'orderbook', ...q.stamp, neg_risk: false },
      fees: venue8Fees(m.fees, observedAt),
      liquidityUsd: num(m.totalLiquidity),
      volume24hUsd: num(m.volume24Hours),
      volumeTotalUsd: num(m.volume),
    },
    observedAt,
  );
}

/** A group slug: one outcome per member market, marked from the records (no book read). */
export function buildVenue8Group(raw: unknown, observedAt: string, now: number): MarketDetail {
  const g = rec(raw, 'venue_8 group');
  const slug = need(str(g.slug), 'venue_8 group.slug');
  const members = arr(g.markets).filter(isRec);
  const statuses = members.map((m) => venue8Status(m, now));
  const status = statuses.includes('open') ? 'open' : statuses.every((s) => s === 'settled') && statuses.length > 0 ? 'settled' : 'closed';
  const outcomes = members.map((m) => {
    const p = num(m.probability);
    return outcome(str(m.question) ?? String(m.slug), str(m.slug) ?? String(m.id), { ...EMPTY, price: p === null ? null : round6(p) });
  });
  const updated = members.map((m) => num(m.lastUpdatedTime)).filter((x): x is number => x !== null);
  const asOf = updated.length ? isoTime(Math.max(...updated), 'ms') : null;
  const sum = (k: string) => members.reduce<number | null>((s, m) => (num(m[k]) === null ? s : (s ?? 0) + num(m[k])!), null);
  const allZero = members.every((m) => venue8Fees(m.fees, observedAt).availability === 'zero');
  return assemble(
    {
      provider: 'venue_8',
      providerId: slug,
      title: str(g.name) ?? slug,
      status,
      outcomes,
      // Group views read no book: marks only.
      pricing: { availability: availabilityOf(status, outcomes, true), source: 'market_record', ...stamped(asOf, 'record_refresh'), neg_risk: false },
      fees: members.length > 0 && allZero ? venue8Fees(members[0].fees, observedAt) : members.length > 0 ? venue8Fees(members[0].fees, observedAt) : feesNotPublished(observedAt),
      liquidityUsd: sum('totalLiquidity'),
      volume24hUsd: sum('volume24Hours'),
      volumeTotalUsd: sum('volume'),
    },
    observedAt,
  );
}

async function readVenue8(io: LiveIO, slug: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const [m, g] = await Promise.all([io.get('venue_8', `/venue_8/v0/slug/${slug}`), io.get('venue_8', `/venue_8/v0/group/${slug}`)]);
  if (m !== NOT_FOUND) {
    const mid = need(str(rec(m, 'venue_8 market').id), 'venue_8 market.id');
    // The one bounded second fetch: the book needs the market's own id from the record.
    const book = await io.book('venue_8', `/venue_8/v0/market/${encodeURIComponent(mid)}/book`);
    return buildVenue8(m, book === NOT_FOUND ? BOOK_FAILED : book, observedAt, io.now());
  }
  if (g !== NOT_FOUND) return buildVenue8Group(g, observedAt, io.now());
  return NOT_FOUND;
}

// ---------------------------------------------------------------- venue_9 (YES-side book; parent group)

export function venue9Status(s: string): string {
  return s === 'trading' ? 'open' : s === 'paused' ? 'suspended' : s === 'resolved' ? 'settled' : s;
}

const resolvedPrice = (c: Rec): number | null => {
  const r = c.resolved_to;
  if (r === null || r === undefined) return null;
  if (r === 'yes' || r === true || r === c.id) return 1;
  if (r === 'no' || r === false) return 0;
  return typeof r === 'string' && r.startsWith('0x') ? 0 : null;
};

export function buildVenue9Child(raw: unknown, book: unknown | BookFailed, observedAt: string): MarketDetail {
  const c = rec(raw, 'venue_9 child');
  const pair = need(str(c.pair), 'venue_9 child.pair').toLowerCase();
  const status = venue9Status(String(c.status ?? ''));
  // "the pair gives one binary child quoted from its book while trading"
  const b = status === 'open' && book !== BOOK_FAILED && isRec(book) ? book : null;
  const q = yesSideBinary(status, {
    settlement: resolvedPrice(c),
    mark: num(c.yes_price),
    recordTime: isoTime(c.updated_at),
    book: b ? { bids: b.bids, asks: b.asks, time: isoTime(b.timestamp) } : null,
  });
  const parent = isRec(c.parent) ? c.parent : null;
  return assemble(
    {
      provider: 'venue_9',
      providerId: pair,
      title: parent && str(parent.title) ? `${str(parent.title)}: ${str(c.title) ?? ''}` : (str(c.title) ?? pair),
      status,
      eventId: pair.split(':')[0],
      outcomes: [outcome('Yes', 'yes', q.yes), outcome('No', 'no', q.no)],
      pricing: { availability: q.availability, source: 'orderbook', ...q.stamp, neg_risk: false },
      fees: venue9Fees(c.fee_rate_bps, observedAt),
      volumeTotalUsd: num(c.volume),
    },
    observedAt,
  );
}

/** "bare parent gives a group view (one outcome per child selection, marked from its record, no price unless settled)" */
export function buildVenue9Parent(raw: unknown, observedAt: string): MarketDetail {
  const p = rec(raw, 'venue_9 parent');
  const id = need(str(p.id), 'venue_9 parent.id').toLowerCase();
  const children = arr(p.children).filter(isRec);
  const statuses = children.map((c) => venue9Status(String(c.status ?? '')));
  const status = statuses.includes('open') ? 'open' : statuses.length > 0 && statuses.every((s) => s === 'settled') ? 'settled' : statuses.includes('suspended') ? 'suspended' : 'closed';
  const outcomes = children.map((c) => {
    const settled = venue9Status(String(c.status ?? '')) === 'settled';
    return outcome(str(c.title) ?? String(c.id), str(c.pair) ?? `${id}:${String(c.id)}`, { ...EMPTY, price: settled ? resolvedPrice(c) : null });
  });
  const updated = children.map((c) => isoTime(c.updated_at)).filter((x): x is string => x !== null).sort();
  const rates = [...new Set(children.map((c) => num(c.fee_rate_bps)))];
  const vol = children.reduce<number | null>((s, c) => (num(c.volume) === null ? s : (s ?? 0) + num(c.volume)!), null);
  return assemble(
    {
      provider: 'venue_9',
      providerId: id,
      title: str(p.title) ?? id,
      status,
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes, true),
        source: 'market_record',
        ...stamped(updated.length ? updated[updated.length - 1] : null, 'record_refresh'),
        neg_risk: false,
      },
      // One rate shared by every child is the group's; differing rates are read per child.
      fees: rates.length === 1 ? venue9Fees(rates[0], observedAt) : feesUnavailable(observedAt, 'market_record'),
      volumeTotalUsd: vol,
    },
    observedAt,
  );
}

async function readVenue9(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const ref = parseVenue9Id(id)!;
  if (!ref.child) {
    const p = await io.get('venue_9', `/venue_9/parents/${ref.parent}`);
    return p === NOT_FOUND ? NOT_FOUND : buildVenue9Parent(p, observedAt);
  }
  const [c, book] = await Promise.all([io.get('venue_9', `/venue_9/markets/${id}`), io.book('venue_9', `/venue_9/book/${id}`)]);
  if (c === NOT_FOUND) return NOT_FOUND;
  return buildVenue9Child(c, book === NOT_FOUND ? BOOK_FAILED : book, observedAt);
}

export const MARKET_READERS: Record<Provider, (io: LiveIO, nativeId: string) => Promise<MarketDetail | NotFound>> = {
  venue_1: readVenue1,
  venue_2: readVenue2,
  venue_3: readVenue3,
  venue_4: readVenue4,
  venue_5: readVenue5,
  venue_6: readVenue6,
  venue_7: readVenue7,
  venue_8: readVenue8,
  venue_9: readVenue9,
};
