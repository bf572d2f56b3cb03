// GET /v1/markets: the unified catalog of open markets (spec: "GET /v1/markets", "Catalog market
// row", "Pagination block", "Snapshot block").
// In: limit, cursor, category, provider (the router has already rejected unknown, repeated and
// empty parameters). Out: {data, snapshot, pagination} read from the catalog snapshot's pages in the
// SnapshotStore (pipelines/catalog/pages.ts), never from History and never from a venue.
// A page of a snapshot never changes, so its body is serialized (and gzipped) once per process and
// kept while its snapshot is current (EncodedJson in a byte-bounded memo), with an ETag (If-None-Match: 304) and a Cache-Control
// for as long as the page can be served: until the next expected build for page 1, until the end of
// retention for a cursor's page.
import { ApiError, apiErrorFromItems, quote, type ErrorItem } from '../../errors.ts';
import type { RouteContext, RouteHandler, RouteResult } from '../../types.ts';
import { CATEGORIES, PROVIDERS, type Category, type Provider } from '../table.ts';
import { EncodedJson, EncodedMemo } from '../../plugins/external/encoded.ts';
import { filteredTotal, isLaidOut, type CatalogDeps } from '../../../pipelines/catalog/pages.ts';
import type { CursorCodec } from '../../../pipelines/catalog/cursor.ts';
import type { CatalogRow } from '../../../pipelines/catalog/store.ts';
import type { SnapshotInfo } from '../../../pipelines/readmodels/snapshots.ts';

// What the handler needs from the catalog area (deps.catalog), declared where the area builds it.
export type { CatalogDeps } from '../../../pipelines/catalog/pages.ts';

export interface MarketsListBody {
  data: CatalogRow[];
  snapshot: { observed_at: string | null };
  pagination: { limit: number; total: number; has_more: boolean; next_cursor?: string };
}

// The router may hand values typed (limit as a number); read them back as text.
const one = (v: unknown): string | undefined => {
  const x = Array.isArray(v) ? v[0] : v;
  return x === undefined || x === null ? undefined : String(x);
};

interface Params {
  limit: number;
  category: Category | null;
  provider: Provider | null;
  cursor: string | null;
}

/** Validates the four parameters; every problem is reported at once (spec: `errors[]`). */
export function parseMarketsListQuery(query: Record<string, unknown>): Params {
  const items: ErrorItem[] = [];
  let limit = 25;
  const rawLimit = one(query.limit);
  if (rawLimit !== undefined) {
    const n = /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(n >= 1 && n <= 100)) {
      items.push({ param: 'limit', value: rawLimit, message: `limit must be an integer from 1 to 100; got ${quote(rawLimit)}` });
    } else limit = n;
  }
  // "A query parameter documented as an enumeration is matched case-insensitively".
  let category: Category | null = null;
  const rawCategory = one(query.category);
  if (rawCategory !== undefined) {
    const c = rawCategory.toLowerCase() as Category;
    if (!CATEGORIES.includes(c)) {
      items.push({
        param: 'category',
        value: rawCategory,
        message: `category ${quote(rawCategory)} is not a category; use one of: ${CATEGORIES.join(', ')}`,
      });
    } else category = c;
  }
  // Only the nine tokens; alternate spellings (v1, venue1, venue-1, ...) are rejected here even
  // though the detail routes tolerate some (spec: "the catalog filter rejects them").
  let provider: Provider | null = null;
  const rawProvider = one(query.provider);
  if (rawProvider !== undefined) {
    const p = rawProvider.toLowerCase() as Provider;
    if (!PROVIDERS.includes(p)) {
      items.push({
        param: 'provider',
        value: rawProvider,
        message: `provider ${quote(rawProvider)} is not a provider token; use one of: ${PROVIDERS.join(', ')}`,
      });
    } else provider = p;
  }
  if (items.length > 0) throw apiErrorFromItems('invalid_parameter', items);
  const cursor = one(query.cursor) ?? null;
  return { limit, category, provider, cursor };
}

const describe = (category: string | null, provider: string | null): string =>
  `category=${category ?? '(none)'} provider=${provider ?? '(none)'}`;

function deps(ctx: RouteContext): CatalogDeps {
  const d = ctx.deps.catalog;
  if (!d) throw new ApiError('service_unavailable', 'the market catalog is not configured on this server; retry later');
  return d;
}

/**
 * One memo per catalog deps (per app): encoded pages of the current snapshot, keyed by snapshot,
 * filters, offset and limit, emptied when another snapshot becomes current. A retired snapshot's
 * pages (cursors walked for up to CATALOG_RETENTION_MS) are encoded for each request and not kept:
 * the same bytes and ETag, since a page is a pure function of its snapshot and query. Kept, they
 * filled the memo toward its budget at about 50 MB an hour at scale 1 (bench/soak.md, runs 58-59).
 */
const memos = new WeakMap<CatalogDeps, { id: string; memo: EncodedMemo }>();
function memoFor(d: CatalogDeps, currentId: string): { id: string; memo: EncodedMemo } {
  let m = memos.get(d);
  if (!m) memos.set(d, (m = { id: currentId, memo: new EncodedMemo() }));
  if (m.id !== currentId) {
    m.memo.clear();
    m.id = currentId;
  }
  return m;
}

/** What the page memo of `d` holds: the snapshot it keeps pages of and how many (tests, benches). */
export function catalogMemoHolding(d: CatalogDeps): { snapshotId: string; pages: number } | null {
  const m = memos.get(d);
  return m ? { snapshotId: m.id, pages: m.memo.entries } : null;
}

/**
 * Cursors already verified, by their text: a cursor is immutable and its signature check (HMAC,
 * base64, JSON) costs more than serving the page it names from the memo. Bounded; oldest out first.
 */
const verified = new WeakMap<CatalogDeps, Map<string, ReturnType<CursorCodec['decode']>>>();
function decodeCursor(d: CatalogDeps, text: string): ReturnType<CursorCodec['decode']> {
  let m = verified.get(d);
  if (!m) verified.set(d, (m = new Map()));
  const held = m.get(text);
  if (held !== undefined) return held;
  const c = d.cursors.decode(text);
  if (c !== null) {
    if (m.size >= 10_000) m.delete(m.keys().next().value as string);
    m.set(text, c);
  }
  return c;
}

const staleCursor = (cursor: string) =>
  // Limits: "a cursor whose snapshot is no longer retained is rejected with a stale-cursor message".
  new ApiError('invalid_cursor', `cursor ${quote(cursor)} is stale: the catalog snapshot it belongs to is no longer retained; restart from page 1`, {
    param: 'cursor',
  });

const notBuilt = () => new ApiError('service_unavailable', 'the market catalog has not been built yet; retry shortly', { headers: { 'Retry-After': '5' } });

const seconds = (ms: number): number => Math.max(0, Math.floor(ms / 1000));

export const marketsList: RouteHandler = async (ctx): Promise<RouteResult> => {
  const params = parseMarketsListQuery(ctx.query);
  const d = deps(ctx);
  const { pages, cursors } = d;

  let info: SnapshotInfo | null;
  let currentId: string | null;
  let offset = 0;
  let cacheControl: string;
  if (params.cursor !== null) {
    const c = decodeCursor(d, params.cursor);
    if (c === 'retired') throw staleCursor(params.cursor);
    if (c === null) {
      throw new ApiError('invalid_cursor', `cursor ${quote(params.cursor)} is not a cursor issued by GET /v1/markets`, { param: 'cursor' });
    }
    // "cursors are bound to the catalog snapshot and to `category` and `provider`".
    if (c.category !== params.category || c.provider !== params.provider) {
      throw new ApiError(
        'invalid_cursor',
        `cursor ${quote(params.cursor)} was issued for ${describe(c.category, c.provider)}, not for ${describe(params.category, params.provider)}; send the same filters or restart from page 1`,
        { param: 'cursor' },
      );
    }
    info = await pages.info(c.snapshotId);
    if (info === null) throw staleCursor(params.cursor);
    // Retained for CATALOG_RETENTION_MS after it stopped being current (spec: "up to 8 hours"),
    // judged on the request's clock even before a later build evicts it from the store.
    let retiredAt: number | null = null;
    currentId = await pages.currentId();
    if (currentId !== info.id) {
      retiredAt = await pages.retiredAt(info.id);
      // Neither current nor retired: evicted from the store, unless it became current after the
      // shared current-id read above began.
      if (retiredAt === null && (await pages.store.currentId(pages.name)) !== info.id) throw staleCursor(params.cursor);
    }
    if (retiredAt !== null && ctx.now - retiredAt > pages.retentionMs) throw staleCursor(params.cursor);
    offset = c.offset;
    // The page a cursor names never changes while it can be served.
    cacheControl = `private, max-age=${seconds(retiredAt === null ? pages.retentionMs : retiredAt + pages.retentionMs - ctx.now)}, immutable`;
  } else {
    currentId = await pages.currentId();
    info = currentId === null ? null : await pages.info(currentId);
    if (info === null || !isLaidOut(info)) throw notBuilt();
    // Page 1 is this snapshot's until the next build ("refreshed roughly every 30 minutes").
    cacheControl = `private, max-age=${seconds(info.publishedAt + d.refreshMs - ctx.now)}`;
  }

  // Only the current snapshot's pages are kept (a retired one's are encoded again, same bytes).
  const held = info.id === currentId ? memoFor(d, info.id) : null;
  const key = `${info.id}|${params.category ?? ''}|${params.provider ?? ''}|${offset}|${params.limit}`;
  let encoded = held?.memo.get(key);
  if (encoded === undefined) {
    const rows = await pages.rows(info, params.category, params.provider, offset, params.limit);
    // Evicted from the store while this process still held its info.
    if (rows === null) {
      if (params.cursor !== null) throw staleCursor(params.cursor);
      throw notBuilt();
    }
    const total = filteredTotal(info, params.category, params.provider);
    const hasMore = offset + rows.length < total;
    const body: MarketsListBody = {
      data: rows,
      snapshot: { observed_at: info.observedAt === null ? null : new Date(info.observedAt).toISOString() },
      pagination: { limit: params.limit, total, has_more: hasMore },
    };
    if (hasMore) {
      body.pagination.next_cursor = cursors.encode({ snapshotId: info.id, category: params.category, provider: params.provider, offset: offset + rows.length });
    }
    encoded = EncodedJson.of(body);
    // Unless another snapshot became current while the rows were read.
    if (held !== null && held.id === info.id) held.memo.set(key, encoded);
  }
  return { body: encoded, headers: { 'cache-control': cacheControl } };
};
