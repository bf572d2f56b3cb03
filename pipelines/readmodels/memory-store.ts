// In-process SnapshotStore for the embedded default. In: versioned documents and published
// snapshots. Out: the same reads as the Redis store (snapshots.contract.ts holds both to one
// behaviour). Values are stored as JSON text and parsed on read, so a caller can never mutate a
// stored document through a shared reference (as with Redis). Not durable: see SnapshotStore.durable.
import { monotonicFactory } from 'ulid';
import {
  serializeDoc,
  type PublishOptions,
  type SnapshotEntry,
  type SnapshotInfo,
  type SnapshotStore,
  type Versioned,
} from './snapshots.ts';

interface StoredSnapshot {
  info: SnapshotInfo;
  order: string[];
  values: Map<string, string>;
  /** When it stopped being current (Infinity while current). */
  retiredAt: number;
  retainMs: number;
  /** The JSON this snapshot added in characters (entries shared with its predecessor not counted): what the retained-bytes budget counts. */
  bytes: number;
}

export interface MemoryStoreOptions {
  /**
   * Retired snapshots (kept for cursors into them, PublishOptions.retainMs) may hold at most this
   * many bytes of JSON together; past it the oldest retired ones go first (the spec lets a catalog
   * snapshot behind cursors be "evicted sooner": such a cursor gets a stale-cursor 400). Current
   * snapshots are never evicted. Default: unbounded.
   */
  retainedBytes?: number;
}

export const DEFAULT_RETAIN_MS = 10 * 60_000;
export const nextSnapshotId = monotonicFactory();

export class MemorySnapshotStore implements SnapshotStore {
  readonly kind = 'memory' as const;
  readonly durable = false;
  private readonly docs = new Map<string, { version: number; json: string }>();
  private readonly snaps = new Map<string, { current: string | null; all: Map<string, StoredSnapshot> }>();
  private readonly retainedBytes: number;

  constructor(opts: MemoryStoreOptions = {}) {
    this.retainedBytes = opts.retainedBytes ?? Infinity;
  }

  async get<T>(key: string): Promise<Versioned<T> | null> {
    const d = this.docs.get(key);
    return d ? { key, version: d.version, value: JSON.parse(d.json) as T } : null;
  }

  async mget<T>(keys: string[]): Promise<(Versioned<T> | null)[]> {
    return Promise.all(keys.map((k) => this.get<T>(k)));
  }

  async put(key: string, value: unknown, version: number): Promise<boolean> {
    const d = this.docs.get(key);
    if (d && d.version >= version) return false;
    this.docs.set(key, { version, json: serializeDoc(value) });
    return true;
  }

  async putMany(docs: Versioned[]): Promise<number> {
    let n = 0;
    for (const d of docs) if (await this.put(d.key, d.value, d.version)) n++;
    return n;
  }

  async delete(key: string, version?: number): Promise<boolean> {
    const d = this.docs.get(key);
    if (!d) return false;
    if (version !== undefined && d.version > version) return false;
    this.docs.delete(key);
    return true;
  }

  async scan(prefix: string): Promise<string[]> {
    return [...this.docs.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = await this.scan(prefix);
    for (const k of keys) this.docs.delete(k);
    return keys.length;
  }

  async publish(name: string, entries: SnapshotEntry[], options: PublishOptions): Promise<SnapshotInfo> {
    const staged = this.beginPublish(name);
    staged.add(entries);
    return staged.finish(options);
  }

  /**
   * publish() in parts: entries added in as many calls as the caller likes (each its own task, so a
   * thread that also serves requests is never held for a whole 1,000,000-entry snapshot: the
   * pipeline thread's port, store-port.ts), then made current at once by finish(). Nothing is
   * readable before finish().
   */
  beginPublish(name: string): { add(entries: SnapshotEntry[]): void; finish(options: PublishOptions): SnapshotInfo } {
    const values = new Map<string, string>();
    const order: string[] = [];
    let bytes = 0;
    return {
      add: (entries) => {
        // An entry unchanged since the current snapshot keeps that snapshot's string: the retired
        // snapshots a name keeps behind readers then share what did not change instead of each holding
        // a copy (the sports snapshot is republished every few hundred ms with most events as they were;
        // at SIM_SCALE=1 its retired copies held about 400 MB of the main heap, bench/soak.md).
        const s0 = this.snaps.get(name);
        const before = s0?.current != null ? s0.all.get(s0.current)?.values : undefined;
        for (const e of entries) {
          if (!values.has(e.key)) order.push(e.key);
          let json = serializeDoc(e.value);
          const old = before?.get(e.key);
          if (old === json) json = old;
          else bytes += json.length;
          values.set(e.key, json);
        }
      },
      finish: (options) => {
        const now = options.now ?? Date.now();
        const id = options.id ?? nextSnapshotId(now);
        const info: SnapshotInfo = {
          name,
          id,
          publishedAt: now,
          observedAt: options.observedAt,
          count: order.length,
          meta: options.meta ?? {},
        };
        let s = this.snaps.get(name);
        if (!s) this.snaps.set(name, (s = { current: null, all: new Map() }));
        const prev = s.current !== null ? s.all.get(s.current) : undefined;
        if (prev && prev.info.id !== id) prev.retiredAt = now;
        s.all.set(id, { info, order, values, retiredAt: Infinity, retainMs: options.retainMs ?? DEFAULT_RETAIN_MS, bytes });
        s.current = id;
        for (const [sid, snap] of s.all) if (now - snap.retiredAt > snap.retainMs) s.all.delete(sid);
        this.evictOverBudget();
        return { ...info };
      },
    };
  }

  /** Retired snapshots of every name, oldest retirement first, until they fit the budget. */
  private evictOverBudget(): void {
    if (this.retainedBytes === Infinity) return;
    const retired: { all: Map<string, StoredSnapshot>; id: string; snap: StoredSnapshot }[] = [];
    let total = 0;
    for (const s of this.snaps.values())
      for (const [id, snap] of s.all)
        if (snap.retiredAt !== Infinity) {
          retired.push({ all: s.all, id, snap });
          total += snap.bytes;
        }
    retired.sort((a, b) => a.snap.retiredAt - b.snap.retiredAt);
    for (const r of retired) {
      if (total <= this.retainedBytes) break;
      r.all.delete(r.id);
      total -= r.snap.bytes;
    }
  }

  async current(name: string): Promise<SnapshotInfo | null> {
    const s = this.snaps.get(name);
    if (!s || s.current === null) return null;
    return this.snapshot(name, s.current);
  }

  async currentId(name: string): Promise<string | null> {
    return this.snaps.get(name)?.current ?? null;
  }

  async retiredAt(name: string, id: string): Promise<number | null> {
    const snap = this.snaps.get(name)?.all.get(id);
    return snap && snap.retiredAt !== Infinity ? snap.retiredAt : null;
  }

  async snapshot(name: string, id: string): Promise<SnapshotInfo | null> {
    const snap = this.snaps.get(name)?.all.get(id);
    return snap ? { ...snap.info, meta: { ...snap.info.meta } } : null;
  }

  async entries<T>(name: string, id: string, keys: string[]): Promise<(T | null)[]> {
    const snap = this.snaps.get(name)?.all.get(id);
    return keys.map((k) => {
      const j = snap?.values.get(k);
      return j === undefined ? null : (JSON.parse(j) as T);
    });
  }

  async range<T>(name: string, id: string, start: number, end: number): Promise<SnapshotEntry<T>[]> {
    const snap = this.snaps.get(name)?.all.get(id);
    if (!snap) return [];
    return snap.order
      .slice(Math.max(0, start), Math.max(0, end))
      .map((k) => ({ key: k, value: JSON.parse(snap.values.get(k)!) as T }));
  }

  /** get() as the stored JSON text, unparsed (the port hands it to the thread that parses it). */
  getText(key: string): { version: number; json: string } | null {
    return this.docs.get(key) ?? null;
  }

  /** entries() as the stored JSON texts, unparsed. */
  entriesText(name: string, id: string, keys: string[]): (string | null)[] {
    const snap = this.snaps.get(name)?.all.get(id);
    return keys.map((k) => snap?.values.get(k) ?? null);
  }

  /** range() as keys and the stored JSON texts, unparsed. */
  rangeText(name: string, id: string, start: number, end: number): { keys: string[]; json: string[] } {
    const snap = this.snaps.get(name)?.all.get(id);
    if (!snap) return { keys: [], json: [] };
    const keys = snap.order.slice(Math.max(0, start), Math.max(0, end));
    return { keys, json: keys.map((k) => snap.values.get(k)!) };
  }

  async dropSnapshots(name: string): Promise<void> {
    this.snaps.delete(name);
  }

  async close(): Promise<void> {}
}
