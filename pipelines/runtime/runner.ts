// The stage runner: runs one StageDef (types.ts) as a consumer group on the log. In: batches of one
// topic-partition from the log. Out: the stage's output records produced to their topics, its
// history rows inserted, its snapshot documents written, and only then the batch committed (the log
// commits when the batch handler resolves). Any failure rejects the batch handler, so nothing is
// committed and the log redelivers the batch: the sinks' idempotence (ReplacingMergeTree keys,
// offset-versioned documents) makes the second delivery change nothing that the first one wrote.
import { randomBytes } from 'node:crypto';
import type { Batch, Consumer, Log, LogRecord, OutgoingRecord, Producer } from '../log/types.ts';
import type { History } from '../readmodels/history.ts';
import type { SnapshotStore, Versioned } from '../readmodels/snapshots.ts';
import type { RecordDecoder, Serde } from '../serde/index.ts';
import { topicByName, type TopicDef, type TopicId, type TopicMap } from '../topics.ts';
import { pipelineMetrics, type PipelineMetrics } from './metrics.ts';
import type { BatchContext, EncodedOutputs, EncodedStageOutput, InRecord, OutRecord, RestoreContext, SnapshotWrite, StageDef, StageOutput } from './types.ts';
import type { StageOffload } from './history-host.ts';
import { historyFromAvroFirst } from './avro-history.ts';

export interface RuntimeDeps {
  log: Log;
  serde: Serde;
  topics: TopicMap;
  history?: History;
  store?: SnapshotStore;
  metrics?: PipelineMetrics;
  /** Shared producer; one is opened (and closed with the runner) when absent. */
  producer?: Producer;
  /**
   * Runs some stages' handler and history writes elsewhere (history-host.ts: chdb and the history
   * sinks on a worker thread in the embedded default). The runner still consumes and commits: only
   * where the stage's decode, handler and history writes happen changes.
   */
  offload?: StageOffload;
  onError?: (err: unknown, where: { stage: string; topic: string; partition: number }) => void;
}

/** The topic-map prefix ('' in production). */
export function topicPrefix(topics: TopicMap): string {
  const t = topics['canonical.markets'];
  return t.name.slice(0, t.name.length - t.id.length);
}

/** Consumer group of a stage: '<topic prefix>stage.<name>'. */
export function stageGroupId(def: Pick<StageDef, 'name'>, topics: TopicMap): string {
  return `${topicPrefix(topics)}stage.${def.name}`;
}

/** Sum of (high watermark - committed offset) per input topic of a group. */
export async function groupLag(log: Log, groupId: string, topicNames: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of topicNames) {
    const [offsets, committed] = await Promise.all([log.topicOffsets(name), log.groupOffsets(groupId, name)]);
    let lag = 0;
    for (const p of offsets) {
      const done = committed.get(p.partition) ?? p.low;
      lag += Math.max(0, Number(p.high) - Math.max(Number(done), Number(p.low)));
    }
    out.set(name, lag);
  }
  return out;
}

/**
 * The runners of this process that have started and not yet stopped: an operator's stop that runs
 * out of time abandons their batches in flight (abandonInFlight).
 */
const started = new Set<StageRunner>();

/**
 * Abandons every batch and tick in flight in this process's runners: each one's handler rejects at
 * once with `reason`, so the log commits nothing for it and redelivers it after a restart
 * (at-least-once), and stop() returns without waiting for the work, which may run on (a chdb insert
 * on the history worker, a handle on the stage thread) until its thread is ended. Whatever that work
 * still finishes is never committed, and its outputs are not sent. Batches that come after (a runner
 * not yet stopped) fail the same way until it stops. Returns how many runners it reached.
 */
export function abandonInFlight(reason: Error): number {
  const n = started.size;
  for (const r of started) r.abandon(reason);
  return n;
}

export class StageRunner {
  readonly groupId: string;
  /** The log's consumer, or the stage run elsewhere (StageOffload.consume) in its place. */
  private consumer: Pick<Consumer, 'stop'> | null = null;
  private running: Promise<void> | null = null;
  private producer: Producer | null = null;
  private ownProducer = false;
  private removeLag: (() => void) | null = null;
  private readonly inputs: TopicDef[];
  private readonly metrics: PipelineMetrics;
  /** The error that stopped run(), if any. */
  failure: unknown = null;
  private ticker: NodeJS.Timeout | null = null;
  /** False while this replica stands by (an exclusive stage given no partitions): no ticks then. */
  private active = true;
  /** Became active after standing by: the state it restored at start is old, restore it again first. */
  private restoreAgain = false;
  /** Batches and ticks run one at a time: a tick sees the state of whole batches only. */
  private turn: Promise<unknown> = Promise.resolve();
  /** This runner among all (BatchContext.claim): a restart or a replay is a new runner. */
  private readonly runId = randomBytes(6).toString('hex');
  /** Rebalances this runner's consumer went through (where the log tells: kafkajs). */
  private assignments = 0;
  /**
   * Called by abandon() (the stop's deadline has passed): the rejections of the batches and ticks in
   * flight, and the stop waiting on them. A set, not one never-settling promise raced against every
   * batch: each race would leave its reaction on that promise for the life of the process.
   */
  private readonly inFlight = new Set<(e: Error) => void>();
  private abandonedWith: Error | null = null;

  constructor(
    readonly def: StageDef,
    private readonly deps: RuntimeDeps,
  ) {
    this.groupId = stageGroupId(def, deps.topics);
    this.inputs = def.inputs.map((id) => deps.topics[id]);
    this.metrics = deps.metrics ?? pipelineMetrics;
    const sinks = def.sinks ?? {};
    if (sinks.tables?.length && !deps.history) throw new Error(`stage ${def.name} writes history but no History was given`);
    // Records that go the Avro way never reach handle(), so nothing but those rows may come of them.
    if (def.avroHistory && (sinks.snapshotPrefixes?.length || sinks.snapshotNames?.length || sinks.tables?.some((t) => t !== def.avroHistory!.table)))
      throw new Error(`stage ${def.name} has an avroHistory map, so its only output must be ${def.avroHistory.table} rows`);
    if ((sinks.snapshotPrefixes?.length || sinks.snapshotNames?.length) && !deps.store)
      throw new Error(`stage ${def.name} writes snapshots but no SnapshotStore was given`);
  }

  /** Starts consuming; resolves once the consumer is running (batches arrive in the background). */
  async start(): Promise<void> {
    if (this.consumer) throw new Error(`stage ${this.def.name} is already running`);
    const { log } = this.deps;
    // A store that forgets on restart (the in-process one) is rebuilt from the topics: the group
    // starts again from the earliest offset. Its writes are offset-versioned, so nothing doubles.
    // A stage that restores its state itself (and publishes it whole) needs no rewind; on Kafka the
    // rewind would also fail while a killed member is still in the group.
    const writesStore = Boolean(this.def.sinks?.snapshotPrefixes?.length || this.def.sinks?.snapshotNames?.length);
    if (writesStore && !this.def.restore && this.deps.store && !this.deps.store.durable)
      for (const t of this.inputs)
        if (!(this.def.fromBeginning ?? true) || (await log.groupOffsets(this.groupId, t.name)).size > 0)
          await log.resetGroup(this.groupId, t.name, 'earliest');
    // A stage hosted elsewhere consumes, writes and commits there, in this runner's group; here it
    // only reports (its batches' metrics and errors land in this runner's) and is stopped.
    if (this.def.restore) await this.def.restore(restoreContext(this.deps, this.groupId));
    this.abandonedWith = null;
    const hosted = this.deps.offload?.consume?.(this.def.name, log, this.deps.topics, { metrics: this.metrics, onError: this.deps.onError }) ?? null;
    if (hosted || this.deps.producer) this.producer = this.deps.producer ?? null;
    else {
      this.producer = await log.producer();
      this.ownProducer = true;
    }
    const consumer = hosted
      ? null
      : log.consumer({
          groupId: this.groupId,
          topics: this.inputs.map((t) => t.name),
          fromBeginning: this.def.fromBeginning ?? true,
          ...(this.def.exclusive ? { exclusive: true } : {}),
          ...(this.def.maxBatch ? { maxBatch: this.def.maxBatch } : {}),
          onAssignment: (n: number) => {
            this.assignments++;
            if (this.def.exclusive) this.assigned(n);
          },
        });
    this.consumer = hosted ?? consumer;
    this.removeLag = this.metrics.addLagSource({
      stage: this.def.name,
      lag: () => groupLag(log, this.groupId, this.inputs.map((t) => t.name)),
    });
    started.add(this);
    this.running = (hosted ? hosted.run() : consumer!.run((batch) => this.orAbandoned(this.inTurn(() => this.onBatch(batch))))).catch((err) => {
      this.failure = err;
      this.deps.onError?.(err, { stage: this.def.name, topic: '', partition: -1 });
    });
    const tick = this.def.tick;
    if (tick) this.ticker = setInterval(() => void this.orAbandoned(this.inTurn(() => this.runTick())).catch(() => undefined), tick.ms);
  }

  /** p, or its abandonment (abandonInFlight), whichever comes first. */
  private orAbandoned<T>(p: Promise<T>): Promise<T> {
    // p's own rejection is handled where it is made (inTurn): a batch after abandonment need not wait for it.
    if (this.abandonedWith) return Promise.reject(this.abandonedWith);
    return new Promise<T>((resolve, reject) => {
      this.inFlight.add(reject);
      p.then(resolve, reject).finally(() => this.inFlight.delete(reject));
    });
  }

  /** Resolves when abandon() is called (at once if it was); `cancel` forgets it. */
  private whenAbandoned(): { gone: Promise<void>; cancel: () => void } {
    let on: (e: Error) => void = () => {};
    const gone = new Promise<void>((resolve) => {
      on = () => resolve();
      if (this.abandonedWith) resolve();
      else this.inFlight.add(on);
    });
    return { gone, cancel: () => this.inFlight.delete(on) };
  }

  /** See abandonInFlight. */
  abandon(reason: Error): void {
    this.abandonedWith ??= reason;
    this.endLinger?.();
    const waiting = [...this.inFlight];
    this.inFlight.clear();
    for (const reject of waiting) reject(reason);
  }

  /** Runs fn after every batch or tick before it has finished (their effects never interleave). */
  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.turn.then(fn, fn);
    this.turn = next.catch(() => undefined);
    return next;
  }

  private joined = false;
  private assigned(partitions: number): void {
    const was = this.active && this.joined;
    this.joined = true;
    this.active = partitions > 0;
    // Given partitions after standing by, or at the first join (another replica may have worked on
    // between this one's restore at start and its joining): read the state again first.
    if (this.active && !was) this.restoreAgain = true;
  }

  /** An exclusive stage taking over from another replica reads the state that replica left. */
  private async catchUpState(): Promise<void> {
    if (!this.restoreAgain || !this.def.restore) return;
    this.restoreAgain = false;
    await this.def.restore(restoreContext(this.deps, this.groupId));
  }

  /** One tick now (tests and the benchmark call it to run a round without waiting for the timer). */
  tickNow(): Promise<void> {
    return this.inTurn(() => this.runTick());
  }

  private async runTick(): Promise<void> {
    const tick = this.def.tick;
    if (!tick || !this.consumer || !this.active) return;
    try {
      await this.catchUpState();
      await this.write(await tick.run(Date.now()));
    } catch (err) {
      // As after a failed batch: the tick's state may be ahead of what it wrote.
      if (this.def.restore) this.restoreAgain = true;
      this.metrics.errors.inc({ stage: this.def.name });
      this.deps.onError?.(err, { stage: this.def.name, topic: '', partition: -1 });
      throw err;
    }
  }

  /**
   * Stops after the batch in flight (which commits only if it completed), or at once when it is
   * abandoned (abandonInFlight: the operator's stop ran out of time), leaving it uncommitted.
   */
  async stop(): Promise<void> {
    const c = this.consumer;
    if (!c) return;
    this.consumer = null;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    // A batch lingering for more records is done: stop need not wait out the linger.
    this.endLinger?.();
    const { gone, cancel } = this.whenAbandoned();
    try {
      await Promise.race([c.stop(), gone]);
      await Promise.race([this.running, gone]);
      await Promise.race([this.turn, gone]);
    } finally {
      cancel();
    }
    started.delete(this);
    this.running = null;
    this.removeLag?.();
    this.removeLag = null;
    if (this.ownProducer) await this.producer?.close();
    this.producer = null;
    this.ownProducer = false;
  }

  /** Lag per input topic of this stage's group. */
  lag(): Promise<Map<string, number>> {
    return groupLag(this.deps.log, this.groupId, this.inputs.map((t) => t.name));
  }

  /**
   * Resolves once this replica runs the stage (rejects after timeoutMs). An exclusive stage stands by
   * while another member holds its partitions: after a peer is killed, until the group lets the dead
   * member go (its session); a tick then does nothing, so a caller that wants a round run here waits.
   */
  async whenActive(timeoutMs = 60_000, pollMs = 25): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.active) {
      if (Date.now() > until) throw new Error(`stage ${this.def.name} still stands by after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  /** Resolves when the group has committed everything in its inputs (or rejects after timeoutMs). */
  async caughtUp(timeoutMs = 60_000, pollMs = 25): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const lag = await this.lag();
      if ([...lag.values()].every((n) => n === 0)) return;
      if (Date.now() > until) throw new Error(`stage ${this.def.name} still lags ${JSON.stringify([...lag])} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  private async onBatch(batch: Batch): Promise<void> {
    const started = performance.now();
    const stage = this.def.name;
    const count = batch.records.length;
    const topic = topicByName(this.deps.topics, batch.topic);
    try {
      if (!topic) throw new Error(`stage ${stage} got a batch of ${batch.topic}, which is not in the topic map`);
      await this.catchUpState();
      const offload = this.deps.offload;
      // Handed to another thread as bytes, a batch's records are let go once packed (releaseRecords):
      // held while the worker writes or handles them, they outlived every young-generation collection
      // of this thread meanwhile, each of which copied them (bench/crawl-latency.md).
      if (offload?.runs(stage)) await offload.batch(stage, this.deps.topics, topic.id, batch.partition, releaseRecords(batch), this.claim());
      else {
        let rest: LogRecord[] | null = await historyFromAvroFirst(this.def, this.deps.serde, this.deps.history, topic.name, this.def.handleLog ? releaseRecords(batch) : batch.records);
        const registry = this.deps.serde.schemas;
        if (rest.length && this.def.handleLog && registry) {
          // Decoded, handled and encoded where the stage runs (a stage thread): here only bytes.
          const ctx = { stage, topic: topic.id, partition: batch.partition, history: this.deps.history, claim: this.claim() };
          const handled = this.def.handleLog({ topic, topics: this.deps.topics, partition: batch.partition, records: rest, registry, group: this.groupId, ctx });
          rest = null;
          const out = await handled;
          if (out.dead?.length) {
            await this.send([{ topic: 'dead.letters', records: out.dead }]);
            this.metrics.deadLetters.inc({ stage, topic: topic.id }, out.dead.length);
          }
          await this.write(out);
        } else if (rest.length) {
          const { records, dead } = await decodeOrDeadLetter(this.deps.serde, topic, rest, this.groupId);
          // Dead letters first: a record that cannot be read is kept, with its reason, before the
          // batch that skips it commits past it.
          if (dead.length) {
            await this.send(await encodeOutputs(this.deps.serde, this.deps.topics, dead));
            this.metrics.deadLetters.inc({ stage, topic: topic.id }, dead.length);
          }
          const ctx = { stage, topic: topic.id, partition: batch.partition, history: this.deps.history, claim: this.claim() };
          const slice = this.def.sliceRecords;
          const out = slice && records.length > slice ? await handleSliced(this.def, records, ctx, slice) : await this.def.handle(records, ctx);
          await this.write(out);
        }
      }
      this.metrics.recordsIn.inc({ stage, topic: topic.id }, count);
      this.metrics.batches.inc({ stage });
      this.metrics.batchSeconds.observe({ stage }, (performance.now() - started) / 1000);
      // Linger only when nothing is known to be waiting: with records already in the log, waiting
      // would only delay them (bench/backbone.md, the history-sink linger section: the raw-history sink lingered after
      // every 1,000-record batch of nine topics and finished last, 0.5 s after everything else).
      const linger = this.def.linger;
      if (linger && count < linger.minRecords && !(batch.waiting! > 0)) await this.linger(linger.ms);
    } catch (err) {
      // The batch comes again; a stage that keeps state took it in already (a write after handle()
      // failed) and would decide it as done: it reads its state back from the log first.
      if (this.def.restore) this.restoreAgain = true;
      this.metrics.errors.inc({ stage });
      this.deps.onError?.(err, { stage, topic: batch.topic, partition: batch.partition });
      throw err;
    }
  }

  /** BatchContext.claim: this runner, since its consumer's last rebalance. */
  private claim(): string {
    return `${this.runId}.${this.assignments}`;
  }

  private endLinger: (() => void) | null = null;

  /** Waits ms, or less if the runner stops meanwhile. */
  private linger(ms: number): Promise<void> {
    if (!this.consumer) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.endLinger = null;
        resolve();
      };
      const t = setTimeout(done, ms);
      this.endLinger = done;
    });
  }

  /** Outputs first, then read models: a committed batch has done both. */
  private async write(out: StageOutput | EncodedStageOutput): Promise<void> {
    // An abandoned batch is redelivered after the restart: what its handler still returns is not sent.
    if (this.abandonedWith) throw this.abandonedWith;
    if ('records' in out && out.records?.length) await this.send(await encodeOutputs(this.deps.serde, this.deps.topics, out.records));
    if ('encoded' in out && out.encoded?.length) await this.send(out.encoded);
    if (out.history?.length) {
      const h = this.deps.history;
      if (!h) throw new Error(`stage ${this.def.name} returned history rows but has no History`);
      for (const w of out.history) await h.insert(w.table, w.rows);
    }
    if (out.snapshots?.length) await this.writeSnapshots(out.snapshots);
    if (out.publishes?.length) {
      const s = this.deps.store;
      if (!s) throw new Error(`stage ${this.def.name} publishes snapshots but has no SnapshotStore`);
      for (const p of out.publishes) {
        if (!this.def.sinks?.snapshotNames?.includes(p.name)) throw new Error(`stage ${this.def.name} publishes ${p.name}, which is not in its sinks.snapshotNames`);
        await s.publish(p.name, p.entries, p.options);
      }
    }
  }

  private async writeSnapshots(snapshots: SnapshotWrite[]): Promise<void> {
    const s = this.deps.store;
    if (!s) throw new Error(`stage ${this.def.name} returned snapshot writes but has no SnapshotStore`);
    // In the stage's order: a delete between two puts of one key must stay between them.
    let puts: Versioned[] = [];
    for (const w of snapshots) {
      if (w.value !== null) {
        puts.push({ key: w.key, value: w.value, version: w.version });
        continue;
      }
      if (puts.length) await s.putMany(puts);
      puts = [];
      await s.delete(w.key, w.version);
    }
    if (puts.length) await s.putMany(puts);
  }

  private async send(produced: EncodedOutputs): Promise<void> {
    await sendOutputs(produced, this.def.stateTopics ?? [], async (topic, records) => {
      await this.producer!.send(this.deps.topics[topic].name, records);
      this.metrics.recordsOut.inc({ stage: this.def.name, topic }, records.length);
    });
  }
}

/**
 * A batch's outputs: every topic but the stage's state topics at once, then the state topics. Writes
 * to two topics are not atomic, so a crash between them must leave the decisions without their
 * checkpoint (the batch, not committed, is decided again), never the checkpoint without its
 * decisions: a restore would believe them written (the canonicalizer's crawl state said a crawl was
 * applied while that crawl's deletions were lost, and those markets stayed for good).
 */
export async function sendOutputs(produced: EncodedOutputs, stateTopics: readonly TopicId[], send: (topic: TopicId, records: OutgoingRecord[]) => Promise<void>): Promise<void> {
  const isState = (t: TopicId) => stateTopics.includes(t);
  await Promise.all(produced.filter((o) => !isState(o.topic)).map((o) => send(o.topic, o.records)));
  await Promise.all(produced.filter((o) => isState(o.topic)).map((o) => send(o.topic, o.records)));
}

/** handle() over slices of a batch, yielding the event loop between them; the outputs in order, concatenated. */
export async function handleSliced(def: StageDef, records: InRecord[], ctx: BatchContext, slice: number): Promise<StageOutput> {
  const out: Required<StageOutput> = { records: [], history: [], snapshots: [], publishes: [] };
  for (let from = 0; from < records.length; from += slice) {
    if (from > 0) await new Promise((r) => setImmediate(r));
    const o = await def.handle(records.slice(from, from + slice), ctx);
    if (o.records) out.records.push(...o.records);
    // One insert per table, as one call's output would be (each insert of a history table is a part).
    for (const w of o.history ?? []) {
      const same = out.history.find((x) => x.table === w.table);
      if (same) for (const r of w.rows) same.rows.push(r);
      else out.history.push({ ...w, rows: [...w.rows] });
    }
    if (o.snapshots) out.snapshots.push(...o.snapshots);
    if (o.publishes) out.publishes.push(...o.publishes);
  }
  return out;
}

/**
 * A batch decoded as decodeBatch does, except that a record that does not decode with its topic's
 * schemas becomes a dead letter (with the reason) instead of failing the batch: a bad record must
 * never block its partition.
 */
export async function decodeOrDeadLetter(
  serde: Serde,
  topic: TopicDef,
  batch: LogRecord[],
  stage: string,
): Promise<{ records: InRecord[]; dead: OutRecord[] }> {
  try {
    return { records: await decodeBatch(serde, topic, batch), dead: [] };
  } catch {
    // Which record? Decode them one by one (rare: only a batch that holds a bad record comes here).
  }
  const records: InRecord[] = [];
  const dead: OutRecord[] = [];
  for (const r of batch) {
    try {
      records.push(...(await decodeBatch(serde, topic, [r])));
    } catch (err) {
      dead.push({
        topic: 'dead.letters',
        key: `${stage}|${r.topic}|${r.partition}|${r.offset}`,
        value: { stage, topic: r.topic, partition: r.partition, offset: r.offset, reason: String((err as Error)?.message ?? err).slice(0, 1000), failed_at: Date.now(), key: r.key, value: r.value },
      });
    }
  }
  return { records, dead };
}

/** What a stage's restore() reads, through one-off groups that are deleted afterwards. */
export function restoreContext(deps: Pick<RuntimeDeps, 'log' | 'serde' | 'topics'>, groupId: string): RestoreContext {
  /** Reads [from, to) of each partition through a one-off group, handing over decoded batches. */
  const read = async (topic: TopicDef, from: Map<number, bigint>, to: Map<number, bigint>, onBatch: (records: InRecord[]) => void): Promise<void> => {
    const pending = new Set([...to].filter(([p, end]) => end > (from.get(p) ?? end)).map(([p]) => p));
    if (pending.size === 0) return;
    const group = `${groupId}.restore.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const consumer = deps.log.consumer({
      groupId: group,
      topics: [topic.name],
      fromBeginning: true,
      startAt: new Map([[topic.name, new Map([...from].map(([p, o]) => [p, String(o)]))]]),
    });
    try {
      await new Promise<void>((resolve, reject) => {
        consumer
          .run(async (batch) => {
            if (!pending.has(batch.partition)) return;
            const end = to.get(batch.partition)!;
            const start = from.get(batch.partition) ?? 0n;
            const upTo = batch.records.filter((r) => BigInt(r.offset) >= start && BigInt(r.offset) < end);
            const { records } = await decodeOrDeadLetter(deps.serde, topic, upTo, group);
            onBatch(records);
            const last = batch.records[batch.records.length - 1];
            if (last && BigInt(last.offset) + 1n >= end) pending.delete(batch.partition);
            if (pending.size === 0) resolve();
          })
          .catch(reject);
      });
    } finally {
      await consumer.stop();
      await deps.log.deleteGroup(group).catch(() => undefined);
    }
  };
  return {
    async readCompacted(id, onRecord) {
      const topic = deps.topics[id];
      const offsets = await deps.log.topicOffsets(topic.name);
      await read(
        topic,
        new Map(offsets.map((p) => [p.partition, BigInt(p.low)])),
        new Map(offsets.map((p) => [p.partition, BigInt(p.high)])),
        (records) => {
          for (const r of records) onRecord(r.key, r.value as never, r.offset);
        },
      );
    },
    committed(id) {
      return deps.log.groupOffsets(groupId, deps.topics[id].name);
    },
    async readRange(id, from, to, onRecords) {
      const topic = deps.topics[id];
      // Never before what the log still holds.
      const low = new Map((await deps.log.topicOffsets(topic.name)).map((p) => [p.partition, BigInt(p.low)]));
      const start = new Map([...from].map(([p, o]) => [p, BigInt(o) > (low.get(p) ?? 0n) ? BigInt(o) : (low.get(p) ?? 0n)]));
      await read(topic, start, new Map([...to].filter(([p]) => start.has(p)).map(([p, o]) => [p, BigInt(o)])), onRecords as (records: InRecord[]) => void);
    },
  };
}

/** A batch of one topic-partition, decoded into the records a stage handles. */
/**
 * A batch's records, taken out of it for a worker that gets them as bytes: the batch object stays
 * with the log's consumer and this runner until the worker answers, the records need not.
 */
function releaseRecords(batch: Batch): LogRecord[] {
  const records = batch.records;
  batch.records = [];
  return records;
}

export async function decodeBatch(serde: Serde, topic: TopicDef, batch: LogRecord[], lazy = false): Promise<InRecord[]> {
  if (lazy && serde.decoder) {
    const decode = await serde.decoder(topic, batch);
    return batch.map((r) => new LazyRecord(topic, r, decode));
  }
  const decoded = await serde.decodeMany(topic, batch);
  return batch.map((r, i) => ({
    topic: topic.id,
    topicName: topic.name,
    partition: r.partition,
    offset: r.offset,
    key: decoded[i]!.key,
    value: decoded[i]!.value,
    timestamp: r.timestamp,
    headers: r.headers,
  }));
}

/** An InRecord whose key and value are decoded from the log record each time they are read (StageDef.lazyValues). */
class LazyRecord implements InRecord {
  readonly topic: TopicId;
  readonly topicName: string;
  readonly partition: number;
  readonly offset: string;
  readonly timestamp: number;
  readonly headers: Record<string, string>;

  constructor(
    topic: TopicDef,
    private readonly record: LogRecord,
    private readonly decode: RecordDecoder<TopicId>,
  ) {
    this.topic = topic.id;
    this.topicName = topic.name;
    this.partition = record.partition;
    this.offset = record.offset;
    this.timestamp = record.timestamp;
    this.headers = record.headers;
  }

  get key(): string | null {
    return this.decode.key(this.record);
  }

  get value(): InRecord['value'] {
    return this.decode.value(this.record);
  }
}

export type { EncodedOutputs } from './types.ts';

/** A stage's output records, grouped by topic (in the stage's order within each) and encoded. */
export async function encodeOutputs(serde: Serde, topics: TopicMap, records: OutRecord[]): Promise<EncodedOutputs> {
  const byTopic = new Map<TopicId, OutRecord[]>();
  for (const r of records) {
    const list = byTopic.get(r.topic);
    if (list) list.push(r);
    else byTopic.set(r.topic, [r]);
  }
  return Promise.all(
    [...byTopic].map(async ([id, list]) => ({
      topic: id,
      records: await serde.encodeMany(topics[id] as TopicDef<typeof id>, list as never),
    })),
  );
}

/** Creates and starts a runner. */
export async function startStage(def: StageDef, deps: RuntimeDeps): Promise<StageRunner> {
  const r = new StageRunner(def, deps);
  await r.start();
  return r;
}
