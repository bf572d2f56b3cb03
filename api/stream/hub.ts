// The push stream's in-process hub: one per API process. In: the log, tailed by this process alone
// (Log.tail: no shared group, so no replica depends on another) from the earliest offset of the
// compacted topics `lifecycle.states` and `matched.events`. Out: the current sports entries, a
// bounded journal of recent changes, and every change handed to the subscribed connections, each
// with the log position after it (api/stream/position.ts).
//
// Resume: a client's position V names, per partition, the next offset it has not seen. What it
// missed is every change at or above V: from the journal while the journal reaches back that far,
// else folded from the current state (each event whose latest record is at or above V, with that
// record), which is what the compacted topic itself holds. A V older than the resume window, or from
// another topic layout, gets `reset` (see position.ts).
//
// Folded when read: the hub keeps each record as its bytes (deflated, in memory of their own, not a
// view of the batch's buffer) and inflates, decodes and parses an event's body (and a lifecycle
// snapshot's archive reason) only when a connection renders it, sends a snapshot or folds a resume,
// then keeps the parsed entry.
// What apply() needs of a record now, its key and its archive reason, is read without building the
// rest (Serde.projector: a reader schema of that field alone). On the embedded default the hub
// shares the API's event loop with the pipeline, and parsing every matched.events body and
// lifecycle snapshot of a crawl was work no client asked for (bench/crawl-latency.md); kept decoded,
// every event's record sat on the API thread's heap as strings until a client read it, about 20 MB
// at scale 1 with no client (bench/soak.md). A lifecycle snapshot is parsed only for a change whose
// own record carries no archive reason.
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import type { Log, LogRecord } from '../../pipelines/log/types.ts';
import type { RecordDecoder, Serde } from '../../pipelines/serde/index.ts';
import type { TopicMap } from '../../pipelines/topics.ts';
import type { LifecycleState as LifecycleRecord } from '../../pipelines/topics.ts';
import { entryOfRecord } from '../../pipelines/matching/stages/sports-snapshot.ts';
import type { SportsEntry } from '../../pipelines/matching/readmodel.ts';
import { CatchUp, Reach, covers, inWindow, decodeId, encodeId, layoutOf, maxPos, type Layout } from './position.ts';

/**
 * Why an event left a subscription: the lifecycle's archive reason, in the stream's three words, or
 * `filtered`: still listed, no longer in this subscription (sports.ts renderChange).
 */
export type RemovedReason = 'settled' | 'cancelled' | 'delisted' | 'filtered';

/** A rendered event: its type and its data as JSON (each transport frames it its own way). */
export interface Rendered {
  type: string;
  json: string;
  /**
   * The whole frame under the change's own id, encoded once and written to every connection that
   * sends it under that id (the live ones): one encoding per change, not one per client.
   */
  sse?: Buffer;
  ws?: string;
}

/** One record of `matched.events` as the hub saw it. */
export interface SportsChange {
  /** Index of its partition in the layout; its offset there. */
  part: number;
  offset: number;
  key: string;
  /** The entry before and after (undefined: not served / a tombstone). */
  prev: SportsEntry | undefined;
  next: SportsEntry | undefined;
  /** The last served entry, for a removal after a tombstone (which carries no body). */
  last: SportsEntry | undefined;
  reason: RemovedReason;
  /** Next offsets of every partition after this change, and its id. */
  pos: number[];
  id: string;
  /** Per-subscription rendering, shared by the connections with the same subscription. */
  rendered?: Map<string, Rendered | null>;
}

export interface Subscriber {
  /** Changes below this position (per partition) are skipped: the client has them. */
  from: number[];
  onChange(change: SportsChange, id: string): void;
}

export interface HubOptions {
  log: Log;
  serde: Serde;
  topics: TopicMap;
  /** Changes kept for resumes (older ones are folded from the current state). */
  journalSize?: number;
  /** Oldest resumable id, in ms (default one hour, well inside the tombstone retention of 24 h). */
  resumeMs?: number;
  clock?: () => number;
}

/** What a hub has parsed so far (tests read it: a hub that nobody reads parses nothing). */
export interface ParseCount {
  bodies: number;
  lifecycles: number;
}

/** A record kept as its (compressed) bytes and parsed the first time its value is read (then only the value is kept). */
class Lazy<S, T> {
  private source: S | undefined;
  private parsed = false;
  private result: T | undefined;
  constructor(
    source: S,
    private readonly parse: (source: S) => T,
    /** Told once, at the parse (the hub's ParseCount). */
    private readonly counted: () => void,
  ) {
    this.source = source;
  }
  get value(): T {
    if (!this.parsed) {
      this.result = this.parse(this.source!);
      this.parsed = true;
      this.source = undefined;
      this.counted();
    }
    return this.result!;
  }
}
/** A matched.events record's bytes (Kept), decoded and parsed into its served entry. */
type LazyEntry = Lazy<Kept, SportsEntry>;
/** A lifecycle.states record's bytes (Kept; null: a tombstone), its archive reason read from its snapshot. */
type LazyReason = Lazy<Kept | null, string | null>;

/**
 * A record's bytes as the hub keeps them, in memory of their own, then compressed (deflate at level 1).
 * The bodies and lifecycle snapshots are JSON of about 33-35 KB each at scale 1, 6-7 times smaller
 * deflated (0.7 against 4.5 MB for the 140 events of a soak's log); kept as they came, the hub's
 * records were as large as the strings they replaced (bench/soak.md). Deflated on libuv's pool, not
 * on the API's thread (about 1 ms a record under load: a crawl's batch would hold the event loop), and
 * after the batch has been applied and sent: a change reaches its clients without waiting for the
 * compression of its batch. Its own memory: a batch's values are views of the log's read buffer, or of
 * its structured clone across the pipeline thread's port, and a kept view would hold that buffer
 * whole (zlib's output is a view of its chunk too); not from Node's buffer pool either, where a kept
 * slice would pin its 8 KB slab.
 */
class Kept {
  private deflated = false;
  constructor(private bytes: Buffer) {}
  static of(b: Buffer | null): Kept | null {
    return b ? new Kept(ownCopy(b)) : null;
  }
  /** The record's bytes as written. */
  read(): Buffer {
    return this.deflated ? inflateRawSync(this.bytes) : this.bytes;
  }
  async compress(): Promise<void> {
    if (this.deflated) return;
    const z = await deflate(this.bytes, { level: 1 });
    this.bytes = ownCopy(z);
    this.deflated = true;
  }
}
const deflate = promisify(deflateRaw);

function ownCopy(b: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(b.length);
  b.copy(out);
  return out;
}

/** The serde's synchronous readers the hub keeps records with (avroSerde over a registry with ids, jsonSerde). */
type HubSerde = Serde & Required<Pick<Serde, 'decoder' | 'projector'>>;

/** An event as the hub holds it: its latest record, and the last body it served. */
class Held {
  constructor(
    /** Undefined when its record is a tombstone. */
    readonly lazyEntry: LazyEntry | undefined,
    readonly lazyLast: LazyEntry | undefined,
    readonly part: number,
    readonly offset: number,
    readonly at: number,
    /** The archive reason its record carried (matched.events archive_reason), if any. */
    readonly archiveReason: string | null,
  ) {}
  get entry(): SportsEntry | undefined {
    return this.lazyEntry?.value;
  }
  get last(): SportsEntry | undefined {
    return this.lazyLast?.value;
  }
  /** Its record is a tombstone (without parsing anything). */
  get removed(): boolean {
    return this.lazyEntry === undefined;
  }
}

/** A change as the hub records it: what it carries is parsed when a connection reads it. */
class LazyChange implements SportsChange {
  rendered?: Map<string, Rendered | null>;
  private reasonOf?: RemovedReason;
  constructor(
    readonly part: number,
    readonly offset: number,
    readonly key: string,
    private readonly prevLazy: LazyEntry | undefined,
    private readonly nextLazy: LazyEntry | undefined,
    private readonly lastLazy: LazyEntry | undefined,
    /** Its record's own archive reason, else the lifecycle's as the hub held it at the change. */
    private readonly own: string | null | undefined,
    private readonly lifecycle: LazyReason | undefined,
    readonly pos: number[],
    readonly id: string,
  ) {}
  get prev(): SportsEntry | undefined {
    return this.prevLazy?.value;
  }
  get next(): SportsEntry | undefined {
    return this.nextLazy?.value;
  }
  get last(): SportsEntry | undefined {
    return this.lastLazy?.value;
  }
  get reason(): RemovedReason {
    return (this.reasonOf ??= reasonOf(this.own ?? this.lifecycle?.value, this.nextLazy === undefined));
  }
}

/** The lifecycle's archive reason as one of the stream's words. */
export function reasonOf(archiveReason: string | null | undefined, tombstone: boolean): RemovedReason {
  if (archiveReason?.startsWith('cancelled')) return 'cancelled';
  if (archiveReason?.startsWith('delisted')) return 'delisted';
  // Settled by the venues, or the date plus the one-day grace passed (the game is over).
  if (archiveReason) return 'settled';
  return tombstone ? 'delisted' : 'settled';
}

export class StreamHub {
  readonly layout: Layout;
  readonly pos: number[];
  readonly entries = new Map<string, Held>();
  private readonly reasons = new Map<string, LazyReason>();
  private readonly journal: SportsChange[] = [];
  /** The journal holds every change at or above this position. */
  private journalFrom: number[];
  readonly subscribers = new Set<Subscriber>();
  private readonly tail;
  private readonly journalSize: number;
  readonly resumeMs: number;
  readonly clock: () => number;
  private readonly catchUp = new CatchUp();
  private readonly reach = new Reach();
  private lastId: string;
  /** Changes applied since start (tests and the bench wait on it). */
  changes = 0;
  /** Bodies and lifecycle snapshots parsed since start. */
  readonly parsed: ParseCount = { bodies: 0, lifecycles: 0 };

  private constructor(
    private readonly opts: HubOptions,
    layout: Layout,
  ) {
    this.layout = layout;
    this.pos = layout.parts.map(() => 0);
    this.journalFrom = layout.parts.map(() => 0);
    this.journalSize = opts.journalSize ?? 20_000;
    this.resumeMs = opts.resumeMs ?? 3_600_000;
    this.clock = opts.clock ?? Date.now;
    this.lastId = encodeId(layout, this.clock(), this.pos);
    const { topics } = opts;
    this.tail = opts.log.tail({ topics: [topics['lifecycle.states'].name, topics['matched.events'].name] });
  }

  static async start(opts: HubOptions): Promise<StreamHub> {
    const { topics, log } = opts;
    if (!opts.serde.decoder || !opts.serde.projector) throw new Error("the push stream's hub keeps records as bytes and reads them synchronously: its serde needs decoder() and projector() (avroSerde over a registry with ids, or jsonSerde)");
    const defs = [topics['lifecycle.states'], topics['matched.events']];
    const parts = await Promise.all(defs.map(async (d) => ({ name: d.name, partitions: (await log.topicOffsets(d.name)).length })));
    const hub = new StreamHub(opts, layoutOf(parts));
    const highs: number[] = [];
    for (const d of defs) for (const o of await log.topicOffsets(d.name)) highs.push(Number(o.high));
    hub.catchUp.setTarget(highs, hub.pos);
    await hub.tail.run((batch) => hub.apply(batch.topic, batch.partition, batch.records));
    return hub;
  }

  /** Resolves once the hub has read what the log held when it started (false after `ms`). */
  ready(ms: number): Promise<boolean> {
    return this.catchUp.wait(ms);
  }

  /** The id of the current position (a snapshot's id). */
  currentId(): string {
    return this.lastId;
  }

  private async apply(topic: string, partition: number, records: LogRecord[]): Promise<void> {
    const part = this.layout.index.get(`${topic}|${partition}`);
    if (part === undefined) return;
    const serde = this.opts.serde as HubSerde;
    const lifecycle = topic === this.opts.topics['lifecycle.states'].name;
    if (lifecycle) {
      const d = await serde.decoder(this.opts.topics['lifecycle.states'], records);
      const kept = records.map((r) => Kept.of(r.value));
      const parse = (k: Kept | null) => archiveReasonOf(k && d.value({ value: k.read() }));
      for (const [i, r] of records.entries()) {
        const key = d.key(r);
        if (key !== null) this.reasons.set(key, new Lazy(kept[i] ?? null, parse, () => this.parsed.lifecycles++));
      }
      this.pos[part] = Number(records[records.length - 1]!.offset) + 1;
      this.catchUp.check(this.pos);
      this.reach.check(this.pos);
      this.compressLater(kept);
      return;
    }
    const t = this.opts.topics['matched.events'];
    const [d, reasons] = await Promise.all([serde.decoder(t, records), serde.projector(t, records, ['archive_reason'])]);
    const kept = records.map((r) => Kept.of(r.value));
    const parse = entryParser(d);
    const now = this.clock();
    for (const [i, r] of records.entries()) {
      const offset = Number(r.offset);
      this.pos[part] = offset + 1;
      const key = d.key(r);
      if (key === null) continue;
      const held = this.entries.get(key);
      const k = kept[i];
      const next = k ? new Lazy(k, parse, () => this.parsed.bodies++) : undefined;
      // Absent (a record written before the field) reads as its default, null.
      const archiveReason = reasons(r)?.archive_reason ?? null;
      const prev = held?.lazyEntry;
      const last = next ?? held?.lazyLast;
      const pos = this.pos.slice();
      const id = encodeId(this.layout, now, pos);
      this.lastId = id;
      // The record's own archive reason first: lifecycle.states is another topic, which a tail may
      // read after this one (seen on Kafka); the map serves older records and tombstones.
      const change = new LazyChange(part, offset, key, prev, next, last, archiveReason, this.reasons.get(key), pos, id);
      this.entries.set(key, new Held(next, last, part, offset, now, archiveReason));
      this.record(change);
      this.changes++;
      for (const s of this.subscribers) {
        if (offset < s.from[part]!) continue;
        s.onChange(change, covers(pos, s.from) ? id : encodeId(this.layout, now, maxPos(pos, s.from)));
      }
    }
    this.catchUp.check(this.pos);
    this.reach.check(this.pos);
    this.prune(now);
    this.compressLater(kept);
  }

  /** Batches' records compressed one after another, in the order applied: one zlib state at a time (each holds about 300 KB while it runs). */
  private compressing: Promise<void> = Promise.resolve();
  private compressLater(kept: Array<Kept | null>): void {
    this.compressing = this.compressing.then(async () => {
      for (const k of kept) {
        // A record that fails to compress stays as it came: only its memory is at stake.
        if (k) await k.compress().catch(() => {});
      }
    });
  }

  private record(c: SportsChange): void {
    this.journal.push(c);
    if (this.journal.length > this.journalSize + this.journalSize / 10) {
      const dropped = this.journal.splice(0, this.journal.length - this.journalSize);
      for (const d of dropped) this.journalFrom[d.part] = Math.max(this.journalFrom[d.part]!, d.offset + 1);
    }
  }

  private lastPrune = 0;
  /** Removed events are held for the resume window only (a fold needs them no longer). */
  private prune(now: number): void {
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    for (const [k, h] of this.entries) if (h.removed && now - h.at > this.resumeMs) this.entries.delete(k);
  }

  /**
   * What a client at `id` missed, in order per partition, with the id each is sent under; 'reset'
   * when the id is not resumable here; 'ahead' when it names a position this hub has not read yet
   * (wait with reached(), then ask again). Synchronous: subscribe in the same turn and nothing falls
   * between the two.
   */
  missedSince(id: string): { from: number[]; changes: Array<{ change: SportsChange; id: string }> } | 'reset' | 'ahead' {
    const v = decodeId(this.layout, id);
    const now = this.clock();
    if (!v || !inWindow(v.at, now, this.resumeMs)) return 'reset';
    if (!covers(this.pos, v.pos)) return 'ahead';
    const from = v.pos;
    const out: Array<{ change: SportsChange; id: string }> = [];
    if (covers(from, this.journalFrom)) {
      // After a journal change the hub had every record below its position: later ones are above it.
      for (const c of this.journal) if (c.offset >= from[c.part]!) out.push({ change: c, id: covers(c.pos, from) ? c.id : encodeId(this.layout, now, maxPos(c.pos, from)) });
    } else {
      // Folded: each event's latest record at or above the client's position, by partition and
      // offset, so the id after each says: earlier partitions done, this one up to here, later ones
      // where the client was.
      const upTo = maxPos(from, this.pos);
      const held = [...this.entries].filter(([, h]) => h.offset >= from[h.part]!).sort((a, b) => a[1].part - b[1].part || a[1].offset - b[1].offset);
      for (const [key, h] of held) {
        const pos = upTo.map((x, j) => (j < h.part || this.layout.parts[j]!.startsWith(this.opts.topics['lifecycle.states'].name + '|') ? x : j === h.part ? h.offset + 1 : from[j]!));
        // The client's view of it is unknown: a removal is sent when its last body matches.
        const c = new LazyChange(h.part, h.offset, key, h.removed ? h.lazyLast : undefined, h.lazyEntry, h.lazyLast, h.archiveReason, this.reasons.get(key), pos, encodeId(this.layout, now, pos));
        out.push({ change: c, id: c.id });
      }
    }
    return { from: maxPos(from, this.pos), changes: out };
  }

  /** Resolves true once this hub has read as far as `id` names (an id of this layout), false after `ms`. */
  reached(id: string, ms: number): Promise<boolean> {
    const v = decodeId(this.layout, id);
    return v ? this.reach.wait(this.pos, v.pos, ms) : Promise.resolve(false);
  }

  async stop(): Promise<void> {
    this.subscribers.clear();
    this.reach.stop();
    await this.tail.stop();
  }
}

/** A batch's matched.events bytes into the served entry (the decoder holds only the batch's schema resolvers). */
function entryParser(d: RecordDecoder<'matched.events'>): (k: Kept) => SportsEntry {
  return (k) => entryOfRecord(d.value({ value: k.read() })!);
}

function archiveReasonOf(v: LifecycleRecord | null): string | null {
  if (!v) return null;
  try {
    const snap = JSON.parse(v.snapshot) as { context?: { archiveReason?: string | null } };
    return snap.context?.archiveReason ?? null;
  } catch {
    return null;
  }
}
