// venue_4 (FORMATS.md "venue_4"): markets listed by pagination key, named by their outcome labels,
// ids are market hashes; prices only in the book.
import { joinTitle, str, text } from '../fields.ts';
import { arr, filtered, MalformedBody, obj, records, type ListingStep } from '../listing.ts';
import type { VenueAdapter } from '../types.ts';
import { canonicalizeVenue4 } from './canonical.ts';
import { FIXTURE, HASH64 } from '../shapes.ts';
import { readVenue4 } from './market.ts';
import { readVenue4 as readVenue4Event } from './event.ts';
import { buildVenue4 } from './market.ts';
import { feesUnavailable } from '../../fees.ts';
import { BOOK_FAILED } from '../live.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'markets',
    first: () => ({ path: '/venue_4/markets/active', query: { pageSize: 300 } }),
    parse(body, req) {
      const b = obj(body, 'body');
      if (b.status !== 'success') throw new MalformedBody(`status ${JSON.stringify(b.status)}`);
      const d = obj(b.data, 'data');
      const nextKey = d.nextKey;
      return {
        records: records(arr(d.markets, 'markets'), 'market', (o) => o.marketHash, 'markets'),
        next: typeof nextKey === 'string' && nextKey ? { path: req.path, query: { ...req.query, paginationKey: nextKey } } : null,
      };
    },
  },
];

export const venue4: VenueAdapter<'venue_4'> = {
  provider: 'venue_4',
  listingSteps,
  sportsSteps: () => [filtered(listingSteps()[0], 'sports markets', { sportIds: 'Basketball,Football,Baseball,Hockey' })],
  finalRecordRequest: () => null,
  nativeId(route, id) {
    if (route === 'market') {
      if (FIXTURE.test(id.toUpperCase())) return { reject: 'this is a fixture (event) id; use GET /v1/events' };
      if (HASH64.test(id)) return { id: id.toLowerCase() };
      return { reject: 'expected 0x plus 64 hex' };
    }
    if (FIXTURE.test(id.toUpperCase())) return { id: id.toUpperCase() };
    if (HASH64.test(id)) return { reject: 'this is a market hash; use GET /v1/markets' };
    return { reject: 'expected a fixture id: L followed by digits' };
  },
  sideNames: ['outcomeone', 'outcometwo'],
  listingRows(recordType, m) {
    const nativeId = str(m.marketHash);
    if (recordType !== 'market' || nativeId === null) return [];
    // "A venue_4 market is named by its two outcome labels"; a line names its game too, and a
    // non-sports BINARY market carries its question where sports carry the first team.
    const o = [text(m.outcomeOneName), text(m.outcomeTwoName)].filter(Boolean);
    const game = [text(m.teamOneName), text(m.teamTwoName)].filter(Boolean).join(' vs ');
    const title =
      m.type === 'BINARY'
        ? text(m.teamOneName, o[0])
        : m.type === 'MONEYLINE' || !game
          ? o.join(' vs ')
          : joinTitle(game, o.join(' / '));
    return [{ nativeId, title: text(m.title, m.question, title), listed: m.status === 'ACTIVE', wordsFrom: m }];
  },
  categoryWords: (rec) => [rec.sportLabel],
  // Prices only in the book, which the listing does not carry.
  quotedRecordTypes: [],
  listingQuotes: () => [],
  canonicalMarkets: canonicalizeVenue4,
  readMarket: readVenue4,
  readEvent: readVenue4Event,
  listedDetails: (t, p, o) => (t === 'market' ? [{ detail: buildVenue4(p, BOOK_FAILED, feesUnavailable(o, null), o) }] : []),
};
