// GET /v1/markets: the unified catalog of open markets (spec: "GET /v1/markets", "Catalog market
// row", "Pagination block", "Snapshot block").
// In: limit, cursor, category, provider (the router has already rejected unknown, repeated and
// empty parameters). Out: {data, snapshot, pagination} read from the stored catalog snapshot.
// The handler validates values, resolves the snapshot (current, or the cursor's while retained)
// and hands off to the catalog read model; it never touches a venue.
import { ApiError, apiErrorFromItems, quote, type ErrorItem } from '../../errors.ts';
import type { RouteContext, RouteHandler, RouteResult } from '../../types.ts';
import { CATEGORIES, PROVIDERS, type Category, type Provider } from '../table.ts';
import type { CatalogCursor, CursorCodec } from '../../../pipelines/catalog/cursor.ts';
import type { CatalogPosition, CatalogRow, PageQuery, PageResult, SnapshotMeta } from '../../../pipelines/catalog/store.ts';

/** What the handler needs from the catalog area (attached as deps.catalog). */
export interface CatalogReader {
  currentSnapshotId(): Promise<string | null>;
  retainedSnapshot(snapshotId: string, now: number): Promise<SnapshotMeta | null>;
  total(snapshotId: string, category: string | null, provider: Provider | null): Promise<number>;
  page(q: PageQuery): Promise<PageResult>;
}

export interface CatalogDeps {
  reader: CatalogReader;
  cursors: CursorCodec;
}

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
  const d = ctx.deps.catalog as CatalogDeps | undefined;
  if (!d) throw new ApiError('service_unavailable', 'the market catalog is not configured on this server; retry later');
  return d;
}

export const marketsList: RouteHandler = async (ctx): Promise<RouteResult> => {
  const params = parseMarketsListQuery(ctx.query);
  const { reader, cursors } = deps(ctx);

  let meta: SnapshotMeta | null;
  let after: CatalogPosition | null = null;
  if (params.cursor !== null) {
    const c: CatalogCursor | null = cursors.decode(params.cursor);
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
    meta = await reader.retainedSnapshot(c.snapshotId, ctx.now);
    if (meta === null) {
      // Limits: "a cursor whose snapshot is no longer retained is rejected with a stale-cursor message".
      throw new ApiError(
        'invalid_cursor',
        `cursor ${quote(params.cursor)} is stale: the catalog snapshot it belongs to is no longer retained; restart from page 1`,
        { param: 'cursor' },
      );
    }
    after = { pos: c.pos, id: c.id };
  } else {
    const id = await reader.currentSnapshotId();
    meta = id === null ? null : await reader.retainedSnapshot(id, ctx.now);
    if (meta === null) {
      throw new ApiError('service_unavailable', 'the market catalog has not been built yet; retry shortly', { headers: { 'Retry-After': '5' } });
    }
  }

  const [page, total] = await Promise.all([
    reader.page({ snapshotId: meta.snapshotId, category: params.category, provider: params.provider, after, limit: params.limit }),
    reader.total(meta.snapshotId, params.category, params.provider),
  ]);
  const body: MarketsListBody = {
    data: page.rows,
    snapshot: { observed_at: meta.observedAt === null ? null : new Date(meta.observedAt).toISOString() },
    pagination: { limit: params.limit, total, has_more: page.next !== null },
  };
  if (page.next) {
    body.pagination.next_cursor = cursors.encode({
      snapshotId: meta.snapshotId,
      category: params.category,
      provider: params.provider,
      pos: page.next.pos,
      id: page.next.id,
    });
  }
  return { body };
};
