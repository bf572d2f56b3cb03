// The `catalog` channel of the push stream: a `catalog.snapshot` event each time a new catalog
// snapshot is published. In: the SnapshotStore the catalog is published to (in-process on the
// embedded default, Redis on the stack: every replica reads the same), watched every `pollMs`.
// Out: per subscriber, `snapshot` first (the current catalog snapshot's facts, or null before the
// first build), then `catalog.snapshot` with the new one's facts: its id and observed_at (what
// GET /v1/markets then reports), when it was published, its rows in all and per provider.
//
// Resume: an event id is `catalog-<snapshot id>`; snapshot ids are ULIDs, ordered by publish time.
// Catalog snapshots replace each other whole, so what a reconnecting client missed is the current
// one, if it is newer than its last: sent as `catalog.snapshot`; the same id: nothing; an id newer
// than what this replica's watch holds first makes it look at the store (another replica may have
// seen the newer snapshot first); an id that is not one of ours (or still newer than the store's
// current, or sent before any catalog: another deployment) gets `reset` and `snapshot`.
import type { SnapshotInfo, SnapshotStore } from '../../pipelines/readmodels/snapshots.ts';
import { Outbox, type Sink, type ConnectionOptions } from './connection.ts';

export interface CatalogSnapshotFacts {
  snapshot: { id: string; observed_at: string | null; published_at: string };
  total: number;
  providers: Record<string, number>;
}

const EVENT_ID = /^catalog-([0-9A-HJKMNP-TV-Z]{26})$/;
export const catalogEventId = (snapshotId: string): string => `catalog-${snapshotId}`;
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What a catalog snapshot's events say of it (from its meta: rows, and rows per category|provider). */
export function catalogFacts(info: SnapshotInfo): CatalogSnapshotFacts {
  const counts = (info.meta.counts ?? {}) as Record<string, number>;
  const providers: Record<string, number> = {};
  for (const [k, n] of Object.entries(counts)) {
    const provider = k.slice(k.indexOf('|') + 1);
    providers[provider] = (providers[provider] ?? 0) + n;
  }
  return {
    snapshot: { id: info.id, observed_at: iso(info.observedAt), published_at: new Date(info.publishedAt).toISOString() },
    total: typeof info.meta.rows === 'number' ? info.meta.rows : Object.values(providers).reduce((a, b) => a + b, 0),
    providers: Object.fromEntries(Object.entries(providers).sort(([a], [b]) => a.localeCompare(b))),
  };
}

export class CatalogWatch {
  current: SnapshotInfo | null = null;
  readonly subscribers = new Set<CatalogConnection>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  private constructor(
    private readonly store: SnapshotStore,
    private readonly name: string,
  ) {}

  static async start(o: { store: SnapshotStore; name: string; pollMs: number }): Promise<CatalogWatch> {
    const w = new CatalogWatch(o.store, o.name);
    await w.poll();
    w.timer = setInterval(() => void w.poll(), o.pollMs);
    w.timer.unref();
    return w;
  }

  /** Reads the current snapshot; a new one goes to every subscriber. Errors wait for the next poll. */
  poll(): Promise<void> {
    this.polling ??= (async () => {
      try {
        const info = await this.store.current(this.name);
        if (!info || info.id === this.current?.id) return;
        this.current = info;
        for (const s of [...this.subscribers]) s.onSnapshot(info);
      } catch {
        // The store is away (Redis restarting): the watch holds what it had and tries again.
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** One subscriber of the catalog channel over either transport. */
export class CatalogConnection {
  private readonly out: Outbox;

  constructor(
    private readonly watch: CatalogWatch,
    sink: Sink,
    opts: ConnectionOptions,
  ) {
    this.out = new Outbox(sink, opts, () => this.watch.subscribers.delete(this));
  }

  get sent(): number {
    return this.out.sent;
  }

  start(lastEventId: string | undefined, looked = false): void {
    const cur = this.watch.current;
    const last = lastEventId === undefined ? undefined : EVENT_ID.exec(lastEventId)?.[1];
    if (last !== undefined && !looked && (cur === null || last > cur.id)) {
      // Newer than what this replica's watch has seen: another replica may have seen it first (each
      // polls every 2 s). Look at the store now, then decide (a newer id than the store's: reset).
      void this.watch.poll().then(() => {
        if (!this.out.closed) this.start(lastEventId, true);
      });
      return;
    }
    if (lastEventId !== undefined && last !== undefined && cur !== null && last <= cur.id) {
      if (cur && last < cur.id) this.out.send(catalogEventId(cur.id), 'catalog.snapshot', JSON.stringify(catalogFacts(cur)));
    } else {
      if (lastEventId !== undefined) {
        this.out.send('', 'reset', JSON.stringify({ message: `event id ${JSON.stringify(lastEventId)} cannot be resumed here (not a catalog event id of this deployment): the snapshot that follows is current` }));
      }
      this.out.send(cur ? catalogEventId(cur.id) : '', 'snapshot', JSON.stringify({ channel: 'catalog', data: cur ? catalogFacts(cur) : null }));
    }
    if (this.out.closed) return;
    this.watch.subscribers.add(this);
    this.out.startHeartbeat();
  }

  onSnapshot(info: SnapshotInfo): void {
    this.out.send(catalogEventId(info.id), 'catalog.snapshot', JSON.stringify(catalogFacts(info)));
  }

  close(): void {
    this.out.close();
  }
}
