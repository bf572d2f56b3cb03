// Stages whose work runs on a worker thread of their own: the stage thread.
// In: a StageDef built on the worker (a factory named in STAGE_FACTORIES) and, on this thread, the
// same stage's definition for its metadata. Out: a StageDef for this thread's runner whose handle(),
// tick and restore() are answered by the worker: the runner here still consumes, decodes, writes the
// outputs and commits, so groups, ordering, at-least-once and the standby replica are unchanged.
// A batch crosses as the log's bytes (StageDef.handleLog): the worker decodes it with the same
// registry (asking this thread for ids and schemas), handles it, encodes the output records and
// hands them back packed, so the Avro work and the per-record structured clone of both ways are
// off this thread too (bench/crawl-latency.md).
//
// Why: on the embedded default the API shares its event loop with every stage. The canonicalizer
// (about 140 us a record on a crawl's first reads: rules texts, titles, rosters) and the matching
// round (170-250 ms a tick early in a large crawl) were most of what held that loop during a
// 1,000,000-market crawl (bench/crawl-latency.md); so was the sports snapshot sink's fold and
// serialization of every publish, whose serialized documents cross back (output-wire.ts) for the
// runner here to store. Their state lives on the worker; restore() reads the log here and hands the
// records over in chunks.
import { Worker } from 'node:worker_threads';
import { fromWireError, toWireError, type DistributiveOmit, type WireError } from './history-host.ts';
import { outputFromWire } from './output-wire.ts';
import type { BatchContext, EncodedStageOutput, InRecord, LogBatch, RestoreContext, StageDef, StageOutput } from './types.ts';
import type { TopicId, TopicMap } from '../topics.ts';
import type { SchemaLookup } from '../serde/index.ts';
import { PackArena, packedOutgoingTransfer, packOutgoing, unpackOutgoing, type PackedBatch, type PackedOutgoing } from './batch-pack.ts';
import { WORKER_RESOURCE_LIMITS } from './worker-heap.ts';

/** The stages the worker can build, by name, from the options it is given. */
export interface StageThreadOptions {
  /** The matching stage's tick (SPORTS_PUBLISH_MS). */
  tickMs: number;
  /** The thread's nice value (WORKER_NICE; ts-worker.mjs). */
  nice?: number;
}

/** Waits after a worker thread (this one, the pollers') died before starting another: from this, doubling while starts fail. */
export const RESTART_BACKOFF_MS = 1_000;
const RESTART_BACKOFF_MAX_MS = 60_000;
/** The wait before the next start after one that failed. */
export const nextRestartWait = (wait: number) => Math.min(RESTART_BACKOFF_MAX_MS, wait * 2);

/** Records read at restore travel in chunks of this many (one message each). */
export const RESTORE_CHUNK = 2_000;

export type StageCall =
  | { rid: number; op: 'handle'; stage: string; records: InRecord[]; ctx: BatchContext }
  | { rid: number; op: 'tick'; stage: string; now: number }
  | { rid: number; op: 'restore'; stage: string }
  // A batch as the log's bytes (StageDef.handleLog), decoded through `registry` (a number this thread gives each SchemaLookup).
  | { rid: number; op: 'handle-log'; stage: string; registry: number; group: string; topics: TopicMap; topic: TopicId; packed: PackedBatch; ctx: BatchContext }
  // Answers to the worker's registry questions (qid: the question's number).
  | { qid: number; result: unknown }
  | { qid: number; error: WireError }
  // Answers to the worker's reads during a restore (rrid: the read's number).
  | { rrid: number; chunk: unknown[] }
  | { rrid: number; done: true; result?: unknown }
  | { rrid: number; error: WireError };

export type StageReply =
  | { rid: number; ok: true; value?: StageOutput }
  // The answer to a handle-log call.
  | { rid: number; ok: true; encoded: PackedStageOutput }
  // The worker asks the registry `registry` for a subject's id or an id's schema.
  | { qid: number; registry: number; ask: 'register'; subject: string; schema: object | string }
  | { qid: number; registry: number; ask: 'getSchema'; schemaId: number }
  | { rid: number; error: WireError }
  // A read of the restore `rid` is running on the worker.
  | { rid: number; rrid: number; read: 'compacted'; topic: TopicId }
  | { rid: number; rrid: number; read: 'committed'; topic: TopicId }
  | { rid: number; rrid: number; read: 'range'; topic: TopicId; from: [number, string][]; to: [number, string][] }
  | { ready: true; priority: number }
  | { fatal: WireError };

/** An EncodedStageOutput as it crosses threads: its records packed per topic (batch-pack.ts), moved, not cloned. */
export interface PackedStageOutput {
  rest: Omit<EncodedStageOutput, 'encoded' | 'dead'>;
  encoded: Array<{ topic: TopicId; packed: PackedOutgoing }>;
  dead: PackedOutgoing | null;
}

export function packStageOutput(out: EncodedStageOutput): { packed: PackedStageOutput; transfer: ArrayBuffer[] } {
  const { encoded, dead, ...rest } = out;
  const transfer: ArrayBuffer[] = [];
  const pack = (records: Parameters<typeof packOutgoing>[0]) => {
    const p = packOutgoing(records);
    transfer.push(...packedOutgoingTransfer(p));
    return p;
  };
  return { packed: { rest, encoded: (encoded ?? []).map((o) => ({ topic: o.topic, packed: pack(o.records) })), dead: dead?.length ? pack(dead) : null }, transfer };
}

export function unpackStageOutput(p: PackedStageOutput): EncodedStageOutput {
  return {
    ...p.rest,
    ...(p.encoded.length ? { encoded: p.encoded.map((o) => ({ topic: o.topic, records: unpackOutgoing(o.packed) })) } : {}),
    ...(p.dead ? { dead: unpackOutgoing(p.dead) } : {}),
  };
}

export interface StageWorkerData {
  entry: string;
  options: StageThreadOptions;
  nice?: number;
}

/**
 * One worker thread holding some stages. def(local) gives the runner here a stage that runs there;
 * calls of one stage come one at a time (a runner never overlaps them), different stages interleave.
 */
export class StageThread {
  private nextRid = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  /** The registries handle-log calls decode through, by the number the worker knows them by. */
  private readonly registries = new Map<number, SchemaLookup>();
  private readonly registryIds = new WeakMap<SchemaLookup, number>();
  /** The restore contexts of restores in flight, by their call's rid. */
  private readonly restores = new Map<number, RestoreContext>();
  private failed: Error | undefined;
  private closing = false;
  /** Shared memory the batches handed to the worker are packed into (batch-pack.ts). */
  private readonly arena = new PackArena();
  /** The worker thread's scheduling priority as it read it at start (its nice value on Linux). */
  priority = 0;
  /** Workers started so far after the first (a worker that died unasked is replaced). */
  private generation = 0;
  /** Per stage with a restore(), the generation its last restore ran on. */
  private readonly restoredOn = new Map<string, number>();
  private worker!: Worker;

  private constructor(private readonly data: StageWorkerData) {}

  static async open(options: StageThreadOptions): Promise<StageThread> {
    const t = new StageThread({ entry: new URL('./stage-worker.ts', import.meta.url).href, options, nice: options.nice });
    await t.startWorker();
    return t;
  }

  /** Times a worker was started again after one died. */
  restarts(): number {
    return this.generation;
  }

  /** Starts a worker and resolves once it is ready; from then on calls go to it. */
  private async startWorker(): Promise<void> {
    const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: this.data, resourceLimits: WORKER_RESOURCE_LIMITS });
    await new Promise<void>((resolve, reject) => {
      const onReady = (m: StageReply) => {
        if ('ready' in m) {
          worker.off('message', onReady);
          this.priority = m.priority;
          resolve();
        } else if ('fatal' in m) reject(fromWireError(m.fatal, 'the stage thread'));
      };
      worker.on('message', onReady);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the stage thread exited while starting (code ${code})`)));
    });
    this.worker = worker;
    this.failed = undefined;
    worker.on('message', (m: StageReply) => this.onMessage(m));
    worker.on('error', (e: unknown) => this.fail(e instanceof Error ? e : new Error(String(e))));
    worker.on('exit', (code) => {
      this.fail(new Error(`the stage thread exited (code ${code})`));
      if (!this.closing && this.worker === worker) this.replace(RESTART_BACKOFF_MS);
    });
  }

  /**
   * A worker that died unasked is replaced, so the stages it held run again without a process
   * restart. The new worker holds no state: each stage with a restore() is refused there until its
   * runner has restored it (the refusal fails the batch or tick, and a runner restores its stage
   * before running one again after a failure).
   */
  private replace(wait: number): void {
    setTimeout(() => {
      if (this.closing) return;
      this.generation++;
      this.startWorker().catch(() => this.replace(nextRestartWait(wait)));
    }, wait).unref();
  }

  /**
   * The stage `local.name` as it runs on the worker: local's metadata (inputs, group, exclusivity,
   * sinks), the worker's handle/tick/restore. Slicing is dropped: the work is not on this thread.
   * A tick runs there at `clock()` of this thread (default: the runner's now), so a test's clock holds.
   */
  def<T extends StageDef>(local: T, clock?: () => number): StageDef {
    const { sliceRecords: _slice, state: _state, ...meta } = local as T & { state?: unknown };
    const stage = local.name;
    return {
      ...meta,
      // The batch's coordinates only: what else a context carries (the runner's History) stays here,
      // and the stages a thread holds read nothing but their records.
      handle: (records, ctx) => this.call({ op: 'handle', stage, records, ctx: { stage: ctx.stage, topic: ctx.topic, partition: ctx.partition } }, Boolean(local.restore)).then((v) => (v as StageOutput | undefined) ?? {}),
      handleLog: (b) => this.handleLog(stage, b, Boolean(local.restore)),
      tick: local.tick ? { ms: local.tick.ms, run: (now) => this.call({ op: 'tick', stage, now: clock ? clock() : now }, Boolean(local.restore)).then((v) => (v as StageOutput | undefined) ?? {}) } : undefined,
      restore: local.restore ? (ctx) => this.restore(stage, ctx) : undefined,
    };
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
    this.fail(new Error('the stage thread is closed'));
  }

  private restore(stage: string, ctx: RestoreContext): Promise<void> {
    const rid = this.nextRid++;
    const on = this.generation;
    this.restores.set(rid, ctx);
    return this.send({ rid, op: 'restore', stage }).then(
      () => {
        this.restores.delete(rid);
        this.restoredOn.set(stage, on);
      },
      (e) => {
        this.restores.delete(rid);
        throw e;
      },
    );
  }

  /** A batch as the log's bytes: packed and moved to the worker, its encoded outputs moved back. */
  private handleLog(stage: string, b: LogBatch, restores: boolean): Promise<EncodedStageOutput> {
    // Not an async function: its frame would keep b.records alive until the worker answers.
    let registry = this.registryIds.get(b.registry);
    if (registry === undefined) {
      registry = this.registries.size + 1;
      this.registries.set(registry, b.registry);
      this.registryIds.set(b.registry, registry);
    }
    const ctx = { stage: b.ctx.stage, topic: b.ctx.topic, partition: b.ctx.partition };
    const { group, topics } = b;
    const topic = b.topic.id;
    return this.arena
      .lend(b.records, (packed, transfer) => this.call({ op: 'handle-log', stage, registry, group, topics, topic, packed, ctx }, restores, transfer))
      .then((out) => unpackStageOutput(out as PackedStageOutput));
  }

  private call(m: DistributiveOmit<Extract<StageCall, { op: 'handle' | 'tick' | 'handle-log' }>, 'rid'>, restores: boolean, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (restores && this.restoredOn.get(m.stage) !== this.generation)
      return Promise.reject(new Error(`the stage thread was started again: stage ${m.stage} restores its state first`));
    return this.send({ ...m, rid: this.nextRid++ } as StageCall & { rid: number }, transfer);
  }

  private send(m: StageCall & { rid: number }, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.set(m.rid, { resolve, reject });
      this.worker.postMessage(m, transfer);
    });
  }

  /** One registry question of the worker, answered from the registry it names. */
  private async answerAsk(m: Extract<StageReply, { qid: number }>): Promise<void> {
    try {
      const registry = this.registries.get(m.registry);
      if (!registry) throw new Error(`no registry ${m.registry} on this thread`);
      const result = m.ask === 'register' ? await registry.register(m.subject, m.schema) : await registry.getSchema(m.schemaId);
      this.worker.postMessage({ qid: m.qid, result } satisfies StageCall);
    } catch (e) {
      this.worker.postMessage({ qid: m.qid, error: toWireError(e) } satisfies StageCall);
    }
  }

  private onMessage(m: StageReply): void {
    if ('ready' in m || 'fatal' in m) return;
    if ('qid' in m) {
      void this.answerAsk(m);
      return;
    }
    if ('read' in m) {
      void this.serveRead(m);
      return;
    }
    const p = this.pending.get(m.rid);
    if (!p) return;
    this.pending.delete(m.rid);
    if ('error' in m) p.reject(fromWireError(m.error, 'the stage thread'));
    // A sink's serialized documents (output-wire.ts) come back as marked text on either reply.
    else p.resolve('encoded' in m ? { ...m.encoded, rest: outputFromWire(m.encoded.rest as StageOutput) } : outputFromWire(m.value));
  }

  /** One read of a restore, done here on the log and sent to the worker in order. */
  private async serveRead(m: Extract<StageReply, { read: string }>): Promise<void> {
    const ctx = this.restores.get(m.rid);
    const post = (msg: StageCall) => this.worker.postMessage(msg);
    try {
      if (!ctx) throw new Error(`no restore ${m.rid} is in flight`);
      if (m.read === 'committed') {
        post({ rrid: m.rrid, done: true, result: [...(await ctx.committed(m.topic))] });
        return;
      }
      let chunk: unknown[] = [];
      const flush = () => {
        if (chunk.length) post({ rrid: m.rrid, chunk });
        chunk = [];
      };
      if (m.read === 'compacted')
        await ctx.readCompacted(m.topic, (key, value, offset) => {
          chunk.push([key, value, offset]);
          if (chunk.length >= RESTORE_CHUNK) flush();
        });
      else
        await ctx.readRange(m.topic, new Map(m.from), new Map(m.to), (records) => {
          for (const r of records) {
            chunk.push(r);
            if (chunk.length >= RESTORE_CHUNK) flush();
          }
        });
      flush();
      post({ rrid: m.rrid, done: true });
    } catch (e) {
      post({ rrid: m.rrid, error: toWireError(e) });
    }
  }

  private fail(e: Error): void {
    if (this.failed) return;
    this.failed = this.closing ? new Error('the stage thread is closed') : e;
    for (const p of this.pending.values()) p.reject(this.failed);
    this.pending.clear();
  }
}
