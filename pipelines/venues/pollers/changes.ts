// Change-only ingestion: what a poller's feed remembers of the records it published, so that a crawl
// publishes a record only when its content changed since the last publish for its key. Pure: the
// content hashes live in maps; where they are kept between runs is the PollerState seam
// (pollers/state.ts), which restores them from the log after a restart.
import { hash } from 'node:crypto';

/** A record's key within a feed: `<record_type>:<native_id>` (the form the crawl markers name). */
export const recordKey = (recordType: string, nativeId: string): string => `${recordType}:${nativeId}`;

/**
 * The content hash of a record as read (its JSON text, byte for byte). The one-shot crypto.hash:
 * every record of every crawl goes through here, and it takes about half the time of a Hash object
 * per record (median 0.53x), with the same digest (bench/content-hash.ts, bench/ingest.md).
 */
export const contentHash = (payload: string): string => hash('sha1', payload, 'base64');

/** What a feed remembers between crawls: the content hash of every record its last complete crawl listed. */
export interface FeedMemory {
  /** `<record_type>:<native_id>` -> content hash of its last published payload. */
  hashes: ReadonlyMap<string, string>;
  /** Start of the feed's last full crawl (every record published); null before the first. */
  lastFullStartedAt: number | null;
}

/**
 * A feed's change detection: the content hash of the last publish of every record it lists. A
 * record must be published when a full crawl reads it, when it is new, or when its content hash
 * differs from its last publish; `published` notes a publish once the log has it, so a crawl that
 * fails half way publishes the rest next time (and a record whose publish failed is tried again).
 */
export class ChangeDetector {
  readonly memory: Map<string, string>;

  constructor(memory?: Iterable<[string, string]>) {
    this.memory = new Map(memory ?? []);
  }

  /** The record's content hash and whether it must be published. */
  check(key: string, payload: string, full: boolean): { hash: string; publish: boolean } {
    const hash = contentHash(payload);
    return { hash, publish: full || this.memory.get(key) !== hash };
  }

  published(entries: Iterable<[string, string]>): void {
    for (const [k, h] of entries) this.memory.set(k, h);
  }

  /** Keys published before and not listed by a complete crawl that listed `seen`: they left the listing. */
  gone(seen: ReadonlySet<string>): string[] {
    return [...this.memory.keys()].filter((k) => !seen.has(k));
  }

  forget(keys: Iterable<string>): void {
    for (const k of keys) this.memory.delete(k);
  }
}
