// The catalog page layout against the plain definition of every filter: the snapshot's rows in walk
// order (providers in token order, ids in order within one), filtered, then sliced at an offset.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, PROVIDERS, type Provider } from '../../lib/vocabulary.ts';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import { CHUNK_ROWS, CatalogPages, filteredTotal, layoutCatalog, layoutMeta } from './pages.ts';
import type { CatalogRow } from './store.ts';

/** Rows of a few providers, sizes around the chunk size, categories cycling unevenly. */
function catalog(): [Provider, CatalogRow[]][] {
  const sizes: Partial<Record<Provider, number>> = { venue_1: 2 * CHUNK_ROWS + 7, venue_2: CHUNK_ROWS, venue_4: 1, venue_7: 3 * CHUNK_ROWS - 1, venue_9: 45 };
  return PROVIDERS.map((p, v) => [
    p,
    Array.from({ length: sizes[p] ?? 0 }, (_, i) => ({
      id: `${p}:M${String(i).padStart(5, '0')}`,
      provider: p,
      title: `Title ${i} of ${p}`,
      category: CATEGORIES[(i * i + v) % 4 === 0 ? 0 : (i + v) % CATEGORIES.length],
    })),
  ]);
}

describe('catalog pages', () => {
  it('serves every filter at every offset and limit as the walk-ordered filtered list sliced there', async () => {
    const byProvider = catalog();
    const all = byProvider.flatMap(([, rows]) => rows);
    const layout = layoutCatalog(byProvider);
    expect(layout.rows).toBe(all.length);
    const store = new MemorySnapshotStore();
    const name = `catalog_${randomBytes(4).toString('hex')}`;
    const info = await store.publish(name, layout.entries, { observedAt: 1, meta: layoutMeta(layout) });
    const pages = new CatalogPages(store, name, 3600_000);

    for (const category of [null, 'sports', 'politics', 'weather'] as const) {
      for (const provider of [null, 'venue_1', 'venue_3', 'venue_7'] as const) {
        const want = all.filter((r) => (category === null || r.category === category) && (provider === null || r.provider === provider));
        expect(filteredTotal(info, category, provider)).toBe(want.length);
        for (const limit of [1, 25, 99, 100]) {
          for (let offset = 0; offset <= want.length + 1; offset += limit === 1 ? 37 : limit) {
            expect(await pages.rows(info, category, provider, offset, limit), `${category} ${provider} ${offset} ${limit}`).toEqual(want.slice(offset, offset + limit));
          }
        }
        // Offsets off the chunk grid too.
        for (const offset of [1, 99, 101, 150, 199, 205]) {
          expect(await pages.rows(info, category, provider, offset, 100)).toEqual(want.slice(offset, offset + 100));
        }
      }
    }
  });

  it('an empty catalog has no pages and totals 0; an evicted snapshot reads null', async () => {
    const layout = layoutCatalog([]);
    expect(layout).toEqual({ entries: [], counts: {}, rows: 0 });
    const store = new MemorySnapshotStore();
    const name = `catalog_${randomBytes(4).toString('hex')}`;
    const t0 = 1_800_000_000_000;
    const full = layoutCatalog(catalog());
    const old = await store.publish(name, full.entries, { observedAt: 1, meta: layoutMeta(full), now: t0, retainMs: 1000 });
    const pages = new CatalogPages(store, name, 1000);
    expect(await pages.info(old.id)).toEqual(old);
    const empty = await store.publish(name, layout.entries, { observedAt: null, meta: layoutMeta(layout), now: t0 + 10, retainMs: 1000 });
    expect(filteredTotal(empty, null, null)).toBe(0);
    expect(await pages.rows(empty, null, null, 0, 25)).toEqual([]);
    expect(await pages.currentId()).toBe(empty.id);
    expect(await pages.retiredAt(old.id)).toBe(t0 + 10);
    await store.publish(name, [], { observedAt: null, meta: layoutMeta(layout), now: t0 + 5000, retainMs: 1000 });
    // The info is still held by this process; the pages are gone from the store.
    expect(await pages.rows(old, null, null, 0, 25)).toBeNull();
  });
});
