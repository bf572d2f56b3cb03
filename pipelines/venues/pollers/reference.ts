// What every reference poller shares (the rosters, venue_1's fee schedules): data read apart from
// the venues' listings, every intervalMs, written to a compacted `reference.*` topic only when a
// key's payload differs from what was last written (what the topic holds is read back at start:
// writtenReference), so a restart or a replay reads the same reference data and a quiet round
// writes nothing. A subclass says only what one round reads (readRound); the rounds, their timer,
// the change test, the tombstones and the stop live here.
import type { Log, Producer } from '../../log/types.ts';
import { restoreContext } from '../../runtime/runner.ts';
import type { Serde } from '../../serde/index.ts';
import type { RawRecord, TopicMap } from '../../topics.ts';
import { readDeadline } from '../client/http.ts';
import { silentLogger, type PollerLogger } from './poller.ts';

export type ReferenceTopic = 'reference.rosters' | 'reference.fee_schedules';

/** The latest payload of each key on a reference topic (a compacted topic: its current state). */
export async function writtenReference(deps: { log: Log; serde: Serde; topics: TopicMap }, topic: ReferenceTopic): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await restoreContext(deps, `${deps.topics[topic].name}.pollers`).readCompacted(topic, (k, v) => {
    if (k === null) return;
    if (v) out.set(k, v.payload);
    else out.delete(k);
  });
  return out;
}

/**
 * One key's read in a round: its record, or `null` when the source says it has none (a tombstone,
 * written only if the key holds something), `'failed'` (nothing written: what was last read stays in
 * force, tried again next round) or `'gap'` (nothing written, nothing to count: the source never had it).
 */
export type ReferenceRead = { key: string; value: RawRecord | null } | 'failed' | 'gap';

export interface ReferencePollerOptions {
  producer: Producer;
  serde: Serde;
  topics: TopicMap;
  intervalMs: number;
  deadlineMs: number;
  logger?: PollerLogger;
  clock?: () => number;
  /** What the topic holds (key -> payload, writtenReference()): a restart writes only what changed since. */
  written?: Iterable<[string, string]>;
}

export abstract class ReferencePoller<O extends ReferencePollerOptions = ReferencePollerOptions> {
  protected readonly written: Map<string, string>;
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  protected readonly stopController = new AbortController();
  /** Completed rounds (tests and status). */
  rounds = 0;

  /** The topic written, the source named in logs and what one key is ('roster', 'fee schedule'). */
  protected abstract readonly topic: ReferenceTopic;
  protected abstract readonly source: string;
  protected abstract readonly what: string;

  constructor(protected readonly o: O) {
    this.written = new Map(o.written ?? []);
  }

  /** Reads every key of one round; a read's failure is its own ('failed'), never the round's. */
  protected abstract readRound(clock: () => number): Promise<ReferenceRead[]>;

  /**
   * One read under its own signal: the deadline, or the stop, whichever comes first; released when
   * the read ends (readDeadline says why not AbortSignal.any).
   */
  protected async withReadSignal<T>(read: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = readDeadline(this.stopController.signal, this.o.deadlineMs);
    try {
      return await read(deadline.signal);
    } finally {
      deadline.release();
    }
  }

  start(): void {
    if (this.timer) return;
    void this.runRound();
    this.timer = setInterval(() => void this.runRound(), this.o.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopController.abort();
    await this.round;
  }

  /** One round over every key; resolves when its changed records are in the log. */
  runRound(): Promise<void> {
    if (this.round) return this.round;
    this.round = this.readAll()
      .catch((err) => (this.o.logger ?? silentLogger).warn({ venue: this.source, err: String(err) }, `${this.what} round failed; next round tries again`))
      .finally(() => {
        this.round = null;
      });
    return this.round;
  }

  private async readAll(): Promise<void> {
    const reads = await this.readRound(this.o.clock ?? Date.now);
    if (this.stopController.signal.aborted) return;
    let failed = 0;
    const changed: { key: string; value: RawRecord | null }[] = [];
    for (const r of reads) {
      if (r === 'failed') failed++;
      else if (r === 'gap') continue;
      else if (r.value === null) {
        if (this.written.has(r.key)) changed.push(r);
      } else if (this.written.get(r.key) !== r.value.payload) changed.push(r);
    }
    if (failed) (this.o.logger ?? silentLogger).warn({ venue: this.source, failed }, `${this.what} reads failed; they are tried again next round`);
    if (changed.length) {
      const topic = this.o.topics[this.topic];
      await this.o.producer.send(topic.name, await Promise.all(changed.map((c) => this.o.serde.encode(topic, c.key, c.value))));
      for (const c of changed) {
        if (c.value) this.written.set(c.key, c.value.payload);
        else this.written.delete(c.key);
      }
    }
    this.rounds++;
  }
}
