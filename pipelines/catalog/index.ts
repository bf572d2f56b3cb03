// Wiring of the catalog area. In: config, the backbone's History and SnapshotStore. Out: the
// CatalogStore (staging, builds), the deps GET /v1/markets reads (deps.catalog: the SnapshotStore
// only), and the SnapshotPointer that publishes each built snapshot's pages (pages.ts) in the
// SnapshotStore, so every API process serves the same snapshot without History.
import type { Config } from '../../lib/config.ts';
import type { History } from '../readmodels/history.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import type { CatalogDeps } from './pages.ts';
import { createCursorCodec } from './cursor.ts';
import { CatalogStore, type SnapshotPointer } from './store.ts';
import { CatalogPages, layoutMeta } from './pages.ts';

export const CATALOG_SNAPSHOT_NAME = 'catalog';

/** Each snapshot is published in the SnapshotStore with its pages; the current one is the store's. */
export function snapshotStorePointer(snapshots: SnapshotStore, retentionMs: number, name = CATALOG_SNAPSHOT_NAME): SnapshotPointer {
  return {
    pages: true,
    get: () => snapshots.currentId(name),
    set: async (m, layout) => {
      const meta = layout ? layoutMeta(layout) : { rows: m.rowCount };
      await snapshots.publish(name, layout?.entries ?? [], { id: m.snapshotId, observedAt: m.observedAt, retainMs: retentionMs, now: m.builtAt, meta });
    },
  };
}

/** What GET /v1/markets reads: the SnapshotStore only (an API process needs no History). */
export function catalogDeps(
  config: Pick<Config, 'CATALOG_RETENTION_MS' | 'CATALOG_CURSOR_SECRET'> & Partial<Pick<Config, 'CATALOG_REFRESH_MS'>>,
  snapshots: SnapshotStore,
  prefix?: string,
): CatalogDeps {
  return {
    pages: new CatalogPages(snapshots, `${prefix ?? ''}${CATALOG_SNAPSHOT_NAME}`, config.CATALOG_RETENTION_MS),
    cursors: createCursorCodec(config.CATALOG_CURSOR_SECRET),
    refreshMs: config.CATALOG_REFRESH_MS ?? 30 * 60_000,
  };
}

export interface CatalogArea {
  store: CatalogStore;
  deps: CatalogDeps;
}

/** The catalog area; `deps` (GET /v1/markets) reads `snapshots` (an in-process store when none is given). */
export function createCatalog(
  config: Pick<Config, 'CATALOG_RETENTION_MS' | 'CATALOG_CURSOR_SECRET'> & Partial<Pick<Config, 'CATALOG_REFRESH_MS'>>,
  history: History,
  snapshots: SnapshotStore = new MemorySnapshotStore(),
  prefix?: string,
): CatalogArea {
  const pointer = snapshotStorePointer(snapshots, config.CATALOG_RETENTION_MS, `${prefix ?? ''}${CATALOG_SNAPSHOT_NAME}`);
  const store = new CatalogStore({ history, prefix, retentionMs: config.CATALOG_RETENTION_MS, pointer });
  return { store, deps: catalogDeps(config, snapshots, prefix) };
}
