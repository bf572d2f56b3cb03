// venue_5 (FORMATS.md "venue_5"): questions listed by skip/take with a topic filter, each grouping
// its outcome markets; prices only in the book.
import { joinTitle, objs, str, text } from '../fields.ts';
import { arr, filtered, LEAGUE_WORDS, obj, overlapped, records, type ListingStep } from '../listing.ts';
import type { VenueAdapter } from '../types.ts';
import { canonicalizeVenue5 } from './canonical.ts';
import { NUMERIC } from '../shapes.ts';
import { readVenue5 } from './market.ts';
import { readVenue5 as readVenue5Event } from './event.ts';
import { buildVenue5Outcome, buildVenue5Question } from './market.ts';
import { BOOK_FAILED } from '../live.ts';
import { isObj } from '../fields.ts';

const listingSteps = (): ListingStep[] => [
  {
    name: 'questions',
    first: () => ({ path: '/venue_5/questions', query: { state: 'open', skip: 0, take: 200 } }),
    parse(body, req) {
      const b = obj(body, 'body');
      const items = arr(b.questions, 'questions');
      const end = Number(req.query.skip) + items.length;
      const total = Number(b.total);
      const next = items.length === 0 || (Number.isFinite(total) && end >= total) ? null : { path: req.path, query: { ...req.query, skip: overlapped(Number(req.query.skip), items.length) } };
      return { records: records(items, 'question', (o) => o.question_id, 'questions'), next };
    },
  },
];

export const venue5: VenueAdapter<'venue_5'> = {
  provider: 'venue_5',
  listingSteps,
  sportsSteps: () => LEAGUE_WORDS.map((l) => filtered(listingSteps()[0], `${l} questions`, { topic: l.toUpperCase() })),
  finalRecordRequest: () => null,
  nativeId: (_route, id) => (NUMERIC.test(id) ? { id } : { reject: 'expected an integer outcome or question id' }),
  listingRows(recordType, m) {
    if (recordType !== 'question') return [];
    // One row per outcome market; the question carries the words for all of them.
    return objs(m.outcomes).flatMap((o) => {
      const nativeId = str(o.outcome_id);
      return nativeId === null ? [] : [{ nativeId, title: joinTitle(text(m.title), text(o.label)), listed: m.state === 'open' && o.state === 'open', wordsFrom: m }];
    });
  },
  categoryWords: (rec) => [rec.topic],
  // Prices only in the book, which the listing does not carry.
  quotedRecordTypes: [],
  listingQuotes: () => [],
  canonicalMarkets: canonicalizeVenue5,
  readMarket: readVenue5,
  readEvent: readVenue5Event,
  listedDetails(t, p, o) {
    if (t !== 'question') return [];
    // The question (a grouped market) and each of its outcome markets.
    const out = [{ detail: buildVenue5Question({ question: p }, [], o) }];
    for (const x of Array.isArray(p.outcomes) ? p.outcomes : []) if (isObj(x)) out.push({ detail: buildVenue5Outcome({ outcome: x, question_id: p.question_id }, BOOK_FAILED, o) });
    return out;
  },
};
