// venue_9 (FORMATS.md "venue_9"): parents listed by cursor, each grouping its children (markets
// named `<parent>:<child>` or by their pair); a child's yes price is the venue's mark only.
import { joinTitle, list, numOf, objs, str, text, timeOf } from '../fields.ts';
import { arr, obj, records, until, type ListingStep } from '../listing.ts';
import { complement, markOnly } from '../quotes.ts';
import type { ListedMarketQuotes, VenueAdapter } from '../types.ts';
import { canonicalizeVenue9 } from './canonical.ts';
import { venue9NativeId } from './identifiers.ts';
import { readVenue9 } from './market.ts';
import { readVenue9 as readVenue9Event } from './event.ts';
import { buildVenue9Child, buildVenue9Parent } from './market.ts';
import { BOOK_FAILED } from '../live.ts';
import { isObj } from '../fields.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'parents',
    first: () => ({ path: '/venue_9/parents', query: { active: 'true', limit: 100 } }),
    parse(body, req) {
      const b = obj(body, 'body');
      const c = b.next_cursor;
      // "LTE=" (base64 of -1) marks the last page, like the venue.
      return {
        records: records(arr(b.data, 'data'), 'parent', (o) => o.id, 'data'),
        next: typeof c === 'string' && c && c !== 'LTE=' ? { path: req.path, query: { ...req.query, cursor: c } } : null,
      };
    },
  },
];

export const venue9: VenueAdapter<'venue_9'> = {
  provider: 'venue_9',
  listingSteps,
  // Parents list games first and offer no sports filter.
  sportsSteps: () => [until(listingSteps()[0], (p) => p.kind === 'game')],
  finalRecordRequest: () => null,
  nativeId: venue9NativeId,
  // A bare parent (as market detail stores it, lower case) is the group view of its children.
  namesGroup: (id) => /^0x[0-9a-f]{64}$/.test(id),
  sideNames: ['yes', 'no'],
  listingRows(recordType, m) {
    if (recordType !== 'parent') return [];
    // One row per child; the parent carries the words for all of them.
    return objs(m.children).flatMap((c) => {
      const nativeId = str(c.pair) ?? (str(m.id) && str(c.id) ? `${m.id}:${c.id}` : null);
      return nativeId === null ? [] : [{ nativeId, title: joinTitle(text(m.title), text(c.title)), listed: c.status === 'trading', wordsFrom: m }];
    });
  },
  categoryWords: (rec) => [...list(rec.tags), rec.category],
  quotedRecordTypes: ['parent'],
  listingQuotes(recordType, m) {
    if (recordType !== 'parent' || !Array.isArray(m.children)) return [];
    // A loop rather than filter and map: the price-history sink reads every child of every parent listed.
    const out: ListedMarketQuotes[] = [];
    for (const c of m.children as unknown[]) {
      if (!isObj(c) || c.status !== 'trading') continue;
      const mark = numOf(c.yes_price);
      out.push({ marketId: str(c.pair)?.toLowerCase() ?? null, outcomes: [['yes', markOnly(mark)], ['no', markOnly(complement(mark))]], venueTime: timeOf(c.updated_at), aliases: [] });
    }
    return out;
  },
  canonicalMarkets: canonicalizeVenue9,
  readMarket: readVenue9,
  readEvent: readVenue9Event,
  listedDetails(t, p, o) {
    if (t !== 'parent') return [];
    const out = [{ detail: buildVenue9Parent(p, o) }];
    for (const c of Array.isArray(p.children) ? p.children : []) if (isObj(c)) out.push({ detail: buildVenue9Child({ ...c, parent: { title: p.title } }, BOOK_FAILED, o) });
    return out;
  },
};
