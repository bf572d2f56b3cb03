// The canonicalize stage. In: raw venue records (`raw.venue_1..9`: the pollers' listings with one
// `crawl_complete` marker per crawl, and venue_2 `final` records the venue_2 poller reads for a
// market that left its listing) and the team rosters (`reference.rosters`). Out: sports markets in
// their canonical shape on `canonical.markets` (upserts; a tombstone when a market leaves its venue's
// listing) and the stage's restart state on `matching.state`, both written before the batch commits.
//
// Deleting is the dangerous decision: a market is dropped only when a complete crawl of its venue did
// not list it, one crawl late. A crawl's marker is written to every partition of the raw topic and
// applied once its copy has been read on each (records of one crawl sit on all partitions, and a
// backlog is read one partition far ahead of another). What that decision needs survives a restart by construction:
//   - `crawl|<venue>` on matching.state: the newest complete crawl applied and the ids of recent
//     markers, so a redelivered marker is applied once;
//   - with it, which of the venue's records had not been read since that crawl began (`stale`), the
//     earliest read time of any other (`listedSince`), and how far each partition of the venue's
//     raw topic had been read (`positions`), or from where records read later than `listedSince`
//     sit on it (`reread`: a venue's feeds overlap, so a full crawl's first pages can sit before
//     another feed's marker);
//   - the current markets, read back from this stage's own compacted output.
//   On restart the records read after the last applied marker (from `positions`, or `reread`, to
//   the group's committed offsets) are read again for their read times only (their outputs were
//   written before their commit), so every record's last read time is what it was before the restart.
//   - `event|<venue>|<id>` on matching.state: the records a venue lists apart and its markets read
//     (its adapter's listedEventType: venue_1 events, `event|venue_1|<ticker>`).
// Not needed for any decision, kept so a restart reads no rules text it read before (KeptReadings):
//   - `reading|<reader version>|<text digest>` on matching.state: a rules text's readings.
// Nothing here reads a clock or the network: the same records give the same outputs.
import type { CanonicalMarket as CanonicalRecord, RawRecord, TopicValues } from '../../topics.ts';
import { RAW_TOPIC_IDS } from '../../topics.ts';
import type { InRecord, OutRecord, StageDef } from '../../runtime/types.ts';
import { canonicalize, isListedApart, withListedEvent } from '../canonicalize.ts';
import { BARRIER_HEADER } from '../../venues/pollers/sink.ts';
import { marketIdentity } from '../match.ts';
import type { Roster, RosterBook } from '../props.ts';
import type { CanonicalMarket, Provider } from '../types.ts';
import { MAX_TEXTS, processReader, readerVersion, type RulesTextReader } from '../rulestext.ts';
import { LRUCache } from 'lru-cache';

/** Marks canonical.markets bodies written by this stage (other stages may share the topic). */
export const BODY_KIND = 'sports_matching';
/** A venue_2 final record read after it left the listing is kept this long (cancellation signal). */
export const PROBED_KEEP_MS = 3 * 86_400_000;
/** Applied marker ids remembered per venue (a redelivered batch is at most a few crawls old). */
const MARKER_MEMORY = 32;
/** Distinct read times remembered per raw topic partition between applied markers (one a page read). */
const READ_TIMES_KEPT = 4096;
/** Roster staleness (as the sports data source's rosters were read before). */
const ROSTER_STALE_MS = 24 * 3600_000;

/** The body of a canonical.markets record of this stage. */
export interface CanonicalBody {
  kind: typeof BODY_KIND;
  market: CanonicalMarket;
  nativeKey: string;
  readId: string | null;
  /** Set on a venue_2 final record's market: when it was read. */
  probedAt?: number;
}

/** The body of a canonical.markets record this stage wrote; null for anything else on the topic. */
export function canonicalBody(v: CanonicalRecord): CanonicalBody | null {
  try {
    const b = JSON.parse(v.body) as CanonicalBody;
    return b.kind === BODY_KIND ? b : null;
  } catch {
    return null;
  }
}

interface Held {
  m: CanonicalMarket;
  nativeKey: string;
  readId: string | null;
  probedAt?: number;
  /** `m` as compared with the next read of it (comparable), once computed. */
  compared?: string;
}

/** The canonical.markets body a held market was written with (toTopic's; read back, the body it was read from). */
const bodyOf = (h: Held): string =>
  JSON.stringify({ kind: BODY_KIND, market: h.m, nativeKey: h.nativeKey, readId: h.readId, ...(h.probedAt !== undefined ? { probedAt: h.probedAt } : {}) } satisfies CanonicalBody);

interface NativeState {
  keys: string[];
  readId: string | null;
  /** Last time a read of the record began (or, after a restore, the newest applied crawl's start). */
  readAt: number;
}

/** `crawl|<venue>` on matching.state: what deciding deletions needs across a restart. */
export interface CrawlState {
  /** Start of the newest complete crawl applied: every listed record was read at or after it. */
  lastCrawlStart: number;
  /** When the newest applied marker's crawl began reading (for observed_at downstream). */
  lastReadStart: number;
  /** Recently applied marker ids, newest last. */
  applied: string[];
  /** Records of the venue not read since lastCrawlStart when this marker was applied (`<type>|<id>`). */
  stale?: string[];
  /**
   * Per partition of the venue's raw topic, where reading resumes to rebuild read times after a
   * restart: after this marker's copy there (a marker copied to every partition), else the next
   * offset when the marker was applied.
   */
  positions?: Record<string, string>;
  /**
   * Every record of the venue not in `stale` was last read at or after this (a delta marker moves
   * what it did not re-emit to its own read time). Absent in states written before it: lastCrawlStart.
   */
  listedSince?: number;
  /**
   * Per partition where that is before `positions`: the first record read later than listedSince.
   * A restore reads from there, or a record read before the marker, in a crawl that began after
   * listedSince (another feed's), would count as read at listedSince and look unlisted by it.
   */
  reread?: Record<string, string>;
}

type Out = OutRecord[];

export const crawlStateKey = (p: string) => `crawl|${p}`;
// A listed-apart record is held under `<venue>|<id>`; its state key adds the `event|` prefix.
const LISTED_EVENT_PREFIX = 'event|';

export const READING_PREFIX = 'reading|';
export const readingStateKey = (version: string, digest: string): string => `${READING_PREFIX}${version}|${digest}`;

/**
 * The rules reader's readings kept across a restart, on matching.state: one record per rules text
 * (`reading|<version>|<digest>`, its readings as JSON), written with the batch that read something
 * new of the text, restored into the reader before any record is read. After a restart the pollers'
 * listing feed brings every listed record again, and a record's first read read its rules texts
 * cold: 73% of the canonicalizer's 16.7 s of CPU on the scale-1 listing (bench/soak.md, "sports
 * snapshot after a restart"), with the sports crawls waiting behind it. Kept by the text, not by the
 * record, so a record that changed (prices move) and still publishes the same text reads nothing
 * again, and nothing here decides whether a record changed: canonicalization runs as it did, only
 * the reader's answers come from the record. The version is the reader's (readerVersion: a digest of
 * its code and lexicon): a record of another version is not read and is removed, so a restart that
 * runs a changed reader reads every text again. Bounded as the reader's texts are (MAX_TEXTS), least
 * recently asked for out first, its record removed. What is written depends on what this stage asked
 * of the reader (each stage instance writes every text it asked for once), not on what else the
 * process read.
 */
export class KeptReadings {
  /** Per text digest, how many readings its record holds (as written or restored). */
  private readonly written: LRUCache<string, number>;
  private removals: string[] = [];

  constructor(
    private readonly reader: RulesTextReader = processReader(),
    readonly version: string = readerVersion(),
    max = MAX_TEXTS,
  ) {
    this.written = new LRUCache({ max, dispose: (_n, digest, reason) => reason === 'evict' && this.removals.push(readingStateKey(this.version, digest)) });
    reader.keeping = true;
    reader.touched(); // what was asked before this stage is not its own
  }

  /** A `reading|...` record read back at a restore (null: removed). */
  restore(key: string, v: RawRecord | null): void {
    const rest = key.slice(READING_PREFIX.length);
    const sep = rest.indexOf('|');
    const digest = rest.slice(sep + 1);
    if (rest.slice(0, sep) !== this.version) {
      if (v !== null) this.removals.push(key);
      return;
    }
    if (v === null) {
      this.written.delete(digest);
      return;
    }
    const count = this.reader.restore(digest, v.payload);
    if (count !== undefined) this.written.set(digest, count);
  }

  /** The records to write for what the reader was asked since the last call. */
  writes(out: Out): Out {
    for (const t of this.reader.touched()) {
      if (this.written.get(t.digest) === t.count) continue;
      this.written.set(t.digest, t.count);
      out.push({ topic: 'matching.state', key: readingStateKey(this.version, t.digest), value: readingRecord(t.digest, t.record()) });
    }
    if (this.removals.length) {
      for (const key of this.removals) out.push({ topic: 'matching.state', key, value: null });
      this.removals = [];
    }
    return out;
  }

  /** Texts whose records are kept. */
  get size(): number {
    return this.written.size;
  }
}

const readingRecord = (digest: string, payload: string): RawRecord => ({ venue: '', record_type: 'rules_reading', native_id: digest, read_started_at: 0, payload, read_id: null, source_url: null });

/** A market as compared between reads: all of it but when it was read. */
const comparable = (m: CanonicalMarket): string => JSON.stringify({ ...m, observedAt: 0 });

/** The canonicalizer's state and its decide/evolve steps; every method returns the records to write. */
export class Canonicalizer {
  /** The rules readings kept across a restart (the stage's; none for a canonicalizer used alone). */
  constructor(readonly kept?: KeptReadings) {}

  readonly markets = new Map<string, Held>();
  readonly natives = new Map<string, NativeState>();
  /** Records venues list apart (their adapter's listedEventType), by `<venue>|<native id>`. */
  readonly listedEvents = new Map<string, unknown>();
  /** The payload each of them was read from: an unchanged one is known without parsing or serializing it. */
  private readonly listedPayloads = new Map<string, string>();
  readonly crawls = new Map<Provider, CrawlState>();
  readonly rosters = new Map<string, Roster>();
  private rosterSource = 'sds';
  /** The book props are admitted against: the rosters as last installed (none before any). */
  private rosterBook: RosterBook | undefined;
  /** Next offset to read per raw topic partition, per venue (known when fed from the log). */
  private readonly positions = new Map<Provider, Map<number, string>>();
  /**
   * Crawl markers written to every partition (BARRIER_HEADER): per partition whose copy was read,
   * the offset after that copy. A partition is read ahead of another at times, so when the last
   * copy applies the marker, one partition may already stand in a later crawl: the checkpoint is
   * where each copy sat, not where each partition stands, so a restore reads those early reads again.
   */
  private readonly barriers = new Map<string, Map<number, string>>();
  /**
   * The newest read of each record a prop of which was refused only for want of a fresh roster of
   * its teams, by native key: a roster read later admits the prop from that same read, and a venue
   * need not publish the record again for a long while (pollers publish a record when it changes).
   * The stage's first reads can come before its first rosters (nothing orders one topic against
   * another), which left such props out for minutes. Not kept across a restart: the restore reads
   * the rosters before any record.
   */
  readonly awaitingRoster = new Map<string, { r: RawRecord; readAt: number }>();
  /**
   * Per venue, per raw topic partition: each read time of a record read since the venue's last
   * applied marker or later than its listedSince, with the offset of its first record there (where
   * a restore reads from).
   */
  private readonly readTimes = new Map<Provider, Map<number, Map<number, string>>>();

  /**
   * The market held under `key` when `body` is the canonical.markets body last written (or read
   * back) for it, else undefined: a reader of the topic on this thread (the matching stage) keeps
   * this object rather than a parsed copy of the same JSON. Held markets are never modified (a
   * changed read holds a new object), and they are what their JSON parses to (no undefined, NaN
   * or Date in them: canonicalize-shared.unit.spec.ts). The held market is serialized again and
   * compared (V8 serializes faster than it parses), so nothing is kept for it and the write path
   * is unchanged.
   */
  heldFor(key: string, body: string): CanonicalMarket | undefined {
    const h = this.markets.get(key);
    return h && bodyOf(h) === body ? h.m : undefined;
  }

  // ---- restore (from the log, before consuming)

  restoreState(key: string, v: RawRecord | null): void {
    if (key.startsWith(READING_PREFIX)) {
      this.kept?.restore(key, v);
    } else if (key.startsWith('crawl|')) {
      const p = key.slice('crawl|'.length) as Provider;
      if (v === null) this.crawls.delete(p);
      else this.crawls.set(p, JSON.parse(v.payload) as CrawlState);
    } else if (key.startsWith(LISTED_EVENT_PREFIX)) {
      const id = key.slice(LISTED_EVENT_PREFIX.length);
      if (v === null) {
        this.listedEvents.delete(id);
        this.listedPayloads.delete(id);
      } else {
        this.listedEvents.set(id, JSON.parse(v.payload));
        this.listedPayloads.set(id, v.payload);
      }
    }
  }

  restoreMarket(key: string, v: CanonicalRecord | null): void {
    const held = this.markets.get(key);
    if (v === null) {
      if (held) this.unlinkNative(held.nativeKey, key);
      this.markets.delete(key);
      return;
    }
    const b = canonicalBody(v);
    if (!b) return;
    if (held && held.nativeKey !== b.nativeKey) this.unlinkNative(held.nativeKey, key);
    this.markets.set(key, { m: b.market, nativeKey: b.nativeKey, readId: b.readId, ...(b.probedAt !== undefined ? { probedAt: b.probedAt } : {}) });
    if (b.probedAt !== undefined) return;
    const n = this.natives.get(b.nativeKey) ?? { keys: [], readId: b.readId, readAt: b.market.observedAt };
    if (!n.keys.includes(key)) n.keys.push(key);
    n.readAt = Math.max(n.readAt, b.market.observedAt);
    this.natives.set(b.nativeKey, n);
  }

  /**
   * After restoring: each record read since its venue's newest applied crawl began is taken as read
   * at that start, each stale one as read before it (the records read after the marker then come
   * again through replayAfterMarker).
   */
  finishRestore(): void {
    const stale = new Map<string, Set<string>>();
    for (const [p, c] of this.crawls) stale.set(p, new Set(c.stale ?? []));
    for (const [nk, n] of this.natives) {
      const sep = nk.indexOf('|');
      const p = nk.slice(0, sep) as Provider;
      const c = this.crawls.get(p);
      if (!c) continue;
      n.readAt = stale.get(p)!.has(nk.slice(sep + 1)) ? Math.min(n.readAt, c.lastCrawlStart - 1) : Math.max(n.readAt, c.listedSince ?? c.lastCrawlStart);
    }
    this.installRosters();
  }

  /**
   * Where the records after a venue's last applied marker begin (restore reads them again, up to
   * the group's committed offsets). With no marker applied yet, from the start: copies of the first
   * markers read before a restart (one partition read far ahead) would otherwise be lost, and no
   * crawl of the venue would ever be applied again.
   */
  replayFrom(p: Provider, committed: Map<number, string>): Map<number, string> {
    const crawl = this.crawls.get(p);
    if (!crawl) return new Map([...committed.keys()].map((k) => [k, '0']));
    // A state written without log positions (records handed over outside a log): nothing to re-read.
    return new Map(Object.entries({ ...crawl.positions, ...crawl.reread }).map(([k, v]) => [Number(k), v]));
  }

  /**
   * After a restore, everything before the group's committed offsets is in the state: the next
   * marker's checkpoint starts there for partitions this process has not read yet.
   */
  restoredUpTo(p: Provider, committed: Map<number, string>): void {
    let pos = this.positions.get(p);
    if (!pos) this.positions.set(p, (pos = new Map()));
    for (const [partition, o] of committed) if (!pos.has(partition) || BigInt(pos.get(partition)!) < BigInt(o)) pos.set(partition, o);
  }

  /**
   * Records read after the last applied marker, before a restart: read times only, outputs were
   * written. Markers before the checkpoint (read again from `reread`) were applied then: not again.
   */
  replayAfterMarker(records: InRecord[]): void {
    const first = records[0];
    const checkpoint = first && first.value ? this.crawls.get((first.value as RawRecord).venue as Provider)?.positions?.[first.partition] : undefined;
    const before = checkpoint === undefined ? undefined : BigInt(checkpoint);
    this.ingestRecords(before === undefined ? records : records.filter((r) => BigInt(r.offset) >= before || (r.value as RawRecord | null)?.record_type !== 'crawl_complete'));
  }

  /** Records of one raw topic partition as the log hands them over: positions are kept. */
  ingestRecords(records: InRecord[]): Out {
    const raws: RawRecord[] = [];
    const offsets: string[] = [];
    const copies: (number | undefined)[] = [];
    for (const r of records)
      if (r.value) {
        raws.push(r.value as RawRecord);
        offsets.push(r.offset);
        const n = r.headers?.[BARRIER_HEADER];
        copies.push(n === undefined ? undefined : Number(n));
      }
    const first = records[0];
    if (!first) return [];
    return this.ingest(raws, { partition: first.partition, offsets, copies });
  }

  /**
   * The first offset of each read time (pruned as each marker applies, to those after its
   * listedSince: the next one can be earlier, when a slow page of a crawl is read late).
   */
  private noteRead(provider: Provider, partition: number, readAt: number, offset: string): void {
    let byPartition = this.readTimes.get(provider);
    if (!byPartition) this.readTimes.set(provider, (byPartition = new Map()));
    let times = byPartition.get(partition);
    if (!times) byPartition.set(partition, (times = new Map()));
    if (times.has(readAt)) return;
    // A venue whose crawls never complete (one read time a page): the oldest go first (a restore
    // then reads from a later offset, as it did before read times were kept).
    if (times.size >= READ_TIMES_KEPT) times.delete(times.keys().next().value!);
    times.set(readAt, offset);
  }

  private unlinkNative(nativeKey: string, key: string): void {
    const n = this.natives.get(nativeKey);
    if (!n) return;
    n.keys = n.keys.filter((k) => k !== key);
    if (n.keys.length === 0) this.natives.delete(nativeKey);
  }

  // ---- rosters

  roster(key: string, v: RawRecord | null): void {
    const id = key.startsWith('roster|') ? key.slice('roster|'.length).replace('|', ':') : key;
    if (v === null) {
      this.rosters.delete(id);
      return;
    }
    const b = JSON.parse(v.payload) as { source?: string; updated_at?: string; athletes?: { id: number | string; name: string }[] };
    const [league, team] = id.split(':');
    if (b.source) this.rosterSource = b.source;
    this.rosters.set(id, {
      league: league as Roster['league'],
      team: team!,
      players: (b.athletes ?? []).map((a) => ({ athleteId: String(a.id), name: a.name })),
      readAt: b.updated_at ? Date.parse(b.updated_at) : v.read_started_at,
    });
  }

  /** Canonicalization reads the roster book as it stands from here on. */
  installRosters(): void {
    this.rosterBook = this.rosters.size ? { source: this.rosterSource, rosters: this.rosters, staleAfterMs: ROSTER_STALE_MS } : undefined;
  }

  /** A batch of `reference.rosters`: the book installed, and the records that waited for it read again. */
  rosterBatch(records: { key: string | null; value: RawRecord | null }[]): Out {
    for (const r of records) if (r.key) this.roster(r.key, r.value);
    this.installRosters();
    if (this.awaitingRoster.size === 0) return [];
    const again = [...this.awaitingRoster];
    this.awaitingRoster.clear();
    const out = this.ingest(again.map(([, w]) => w.r));
    // A later crawl that found the record unchanged read it then: its markets are as fresh as that
    // (taken at the first read's time, the next complete crawl would find them stale and drop them).
    for (const [nk, w] of again) {
      const n = this.natives.get(nk);
      if (n && n.readAt < w.readAt) n.readAt = w.readAt;
      const still = this.awaitingRoster.get(nk);
      if (still && still.readAt < w.readAt) still.readAt = w.readAt;
    }
    return out;
  }

  // ---- raw records

  /**
   * One batch of raw records, in log order: canonicalize, prune after complete crawls. `at` says
   * where in the log they sit (one partition), when they come from it.
   */
  ingest(raws: RawRecord[], at?: { partition: number; offsets: string[]; copies: (number | undefined)[] }): Out {
    const out: Out = [];
    for (let i = 0; i < raws.length; i++) {
      const r = raws[i]!;
      const provider = r.venue as Provider;
      if (at) {
        let pos = this.positions.get(provider);
        if (!pos) this.positions.set(provider, (pos = new Map()));
        pos.set(at.partition, String(BigInt(at.offsets[i]!) + 1n));
        if (r.record_type !== 'crawl_complete') this.noteRead(provider, at.partition, r.read_started_at, at.offsets[i]!);
      }
      if (r.record_type === 'crawl_complete') {
        // A marker on every partition applies once its last copy is read: by then the whole crawl was.
        const n = at?.copies[i];
        if (at && n !== undefined && n > 1) {
          if (this.crawls.get(provider)?.applied.includes(r.native_id)) continue; // a copy read again
          const seen = this.barriers.get(r.native_id) ?? new Map<number, string>();
          seen.set(at.partition, String(BigInt(at.offsets[i]!) + 1n));
          if (seen.size < n) {
            this.barriers.set(r.native_id, seen);
            continue;
          }
          this.barriers.delete(r.native_id);
          this.completeCrawl(provider, r, out, seen);
          continue;
        }
        this.completeCrawl(provider, r, out);
        continue;
      }
      // A record listed apart and read again unchanged (most polls) writes nothing.
      if (isListedApart(provider, r.record_type) && this.listedPayloads.get(`${provider}|${r.native_id}`) === r.payload) continue;
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(r.payload) as Record<string, unknown>;
      } catch {
        continue; // the raw history keeps it; nothing canonical can come of it
      }
      if (r.record_type === 'final') {
        this.final(provider, r, payload, out);
        continue;
      }
      if (isListedApart(provider, r.record_type)) {
        const id = `${provider}|${r.native_id}`;
        this.listedEvents.set(id, payload);
        this.listedPayloads.set(id, r.payload);
        out.push({ topic: 'matching.state', key: `${LISTED_EVENT_PREFIX}${id}`, value: r });
        continue;
      }
      const nativeKey = `${provider}|${r.record_type}|${r.native_id}`;
      const input = withListedEvent(provider, payload, (t) => this.listedEvents.get(`${provider}|${t}`));
      const { markets: ms, awaitingRoster } = canonicalize(provider, input, r.read_started_at, this.rosterBook);
      if (awaitingRoster) this.awaitingRoster.set(nativeKey, { r, readAt: Math.max(r.read_started_at, this.awaitingRoster.get(nativeKey)?.readAt ?? 0) });
      else this.awaitingRoster.delete(nativeKey);
      const prev = this.natives.get(nativeKey);
      const keys = ms.map(marketIdentity);
      for (const k of prev?.keys ?? []) if (!keys.includes(k)) this.drop(k, out);
      if (ms.length === 0) {
        this.natives.delete(nativeKey);
        continue;
      }
      this.natives.set(nativeKey, { keys, readId: r.read_id ?? null, readAt: Math.max(r.read_started_at, prev?.readAt ?? 0) });
      for (let j = 0; j < ms.length; j++) {
        const m = ms[j]!;
        const k = keys[j]!;
        const held = this.markets.get(k);
        // The held market's compared form is kept, so a read that changed nothing serializes once.
        let compared: string | undefined;
        const changed = !held || held.probedAt !== undefined || held.nativeKey !== nativeKey || (held.compared ??= comparable(held.m)) !== (compared = comparable(m));
        if (!changed) continue;
        if (held && held.nativeKey !== nativeKey) this.unlinkNative(held.nativeKey, k);
        this.markets.set(k, { m, nativeKey, readId: r.read_id ?? null, ...(compared !== undefined ? { compared } : {}) });
        out.push({ topic: 'canonical.markets', key: k, value: toTopic({ kind: BODY_KIND, market: m, nativeKey, readId: r.read_id ?? null }) });
      }
    }
    return out;
  }

  /** A venue_2 market's final record (read once after it left the listing): a settled market is kept a while. */
  private final(provider: Provider, r: RawRecord, payload: unknown, out: Out): void {
    for (const m of canonicalize(provider, payload, r.read_started_at, this.rosterBook).markets) {
      if (m.status !== 'settled') continue;
      const k = marketIdentity(m);
      if (this.markets.has(k)) continue;
      const nativeKey = `${provider}|final|${r.native_id}`;
      this.markets.set(k, { m, nativeKey, readId: r.read_id ?? null, probedAt: r.read_started_at });
      out.push({ topic: 'canonical.markets', key: k, value: toTopic({ kind: BODY_KIND, market: m, nativeKey, readId: r.read_id ?? null, probedAt: r.read_started_at }) });
    }
  }

  private drop(key: string, out: Out): void {
    const held = this.markets.get(key);
    if (!held) return;
    this.markets.delete(key);
    out.push({ topic: 'canonical.markets', key, value: null });
  }

  private dropNative(nk: string, out: Out): void {
    this.awaitingRoster.delete(nk);
    const n = this.natives.get(nk);
    if (!n) return;
    for (const k of n.keys) if (this.markets.get(k)?.nativeKey === nk) this.drop(k, out);
    this.natives.delete(nk);
  }

  /**
   * A complete crawl is the venue's whole open listing: what it no longer lists has left it.
   * `copies`: for a marker copied to every partition, the offset after each copy (the checkpoint).
   */
  private completeCrawl(provider: Provider, r: RawRecord, out: Out, copies?: Map<number, string>): void {
    const state = this.crawls.get(provider);
    // A redelivered marker (a batch written but not committed before a crash) is applied once.
    if (state?.applied.includes(r.native_id)) return;
    let startedAt = r.read_started_at;
    let delta: { vanished: string[] } | null = null;
    try {
      const detail = JSON.parse(r.payload) as { started_at?: number; delta?: boolean; vanished?: string[] };
      startedAt = detail.started_at ?? startedAt;
      if (detail.delta) delta = { vanished: detail.vanished ?? [] };
    } catch {
      /* marker without detail */
    }
    const threshold = state?.lastCrawlStart;
    if (delta) {
      // A delta crawl re-emits only changed records and names what vanished: that has left the
      // listing now. Every other record it did not re-emit was read, unchanged, by it.
      for (const v of delta.vanished) {
        const sep = v.indexOf(':');
        this.dropNative(`${provider}|${v.slice(0, sep)}|${v.slice(sep + 1)}`, out);
      }
      if (threshold !== undefined) {
        for (const [nk, n] of this.natives)
          if (nk.startsWith(`${provider}|`) && n.readAt >= threshold && n.readAt < r.read_started_at) n.readAt = r.read_started_at;
        for (const w of this.awaitingRoster.values()) if (w.r.venue === provider && w.readAt >= threshold && w.readAt < r.read_started_at) w.readAt = r.read_started_at;
      }
    }
    // Records of one crawl sit on several partitions, so its marker can be read before some of its
    // records: prune only what the previous complete crawl did not list either (a delisting shows
    // one crawl later, never a flap).
    if (threshold !== undefined) {
      for (const [nk, n] of this.natives)
        if (nk.startsWith(`${provider}|`) && n.readId !== r.native_id && n.readAt < threshold) this.dropNative(nk, out);
      // A record waiting for a roster that two crawls did not list has left too (one with no market
      // admitted yet is no native).
      for (const [nk, w] of this.awaitingRoster)
        if (w.r.venue === provider && w.r.read_id !== r.native_id && w.readAt < threshold) this.awaitingRoster.delete(nk);
    }
    // Final records are kept a while, then forgotten (by the log's time, not a clock).
    for (const [k, h] of this.markets)
      if (h.probedAt !== undefined && h.m.provider === provider && r.read_started_at - h.probedAt > PROBED_KEEP_MS) this.drop(k, out);
    const lastCrawlStart = Math.max(startedAt, threshold ?? 0);
    const stale: string[] = [];
    let listedSince = Infinity;
    for (const [nk, n] of this.natives)
      if (nk.startsWith(`${provider}|`)) {
        if (n.readAt < lastCrawlStart) stale.push(nk.slice(provider.length + 1));
        else listedSince = Math.min(listedSince, n.readAt);
      }
    if (listedSince === Infinity) listedSince = lastCrawlStart;
    const current = this.positions.get(provider);
    const pos = current || copies ? new Map([...(current ?? []), ...(copies ?? [])]) : undefined;
    // Records read later than listedSince before the checkpoint: a restore reads them again.
    const reread: Record<string, string> = {};
    for (const [partition, times] of this.readTimes.get(provider) ?? []) {
      let from: bigint | undefined;
      for (const [t, o] of times)
        if (t <= listedSince) times.delete(t);
        else if (from === undefined || BigInt(o) < from) from = BigInt(o);
      const at = pos?.get(partition);
      if (from !== undefined && at !== undefined && from < BigInt(at)) reread[partition] = String(from);
    }
    const next: CrawlState = {
      lastCrawlStart,
      lastReadStart: Math.max(r.read_started_at, state?.lastReadStart ?? 0),
      applied: [...(state?.applied ?? []), r.native_id].slice(-MARKER_MEMORY),
      stale,
      listedSince,
      ...(pos ? { positions: Object.fromEntries(pos) } : {}),
      ...(Object.keys(reread).length ? { reread } : {}),
    };
    this.crawls.set(provider, next);
    out.push({ topic: 'matching.state', key: crawlStateKey(provider), value: crawlStateRecord(provider, next) });
  }
}

export function crawlStateRecord(provider: Provider, s: CrawlState): RawRecord {
  return { venue: provider, record_type: 'crawl_state', native_id: provider, read_started_at: s.lastReadStart, payload: JSON.stringify(s), read_id: null, source_url: null };
}

function toTopic(b: CanonicalBody): TopicValues['canonical.markets'] {
  const m = b.market;
  return {
    provider: m.provider,
    market_id: m.source.market_id,
    event_id: m.source.event_id,
    title: m.source.market_name,
    status: m.status,
    category: 'sports',
    league: m.league,
    market_type: m.marketType,
    read_started_at: m.observedAt,
    body_version: 1,
    body: JSON.stringify(b),
  };
}

/** The stage: one Canonicalizer per stage instance (a runner runs one). */
export function canonicalizeStage(): StageDef & { state: () => Canonicalizer } {
  let c = new Canonicalizer(new KeptReadings());
  return {
    name: 'canonicalize',
    // Its state spans every partition of its inputs: one replica runs it, another stands by.
    exclusive: true,
    inputs: [...RAW_TOPIC_IDS, 'reference.rosters'],
    // The crawl state says which crawls were applied: written after their deletions, never before.
    stateTopics: ['matching.state'],
    // About 140 us a record on a crawl's first reads (rules texts): 64 records keep a slice near
    // 10 ms of the event loop, which the API shares on the embedded default (bench/crawl-latency.md).
    sliceRecords: 64,
    state: () => c,
    async restore(ctx) {
      c = new Canonicalizer(new KeptReadings());
      await ctx.readCompacted('reference.rosters', (k, v) => k && c.roster(k, v));
      await ctx.readCompacted('matching.state', (k, v) => k && c.restoreState(k, v));
      await ctx.readCompacted('canonical.markets', (k, v) => k && c.restoreMarket(k, v));
      c.finishRestore();
      // What was read (and committed) after each venue's last applied marker, read again.
      for (const id of RAW_TOPIC_IDS) {
        const p = id.slice('raw.'.length) as Provider;
        const committed = await ctx.committed(id);
        if (committed.size) await ctx.readRange(id, c.replayFrom(p, committed), committed, (records) => c.replayAfterMarker(records));
        c.restoredUpTo(p, committed);
      }
    },
    handle(records: InRecord[]) {
      const out = records[0]?.topic === 'reference.rosters' ? c.rosterBatch(records as { key: string | null; value: RawRecord | null }[]) : c.ingestRecords(records);
      return { records: c.kept ? c.kept.writes(out) : out };
    },
  };
}
