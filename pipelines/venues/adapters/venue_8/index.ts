// venue_8 (FORMATS.md "venue_8"): markets listed newest first by `before` id, named by slug, grouped
// by group slugs; the listing carries the venue's probability only.
import { isObj, list, numOf, str, text, timeOf } from '../fields.ts';
import { arr, filtered, id, records, type ListingStep } from '../listing.ts';
import { complement, markOnly } from '../quotes.ts';
import type { VenueAdapter } from '../types.ts';
import { canonicalizeVenue8 } from './canonical.ts';
import { SLUG } from '../shapes.ts';
import { readVenue8 } from './market.ts';
import { readVenue8 as readVenue8Event } from './event.ts';
import { buildVenue8 } from './market.ts';
import { BOOK_FAILED } from '../live.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'markets',
    first: () => ({ path: '/venue_8/v0/markets', query: { limit: 1000, sort: 'created-time' } }),
    parse(body, req) {
      const items = arr(body, 'body');
      const recs = records(items, 'market', (o) => o.slug, 'markets');
      const last = items.at(-1);
      const next = isObj(last) ? { path: req.path, query: { ...req.query, before: id(last.id, 'last id') } } : null;
      return { records: recs, next };
    },
  },
];

export const venue8: VenueAdapter<'venue_8'> = {
  provider: 'venue_8',
  listingSteps,
  sportsSteps: () => [filtered(listingSteps()[0], 'sports markets', { topic: 'sports-default' })],
  finalRecordRequest: () => null,
  nativeId: (_route, id) => (SLUG.test(id) ? { id } : { reject: 'expected a kebab-case slug' }),
  sideNames: ['yes', 'no'],
  listingRows(recordType, m) {
    const nativeId = str(m.slug);
    return recordType !== 'market' || nativeId === null ? [] : [{ nativeId, title: text(m.question), listed: m.isResolved !== true, wordsFrom: m }];
  },
  categoryWords: (rec) => list(rec.groupSlugs),
  quotedRecordTypes: ['market'],
  listingQuotes(recordType, m) {
    if (recordType !== 'market' || m.isResolved === true) return [];
    const mark = numOf(m.probability);
    // Market detail reads a venue_8 market by its slug or its id.
    return [{ marketId: str(m.slug), outcomes: [['yes', markOnly(mark)], ['no', markOnly(complement(mark))]], venueTime: timeOf(m.lastUpdatedTime, 'ms'), aliases: [str(m.id)] }];
  },
  canonicalMarkets: canonicalizeVenue8,
  readMarket: readVenue8,
  readEvent: readVenue8Event,
  listedDetails: (t, p, o, at) => (t === 'market' ? [{ detail: buildVenue8(p, BOOK_FAILED, o, at) }] : []),
};
