// The venue adapter: everything the pipeline knows about one venue's published formats, in one place
// (FORMATS.md per venue). Each venue's folder exports one; the registry (index.ts) maps provider
// tokens to them, and the callers (pollers, catalog, price history) look a venue up there instead of
// switching on its token. Every member is pure: I/O stays with the callers.
import type { Quote } from '../../../lib/quotes.ts';
import type { MarketQuotes } from '../../matching/prices.ts';
import type { RosterBook } from '../../matching/props.ts';
import type { CanonicalMarket, MarketReading } from '../../matching/types.ts';
import type { NotFound } from '../client/http.ts';
import type { EventDetail, EventIO } from './live-event.ts';
import type { LiveIO, MarketDetail } from './live.ts';
import type { Obj } from './fields.ts';
import type { ListingStep, PageRequest } from './listing.ts';

/** The live route an identifier was sent to (spec: "GET /v1/markets/{market_id}", "GET /v1/events/{event_id}"). */
export type IdRoute = 'market' | 'event';

/** A native id checked against its venue's shapes: the id in the venue's case, or why it cannot be one. */
export type NativeIdCheck = { id: string } | { reject: string };

/** One market a listing record holds, as market detail would build it from that record alone. */
export interface ListedDetail {
  detail: MarketDetail;
  /** Other composite ids of the same market (venue_2: slug, condition id), lower case where the venue's ids are. */
  aliases?: string[];
}

/** One catalog row a listing record gives, before its category is bucketed. */
export interface ListingRow {
  nativeId: string;
  title: string;
  /** Open at this crawl and not excluded from the catalog (spec: "Catalog market row"). */
  listed: boolean;
  /** The record whose words name the row's category (a grouped record's group). */
  wordsFrom: Obj;
}

/** One market's quotes as a listing record shows them (no book: pollers do not read it). */
export interface ListedMarketQuotes {
  /** The id market detail stores the market under; null when the record has none. */
  marketId: string | null;
  /** Each outcome's id and quote, in the venue's order. */
  outcomes: [string, Quote][];
  /** The venue's own time of the quote or record (Unix ms), when it gives one. */
  venueTime: number | null;
  /** Other ids market detail resolves the market by (null entries and the market id are dropped). */
  aliases: (string | null)[];
}

export interface VenueAdapter<P extends string = string> {
  readonly provider: P;
  /** The open-market listing, every step in order (the catalog's crawl). */
  listingSteps(): ListingStep[];
  /**
   * The sports-only listing (FORMATS.md: "each venue lets a poller restrict the listing to
   * sports"), crawled often for the sports matching; the full listing is crawled for the catalog.
   */
  sportsSteps(): ListingStep[];
  /**
   * Where the venue serves one record's final state after it left the open listing, for record
   * types whose final record carries what the listing cannot; null otherwise.
   */
  finalRecordRequest(recordType: string, nativeId: string): PageRequest | null;
  /**
   * Checks a native id sent to a live route against the venue's identifier shapes (spec table
   * "Provider tokens and identifier shapes") and gives it in the venue's case; a reject says why
   * it cannot be one (the route answers 400 invalid_identifier quoting it).
   */
  nativeId(route: IdRoute, id: string): NativeIdCheck;
  /**
   * Outcome side names the venue uses as outcome ids (`yes`/`no`, venue_4's `outcomeOne`), lower
   * case: a sports lookup `source_id` that is one points to no market on its own.
   */
  sideNames?: readonly string[];
  /** Why an id is not a sports lookup identifier on this venue beyond side names (400 quoting it); undefined when it may be one. */
  notLookupId?(id: string): string | undefined;
  /** The catalog rows of one listing record (one per market; none for records that list none). */
  listingRows(recordType: string, record: Obj): ListingRow[];
  /**
   * The words the venue publishes about a record's category (FORMATS.md, "Categories (own words
   * per venue)"), in the venue's order; the catalog maps them to its buckets.
   */
  categoryWords(record: Obj): unknown[];
  /**
   * The record types listingQuotes can quote (none for a venue whose listing carries no prices). The
   * price-history sink passes every other record by before parsing its payload: listingQuotes gives
   * nothing for them, and a raw topic also carries records no reader quotes (crawl markers, finals,
   * events whose markets are listed apart). listing-quotes.unit.spec.ts holds it to listingQuotes.
   */
  quotedRecordTypes: readonly string[];
  /** The quotes an open listing record shows; none for records that are not open listings. */
  listingQuotes(recordType: string, record: Obj): ListedMarketQuotes[];
  /**
   * The canonical reading: the canonical markets one sports listing record contains (none for
   * records that are not sports game lines or admitted props), props admitted against `rosters`; a
   * prop refused only for want of a fresh roster is an AwaitingRoster in its place. May throw on odd
   * input: the caller (matching/canonicalize.ts) reads such a record as giving nothing.
   */
  canonicalMarkets(record: Obj, observedAt: number, rosters?: RosterBook): MarketReading[];
  /** The top of book and taker fee the record lists for one of its open markets; absent when the venue's listing carries none. */
  sourceQuotes?(record: Obj, m: CanonicalMarket): MarketQuotes | undefined;
  /**
   * Market detail read live (spec: "GET /v1/markets/{market_id}"): the venue reads through the
   * request's LiveIO, under its one deadline; NOT_FOUND when the venue has no such market.
   */
  readMarket(io: LiveIO, nativeId: string): Promise<MarketDetail | NotFound>;
  /** Event detail read live (spec: "GET /v1/events/{event_id}"); NOT_FOUND when the venue has no such event. */
  readEvent(io: EventIO, nativeId: string): Promise<EventDetail | NotFound>;
  /**
   * The markets one listing record holds, each built by the venue's market detail builders from
   * the record alone (no book: the pollers read none), for the push stream's `quotes` channel.
   * `observedAt` is the read's start as ISO text, `at` the same in ms.
   */
  listedDetails(recordType: string, record: Obj, observedAt: string, at: number): ListedDetail[];
  /** The record the canonical reading takes for a listed market, when the venue lists part of it apart (venue_1 events); absent: the record itself. */
  withListedEvent?(payload: Obj, eventOf: (ticker: string) => unknown): unknown;
  /**
   * The record type the venue lists apart and `withListedEvent` joins to its markets by native id
   * (venue_1 `event`): the canonicalize stage keeps those records instead of reading them.
   */
  listedEventType?: string;
  /**
   * The raw topic key of a record (it picks the partition), when not its own native id: a market
   * read with a record listed apart is keyed by that record's id, so both sit in one partition in
   * the order the poller read them. `payload` is the record's JSON as the poller wrote it.
   */
  rawKey?(recordType: string, payload: string): string | undefined;
  /**
   * Whether a settled canonical market of this venue says its game was cancelled with no make-up
   * (spec lifecycle: "a venue settling the game's moneyline as a 50-50"); absent: none does.
   */
  cancelsGame?(m: CanonicalMarket): boolean;
  /**
   * Whether a native market id names a group of markets rather than one (venue_9's bare parent id,
   * market detail's group view): its price history is each child's `yes` outcome, the children
   * stored under `<id>:<child>`.
   */
  namesGroup?(id: string): boolean;
}
