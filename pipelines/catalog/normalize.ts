// From a raw listing record to catalog rows (spec: "Catalog market row"). In: one RawRecord a
// poller read during a listing crawl (the venue's JSON, FORMATS.md shapes). Out: the rows it
// stages: composite-id parts, title, category bucket, and whether it is listed. Grouped venues
// give one row per market (venue_5 question -> its outcome markets, venue_7 event -> its markets,
// venue_9 parent -> its children). Not listed: markets that are not open at this crawl ("the catalog
// lists only markets that were open at the last crawl") and venue_1 user-built multi-leg parlays
// ("excluded from the list and from pagination.total"). Pure.
import type { Provider } from '../../lib/vocabulary.ts';
import type { Category } from '../../lib/vocabulary.ts';
import { categoryOf } from './categories.ts';

export interface NormalizedRow {
  nativeId: string;
  title: string;
  category: Category;
  listed: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);
const text = (...vs: unknown[]): string => {
  for (const v of vs) if (typeof v === 'string' && v.trim()) return v.trim();
  return '';
};
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const joinTitle = (group: string, part: string): string => (group && part ? `${group}: ${part}` : group || part);

/** venue_1 user-built multi-leg parlays, recognized by the fields the venue gives them. */
export function isVenue1Parlay(m: Obj): boolean {
  return str(m.mve_collection_ticker) !== null || (Array.isArray(m.mve_selected_legs) && m.mve_selected_legs.length > 0);
}

export function normalizeListing(provider: Provider, recordType: string, payload: unknown): NormalizedRow[] {
  if (!isObj(payload)) return [];
  const m = payload;
  const one = (id: unknown, title: string, open: boolean, from: Obj = m): NormalizedRow[] => {
    const nativeId = str(id);
    return nativeId === null ? [] : [{ nativeId, title, category: categoryOf(provider, from), listed: open }];
  };
  switch (provider) {
    case 'venue_1':
      if (recordType !== 'market') return [];
      return one(m.ticker, text(m.title, m.subtitle), m.status === 'active' && !isVenue1Parlay(m));
    case 'venue_2':
      if (recordType !== 'market') return [];
      return one(m.id, text(m.question, m.slug), m.active === true && m.closed !== true && m.umaResolutionStatus !== 'resolved');
    case 'venue_3':
      if (recordType !== 'market') return [];
      return one(m.id, text(m.title), m.status === 'open');
    case 'venue_4': {
      if (recordType !== 'market') return [];
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
      return one(m.marketHash, text(m.title, m.question, title), m.status === 'ACTIVE');
    }
    case 'venue_5':
      if (recordType !== 'question') return [];
      return objs(m.outcomes).flatMap((o) => one(o.outcome_id, joinTitle(text(m.title), text(o.label)), m.state === 'open' && o.state === 'open', m));
    case 'venue_6':
      if (recordType !== 'market') return [];
      return one(m.id, text(m.question, m.title), m.status === 'open');
    case 'venue_7':
      if (recordType !== 'event') return [];
      return objs(m.markets).flatMap((k) => one(k.id, joinTitle(text(m.name), text(k.name)), m.state === 'open' && k.state === 'open', m));
    case 'venue_8':
      if (recordType !== 'market') return [];
      return one(m.slug, text(m.question), m.isResolved !== true);
    case 'venue_9':
      if (recordType !== 'parent') return [];
      return objs(m.children).flatMap((c) =>
        one(str(c.pair) ?? (str(m.id) && str(c.id) ? `${m.id}:${c.id}` : null), joinTitle(text(m.title), text(c.title)), c.status === 'trading', m),
      );
  }
}
