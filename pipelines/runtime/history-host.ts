// The history host: chdb and the history sinks on a worker thread, for the embedded default.
// In: the History calls of this process (migrations, catalog, replay, API reads) and the batches of
// the stages it runs (the backbone's history sinks). Out: the same answers as a ChdbHistory on this
// thread, and each batch's history written by the worker before the batch is committed here.
//
// Why: in the embedded default the API shares its event loop with every stage, and that loop was
// 85-99% busy under pipeline load. The history sinks' work (Avro decode, rows, the JSON body of a
// ClickHouse insert, chdb's calls) needs nothing of this thread but the records' bytes, so it runs on
// a worker: the log, consumer groups and commits stay here (the runner awaits the worker's answer
// before committing, so at-least-once and idempotence are unchanged), and the worker decodes with
// the same registry through this thread. The worker owns the process's chdb session: every History
// call of the process goes through it. Measured (bench/backbone.md, session 2): the main loop is
// 15-20 points less busy and the store's p95 lower; pipeline throughput is unchanged, because the
// process is bound by total CPU (GC, chdb and I/O threads already used the second core), and each
// record costs 5-11% more CPU (it is cloned to the worker).
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { LogRecord } from '../log/types.ts';
import type { History, Params } from '../readmodels/history.ts';
import type { SchemaLookup } from '../serde/index.ts';
import type { TopicDef, TopicId, TopicMap } from '../topics.ts';
import { HISTORY_SINKS } from './sinks.ts';

/**
 * Runs some stages' batches away from the runner's thread: stages whose whole output is history
 * (HISTORY_SINKS), so a resolved batch is a written batch and the runner only commits it.
 */
export interface StageOffload {
  runs(stage: string): boolean;
  /** A batch of `topic` (an id of `topics`, the runner's topic map); resolves once its rows are written. */
  batch(stage: string, topics: TopicMap, topic: TopicId, partition: number, records: LogRecord[]): Promise<void>;
}

/** Sent to the worker as workerData. */
export interface HistoryWorkerData {
  entry: string;
  chdbPath: string;
}

/** Every request names the host (its database, and its registry for schema lookups). */
export type HostRequest =
  | { id: number; host: number; db: string; op: 'exec'; sql: string; params?: Params }
  | { id: number; host: number; db: string; op: 'insert'; table: string; rows: Record<string, unknown>[] }
  | { id: number; host: number; db: string; op: 'query'; sql: string; params?: Params }
  | { id: number; host: number; db: string; op: 'batch'; stage: string; topic: TopicDef; partition: number; records: LogRecord[] }
  | { id: number; host: number; db: string; op: 'close' }
  | { id: number; host: number; db: string; op: 'shutdown' }
  | { rid: number; ok: true; result: unknown }
  | { rid: number; ok: false; error: WireError };

export type WorkerMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: WireError }
  | { rid: number; host: number; op: 'register'; subject: string; schema: object | string }
  | { rid: number; host: number; op: 'getSchema'; schemaId: number };

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
  /** Names of the stages the worker runs for this host; each must be one of HISTORY_SINKS (sinks.ts). */
  stages: string[];
  /** Where the worker resolves schema ids and subjects: the process's registry. */
  registry: SchemaLookup;
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
  private nextId = 1;
  private failure: Error | null = null;

  constructor(
    readonly chdbPath: string,
    private readonly worker: Worker,
  ) {
    worker.on('message', (m: WorkerMessage) => void this.onMessage(m));
    worker.on('error', (e: Error) => this.fail(e));
    worker.on('exit', (code) => this.fail(new Error(`the history worker thread exited (code ${code})`)));
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
    await this.worker.terminate();
  }

  call(host: number, db: string, req: Call): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...req, id, host, db });
    });
  }

  private async onMessage(m: WorkerMessage): Promise<void> {
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
  }
}

let shared: SharedWorker | null = null;
let nextHost = 1;

export class HistoryHost implements History, StageOffload {
  readonly kind = 'chdb' as const;
  readonly database: string;
  readonly registry: SchemaLookup;
  private readonly stages: Set<string>;
  private readonly id = nextHost++;
  private closed: Promise<void> | null = null;

  private constructor(
    private readonly w: SharedWorker,
    opts: HistoryHostOptions,
  ) {
    this.database = opts.database;
    this.registry = opts.registry;
    this.stages = new Set(opts.stages);
    w.attach(this.id, this);
  }

  /** Starts (or joins) the process's worker, which opens chdb and creates the database. */
  static async open(opts: HistoryHostOptions): Promise<HistoryHost> {
    const hostable = new Set(HISTORY_SINKS.map((d) => d.name));
    for (const name of opts.stages) if (!hostable.has(name)) throw new Error(`the history worker cannot run stage ${JSON.stringify(name)}`);
    if (shared && shared.chdbPath !== opts.chdbPath)
      throw new Error(`chdb is already open at ${JSON.stringify(shared.chdbPath)} in this process; cannot open ${JSON.stringify(opts.chdbPath)} (chdb allows one data directory per process)`);
    if (!shared) {
      // chdb's native addon must be loaded by the main thread too: when only a worker has loaded it,
      // the process segfaults on exit as the worker's environment is torn down (seen with chdb 26.7).
      await import('chdb');
      const data: HistoryWorkerData = { entry: new URL('./history-worker.ts', import.meta.url).href, chdbPath: opts.chdbPath };
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

  async batch(stage: string, topics: TopicMap, topic: TopicId, partition: number, records: LogRecord[]): Promise<void> {
    await this.call({ op: 'batch', stage, topic: topics[topic], partition, records });
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

  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.w.call(this.id, this.database, { op: 'close' }).catch(() => {});
      await this.w.detach(this.id);
    })();
    return this.closed;
  }

  private call(req: Call): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('History is closed'));
    return this.w.call(this.id, this.database, req);
  }
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
