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
}

export const DEFAULT_RETAIN_MS = 10 * 60_000;
export const nextSnapshotId = monotonicFactory();

export class MemorySnapshotStore implements SnapshotStore {
  readonly kind = 'memory' as const;
  readonly durable = false;
  private readonly docs = new Map<string, { version: number; json: string }>();
  private readonly snaps = new Map<string, { current: string | null; all: Map<string, StoredSnapshot> }>();

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
    const now = options.now ?? Date.now();
    const id = options.id ?? nextSnapshotId(now);
    const values = new Map<string, string>();
    const order: string[] = [];
    for (const e of entries) {
      if (!values.has(e.key)) order.push(e.key);
      values.set(e.key, JSON.stringify(e.value));
    }
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
    s.all.set(id, { info, order, values, retiredAt: Infinity, retainMs: options.retainMs ?? DEFAULT_RETAIN_MS });
    s.current = id;
    for (const [sid, snap] of s.all) if (now - snap.retiredAt > snap.retainMs) s.all.delete(sid);
    return { ...info };
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

  async dropSnapshots(name: string): Promise<void> {
    this.snaps.delete(name);
  }

  async close(): Promise<void> {}
}
