// A tenth venue that exists only in tests: the least a venue folder holds (a cursor-paged market
// listing, one topic word, a yes price), to show that a new venue is one folder like this one and
// one line in a registry (adapters/registry.unit.spec.ts). Not in the service's registry.
import { numOf, str, text } from '../../fields.ts';
import { arr, filtered, obj, records, type ListingStep } from '../../listing.ts';
import { complement, markOnly } from '../../quotes.ts';
import type { VenueAdapter } from '../../types.ts';
import { NOT_FOUND } from '../../../client/http.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'markets',
    first: () => ({ path: '/venue_10/markets', query: { limit: 2 } }),
    parse(body, req) {
      const b = obj(body, 'body');
      const next = str(b.next);
      return { records: records(arr(b.markets, 'markets'), 'market', (o) => o.id, 'markets'), next: next ? { path: req.path, query: { ...req.query, cursor: next } } : null };
    },
  },
];

export const venue10: VenueAdapter<'venue_10'> = {
  provider: 'venue_10',
  listingSteps,
  sportsSteps: () => [filtered(listingSteps()[0], 'sports markets', { topic: 'sports' })],
  finalRecordRequest: () => null,
  nativeId: (_route, id) => (id ? { id } : { reject: 'expected a market id' }),
  listingRows(recordType, m) {
    const nativeId = str(m.id);
    return recordType !== 'market' || nativeId === null ? [] : [{ nativeId, title: text(m.name), listed: m.open === true, wordsFrom: m }];
  },
  categoryWords: (rec) => [rec.topic],
  quotedRecordTypes: ['market'],
  listingQuotes(recordType, m) {
    if (recordType !== 'market' || m.open !== true) return [];
    const yes = numOf(m.yes);
    return [{ marketId: str(m.id), outcomes: [['yes', markOnly(yes)], ['no', markOnly(complement(yes))]], venueTime: null, aliases: [] }];
  },
  // Lists no sports game lines.
  canonicalMarkets: () => [],
  // Serves no live market detail.
  readMarket: () => Promise.resolve(NOT_FOUND),
  readEvent: () => Promise.resolve(NOT_FOUND),
  listedDetails: () => [],
};
