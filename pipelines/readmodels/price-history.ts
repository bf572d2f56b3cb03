// Price history, the pure part: from a raw listing record to the quotes it shows (per market and
// outcome), which of them changed since the last stored quote, and the candle rows the API pages.
// In: raw.venue_N records (the pollers' listings; the only place quotes enter the pipeline:
// canonical.markets carries identity and rules, the catalog titles and categories). Out: rows of
// price_history and price_aliases (migrations/002_price_history.sql). No I/O here: the sink
// (runtime/sinks.ts) reads the last stored quotes and writes the rows.
//
// Quotes are derived as market detail derives them from a market record with no book (the
// arithmetic of lib/quotes.ts; pipelines/venues/adapters/listing-quotes.unit.spec.ts holds each
// venue's result to the route's builders), so a stored outcome id and quote mean what the route shows. Each venue's
// reading is its adapter's listingQuotes (pipelines/venues/adapters/venue_N): venue_1,
// venue_2, venue_3 quote on the market record; venue_7 offers are on the event record; venue_6,
// venue_8 and venue_9 listings carry the venue's mark only (stored as `price`; their bid and ask
// are in the book, which pollers do not read); venue_4 and venue_5 list no prices at all (prices
// only in the book), so nothing is stored for them. Only open markets are read: a settled market's
// "price" is its settlement, not a quote.
import type { RawRecord } from '../topics.ts';
import type { Provider } from '../../lib/vocabulary.ts';
import { round6 } from '../../lib/quotes.ts';
import { adapterFor } from '../venues/adapters/index.ts';

/** One outcome's quote as observed in one read. */
export interface ObservedQuote {
  provider: Provider;
  market_id: string;
  outcome_id: string;
  bid: number | null;
  ask: number | null;
  last: number | null;
  price: number | null;
  bid_size: number | null;
  ask_size: number | null;
  /** The venue's own time of the quote or record (Unix ms), when it gives one. */
  venue_time: number | null;
  /** When the read that returned it began (Unix ms): the raw record's read_started_at. */
  observed_at: number;
}

/** A row of price_history: an observed quote plus its midpoint. */
export interface PriceRow extends ObservedQuote {
  mid: number | null;
}

/** Another id a market answers to on market detail, pointing at the id its rows are stored under. */
export interface AliasRow {
  provider: Provider;
  alias: string;
  market_id: string;
  observed_at: number;
}

/** The newest stored quote of an outcome (price_latest), what a new observation is compared with. */
export type StoredQuote = Pick<ObservedQuote, 'bid' | 'ask' | 'last' | 'price' | 'bid_size' | 'ask_size' | 'observed_at'>;

export const quoteKey = (provider: string, marketId: string, outcomeId: string): string => `${provider}\u0000${marketId}\u0000${outcomeId}`;

/** The midpoint of bid and ask, rounded like every quote (lib/quotes.ts); null unless both sides exist. */
export function midOf(bid: number | null, ask: number | null): number | null {
  return bid !== null && ask !== null ? round6((bid + ask) / 2) : null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one raw record shows: every outcome's quote of every market it lists, and the aliases. */
export interface RecordQuotes {
  quotes: ObservedQuote[];
  aliases: AliasRow[];
}

const NONE: RecordQuotes = { quotes: [], aliases: [] };

/** The record types each venue's reader can quote (its adapter's quotedRecordTypes), by venue; none for a venue without an adapter. */
function quotedTypesOf(provider: string): readonly string[] {
  try {
    return adapterFor(provider).quotedRecordTypes;
  } catch {
    return [];
  }
}

/**
 * Whether a record of this venue and type can show a quote: a record of another type is passed by
 * before its payload is parsed (most of the reading's cost).
 */
export const mayQuote = (provider: string, recordType: string): boolean => quotedTypesOf(provider).includes(recordType);

/**
 * Whether a raw topic (raw.venue_N) can carry a quote at all: a venue whose listing carries no prices
 * (venue_4, venue_5) quotes none, and its records are passed by before they are even decoded.
 */
export const topicMayQuote = (topic: string): boolean => quotedTypesOf(topic.startsWith('raw.') ? topic.slice(4) : topic).length > 0;

/**
 * The quotes a raw listing record shows. Records that are not listings (crawl markers, venue_1
 * events) or not open, and records a reader cannot make sense of, give nothing: a malformed record
 * must never stop the sink. A record of a type the venue's reader does not quote is not parsed.
 */
export function quotesOfRecord(v: RawRecord, observedAt: number): RecordQuotes {
  if (!mayQuote(v.venue, v.record_type)) return NONE;
  let payload: unknown;
  try {
    payload = JSON.parse(v.payload);
  } catch {
    return NONE;
  }
  if (!isObj(payload)) return NONE;
  try {
    return quotesOfPayload(v.venue as Provider, v.record_type, payload, observedAt);
  } catch {
    return NONE;
  }
}

/** The quotes a listing record shows, read by the venue's adapter (its listingQuotes). */
export function quotesOfPayload(provider: Provider, recordType: string, m: Obj, observedAt: number): RecordQuotes {
  const out: RecordQuotes = { quotes: [], aliases: [] };
  for (const { marketId, outcomes, venueTime, aliases } of adapterFor(provider).listingQuotes(recordType, m)) {
    if (marketId === null) continue;
    for (const [outcomeId, q] of outcomes) {
      out.quotes.push({
        provider,
        market_id: marketId,
        outcome_id: outcomeId,
        bid: q.bid,
        ask: q.ask,
        last: q.last,
        price: q.price,
        bid_size: q.bid_size ?? null,
        ask_size: q.ask_size ?? null,
        venue_time: venueTime,
        observed_at: observedAt,
      });
    }
    for (const alias of aliases) if (alias !== null && alias !== marketId) out.aliases.push({ provider, alias, market_id: marketId, observed_at: observedAt });
  }
  return out;
}

const sameQuote = (a: StoredQuote, b: StoredQuote): boolean =>
  a.bid === b.bid && a.ask === b.ask && a.last === b.last && a.price === b.price && a.bid_size === b.bid_size && a.ask_size === b.ask_size;

/** The quoteKey of each observation, in order: built once a batch for the stored-quote read and change detection. */
export function quoteKeysOf(observations: readonly ObservedQuote[]): string[] {
  const keys = new Array<string>(observations.length);
  for (let i = 0; i < observations.length; i++) {
    const o = observations[i];
    keys[i] = quoteKey(o.provider, o.market_id, o.outcome_id);
  }
  return keys;
}

/**
 * Change detection: the observations, in read order, that differ from the last quote stored or
 * kept for their outcome. `latest` holds the last stored quote per quoteKey and is advanced here.
 * An observation not newer than the last one kept is not written: a redelivered or replayed batch
 * then writes nothing twice (the candles count every row, so a second copy would count twice), and
 * one read time holds one quote per outcome (the table's key). `keys` are the observations'
 * quoteKeys (quoteKeysOf), when the caller has them already.
 */
export function changedQuotes(latest: Map<string, StoredQuote>, observations: readonly ObservedQuote[], keys: readonly string[] = quoteKeysOf(observations)): PriceRow[] {
  const rows: PriceRow[] = [];
  for (let i = 0; i < observations.length; i++) {
    const o = observations[i];
    const prev = latest.get(keys[i]);
    if (prev && (o.observed_at <= prev.observed_at || sameQuote(prev, o))) continue;
    latest.set(keys[i], o);
    // Built field by field rather than spread: every row of the sink comes through here, and a
    // spread copy is several times slower to make than an object literal of the same shape.
    rows.push({
      provider: o.provider,
      market_id: o.market_id,
      outcome_id: o.outcome_id,
      bid: o.bid,
      ask: o.ask,
      last: o.last,
      price: o.price,
      bid_size: o.bid_size,
      ask_size: o.ask_size,
      venue_time: o.venue_time,
      observed_at: o.observed_at,
      mid: midOf(o.bid, o.ask),
    });
  }
  return rows;
}

/**
 * The last stored quote of each outcome a sink saw, kept per topic-partition between its batches so
 * change detection needs no read of price_latest while nothing else can have written those
 * outcomes. What is kept is trusted for a batch only when (a) the batch comes under the same claim
 * (BatchContext.claim: the same runner, no rebalance since, so no other member wrote the partition)
 * and (b) it starts at the offset after the last batch kept (not a redelivery: a batch whose write
 * failed comes again from its first offset, and what was kept for it was never stored). Otherwise
 * the partition's quotes are dropped and read again from what is stored, as after a restart. Bounded:
 * past `limit` quotes in all, the oldest ones are dropped (read again when next seen).
 */
export class QuoteMemory {
  private readonly parts = new Map<string, { claim: string; next: string | null; quotes: Map<string, StoredQuote> }>();

  constructor(readonly limit: number) {}

  /**
   * The quotes to compare a batch with (keyed by quoteKey; changedQuotes advances them), empty when
   * what was kept cannot be trusted for it. Until done() is called for it, a later batch of this
   * partition trusts nothing: a batch that fails between the two left quotes that were not stored.
   */
  begin(part: string, claim: string, firstOffset: string): Map<string, StoredQuote> {
    const p = this.parts.get(part);
    if (p && p.claim === claim && p.next === firstOffset) {
      p.next = null;
      return p.quotes;
    }
    const quotes = new Map<string, StoredQuote>();
    this.parts.set(part, { claim, next: null, quotes });
    return quotes;
  }

  /** The batch begun last on `part` is decided; the next one to trust starts at nextOffset. */
  done(part: string, nextOffset: string): void {
    const p = this.parts.get(part);
    if (!p) return;
    p.next = nextOffset;
    // Only a batch's own partition grows, so after every done() all are within the limit, and
    // what is over comes off this partition: its quotes kept longest first (a Map keeps insertion
    // order).
    let over = this.size() - this.limit;
    for (const k of p.quotes.keys()) {
      if (over-- <= 0) return;
      p.quotes.delete(k);
    }
  }

  /** Quotes kept, in all partitions. */
  size(): number {
    let n = 0;
    for (const p of this.parts.values()) n += p.quotes.size;
    return n;
  }
}

// ---------------------------------------------------------------- candles

export type CandleInterval = '1m' | '1h' | '1d';
export const CANDLE_INTERVALS: readonly CandleInterval[] = ['1m', '1h', '1d'];
export const INTERVAL_SECONDS: Record<CandleInterval, number> = { '1m': 60, '1h': 3600, '1d': 86_400 };

/** The first bucket that starts at or after `t` seconds (buckets start at whole multiples, UTC). */
export const bucketAtOrAfter = (t: number, interval: CandleInterval): number => Math.ceil(t / INTERVAL_SECONDS[interval]) * INTERVAL_SECONDS[interval];
/** The bucket that holds `t` seconds. */
export const bucketOf = (t: number, interval: CandleInterval): number => Math.floor(t / INTERVAL_SECONDS[interval]) * INTERVAL_SECONDS[interval];

/** One outcome's candle of one bucket as the route's query returns it (price-queries.ts candleRows). */
export interface CandleRow {
  bucket: number;
  outcome_id: string;
  mid_open: number | null;
  mid_high: number | null;
  mid_low: number | null;
  mid_close: number | null;
  last_open: number | null;
  last_high: number | null;
  last_low: number | null;
  last_close: number | null;
  price_open: number | null;
  price_high: number | null;
  price_low: number | null;
  price_close: number | null;
  changes: number;
}

export interface Ohlc {
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
}

/** One bucket of the history route: every outcome that changed in it. */
export interface Candle {
  start_time: number;
  end_time: number;
  outcomes: { outcome_id: string; mid: Ohlc | null; last: Ohlc | null; price: Ohlc | null; changes: number }[];
}

const ohlc = (open: number | null, high: number | null, low: number | null, close: number | null): Ohlc | null =>
  open === null && high === null && low === null && close === null ? null : { open, high, low, close };

/**
 * Candle rows (any order) grouped into buckets, newest first, outcomes in id order. A bucket's
 * end_time is the last second it covers (start + interval - 1), so ranges are inclusive both ends
 * like start_time and end_time.
 */
export function groupCandles(rows: readonly CandleRow[], interval: CandleInterval): Candle[] {
  const byBucket = new Map<number, CandleRow[]>();
  for (const r of rows) {
    const list = byBucket.get(r.bucket);
    if (list) list.push(r);
    else byBucket.set(r.bucket, [r]);
  }
  return [...byBucket.keys()]
    .sort((a, b) => b - a)
    .map((start) => ({
      start_time: start,
      end_time: start + INTERVAL_SECONDS[interval] - 1,
      outcomes: byBucket
        .get(start)!
        .sort((a, b) => (a.outcome_id < b.outcome_id ? -1 : a.outcome_id > b.outcome_id ? 1 : 0))
        .map((r) => ({
          outcome_id: r.outcome_id,
          mid: ohlc(r.mid_open, r.mid_high, r.mid_low, r.mid_close),
          last: ohlc(r.last_open, r.last_high, r.last_low, r.last_close),
          price: ohlc(r.price_open, r.price_high, r.price_low, r.price_close),
          changes: r.changes,
        })),
    }));
}
