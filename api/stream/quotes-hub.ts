// The quotes channel's in-process hub: one per API process, beside the sports hub (hub.ts) and built
// the same way. In: the raw venue topics `raw.venue_1` .. `raw.venue_9`, tailed by this process
// alone (Log.tail: no shared group, so no replica depends on another): the quotes enter the log
// there, as the pollers read them (pipelines/TOPICS.md; `canonical.markets` carries sports markets
// only, and no quotes). The raw topics keep days of reads, so the tail starts at the first record of
// `fromTime` (the last full crawls re-read every open market after it; older ids get the folded
// state). Out: the current quote of every
// market the log has quoted, a bounded journal of changes, and each change handed to the subscribed
// connections with the log position after it (position.ts), so a client resumes on any replica.
//
// A change is a market whose quote differs from the last one the log gave it (quotes.ts
// `fingerprint`): a poll that reads the same quotes again, or a market nobody trades, sends nothing.
//
// One record can quote several markets (a venue_7 event, a venue_9 parent, a venue_5 question).
// The id of a change before the record's last one names the record as not yet done plus how many
// of its changes were (`<layout>-<time>-<offsets>-<partition>.<count>`), so a client that drops
// between two of them resumes with the rest of the record, none twice.
import type { Log, LogRecord } from '../../pipelines/log/types.ts';
import type { Serde } from '../../pipelines/serde/index.ts';
import { PROVIDERS, rawTopicId, type TopicMap } from '../../pipelines/topics.ts';
import { CatchUp, Reach, covers, inWindow, decodeId, encodeId, layoutOf, maxPos, subscriptionTag, tagged, type Layout } from './position.ts';
import { quotesOfRecord } from './quotes.ts';
import { AHEAD_MS, Outbox, resumeStart, type ConnectionOptions, type Sink } from './connection.ts';

/** A record not yet done at a position: its partition and how many of its changes were sent. */
export interface Within {
  part: number;
  count: number;
}

export interface QuoteChange {
  part: number;
  offset: number;
  /** Its place among the changes of its record. */
  index: number;
  /** The market's composite id and every composite form naming it. */
  key: string;
  ids: string[];
  /** The `quote` event's data as JSON (market detail's outcomes and pricing), shared by every connection that sends it. */
  json: string;
  pos: number[];
  within: Within | null;
  id: string;
}

/**
 * A market's last quote, held by every replica for every market the log has quoted (a million at
 * the largest scale): its event data as one JSON string (about 500 characters), which is also what
 * a snapshot and a resume send, and a digest of what a change is judged on, not the quote's object
 * graph and a JSON fingerprint repeating it (bench/quotes.md: about 10% less heap per market).
 */
interface Held {
  json: string;
  ids: string[];
  fingerprint: string;
  part: number;
  offset: number;
  index: number;
}

export interface QuoteSubscriber {
  from: number[];
  within: Within | null;
  onChange(change: QuoteChange, id: string): void;
}

export interface QuotesHubOptions {
  log: Log;
  serde: Serde;
  topics: TopicMap;
  journalSize?: number;
  resumeMs?: number;
  clock?: () => number;
  /** Read the raw topics from the first record at or after this time (default: all they hold). */
  fromTime?: number;
}

export function encodeQuoteId(layout: Layout, at: number, pos: readonly number[], within: Within | null): string {
  const id = encodeId(layout, at, pos);
  return within ? `${id}-${within.part.toString(36)}.${within.count.toString(36)}` : id;
}

const WITHIN = /^([0-9a-z]{1,4})\.([0-9a-z]{1,6})$/;

export function decodeQuoteId(layout: Layout, id: string): { at: number; pos: number[]; within: Within | null } | null {
  const parts = id.split('-');
  let within: Within | null = null;
  if (parts.length > 4) return null;
  if (parts.length === 4) {
    const m = WITHIN.exec(parts[3]!);
    if (!m) return null;
    within = { part: parseInt(m[1]!, 36), count: parseInt(m[2]!, 36) };
    if (within.part >= layout.parts.length || within.count < 1) return null;
  }
  const v = decodeId(layout, parts.slice(0, 3).join('-'));
  return v ? { ...v, within } : null;
}

/** Whether a client at (from, within) already has this change. */
function has(from: readonly number[], within: Within | null, c: { part: number; offset: number; index: number }): boolean {
  if (c.offset < from[c.part]!) return true;
  return within !== null && within.part === c.part && c.offset === from[c.part] && c.index < within.count;
}

export class QuotesHub {
  readonly layout: Layout;
  readonly pos: number[];
  readonly markets = new Map<string, Held>();
  /** Every composite form of a market the log has quoted, to its composite id. */
  readonly names = new Map<string, string>();
  private readonly journal: QuoteChange[] = [];
  private journalFrom: number[];
  readonly subscribers = new Set<QuoteSubscriber>();
  private readonly tail;
  private readonly journalSize: number;
  readonly resumeMs: number;
  readonly clock: () => number;
  private readonly catchUp = new CatchUp();
  private readonly reach = new Reach();
  private lastId: string;
  /** Raw records applied and quote changes found since start (tests wait on them). */
  records = 0;
  changes = 0;

  private constructor(
    private readonly opts: QuotesHubOptions,
    layout: Layout,
    topicNames: string[],
    /** Where the hub's positions start, per topic and partition (absent: 0). */
    from: Map<string, Map<number, string>> | undefined,
    /** Where the tail starts reading, where that is above the earliest retained offset. */
    seek: Map<string, Map<number, string>> | undefined,
  ) {
    this.layout = layout;
    this.pos = layout.parts.map((k) => {
      const [t, p] = k.split('|');
      return Number(from?.get(t!)?.get(Number(p)) ?? 0);
    });
    // Nothing below the start was journaled: a resume from there is folded.
    this.journalFrom = this.pos.slice();
    this.journalSize = opts.journalSize ?? 20_000;
    this.resumeMs = opts.resumeMs ?? 3_600_000;
    this.clock = opts.clock ?? Date.now;
    this.lastId = encodeId(layout, this.clock(), this.pos);
    this.tail = opts.log.tail({ topics: topicNames, from: seek });
  }

  static async start(opts: QuotesHubOptions): Promise<QuotesHub> {
    const defs = PROVIDERS.map((p) => opts.topics[rawTopicId(p)]);
    const offsets = await Promise.all(defs.map((d) => opts.log.topicOffsets(d.name)));
    const t = opts.fromTime;
    const from = t === undefined ? undefined : new Map(await Promise.all(defs.map(async (d) => [d.name, await opts.log.offsetsForTime(d.name, t)] as const)));
    // Seek only where there is something to skip. On Kafka the tail's one consumer seeks every topic's
    // start together once it has joined (pipelines/log/tail.ts), so nine topics cost one join.
    const lows = new Map(defs.map((d, i) => [d.name, new Map(offsets[i]!.map((o) => [o.partition, Number(o.low)]))]));
    const seek = from && new Map([...from].map(([topic, parts]) => [topic, new Map([...parts].filter(([p, o]) => Number(o) > (lows.get(topic)?.get(p) ?? 0)))]));
    const hub = new QuotesHub(opts, layoutOf(defs.map((d, i) => ({ name: d.name, partitions: offsets[i]!.length }))), defs.map((d) => d.name), from, seek);
    hub.catchUp.setTarget(offsets.flatMap((os) => os.map((o) => Number(o.high))), hub.pos);
    // Not awaited: reaching the raw topics may take a while (the join, then the read from the starts),
    // and the API and the other channels do not wait for it; channel=quotes answers 503 until the hub
    // has caught up.
    hub.running = hub.tail.run((batch) => hub.apply(batch.topic, batch.partition, batch.records)).catch((err: unknown) => {
      hub.failure = err;
      console.error('quotes hub: the tail of the raw venue topics failed; channel=quotes answers 503:', err);
    });
    return hub;
  }

  /** The tail's run (resolves once it is reading); a failure of it, after which the hub is never ready. */
  private running: Promise<void> | null = null;
  failure: unknown = undefined;

  ready(ms: number): Promise<boolean> {
    return this.catchUp.wait(ms);
  }

  currentId(): string {
    return this.lastId;
  }

  /** The composite id of a market the log has quoted under this composite form, if any. */
  resolve(composite: string): string | undefined {
    return this.names.get(composite);
  }

  private async apply(topic: string, partition: number, records: LogRecord[]): Promise<void> {
    const part = this.layout.index.get(`${topic}|${partition}`);
    if (part === undefined) return;
    const provider = topic.slice(topic.lastIndexOf('raw.') + 4);
    const decoded = await this.opts.serde.decodeMany(this.opts.topics[rawTopicId(provider as (typeof PROVIDERS)[number])], records);
    const now = this.clock();
    for (let i = 0; i < records.length; i++) {
      const v = decoded[i]!.value;
      const offset = Number(records[i]!.offset);
      this.records++;
      const found = v ? quotesOfRecord(v.venue, v.record_type, v.payload, Number(v.read_started_at)) : [];
      const changed = found.filter((q) => this.markets.get(q.id)?.fingerprint !== q.fingerprint).map((q) => ({ ...q, json: JSON.stringify(q.body) }));
      changed.forEach((q, index) => {
        const last = index === changed.length - 1;
        const pos = this.pos.slice();
        pos[part] = last ? offset + 1 : offset;
        const within = last ? null : { part, count: index + 1 };
        const id = encodeQuoteId(this.layout, now, pos, within);
        const ids = [q.id, ...q.aliases];
        for (const n of ids) this.names.set(n, q.id);
        this.markets.set(q.id, { json: q.json, ids, fingerprint: q.fingerprint, part, offset, index });
        const change: QuoteChange = { part, offset, index, key: q.id, ids, json: q.json, pos, within, id };
        this.lastId = id;
        this.record(change);
        this.changes++;
        for (const s of this.subscribers) {
          if (has(s.from, s.within, change)) continue;
          s.onChange(change, covers(pos, s.from) ? id : encodeQuoteId(this.layout, now, maxPos(pos, s.from), within));
        }
      });
      this.pos[part] = offset + 1;
      if (!changed.length) this.lastId = encodeId(this.layout, now, this.pos);
    }
    this.catchUp.check(this.pos);
    this.reach.check(this.pos);
  }

  private record(c: QuoteChange): void {
    this.journal.push(c);
    if (this.journal.length > this.journalSize + this.journalSize / 10) {
      const dropped = this.journal.splice(0, this.journal.length - this.journalSize);
      // A record partly dropped is wholly out of the journal's reach.
      for (const d of dropped) this.journalFrom[d.part] = Math.max(this.journalFrom[d.part]!, d.offset + 1);
    }
  }

  /**
   * What a client at `id` missed, in log order, with the id each is sent under; 'reset' when the id
   * is not resumable here; 'ahead' when it names a position this hub has not read yet (wait with
   * reached(), then ask again). Synchronous: subscribe in the same turn and nothing falls between.
   */
  missedSince(id: string): { from: number[]; within: Within | null; changes: Array<{ change: QuoteChange; id: string }> } | 'reset' | 'ahead' {
    const v = decodeQuoteId(this.layout, id);
    const now = this.clock();
    if (!v || !inWindow(v.at, now, this.resumeMs)) return 'reset';
    if (!covers(this.pos, v.pos)) return 'ahead';
    const { pos: from, within } = v;
    const out: Array<{ change: QuoteChange; id: string }> = [];
    if (covers(from, this.journalFrom)) {
      for (const c of this.journal) {
        if (has(from, within, c)) continue;
        out.push({ change: c, id: covers(c.pos, from) ? c.id : encodeQuoteId(this.layout, now, maxPos(c.pos, from), c.within) });
      }
    } else {
      // Folded from the current state: each market's latest change the client has not seen, by
      // partition, offset and place in its record; the id after each says: earlier partitions done,
      // this one up to here, later ones where the client was.
      const upTo = maxPos(from, this.pos);
      const held = [...this.markets].filter(([, h]) => !has(from, within, h)).sort((a, b) => a[1].part - b[1].part || a[1].offset - b[1].offset || a[1].index - b[1].index);
      held.forEach(([key, h], i) => {
        const next = held[i + 1]?.[1];
        // Not the last one of its record sent here: the record is not done yet.
        const open = next !== undefined && next.part === h.part && next.offset === h.offset;
        const pos = upTo.map((x, j) => (j < h.part ? x : j === h.part ? (open ? h.offset : h.offset + 1) : from[j]!));
        const w = open ? { part: h.part, count: h.index + 1 } : null;
        const c: QuoteChange = { part: h.part, offset: h.offset, index: h.index, key, ids: h.ids, json: h.json, pos, within: w, id: encodeQuoteId(this.layout, now, pos, w) };
        out.push({ change: c, id: c.id });
      });
    }
    const upTo = maxPos(from, this.pos);
    // The record the client was inside is still ahead of this hub: its remaining changes come live.
    const still = within && upTo[within.part] === from[within.part] ? within : null;
    return { from: upTo, within: still, changes: out };
  }

  /** Resolves true once this hub has read as far as `id` names (an id of this layout), false after `ms`. */
  reached(id: string, ms: number): Promise<boolean> {
    const v = decodeQuoteId(this.layout, id);
    return v ? this.reach.wait(this.pos, v.pos, ms) : Promise.resolve(false);
  }

  async stop(): Promise<void> {
    this.subscribers.clear();
    this.reach.stop();
    await this.tail.stop();
    // A run still joining sees the stop and ends without reading.
    await this.running;
  }
}

/** One subscriber of the quotes channel over either transport: the markets it named. */
export class QuotesConnection implements QuoteSubscriber {
  from: number[] = [];
  within: Within | null = null;
  private readonly out: Outbox;
  private readonly wanted: Set<string>;

  constructor(
    private readonly hub: QuotesHub,
    /** Composite ids, as resolved from the client's market_id values, in the order sent. */
    private readonly ids: readonly string[],
    sink: Sink,
    opts: ConnectionOptions,
  ) {
    this.wanted = new Set(ids);
    this.tag = subscriptionTag(`quotes:${[...this.wanted].sort().join(' ')}`);
    this.aheadMs = opts.aheadMs ?? AHEAD_MS;
    this.out = new Outbox(sink, opts, () => this.hub.subscribers.delete(this));
  }

  private readonly aheadMs: number;
  private readonly tag: string;

  get sent(): number {
    return this.out.sent;
  }

  private mine(c: { ids: readonly string[] }): boolean {
    return c.ids.some((x) => this.wanted.has(x));
  }

  start(lastEventId: string | undefined, unreached = false): void {
    const missed = resumeStart(this.hub, { lastEventId, tag: this.tag, unreached, aheadMs: this.aheadMs }, this.out, (u) =>
      this.start(lastEventId, u),
    );
    if (missed === undefined) return;
    if (missed === null || missed === 'reset') {
      this.from = this.hub.pos.slice();
      this.within = null;
      const data: string[] = [];
      const seen = new Set<string>();
      for (const id of this.ids) {
        const key = this.hub.resolve(id);
        const h = key === undefined ? undefined : this.hub.markets.get(key);
        if (h && !seen.has(key!)) {
          seen.add(key!);
          data.push(h.json);
        }
      }
      // The quotes are held as JSON already: the snapshot's data is their list.
      this.out.send(tagged(this.hub.currentId(), this.tag), 'snapshot', `{"channel":"quotes","data":[${data.join(',')}]}`);
    } else {
      this.from = missed.from;
      this.within = missed.within;
      for (const m of missed.changes) if (this.mine(m.change)) this.out.send(tagged(m.id, this.tag), 'quote', m.change.json);
    }
    if (this.out.closed) return;
    this.hub.subscribers.add(this);
    this.out.startHeartbeat();
  }

  onChange(change: QuoteChange, id: string): void {
    if (this.out.closed || !this.mine(change)) return;
    this.out.send(tagged(id, this.tag), 'quote', change.json);
  }

  close(): void {
    this.out.close();
  }
}
