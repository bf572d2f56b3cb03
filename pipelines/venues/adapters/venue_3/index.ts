// venue_3 (FORMATS.md "venue_3"): markets listed by numbered pages with a league filter, numeric ids,
// best bid and ask per outcome.
import type { Quote } from '../../../../lib/quotes.ts';
import { numOf, objs, str, text, timeOf } from '../fields.ts';
import { arr, filtered, LEAGUE_WORDS, MalformedBody, obj, records, type ListingStep } from '../listing.ts';
import { recordQuote } from '../quotes.ts';
import type { VenueAdapter } from '../types.ts';
import { canonicalizeVenue3 } from './canonical.ts';
import { venue3SourceQuotes } from './source-quotes.ts';
import { NUMERIC } from '../shapes.ts';
import { readVenue3 } from './market.ts';
import { readVenue3 as readVenue3Event } from './event.ts';
import { buildVenue3 } from './market.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'markets',
    // Page 1 says how many pages there are; then the last page back to the first, page 1
    // again included: a market shifting down a page lands on one still to be read.
    first: () => ({ path: '/venue_3/v1/markets', query: { status: 'open', page: 1, per_page: 250 }, phase: 'probe' }),
    parse(body, req) {
      const b = obj(body, 'body');
      const meta = obj(b.meta, 'meta');
      const page = Number(req.query.page);
      const totalPages = Number(meta.total_pages);
      if (!Number.isFinite(totalPages)) throw new MalformedBody('meta.total_pages');
      const to = (p: number) => ({ path: req.path, query: { ...req.query, page: p }, phase: 'down' });
      const next = req.phase === 'probe' ? (totalPages > 1 ? to(totalPages) : null) : page > 1 ? to(page - 1) : null;
      return { records: records(arr(b.data, 'data'), 'market', (o) => o.id, 'data'), next };
    },
  },
];

export const venue3: VenueAdapter<'venue_3'> = {
  provider: 'venue_3',
  listingSteps,
  sportsSteps: () => LEAGUE_WORDS.map((l) => filtered(listingSteps()[0], `${l} markets`, { sport: l })),
  finalRecordRequest: () => null,
  // Numeric ids only (the venue's API answers 400 to any other shape).
  nativeId: (_route, id) => (NUMERIC.test(id) ? { id } : { reject: 'expected a numeric market id' }),
  listingRows(recordType, m) {
    const nativeId = str(m.id);
    return recordType !== 'market' || nativeId === null ? [] : [{ nativeId, title: text(m.title), listed: m.status === 'open', wordsFrom: m }];
  },
  categoryWords: (rec) => [rec.category],
  quotedRecordTypes: ['market'],
  listingQuotes(recordType, m) {
    if (recordType !== 'market' || m.status !== 'open') return [];
    const outcomes = objs(m.outcomes).map((o, i): [string, Quote] => [str(o.token) ?? String(i), recordQuote(numOf(o.best_bid), numOf(o.best_ask), numOf(o.last_price))]);
    return [{ marketId: str(m.id), outcomes, venueTime: timeOf(m.updated_at), aliases: [] }];
  },
  canonicalMarkets: canonicalizeVenue3,
  sourceQuotes: venue3SourceQuotes,
  readMarket: readVenue3,
  readEvent: readVenue3Event,
  listedDetails: (t, p, o) => (t === 'market' ? [{ detail: buildVenue3(p, o) }] : []),
};
