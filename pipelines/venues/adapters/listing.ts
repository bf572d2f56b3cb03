// The listing kit every venue adapter builds its open-market listing from (FORMATS.md, "Open-market
// listing for pollers"). In: a venue's JSON page and the request that read it. Out: the records on
// it (record type, native id, the record as read) and the request for the next page, or null after
// the last one. Pure: the poller does the HTTP. A body without the documented shape throws
// MalformedBody, which the poller treats as a fault of the venue ("malformed bodies").
import { isObj, type Obj } from './fields.ts';

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
export const overlapped = (offset: number, read: number): number => offset + Math.max(1, read - PAGE_OVERLAP);

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

export function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new MalformedBody(`expected ${what} to be an array`);
  return v;
}
export function obj(v: unknown, what: string): Obj {
  if (!isObj(v)) throw new MalformedBody(`expected ${what} to be an object`);
  return v;
}
export function id(v: unknown, what: string): string {
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new MalformedBody(`expected ${what} to be an id`);
}
export const records = (items: unknown[], recordType: string, idOf: (o: Obj) => unknown, what: string): ListedRecord[] =>
  items.map((it, i) => {
    const o = obj(it, `${what}[${i}]`);
    return { recordType, nativeId: id(idOf(o), `${what}[${i}] id`), payload: o };
  });

/**
 * A step that ends at the first record that fails `keep`: for listings documented as "sports
 * first, then the procedural catalog" that offer no sports filter (venue_1 events, venue_9 parents).
 */
export function until(step: ListingStep, keep: (payload: Obj) => boolean): ListingStep {
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
export function filtered(step: ListingStep, name: string, extra: PageRequest['query']): ListingStep {
  return { ...step, name, first: () => { const f = step.first(); return { path: f.path, query: { ...f.query, ...extra } }; } };
}

export const LEAGUE_WORDS = ['nba', 'wnba', 'nfl', 'mlb', 'nhl'];
