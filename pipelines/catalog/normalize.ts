// From a raw listing record to catalog rows (spec: "Catalog market row"). In: one RawRecord a
// poller read during a listing crawl (the venue's JSON, FORMATS.md shapes). Out: the rows it
// stages: composite-id parts, title, category bucket, and whether it is listed. Grouped venues
// give one row per market (venue_5 question -> its outcome markets, venue_7 event -> its markets,
// venue_9 parent -> its children). Not listed: markets that are not open at this crawl ("the catalog
// lists only markets that were open at the last crawl") and venue_1 user-built multi-leg parlays
// ("excluded from the list and from pagination.total"). Each venue's reading is its adapter's
// (pipelines/venues/adapters/venue_N: listingRows, categoryWords); here the rows get their bucket. Pure.
import type { Category, Provider } from '../../lib/vocabulary.ts';
import { isObj } from '../venues/adapters/fields.ts';
import { adapterFor, type VenueAdapter } from '../venues/adapters/index.ts';
import { categoryFromWords } from './categories.ts';

export interface NormalizedRow {
  nativeId: string;
  title: string;
  category: Category;
  listed: boolean;
}

/** The catalog rows of one listing record, read by the venue's adapter. */
export function catalogRows(adapter: VenueAdapter, recordType: string, payload: unknown): NormalizedRow[] {
  if (!isObj(payload)) return [];
  return adapter.listingRows(recordType, payload).map((r) => ({ nativeId: r.nativeId, title: r.title, category: categoryFromWords(adapter.categoryWords(r.wordsFrom)), listed: r.listed }));
}

export function normalizeListing(provider: Provider, recordType: string, payload: unknown): NormalizedRow[] {
  return catalogRows(adapterFor(provider), recordType, payload);
}
