// The catalog snapshot as the API serves it: pages laid out in the SnapshotStore when a snapshot is
// built, read by key on the request path (spec: "GET /v1/markets"). chdb / the ClickHouse server
// build the snapshot and keep its history; no request of GET /v1/markets reaches them.
//
// In (build): the snapshot's rows, provider by provider in walk order, each provider's rows in id
// order (the order chdb built). Out: entries of the named snapshot, published once:
//   p|<provider>|<n>             chunk n of that provider's rows (CHUNK_ROWS rows each)
//   c|<category>|<provider>|<n>  chunk n of that provider's rows of one category
// and meta.counts {"<category>|<provider>": rows}. Every filter of the spec's four combinations is
// a concatenation of these lists in walk order (no provider: the nine providers in token order), so
// each row is stored twice whatever the filter, and a page at any offset and any `limit` (1..100)
// is a slice of at most two chunks per provider it spans, read in one store call.
// In (read): snapshot id, filters, offset, limit. Out: the rows, the filtered total, retention facts.
// Cost: the JSON of every row twice per snapshot, about 0.2 GB at 1,000,000 rows (the bench's
// titles), and each snapshot retained behind cursors (CATALOG_RETENTION_MS, every CATALOG_REFRESH_MS)
// keeps its own copy, in Redis or in the process.
import { CATEGORIES, PROVIDERS, type Provider } from '../../lib/vocabulary.ts';
import type { SnapshotEntry, SnapshotInfo, SnapshotStore } from '../readmodels/snapshots.ts';
import type { CursorCodec } from './cursor.ts';

/** One row of the served catalog (spec: "Catalog market row"). */
export interface CatalogRow {
  id: string;
  provider: string;
  title: string;
  category: string;
}

export const CHUNK_ROWS = 100;
/** meta.layout of a snapshot laid out here; a snapshot without it has no pages to serve. */
export const LAYOUT_VERSION = 1;

/** A stored row: [composite id, title, category] (provider is the list's). */
type StoredRow = [string, string, string];

export interface CatalogLayout {
  entries: SnapshotEntry[];
  /** "<category>|<provider>" -> rows. */
  counts: Record<string, number>;
  rows: number;
}

/** Pure: chunks every provider's rows into the two lists (by provider; by category and provider). */
export function layoutCatalog(byProvider: Iterable<[Provider, Iterable<CatalogRow>]>): CatalogLayout {
  const entries: SnapshotEntry[] = [];
  const counts: Record<string, number> = {};
  let rows = 0;
  const flush = (key: string, chunk: StoredRow[], n: number) => entries.push({ key: `${key}|${n}`, value: chunk });
  for (const [provider, list] of byProvider) {
    const all: StoredRow[][] = [[]];
    const byCat = new Map<string, StoredRow[][]>();
    for (const r of list) {
      const row: StoredRow = [r.id, r.title, r.category];
      let last = all[all.length - 1];
      if (last.length === CHUNK_ROWS) all.push((last = []));
      last.push(row);
      let chunks = byCat.get(r.category);
      if (!chunks) byCat.set(r.category, (chunks = [[]]));
      let c = chunks[chunks.length - 1];
      if (c.length === CHUNK_ROWS) chunks.push((c = []));
      c.push(row);
      counts[`${r.category}|${provider}`] = (counts[`${r.category}|${provider}`] ?? 0) + 1;
      rows++;
    }
    if (all[0].length > 0) all.forEach((chunk, n) => flush(`p|${provider}`, chunk, n));
    for (const [cat, chunks] of byCat) chunks.forEach((chunk, n) => flush(`c|${cat}|${provider}`, chunk, n));
  }
  return { entries, counts, rows };
}

/** Meta published with the snapshot's pages. */
export function layoutMeta(l: CatalogLayout): Record<string, unknown> {
  return { layout: LAYOUT_VERSION, rows: l.rows, counts: l.counts, chunk: CHUNK_ROWS };
}

interface Segment {
  list: string;
  count: number;
}

/** The lists a filter concatenates, in walk order ("without provider, providers are walked in token order"). */
function segments(counts: Record<string, number>, category: string | null, provider: Provider | null): Segment[] {
  const out: Segment[] = [];
  for (const p of provider === null ? PROVIDERS : [provider]) {
    let count = 0;
    if (category !== null) count = counts[`${category}|${p}`] ?? 0;
    else for (const c of CATEGORIES) count += counts[`${c}|${p}`] ?? 0;
    if (count > 0) out.push({ list: category === null ? `p|${p}` : `c|${category}|${p}`, count });
  }
  return out;
}

export function filteredTotal(info: SnapshotInfo, category: string | null, provider: Provider | null): number {
  return segments(countsOf(info), category, provider).reduce((n, s) => n + s.count, 0);
}

function countsOf(info: SnapshotInfo): Record<string, number> {
  return (info.meta.counts as Record<string, number> | undefined) ?? {};
}

export const isLaidOut = (info: SnapshotInfo): boolean => info.meta.layout === LAYOUT_VERSION;

/**
 * Request-side reads of catalog snapshots from the SnapshotStore. The current id is one store read
 * (concurrent requests share one read in flight); a snapshot's info and its retirement time, once
 * known, never change and are kept.
 */
export class CatalogPages {
  private inflight: Promise<string | null> | null = null;
  private readonly infos = new Map<string, SnapshotInfo>();
  private readonly retired = new Map<string, number>();

  constructor(
    readonly store: SnapshotStore,
    readonly name: string,
    readonly retentionMs: number,
  ) {}

  currentId(): Promise<string | null> {
    if (this.inflight) return this.inflight;
    const p = this.store.currentId(this.name).finally(() => {
      if (this.inflight === p) this.inflight = null;
    });
    this.inflight = p;
    return p;
  }

  async info(id: string): Promise<SnapshotInfo | null> {
    const held = this.infos.get(id);
    if (held) return held;
    const info = await this.store.snapshot(this.name, id);
    if (info) {
      // Bounded: a process sees about 16 catalog snapshots in the 8 hours a cursor may live.
      if (this.infos.size >= 64) this.infos.delete(this.infos.keys().next().value as string);
      this.infos.set(id, info);
    }
    return info;
  }

  /** When the snapshot stopped being current; null while current (or unknown). */
  async retiredAt(id: string): Promise<number | null> {
    const held = this.retired.get(id);
    if (held !== undefined) return held;
    const at = await this.store.retiredAt(this.name, id);
    if (at !== null) {
      if (this.retired.size >= 64) this.retired.delete(this.retired.keys().next().value as string);
      this.retired.set(id, at);
    }
    return at;
  }

  /**
   * Rows [offset, offset + limit) of the filtered list; null when a chunk is gone (the snapshot
   * was evicted while its info was held).
   */
  async rows(info: SnapshotInfo, category: string | null, provider: Provider | null, offset: number, limit: number): Promise<CatalogRow[] | null> {
    const want: { key: string; from: number; to: number; provider: string }[] = [];
    let start = 0;
    const end = offset + limit;
    for (const s of segments(countsOf(info), category, provider)) {
      const a = Math.max(offset, start) - start;
      const b = Math.min(end, start + s.count) - start;
      if (a < b) {
        const p = s.list.slice(s.list.lastIndexOf('|') + 1);
        for (let n = Math.floor(a / CHUNK_ROWS); n * CHUNK_ROWS < b; n++) {
          const base = n * CHUNK_ROWS;
          want.push({ key: `${s.list}|${n}`, from: Math.max(a, base) - base, to: Math.min(b, base + CHUNK_ROWS) - base, provider: p });
        }
      }
      start += s.count;
      if (start >= end) break;
    }
    if (want.length === 0) return [];
    const chunks = await this.store.entries<StoredRow[]>(this.name, info.id, want.map((w) => w.key));
    const out: CatalogRow[] = [];
    for (let i = 0; i < want.length; i++) {
      const chunk = chunks[i];
      if (!chunk) return null;
      const w = want[i];
      for (let j = w.from; j < w.to; j++) {
        const [id, title, category] = chunk[j];
        out.push({ id, provider: w.provider, title, category });
      }
    }
    return out;
  }
}

/** What the API's catalog route needs from the catalog area (attached as deps.catalog). */
export interface CatalogDeps {
  pages: CatalogPages;
  cursors: CursorCodec;
  /** CATALOG_REFRESH_MS: when the next snapshot is expected, for page 1's Cache-Control. */
  refreshMs: number;
}
