// Wiring of the catalog area. In: config, the backbone's History and SnapshotStore. Out: the
// CatalogStore (staging, builds, reads), the deps GET /v1/markets reads (deps.catalog), and the
// SnapshotPointer that publishes the current catalog snapshot id in the SnapshotStore so every API
// process serves the same snapshot.
import type { Config } from '../../lib/config.ts';
import type { History } from '../readmodels/history.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { CatalogDeps } from '../../api/routes/v1/markets-list.ts';
import { createCursorCodec } from './cursor.ts';
import { CatalogStore, type SnapshotPointer } from './store.ts';

export const CATALOG_SNAPSHOT_NAME = 'catalog';

/** The current snapshot id lives in the SnapshotStore as a named snapshot without entries. */
export function snapshotStorePointer(snapshots: SnapshotStore, retentionMs: number, name = CATALOG_SNAPSHOT_NAME): SnapshotPointer {
  return {
    get: async () => (await snapshots.current(name))?.id ?? null,
    set: async (m) => {
      await snapshots.publish(name, [], { id: m.snapshotId, observedAt: m.observedAt, retainMs: retentionMs, now: m.builtAt, meta: { rows: m.rowCount } });
    },
  };
}

export interface CatalogArea {
  store: CatalogStore;
  deps: CatalogDeps;
}

export function createCatalog(
  config: Pick<Config, 'CATALOG_RETENTION_MS' | 'CATALOG_CURSOR_SECRET'>,
  history: History,
  snapshots?: SnapshotStore,
  prefix?: string,
): CatalogArea {
  const pointer = snapshots ? snapshotStorePointer(snapshots, config.CATALOG_RETENTION_MS, `${prefix ?? ''}${CATALOG_SNAPSHOT_NAME}`) : undefined;
  const store = new CatalogStore({ history, prefix, retentionMs: config.CATALOG_RETENTION_MS, pointer });
  return { store, deps: { reader: store, cursors: createCursorCodec(config.CATALOG_CURSOR_SECRET) } };
}
