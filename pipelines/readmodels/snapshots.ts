// The SnapshotStore seam: the current state the API reads per request. Two implementations stand
// behind it with one contract suite (snapshots.contract.ts): in-process (embedded default) and Redis
// (ioredis, REDIS_URL). In: versioned JSON documents from sink stages, and whole snapshots published by
// processors (sports every ~12 s, catalog every ~30 min). Out: point reads, batched reads, prefix scans
// and consistent reads of one published snapshot while a newer one is being written.

/**
 * A document already serialized as JSON text. A store keeps the text as it is instead of running
 * JSON.stringify: a sink whose document embeds a JSON body it received as text (a canonical
 * market's body) splices it in rather than parsing and re-serializing it, which was a third of the
 * embedded pipeline's time per record in the store sink. Only as a document's whole value.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The stored text of a document value. */
export function serializeDoc(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}

/** A JSON document with the version it was written at (sinks use the source offset). */
export interface Versioned<T = unknown> {
  key: string;
  version: number;
  value: T;
}

/** What a published snapshot is: its entries are frozen once published. */
export interface SnapshotInfo {
  name: string;
  id: string;
  /** Unix ms when publish() made it current. */
  publishedAt: number;
  /** spec: snapshot.observed_at, when the oldest underlying read began; null when unknown. */
  observedAt: number | null;
  count: number;
  meta: Record<string, unknown>;
}

export interface SnapshotEntry<T = unknown> {
  key: string;
  value: T;
}

export interface PublishOptions {
  /** Snapshot id; a ULID-like sortable id is generated when absent. */
  id?: string;
  observedAt: number | null;
  meta?: Record<string, unknown>;
  /**
   * Earlier snapshots stay readable this long after they stop being current (cursors bound to a
   * snapshot: spec "Retention of catalog snapshots behind cursors ... up to 8 hours"). Default 10 min.
   */
  retainMs?: number;
  /** Publish time; defaults to Date.now() (tests pass their clock). */
  now?: number;
}

export interface SnapshotStore {
  readonly kind: 'memory' | 'redis';
  /**
   * False for the in-process store: its content does not survive a restart, so the stage runner
   * rebuilds stages writing to it from the earliest offset on start.
   */
  readonly durable: boolean;

  // ---- Versioned documents (idempotent sinks: "a redelivered or replayed record never shows twice")
  get<T = unknown>(key: string): Promise<Versioned<T> | null>;
  mget<T = unknown>(keys: string[]): Promise<(Versioned<T> | null)[]>;
  /** Writes when version is greater than the stored version; false when not written (stale/same). */
  put(key: string, value: unknown, version: number): Promise<boolean>;
  /** put() for many documents; returns how many were written. */
  putMany(docs: Versioned[]): Promise<number>;
  /** Deletes when the stored version is at most `version` (a tombstone at that offset); no version: always. */
  delete(key: string, version?: number): Promise<boolean>;
  /** Keys starting with prefix, sorted. */
  scan(prefix: string): Promise<string[]>;
  /** Deletes every document whose key starts with prefix (replay clears its read models). */
  deletePrefix(prefix: string): Promise<number>;

  // ---- Published snapshots: written aside, then swapped in atomically ("publish snapshot")
  publish(name: string, entries: SnapshotEntry[], options: PublishOptions): Promise<SnapshotInfo>;
  /** The snapshot readers should use now; null before the first publish. */
  current(name: string): Promise<SnapshotInfo | null>;
  /**
   * Only the id of the current snapshot (one read; Redis: one GET). Readers that hold the immutable
   * SnapshotInfo of an id already ask only this on the request path.
   */
  currentId(name: string): Promise<string | null>;
  /** A retained snapshot by id (current or earlier); null when unknown or evicted. */
  snapshot(name: string, id: string): Promise<SnapshotInfo | null>;
  /**
   * When a retained snapshot stopped being current (the publish that replaced it); null while it is
   * current, or when unknown or evicted. Readers bound retention behind cursors by it.
   */
  retiredAt(name: string, id: string): Promise<number | null>;
  /** Entries of one snapshot by key; null where absent (or when the snapshot was evicted). */
  entries<T = unknown>(name: string, id: string, keys: string[]): Promise<(T | null)[]>;
  /** Entries in publish order, positions [start, end) ; [] when evicted. */
  range<T = unknown>(name: string, id: string, start: number, end: number): Promise<SnapshotEntry<T>[]>;
  /** Removes every snapshot of name (replay). */
  dropSnapshots(name: string): Promise<void>;

  close(): Promise<void>;
}
