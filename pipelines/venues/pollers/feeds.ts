// Each venue's open-market listing, as documented in pipelines/venues/simulator/FORMATS.md
// ("Open-market listing for pollers"). In: a venue's JSON page. Out: the records on it (record type,
// native id, the record as read) and the request for the next page, or null after the last one.
// Pure: the poller does the HTTP. A body without the documented shape throws MalformedBody, which
// the poller treats as a fault of the venue ("malformed bodies").
import type { Provider } from '../../../lib/vocabulary.ts';

export interface PageRequest {
  path: string;
  query: Record<string, string | number>;
  /** The step's own note of where the walk is (never sent to the venue). */
  phase?: string;
}

/**
 * Offset- and page-numbered listings move while a crawl walks them: a market that closes below the
 * current position shifts every later one a place down, so the next page would start past one it
 * never read (the stack's chaos run saw a rebuilt catalog lack 4 of 13,608 rows still open on
 * venue_3 and venue_5). Offset walks therefore start each next page this many items early (the
 * poller emits a record once per crawl), and page-numbered ones read their pages last to first.
 */
export const PAGE_OVERLAP = 25;

/** The next offset of an offset walk: overlapping the page just read, always moving on. */
const overlapped = (offset: number, read: number): number => offset + Math.max(1, read - PAGE_OVERLAP);

export interface ListedRecord {
  recordType: string;
  nativeId: string;
  payload: unknown;
}

export interface PageResult {
  records: ListedRecord[];
  next: PageRequest | null;
}

/** One paged listing walked from its first page to its last. */
export interface ListingStep {
  name: string;
  first(): PageRequest;
  parse(body: unknown, req: PageRequest): PageResult;
}

export class MalformedBody extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new MalformedBody(`expected ${what} to be an array`);
  return v;
}
function obj(v: unknown, what: string): Obj {
  if (!isObj(v)) throw new MalformedBody(`expected ${what} to be an object`);
  return v;
}
function id(v: unknown, what: string): string {
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new MalformedBody(`expected ${what} to be an id`);
}
const records = (items: unknown[], recordType: string, idOf: (o: Obj) => unknown, what: string): ListedRecord[] =>
  items.map((it, i) => {
    const o = obj(it, `${what}[${i}]`);
    return { recordType, nativeId: id(idOf(o), `${what}[${i}] id`), payload: o };
  });

function v1Step(name: string, path: string, query: PageRequest['query'], key: string, recordType: string, idKey: string): ListingStep {
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

/**
 * A step that ends at the first record that fails `keep`: for listings documented as "sports
 * first, then the procedural catalog" that offer no sports filter (venue_1 events, venue_9 parents).
 */
function until(step: ListingStep, keep: (payload: Obj) => boolean): ListingStep {
  return {
    name: step.name,
    first: step.first,
    parse(body, req) {
      const page = step.parse(body, req);
      const cut = page.records.findIndex((r) => !keep(r.payload as Obj));
      return cut === -1 ? page : { records: page.records.slice(0, cut), next: null };
    },
  };
}

/** A step with extra query parameters (a venue's own sports filter). */
function filtered(step: ListingStep, name: string, extra: PageRequest['query']): ListingStep {
  return { ...step, name, first: () => { const f = step.first(); return { path: f.path, query: { ...f.query, ...extra } }; } };
}

const LEAGUE_WORDS = ['nba', 'wnba', 'nfl', 'mlb', 'nhl'];

/**
 * The sports-only listing of a venue (FORMATS.md: "each venue lets a poller restrict the listing
 * to sports"), crawled often for the sports matching; the full listing is crawled for the catalog.
 */
export function sportsSteps(provider: Provider): ListingStep[] {
  const [first, second] = listingSteps(provider);
  switch (provider) {
    case 'venue_1':
      return [until(first, (e) => e.category === 'Sports'), filtered(second, 'sports markets', { category: 'Sports' })];
    case 'venue_2':
      return [filtered(first, 'sports markets', { tag_slug: 'sports' })];
    case 'venue_3':
      return LEAGUE_WORDS.map((l) => filtered(first, `${l} markets`, { sport: l }));
    case 'venue_4':
      return [filtered(first, 'sports markets', { sportIds: 'Basketball,Football,Baseball,Hockey' })];
    case 'venue_5':
      return LEAGUE_WORDS.map((l) => filtered(first, `${l} questions`, { topic: l.toUpperCase() }));
    case 'venue_6':
      return [filtered(first, 'sports markets', { category: 'sports' })];
    case 'venue_7':
      return ['basketball', 'american_football', 'baseball', 'ice_hockey'].map((sp) => filtered(first, `${sp} events`, { sport: sp }));
    case 'venue_8':
      return [filtered(first, 'sports markets', { topic: 'sports-default' })];
    case 'venue_9':
      return [until(first, (p) => p.kind === 'game')];
  }
}

/**
 * Where a venue serves one record's final state after it left the open listing, for venues whose
 * final record carries what the listing cannot (venue_2: a game cancelled and settled 50-50 is only
 * visible on the market's own record). Null for every other venue and record type.
 */
export function finalRecordRequest(provider: Provider, recordType: string, nativeId: string): PageRequest | null {
  if (provider === 'venue_2' && recordType === 'market') return { path: `/venue_2/markets/${encodeURIComponent(nativeId)}`, query: {} };
  return null;
}

/** Page sizes: the largest each venue allows, so a crawl makes as few requests as possible. */
export function listingSteps(provider: Provider): ListingStep[] {
  switch (provider) {
    case 'venue_1':
      // Events first (the sports processor reads a game's current start from its event), then markets.
      return [
        v1Step('events', '/venue_1/events', { status: 'open', limit: 200 }, 'events', 'event', 'event_ticker'),
        v1Step('markets', '/venue_1/markets', { status: 'open', limit: 1000 }, 'markets', 'market', 'ticker'),
      ];
    case 'venue_2':
      return [
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
    case 'venue_3':
      return [
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
    case 'venue_4':
      return [
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
    case 'venue_5':
      return [
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
    case 'venue_6':
      return [
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
    case 'venue_7':
      return [
        {
          name: 'events',
          first: () => ({ path: '/venue_7/events', query: { state: 'open', offset: 0, count: 100 } }),
          parse(body, req) {
            const b = obj(body, 'body');
            const items = arr(b.events, 'events');
            const end = Number(req.query.offset) + items.length;
            const total = Number(b.total);
            const next = items.length === 0 || (Number.isFinite(total) && end >= total) ? null : { path: req.path, query: { ...req.query, offset: overlapped(Number(req.query.offset), items.length) } };
            return { records: records(items, 'event', (o) => o.event_id, 'events'), next };
          },
        },
      ];
    case 'venue_8':
      return [
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
    case 'venue_9':
      return [
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
  }
}
