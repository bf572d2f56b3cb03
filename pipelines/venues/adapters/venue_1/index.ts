// venue_1 (FORMATS.md "venue_1"): events and markets listed by ticker with cursor paging, prices in
// cents, user-built multi-leg parlays beside the ordinary markets.
import { numOf, str, text, type Obj } from '../fields.ts';
import { arr, filtered, MalformedBody, obj, records, until, type ListingStep, type PageRequest } from '../listing.ts';
import { complement, recordQuote } from '../quotes.ts';
import type { VenueAdapter } from '../types.ts';
import { canonicalizeVenue1 } from './canonical.ts';
import { venue1SourceQuotes } from './source-quotes.ts';
import { TICKER } from '../shapes.ts';
import { readVenue1 } from './market.ts';
import { readVenue1 as readVenue1Event } from './event.ts';
import { buildVenue1 } from './market.ts';
import { feesUnavailable } from '../../fees.ts';

function cursorStep(name: string, path: string, query: PageRequest['query'], key: string, recordType: string, idKey: string): ListingStep {
  return {
    name,
    first: () => ({ path, query }),
    parse(body, req) {
      const b = obj(body, 'body');
      const recs = records(arr(b[key], key), recordType, (o) => o[idKey], key);
      const cursor = b.cursor;
      if (cursor !== '' && cursor !== null && cursor !== undefined && typeof cursor !== 'string') throw new MalformedBody('cursor');
      return { records: recs, next: cursor ? { path: req.path, query: { ...req.query, cursor } } : null };
    },
  };
}

/** Page sizes: the largest the venue allows, so a crawl makes as few requests as possible. */
const listingSteps = (): ListingStep[] => [
  // Events first (the sports processor reads a game's current start from its event), then markets.
  cursorStep('events', '/venue_1/events', { status: 'open', limit: 200 }, 'events', 'event', 'event_ticker'),
  cursorStep('markets', '/venue_1/markets', { status: 'open', limit: 1000 }, 'markets', 'market', 'ticker'),
];

/** venue_1 user-built multi-leg parlays, recognized by the fields the venue gives them. */
export function isVenue1Parlay(m: Obj): boolean {
  return str(m.mve_collection_ticker) !== null || (Array.isArray(m.mve_selected_legs) && m.mve_selected_legs.length > 0);
}

/** Prices in cents; 0 and 100 are the venue's "no order on this side". */
const cents = (v: unknown): number | null => {
  const n = numOf(v);
  return n === null || n <= 0 || n >= 100 ? null : n / 100;
};

export const venue1: VenueAdapter<'venue_1'> = {
  provider: 'venue_1',
  listingSteps,
  sportsSteps() {
    const [events, markets] = listingSteps();
    // Events list sports first and offer no sports filter; markets do.
    return [until(events, (e) => e.category === 'Sports'), filtered(markets, 'sports markets', { category: 'Sports' })];
  },
  finalRecordRequest: () => null,
  // Tickers are case-insensitive; the venue writes them in upper case.
  nativeId: (_route, id) => (TICKER.test(id) ? { id: id.toUpperCase() } : { reject: 'expected an upper-case hyphenated ticker' }),
  sideNames: ['yes', 'no'],
  listingRows(recordType, m) {
    const nativeId = str(m.ticker);
    // Parlays are "excluded from the list and from pagination.total".
    return recordType !== 'market' || nativeId === null ? [] : [{ nativeId, title: text(m.title, m.subtitle), listed: m.status === 'active' && !isVenue1Parlay(m), wordsFrom: m }];
  },
  categoryWords: (rec) => [rec.category],
  quotedRecordTypes: ['market'],
  listingQuotes(recordType, m) {
    // Events list no quotes (their markets are listed as their own records).
    if (recordType !== 'market' || m.status !== 'active') return [];
    const last = cents(m.last_price);
    const ticker = str(m.ticker)?.toUpperCase() ?? null;
    return [{ marketId: ticker, outcomes: [['yes', recordQuote(cents(m.yes_bid), cents(m.yes_ask), last)], ['no', recordQuote(cents(m.no_bid), cents(m.no_ask), complement(last))]], venueTime: null, aliases: [] }];
  },
  canonicalMarkets: canonicalizeVenue1,
  sourceQuotes: venue1SourceQuotes,
  // Its markets' start times and titles are on their event, listed apart under `event_ticker`.
  withListedEvent: (payload, eventOf) => ({ ...payload, _event: eventOf(String(payload.event_ticker)) }),
  listedEventType: 'event',
  // A market is keyed by its event, so the event (read first) and its markets share a partition.
  rawKey: (recordType, payload) => (recordType === 'market' ? /"event_ticker":"([^"\\]+)"/.exec(payload)?.[1] : undefined),
  readMarket: readVenue1,
  readEvent: readVenue1Event,
  listedDetails: (t, p, o) => (t === 'market' ? [{ detail: buildVenue1(p, feesUnavailable(o, null), o) }] : []),
};
