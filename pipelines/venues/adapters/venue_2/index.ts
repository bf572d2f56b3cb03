// venue_2 (FORMATS.md "venue_2"): markets listed by offset, tagged by slugs; the record quotes its
// first outcome, and a cancelled game's 50-50 settlement shows only on the market's own record.
import type { Quote } from '../../../../lib/quotes.ts';
import { jsonArray, numOf, str, text, timeOf } from '../fields.ts';
import { arr, filtered, overlapped, records, type ListingStep } from '../listing.ts';
import { complement, recordQuote } from '../quotes.ts';
import type { VenueAdapter } from '../types.ts';
import { canonicalizeVenue2 } from './canonical.ts';
import { venue2SourceQuotes } from './source-quotes.ts';
import { HASH64, NUMERIC, SLUG } from '../shapes.ts';
import { readVenue2 } from './market.ts';
import { readVenue2 as readVenue2Event } from './event.ts';
import { buildVenue2 } from './market.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'markets',
    first: () => ({ path: '/venue_2/markets', query: { closed: 'false', limit: 500, offset: 0 } }),
    parse(body, req) {
      const items = arr(body, 'body');
      const limit = Number(req.query.limit);
      const next = items.length < limit ? null : { path: req.path, query: { ...req.query, offset: overlapped(Number(req.query.offset), items.length) } };
      return { records: records(items, 'market', (o) => o.id, 'markets'), next };
    },
  },
];

const slugs = (v: unknown): unknown[] => (Array.isArray(v) ? v : []).map((t) => (typeof t === 'object' && t !== null ? (t as Record<string, unknown>).slug ?? (t as Record<string, unknown>).label : t));

const open = (m: Record<string, unknown>): boolean => m.active === true && m.closed !== true && m.umaResolutionStatus !== 'resolved';

export const venue2: VenueAdapter<'venue_2'> = {
  provider: 'venue_2',
  listingSteps,
  sportsSteps: () => [filtered(listingSteps()[0], 'sports markets', { tag_slug: 'sports' })],
  // A game cancelled and settled 50-50 is only visible on the market's own record.
  finalRecordRequest: (recordType, nativeId) => (recordType === 'market' ? { path: `/venue_2/markets/${encodeURIComponent(nativeId)}`, query: {} } : null),
  nativeId(route, id) {
    if (NUMERIC.test(id) || SLUG.test(id)) return { id };
    // A condition id: 0x plus 64 hex, naming a market.
    if (HASH64.test(id)) return route === 'event' ? { reject: 'a condition id names a market; use GET /v1/markets' } : { id: id.toLowerCase() };
    return { reject: 'expected a numeric id, a kebab-case slug or a condition id' };
  },
  listingRows(recordType, m) {
    const nativeId = str(m.id);
    return recordType !== 'market' || nativeId === null ? [] : [{ nativeId, title: text(m.question, m.slug), listed: open(m), wordsFrom: m }];
  },
  categoryWords: (rec) => slugs(rec.tags),
  quotedRecordTypes: ['market'],
  listingQuotes(recordType, m) {
    if (recordType !== 'market' || !open(m)) return [];
    const names = jsonArray(m.outcomes);
    const tokens = jsonArray(m.clobTokenIds);
    const marks = jsonArray(m.outcomePrices);
    const bid = numOf(m.bestBid);
    const ask = numOf(m.bestAsk);
    const last = numOf(m.lastTradePrice);
    // The record quotes the first outcome; the second is its complement. Each token and mark is read
    // where it is used (no mapped copies of the lists: the price-history sink reads every market listed).
    const outcomes = new Array<[string, Quote]>(names.length);
    for (let i = 0; i < names.length; i++) {
      const mark = i < marks.length ? numOf(marks[i]) : null;
      outcomes[i] = [i < tokens.length ? String(tokens[i]) : String(i), i === 0 ? recordQuote(bid, ask, last, mark) : recordQuote(complement(ask), complement(bid), complement(last), mark)];
    }
    // Market detail also resolves a venue_2 market by its slug and its condition id.
    return [{ marketId: str(m.id), outcomes, venueTime: timeOf(m.updatedAt), aliases: [str(m.slug), str(m.conditionId)?.toLowerCase() ?? null] }];
  },
  canonicalMarkets: canonicalizeVenue2,
  // A cancelled game settles its full-game moneyline 50-50; so does a tied nfl game, which is no cancellation.
  cancelsGame: (m) => m.status === 'settled' && m.settledFiftyFifty === true && m.marketType === 'moneyline' && m.segment === 'full' && m.league !== 'nfl',
  sourceQuotes: venue2SourceQuotes,
  readMarket: readVenue2,
  readEvent: readVenue2Event,
  listedDetails(t, p, o) {
    if (t !== 'market') return [];
    const aliases = [str(p.slug), str(p.conditionId)?.toLowerCase()].filter((x): x is string => !!x).map((x) => `venue_2:${x}`);
    return [{ detail: buildVenue2(p, o), aliases }];
  },
};
