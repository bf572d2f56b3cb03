// Where the pollers' change-only memory is kept between runs. In: what each feed published (content
// hash per `<record_type>:<native_id>`, written right after the records reached the raw topic) and
// the start of its last full crawl. Out: that memory, given back to a poller that starts again, so
// it publishes only what changed while it was away instead of every record once more.
// Two implementations behind one seam (contract: state.contract.ts): in memory (tests, and a
// process that runs the pollers without change-only ingestion) and the compacted `pollers.state`
// topic, read back whole at start (the stage runner's restore read) and kept current after it.
// Also, per feed that asks for it (the listing feed), when its last complete crawl began, so its
// cadence goes on across a restart (cadence.ts): one small record a crawl, `crawl|<venue>|<feed>`.
import type { Provider } from '../../../lib/vocabulary.ts';
import type { Log, Producer } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import type { RawRecord, TopicMap } from '../../topics.ts';
import { restoreContext } from '../../runtime/runner.ts';
import type { FeedMemory } from './changes.ts';

/** Part of a feed's memory to write (PollerState.save). */
export interface StateChange {
  set?: [key: string, hash: string][];
  gone?: string[];
  lastFullStartedAt?: number;
  /** The start of a crawl whose marker the raw topic now has (a complete crawl): where the feed's cadence resumes after a restart. */
  lastCompleteStartedAt?: number;
}

export interface PollerState {
  /** The feed's memory as last written; undefined when nothing was. */
  load(provider: Provider, feed: string): FeedMemory | undefined;
  /**
   * Writes part of a feed's memory: hashes of records just published (`set`), records that left
   * the listing (`gone`), and, after a full crawl, its start. Resolves once it is durable.
   */
  save(provider: Provider, feed: string, change: StateChange, at: number): Promise<void>;
  /** When the feed's last complete crawl began, as last written (StateChange.lastCompleteStartedAt); null when never. */
  lastCompleteStart(provider: Provider, feed: string): number | null;
}

interface Held {
  hashes: Map<string, string>;
  lastFullStartedAt: number | null;
}

const feedId = (provider: string, feed: string): string => `${provider}|${feed}`;

/** Keeps what was saved in a map: what the log-backed state reads back after a restart. */
export class MemoryPollerState implements PollerState {
  protected readonly feeds = new Map<string, Held>();
  /** Apart from `feeds`: a feed that keeps no hashes (every crawl full) still has a cadence to resume. */
  protected readonly completeStarts = new Map<string, number>();

  load(provider: Provider, feed: string): FeedMemory | undefined {
    const h = this.feeds.get(feedId(provider, feed));
    return h ? { hashes: new Map(h.hashes), lastFullStartedAt: h.lastFullStartedAt } : undefined;
  }

  async save(provider: Provider, feed: string, change: StateChange, _at?: number): Promise<void> {
    this.apply(provider, feed, change);
  }

  lastCompleteStart(provider: Provider, feed: string): number | null {
    return this.completeStarts.get(feedId(provider, feed)) ?? null;
  }

  /** `fullCrawl`: the start of the feed's last full crawl as read back (null: none on record). */
  protected apply(provider: string, feed: string, change: StateChange, fullCrawl?: number | null): void {
    const id = feedId(provider, feed);
    if (change.lastCompleteStartedAt !== undefined) this.completeStarts.set(id, change.lastCompleteStartedAt);
    // A change of the start alone is no memory of hashes: load() stays undefined for a feed that kept none.
    if (fullCrawl === undefined && change.set === undefined && change.gone === undefined && change.lastFullStartedAt === undefined) return;
    let h = this.feeds.get(id);
    if (!h) this.feeds.set(id, (h = { hashes: new Map(), lastFullStartedAt: null }));
    for (const [k, v] of change.set ?? []) h.hashes.set(k, v);
    for (const k of change.gone ?? []) h.hashes.delete(k);
    if (change.lastFullStartedAt !== undefined) h.lastFullStartedAt = change.lastFullStartedAt;
    if (fullCrawl !== undefined) h.lastFullStartedAt = fullCrawl;
  }
}

/** Keys on `pollers.state`. */
export const hashStateKey = (provider: string, feed: string, key: string): string => `hash|${provider}|${feed}|${key}`;
export const feedStateKey = (provider: string, feed: string): string => `feed|${provider}|${feed}`;
export const crawlStateKey = (provider: string, feed: string): string => `crawl|${provider}|${feed}`;

/** The parts of a `pollers.state` key; null for a key of another shape. */
export function parseStateKey(k: string): { kind: 'hash' | 'feed' | 'crawl'; provider: string; feed: string; key?: string } | null {
  const a = k.indexOf('|');
  const b = k.indexOf('|', a + 1);
  if (a < 0 || b < 0) return null;
  const kind = k.slice(0, a);
  const provider = k.slice(a + 1, b);
  if (kind === 'feed' || kind === 'crawl') return { kind, provider, feed: k.slice(b + 1) };
  const c = k.indexOf('|', b + 1);
  // Record keys are `<record_type>:<native_id>`: a native id may hold any character, a feed name none of `|`.
  if (kind !== 'hash' || c < 0) return null;
  return { kind, provider, feed: k.slice(b + 1, c), key: k.slice(c + 1) };
}

/** The memory on the compacted `pollers.state` topic: read whole once at start, then written through. */
export class LogPollerState extends MemoryPollerState {
  private constructor(
    private readonly producer: Producer,
    private readonly serde: Serde,
    private readonly topics: TopicMap,
    private readonly startsOnly: boolean,
  ) {
    super();
  }

  /**
   * Reads the topic from its earliest offset to its end (a restore read: no group is left behind).
   * `startsOnly`: pollers without change-only ingestion keep only the crawl starts here (the listing's
   * cadence across a restart); the hashes on the topic are neither read nor written.
   */
  static async restore(deps: { log: Log; serde: Serde; topics: TopicMap; producer: Producer }, opts: { startsOnly?: boolean } = {}): Promise<LogPollerState> {
    return LogPollerState.fromRead(deps, (onRecord) => LogPollerState.readTopic(deps, onRecord), opts);
  }

  /** The compacted read restore() does, for a thread that holds the log on behalf of another (pollers/thread.ts). */
  static readTopic(deps: { log: Log; serde: Serde; topics: TopicMap }, onRecord: (key: string | null, value: RawRecord | null) => void): Promise<void> {
    return restoreContext(deps, `${deps.topics['pollers.state'].name}.pollers`).readCompacted('pollers.state', onRecord);
  }

  /** The memory from a whole read of the topic done elsewhere (`read` calls onRecord for each record in offset order per partition). */
  static async fromRead(
    deps: { serde: Serde; topics: TopicMap; producer: Producer },
    read: (onRecord: (key: string | null, value: RawRecord | null) => void) => Promise<void>,
    opts: { startsOnly?: boolean } = {},
  ): Promise<LogPollerState> {
    const s = new LogPollerState(deps.producer, deps.serde, deps.topics, opts.startsOnly === true);
    await read((k, v) => {
      const p = k ? parseStateKey(k) : null;
      if (!p || (s.startsOnly && p.kind !== 'crawl')) return;
      if (p.kind === 'crawl') {
        // A record this code cannot read is no crawl on record (the feed crawls at once).
        let at: unknown;
        try {
          at = v ? (JSON.parse(v.payload) as { started_at?: unknown }).started_at : null;
        } catch {
          at = null;
        }
        if (typeof at === 'number' && Number.isFinite(at)) s.apply(p.provider, p.feed, { lastCompleteStartedAt: at });
        else s.completeStarts.delete(feedId(p.provider, p.feed));
      } else if (p.kind === 'feed') {
        const at = v ? (JSON.parse(v.payload) as { last_full_started_at?: number | null }).last_full_started_at : null;
        s.apply(p.provider, p.feed, {}, typeof at === 'number' ? at : null);
      } else if (v) s.apply(p.provider, p.feed, { set: [[p.key!, v.payload]] });
      else s.apply(p.provider, p.feed, { gone: [p.key!] });
    });
    return s;
  }

  /**
   * Without change-only ingestion the pollers write every record and keep no memory here: what is
   * here grows old while they do. The start of each feed's last full crawl is deleted, so pollers
   * that keep their memory here again begin with a full crawl rather than trust stale hashes (a
   * record back to content it had before would otherwise not be written).
   */
  static async forgetFullCrawls(deps: { serde: Serde; topics: TopicMap; producer: Producer }, providers: readonly Provider[], feeds: readonly string[]): Promise<void> {
    const topic = deps.topics['pollers.state'];
    const keys = providers.flatMap((p) => feeds.map((f) => feedStateKey(p, f)));
    await deps.producer.send(topic.name, await deps.serde.encodeMany(topic, keys.map((key) => ({ key, value: null }))));
  }

  override async save(provider: Provider, feed: string, change: StateChange, at: number): Promise<void> {
    if (this.startsOnly) change = change.lastCompleteStartedAt === undefined ? {} : { lastCompleteStartedAt: change.lastCompleteStartedAt };
    const topic = this.topics['pollers.state'];
    const value = (recordType: string, nativeId: string, payload: string): RawRecord => ({ venue: provider, record_type: recordType, native_id: nativeId, read_started_at: at, payload, read_id: feed, source_url: null });
    const records = [
      ...(change.set ?? []).map(([k, h]) => ({ key: hashStateKey(provider, feed, k), value: value('content_hash', k, h) })),
      ...(change.gone ?? []).map((k) => ({ key: hashStateKey(provider, feed, k), value: null })),
      ...(change.lastFullStartedAt !== undefined
        ? [{ key: feedStateKey(provider, feed), value: value('feed_state', feed, JSON.stringify({ last_full_started_at: change.lastFullStartedAt })) }]
        : []),
      ...(change.lastCompleteStartedAt !== undefined
        ? [{ key: crawlStateKey(provider, feed), value: value('crawl_state', feed, JSON.stringify({ started_at: change.lastCompleteStartedAt, completed_at: at })) }]
        : []),
    ];
    if (records.length === 0) return;
    await this.producer.send(topic.name, await this.serde.encodeMany(topic, records.map((r) => ({ ...r, timestamp: at }))));
    this.apply(provider, feed, change);
  }
}
