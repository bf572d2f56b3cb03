// venue_6 (FORMATS.md "venue_6"): markets listed by page token; the listing carries the venue's mark
// only (bid and ask are in the book, which pollers do not read).
import { numOf, objs, str, text, timeOf } from '../fields.ts';
import { arr, filtered, obj, records, type ListingStep } from '../listing.ts';
import { complement, markOnly } from '../quotes.ts';
import type { VenueAdapter } from '../types.ts';
import { canonicalizeVenue6 } from './canonical.ts';
import { ULID } from '../shapes.ts';
import { readVenue6 } from './market.ts';
import { readVenue6 as readVenue6Event } from './event.ts';
import { buildVenue6 } from './market.ts';
import { BOOK_FAILED } from '../live.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'markets',
    first: () => ({ path: '/venue_6/api/markets', query: { status: 'open', page_size: 200 } }),
    parse(body, req) {
      const b = obj(body, 'body');
      const token = b.next_page_token;
      return {
        records: records(arr(b.items, 'items'), 'market', (o) => o.id, 'items'),
        next: typeof token === 'string' && token ? { path: req.path, query: { ...req.query, page_token: token } } : null,
      };
    },
  },
];

export const venue6: VenueAdapter<'venue_6'> = {
  provider: 'venue_6',
  listingSteps,
  sportsSteps: () => [filtered(listingSteps()[0], 'sports markets', { category: 'sports' })],
  finalRecordRequest: () => null,
  nativeId: (_route, id) => (ULID.test(id) ? { id: id.toUpperCase() } : { reject: 'expected a 26-character ULID' }),
  listingRows(recordType, m) {
    const nativeId = str(m.id);
    return recordType !== 'market' || nativeId === null ? [] : [{ nativeId, title: text(m.question, m.title), listed: m.status === 'open', wordsFrom: m }];
  },
  categoryWords: (rec) => [rec.category],
  quotedRecordTypes: ['market'],
  listingQuotes(recordType, m) {
    if (recordType !== 'market' || m.status !== 'open') return [];
    const toks = objs(m.outcomes).map((o) => str(o.token) ?? '');
    const mark = numOf(m.mark);
    return [{ marketId: str(m.id)?.toUpperCase() ?? null, outcomes: [[toks[0] || 'yes', markOnly(mark)], [toks[1] || 'no', markOnly(complement(mark))]], venueTime: timeOf(m.mark_ts), aliases: [] }];
  },
  canonicalMarkets: canonicalizeVenue6,
  readMarket: readVenue6,
  readEvent: readVenue6Event,
  listedDetails: (t, p, o) => (t === 'market' ? [{ detail: buildVenue6(p, BOOK_FAILED, o) }] : []),
};
