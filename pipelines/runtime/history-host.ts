// The history host: chdb and the history sinks on a worker thread.
// In: the History calls of this process (migrations, catalog, replay, API reads) and the stages it
// runs (the backbone's history sinks): on the embedded log their batches, relayed by this thread's
// runners; on Kafka (workerLog) the whole stages. Out: the same answers as a ChdbHistory on this
// thread; each relayed batch's history written by the worker before the batch is committed here; on
// Kafka, stages consumed, written and committed by runners on the worker, in the groups this
// thread's runners would use (so a switch between the two ways resumes where the other stopped),
// with their metrics and batch errors reported to the runners here, which read their lag here.
//
// Why: in the embedded default the API shares its event loop with every stage, and that loop was
// 85-99% busy under pipeline load. The history sinks' work (the Avro file of a batch, avro-history.ts,
// or decoded rows for what that cannot take; chdb's calls) needs nothing of this thread but the
// records' bytes, so it runs on
// a worker: the log, consumer groups and commits stay here (the runner awaits the worker's answer
// before committing, so at-least-once and idempotence are unchanged), and the worker decodes with
// the same registry through this thread. The worker owns the process's chdb session: every History
// call of the process goes through it. Measured (bench/backbone.md, 2026-11-22, "embedded pipeline"): the main loop is
// 15-20 points less busy and the store's p95 lower; pipeline throughput is unchanged, because the
// process is bound by total CPU (GC, chdb and I/O threads already used the second core), and each
// record costs 5-11% more CPU (it is cloned to the worker). On Kafka the main loop was the limit
// even so (82-91% busy, most of it the Kafka clients' JavaScript for four consumer groups), so there
// the hosted stages' consumers run on the worker too (bench/backbone.md, 2026-11-22, "Kafka consumers on the worker").
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { KafkaLogOptions } from '../log/kafka.ts';
import type { Log, LogRecord } from '../log/types.ts';
import type { History, Params, ReadOnlyAnswer, ReadOnlyQuery } from '../readmodels/history.ts';
import type { SchemaLookup } from '../serde/index.ts';
import type { TopicDef, TopicId, TopicMap } from '../topics.ts';
import type { PipelineMetrics } from './metrics.ts';
import { HOSTED_STAGES } from './hosted.ts';
import { PackArena, type PackedBatch } from './batch-pack.ts';

/**
 * Runs some stages' batches away from the runner's thread: stages whose whole output is history
 * (HOSTED_STAGES, hosted.ts), so a resolved batch is a written batch and the runner only commits it.
 */
export interface StageOffload {
  runs(stage: string): boolean;
  /** A batch of `topic` (an id of `topics`, the runner's topic map); resolves once its rows are written. */
  batch(stage: string, topics: TopicMap, topic: TopicId, partition: number, records: LogRecord[], claim?: string): Promise<void>;
  /**
   * The whole stage there: consumed from its own copy of `log`, written and committed there, in the
   * group the runner would use. null when the batches must come from this thread (the embedded log is
   * this process's memory; or `log` is not the log the host mirrors).
   */
  consume?(stage: string, log: Log, topics: TopicMap, report: HostedReport): HostedStage | null;
}

/** Where a hosted stage's batch counts and batch errors land on this thread (the runner's own). */
export interface HostedReport {
  metrics: PipelineMetrics;
  onError?: (err: unknown, where: { stage: string; topic: string; partition: number }) => void;
}

/** A stage run elsewhere, as the runner holds it in place of a consumer. */
export interface HostedStage {
  /** Starts it; resolves once it is stopped, rejects when it fails (as Consumer.run does). */
  run(): Promise<void>;
  /** Stops it after the batches in flight, which are committed first if they completed. */
  stop(): Promise<void>;
}

/**
 * A Kafka log the worker opens for itself: the client and its options. Data only (it crosses to the
 * worker), so no onError: the worker's runners report errors through the host.
 */
export type WorkerLog = { client: 'kafkajs'; options: Omit<KafkaLogOptions, 'onError'> };

/** The counters and histogram a runner records into (metrics.ts), by name. */
export type MetricName = 'recordsIn' | 'recordsOut' | 'batches' | 'errors' | 'batchSeconds';

/** Sent to the worker as workerData. */
export interface HistoryWorkerData {
  entry: string;
  chdbPath: string;
  /** The worker thread's nice value (ts-worker.mjs). */
  nice?: number;
}

/** Every request names the host (its database, and its registry for schema lookups). */
export type HostRequest =
  | { id: number; host: number; db: string; op: 'exec'; sql: string; params?: Params }
  | { id: number; host: number; db: string; op: 'insert'; table: string; rows: Record<string, unknown>[] }
  | { id: number; host: number; db: string; op: 'query'; sql: string; params?: Params }
  | { id: number; host: number; db: string; op: 'readonly'; q: ReadOnlyQuery }
  | { id: number; host: number; db: string; op: 'batch'; stage: string; topic: TopicDef; partition: number; packed: PackedBatch; claim?: string }
  | { id: number; host: number; db: string; op: 'start-stage'; sid: number; stage: string; topics: TopicMap; log: WorkerLog }
  | { id: number; host: number; db: string; op: 'stop-stage'; sid: number }
  | { id: number; host: number; db: string; op: 'close' }
  | { id: number; host: number; db: string; op: 'shutdown' }
  | { rid: number; ok: true; result: unknown }
  | { rid: number; ok: false; error: WireError };

export type WorkerMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: WireError }
  | { rid: number; host: number; op: 'register'; subject: string; schema: object | string }
  | { rid: number; host: number; op: 'getSchema'; schemaId: number }
  // Reports of the hosted stages' runners (sid: the stage's number, given at start-stage).
  | { sid: number; ev: 'metric'; metric: MetricName; labels: Record<string, string>; value: number }
  | { sid: number; ev: 'error'; error: WireError; where: { stage: string; topic: string; partition: number } }
  | { sid: number; ev: 'failed'; error: WireError };

export interface WireError {
  name: string;
  message: string;
  stack?: string;
}

export const toWireError = (e: unknown): WireError =>
  e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : { name: 'Error', message: String(e) };

/** The error again on the receiving thread; `from` names the thread it was thrown on. */
export function fromWireError(w: WireError, from: string): Error {
  const e = new Error(w.message);
  e.name = w.name;
  if (w.stack) e.stack = `${w.stack}\n    (on ${from})`;
  return e;
}

export interface HistoryHostOptions {
  /** chdb's data directory (DATA_DIR/chdb). */
  chdbPath: string;
  database: string;
  /** The worker thread's nice value when this host starts it (WORKER_NICE; ts-worker.mjs). */
  nice?: number;
  /** Names of the stages the worker runs for this host; each must be one of HOSTED_STAGES (hosted.ts). */
  stages: string[];
  /** Where the worker resolves schema ids and subjects: the process's registry. */
  registry: SchemaLookup;
  /**
   * A Kafka log of this thread and how the worker opens its own copy of it: runners on `log` then
   * have their hosted stages consumed, written and committed entirely on the worker (consume()).
   * Absent (the embedded log, which only this thread can read): this thread consumes and the worker
   * writes each batch (batch()).
   */
  workerLog?: { log: Log; spec: WorkerLog };
}

type Call = DistributiveOmit<Extract<HostRequest, { id: number }>, 'id' | 'host' | 'db'>;

/**
 * The one worker of the process. chdb binds one data directory per process and two sessions torn
 * down apart abort its engine, so every HistoryHost of the process (one per database) shares this
 * worker, which keeps one session; it stops when the last host closes.
 */
class SharedWorker {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly hosts = new Map<number, HistoryHost>();
  private readonly hosted = new Map<number, { report: HostedReport; resolve: () => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private nextSid = 1;
  private failure: Error | null = null;
  /** Set by abandon(): the thread is being ended without waiting for its call in flight. */
  private abandoned = false;

  constructor(
    readonly chdbPath: string,
    private readonly worker: Worker,
  ) {
    worker.on('message', (m: WorkerMessage) => void this.onMessage(m));
    worker.on('error', (e: Error) => this.fail(e));
    worker.on('exit', (code) => this.fail(new Error(`the history worker thread exited (code ${code})`)));
    living.add(this);
    worker.once('exit', () => living.delete(this));
  }

  /** How busy the worker's event loop has been (benchmarks read it beside the main thread's). */
  utilization(since?: EventLoopUtilization): EventLoopUtilization {
    return this.worker.performance.eventLoopUtilization(since);
  }

  attach(id: number, host: HistoryHost): void {
    this.hosts.set(id, host);
  }

  /** The host is closed; the last one stops the worker. */
  async detach(id: number): Promise<void> {
    this.hosts.delete(id);
    if (this.hosts.size > 0) return;
    if (shared === this) shared = null;
    // chdb's session is closed on its own thread before the thread goes (a session left open there
    // may leave its background merges mid-part).
    await this.call(id, '', { op: 'shutdown' }).catch(() => {});
    this.failure ??= new Error('History is closed');
    // Abandoned: the thread may be inside one chdb call for minutes, and ends when that returns (or
    // with the process); chdb recovers an insert cut short at its next open (its part is left out).
    if (this.abandoned) void this.worker.terminate().catch(() => {});
    else await this.worker.terminate();
  }

  /**
   * Gives up on the calls in flight (the operator's stop ran out of time): they and every later call
   * fail at once, so their batches are not committed, and the thread is ended without waiting.
   */
  abandon(reason: Error): void {
    this.abandoned = true;
    this.fail(reason);
    void this.worker.terminate().catch(() => {});
  }

  /** `transfer`: buffers of the request that move to the worker (unusable here afterwards). */
  call(host: number, db: string, req: Call, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...req, id, host, db }, transfer);
    });
  }

  /** A hosted stage of `host`: started on the worker by run(), until stop() or its failure. */
  stage(host: number, db: string, stage: string, topics: TopicMap, log: WorkerLog, report: HostedReport): HostedStage {
    const sid = this.nextSid++;
    let running: Promise<void> | null = null;
    let started: Promise<unknown> | null = null;
    return {
      run: () => {
        running ??= new Promise<void>((resolve, reject) => {
          this.hosted.set(sid, { report, resolve, reject });
          started = this.call(host, db, { op: 'start-stage', sid, stage, topics, log });
          started.catch((e: Error) => this.settle(sid, e));
        });
        return running;
      },
      stop: async () => {
        if (!running || !this.hosted.has(sid)) return;
        // The worker stops the runner once its start is done: the stop waits for that, then for the
        // batches in flight to be written and committed.
        await started?.catch(() => {});
        if (this.hosted.has(sid)) await this.call(host, db, { op: 'stop-stage', sid }).catch((e: Error) => this.settle(sid, e));
        this.settle(sid, null);
      },
    };
  }

  private settle(sid: number, e: Error | null): void {
    const h = this.hosted.get(sid);
    if (!h) return;
    this.hosted.delete(sid);
    if (e) h.reject(e);
    else h.resolve();
  }

  private async onMessage(m: WorkerMessage): Promise<void> {
    if ('sid' in m) {
      const h = this.hosted.get(m.sid);
      if (!h) return;
      if (m.ev === 'metric') {
        const { metrics } = h.report;
        if (m.metric === 'batchSeconds') metrics.batchSeconds.observe(m.labels as { stage: string }, m.value);
        else metrics[m.metric].inc(m.labels as { stage: string; topic: string }, m.value);
      } else if (m.ev === 'error') h.report.onError?.(fromWireError(m.error, 'the history worker thread'), m.where);
      else this.settle(m.sid, fromWireError(m.error, 'the history worker thread'));
      return;
    }
    if ('rid' in m) {
      // The worker asks the host's registry (the serde there caches ids and schemas after one ask).
      try {
        const registry = this.hosts.get(m.host)?.registry;
        if (!registry) throw new Error(`no open history host ${m.host}`);
        const result = m.op === 'register' ? await registry.register(m.subject, m.schema) : await registry.getSchema(m.schemaId);
        this.worker.postMessage({ rid: m.rid, ok: true, result } satisfies HostRequest);
      } catch (e) {
        this.worker.postMessage({ rid: m.rid, ok: false, error: toWireError(e) } satisfies HostRequest);
      }
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(fromWireError(m.error, 'the history worker thread'));
  }

  /** The worker is gone: every call in flight and every later one fails (its stages stop committing). */
  private fail(e: Error): void {
    this.failure ??= e;
    if (shared === this) shared = null;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
    for (const sid of [...this.hosted.keys()]) this.settle(sid, this.failure);
  }
}

let shared: SharedWorker | null = null;
let nextHost = 1;
/** Workers whose thread has not exited: `shared`, and one closing (its chdb session may take long to close). */
const living = new Set<SharedWorker>();

/**
 * Abandons the process's history worker, if one runs (SharedWorker.abandon): for an operator's stop
 * past its deadline, after the stages' batches in flight were abandoned (abandonInFlight, runner.ts).
 * Returns whether there was one.
 */
export function abandonHistoryWorker(reason: Error): boolean {
  const n = living.size;
  for (const w of [...living]) w.abandon(reason);
  return n > 0;
}

export class HistoryHost implements History, StageOffload {
  readonly kind = 'chdb' as const;
  readonly database: string;
  readonly registry: SchemaLookup;
  private readonly stages: Set<string>;
  private readonly workerLog: HistoryHostOptions['workerLog'];
  private readonly id = nextHost++;
  private closed: Promise<void> | null = null;
  /** Shared memory the relayed batches are packed into (batch-pack.ts). */
  private readonly arena = new PackArena();

  private constructor(
    private readonly w: SharedWorker,
    opts: HistoryHostOptions,
  ) {
    this.database = opts.database;
    this.registry = opts.registry;
    this.stages = new Set(opts.stages);
    this.workerLog = opts.workerLog;
    w.attach(this.id, this);
  }

  /** Starts (or joins) the process's worker, which opens chdb and creates the database. */
  static async open(opts: HistoryHostOptions): Promise<HistoryHost> {
    const hostable = new Set(HOSTED_STAGES.map((d) => d.name));
    for (const name of opts.stages) if (!hostable.has(name)) throw new Error(`the history worker cannot run stage ${JSON.stringify(name)}`);
    if (shared && shared.chdbPath !== opts.chdbPath)
      throw new Error(`chdb is already open at ${JSON.stringify(shared.chdbPath)} in this process; cannot open ${JSON.stringify(opts.chdbPath)} (chdb allows one data directory per process)`);
    if (!shared) {
      // chdb's native addon must be loaded by the main thread too: when only a worker has loaded it,
      // the process segfaults on exit as the worker's environment is torn down (seen with chdb 26.7).
      await import('chdb');
      const data: HistoryWorkerData = { entry: new URL('./history-worker.ts', import.meta.url).href, chdbPath: opts.chdbPath, nice: opts.nice };
      shared = new SharedWorker(opts.chdbPath, new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: data }));
    }
    const host = new HistoryHost(shared, opts);
    try {
      await host.call({ op: 'query', sql: 'SELECT 1' });
    } catch (e) {
      await host.close();
      throw e;
    }
    return host;
  }

  runs(stage: string): boolean {
    return this.stages.has(stage);
  }

  /** The worker thread's event loop utilization, as performance.eventLoopUtilization() gives this thread's. */
  workerUtilization(since?: EventLoopUtilization): EventLoopUtilization {
    return this.w.utilization(since);
  }

  batch(stage: string, topics: TopicMap, topic: TopicId, partition: number, records: LogRecord[], claim?: string): Promise<void> {
    // Packed and moved, not cloned record by record (batch-pack.ts). Not an async function: its frame
    // would keep `records` alive until the worker answers (the arena lends the packed copy).
    return this.arena
      .lend(records, (packed, transfer) => this.call({ op: 'batch', stage, topic: topics[topic], partition, packed, ...(claim === undefined ? {} : { claim }) }, transfer))
      .then(() => undefined);
  }

  consume(stage: string, log: Log, topics: TopicMap, report: HostedReport): HostedStage | null {
    if (!this.stages.has(stage) || !this.workerLog || log !== this.workerLog.log) return null;
    if (this.closed) throw new Error('History is closed');
    return this.w.stage(this.id, this.database, stage, topics, this.workerLog.spec, report);
  }

  async exec(sql: string, params?: Params): Promise<void> {
    await this.call({ op: 'exec', sql, params });
  }

  async insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
    if (rows.length) await this.call({ op: 'insert', table, rows });
  }

  query<T>(sql: string, params?: Params): Promise<T[]> {
    return this.call({ op: 'query', sql, params }) as Promise<T[]>;
  }

  readOnlyQuery(q: ReadOnlyQuery): Promise<ReadOnlyAnswer> {
    return this.call({ op: 'readonly', q }) as Promise<ReadOnlyAnswer>;
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.w.call(this.id, this.database, { op: 'close' }).catch(() => {});
      await this.w.detach(this.id);
    })();
    return this.closed;
  }

  private call(req: Call, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('History is closed'));
    return this.w.call(this.id, this.database, req, transfer);
  }
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
