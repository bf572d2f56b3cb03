// The venue pollers on a worker thread of their own: the pollers' thread (POLLER_THREAD).
// In: the configuration, and on this thread the log, the serde's registry, the producer and the
// venues' request budgets. Out: the nine pollers running on the worker (thread-worker.ts), built by
// the same pollersFromConfig as on this thread, and their status as they last reported it.
//
// Why: on the embedded default the pollers' page reads (JSON parse of every page, JSON of every
// record, change detection, Avro encoding) were the largest share of the API's event loop during a
// 1,000,000-market crawl once the stages had moved off it (bench/crawl-latency.md: pollers 18%,
// serde and avsc 7% of the main thread). The embedded log belongs to this thread (its partitions,
// offsets and files are this thread's objects), so the worker does not append itself: it encodes
// each page's records and hands them here as one transferred buffer, and this thread's producer
// appends them and answers once the log has them, as the stage thread's runner writes its outputs.
// A poller awaits that answer before it reads on, so the records of one venue reach the log in the
// order it read them (ordering per key), a crawl's marker only after its records, and the hashes on
// `pollers.state` only after the marker (at-least-once), exactly as on this thread.
// The venues' request budgets stay this thread's too: the live routes take from the same ones.
// The roster poller (rosters.ts) runs there as well, its records appended the same way: a round
// every ten minutes is a few hundred reads, parses and encodings at once, which the API's event loop
// need not take either.
import { Worker } from 'node:worker_threads';
import type { Config } from '../../../lib/config.ts';
import type { Log, Producer } from '../../log/types.ts';
import type { Serde, SchemaLookup } from '../../serde/index.ts';
import type { RawRecord, TopicMap } from '../../topics.ts';
import type { Provider } from '../../../lib/vocabulary.ts';
import { fromWireError, toWireError, type WireError } from '../../runtime/history-host.ts';
import { unpackOutgoing, type PackedOutgoing } from '../../runtime/batch-pack.ts';
import { nextRestartWait, RESTART_BACKOFF_MS } from '../../runtime/stage-thread.ts';
import type { VenueEndpoints } from '../client/endpoints.ts';
import { LogPollerState } from './state.ts';
import { writtenRosters } from './rosters.ts';
import { silentLogger, type PollerLogger, type PollerStatus } from './poller.ts';
import { WORKER_RESOURCE_LIMITS } from '../../runtime/worker-heap.ts';

/** How often the worker reports its pollers' status (what RunningPollers.status() shows). */
export const STATUS_EVERY_MS = 250;

/** Records of `pollers.state` read at start travel to the worker in chunks of this many. */
export const STATE_CHUNK = 2_000;

export interface PollerWorkerData {
  entry: string;
  nice?: number;
  config: Config;
  topics: TopicMap;
  /** The shared venue host (VENUE_BASE_URL or the simulator's). */
  baseUrl: string;
  /** The roster poller's cadence, when the rosters are read on this thread too (rosters.ts). */
  rosters?: { intervalMs: number };
}

/** What the worker asks of this thread; each is answered by rid. */
export type PollerAsk =
  | { rid: number; op: 'register'; subject: string; schema: object | string }
  | { rid: number; op: 'getSchema'; schemaId: number }
  | { rid: number; op: 'send'; topic: string; packed: PackedOutgoing }
  | { rid: number; op: 'admit'; venue: Provider }
  // The whole of `pollers.state` (change-only memory), sent back in chunks, then done.
  | { rid: number; op: 'readState' }
  // The rosters already on `reference.rosters` (key, payload), in one answer: a few hundred teams.
  | { rid: number; op: 'readRosters' };

export type PollerWorkerMessage =
  | PollerAsk
  | { log: 'debug' | 'info' | 'warn' | 'error'; obj: object; msg: string }
  | { status: PollerStatus[]; rosterRounds: number }
  | { ready: true; priority: number }
  | { stopped: true }
  | { fatal: WireError };

export type PollerReply =
  | { rid: number; ok: true; value?: unknown }
  | { rid: number; chunk: [string | null, RawRecord | null][] }
  | { rid: number; error: WireError }
  | { stop: true };

export interface PollerThreadOptions {
  config: Config;
  baseUrl: string;
  log: Log;
  serde: Serde;
  topics: TopicMap;
  producer: Producer;
  endpoints: VenueEndpoints;
  logger?: PollerLogger;
  /** Read the sports data source's rosters there too, at this cadence (absent: no rosters). */
  rosters?: { intervalMs: number };
}

export class PollerThread {
  private last: PollerStatus[] = [];
  private rounds = 0;
  /** The worker's scheduling priority as it read it at start (its nice value on Linux). */
  priority = 0;
  private readonly stopping = new AbortController();
  private stopped: Promise<void> | undefined;
  private exited = false;
  private died!: (code: number) => void;
  /** Resolves with the exit code if the worker ends other than by stop(). */
  readonly death = new Promise<number>((resolve) => (this.died = resolve));

  private constructor(
    private readonly worker: Worker,
    private readonly o: PollerThreadOptions & { schemas: SchemaLookup; logger: PollerLogger },
  ) {}

  /** Starts the worker and resolves once its pollers run (their memory read back from the log first). */
  static async start(options: PollerThreadOptions): Promise<PollerThread> {
    const schemas = options.serde.schemas;
    if (!schemas) throw new Error('the pollers\' thread encodes through a registry with ids by subject (an Avro serde); this serde has none');
    const data: PollerWorkerData = {
      entry: new URL('./thread-worker.ts', import.meta.url).href,
      nice: options.config.WORKER_NICE,
      config: options.config,
      topics: options.topics,
      baseUrl: options.baseUrl,
      rosters: options.rosters,
    };
    const worker = new Worker(new URL('../../runtime/ts-worker.mjs', import.meta.url), { workerData: data, resourceLimits: WORKER_RESOURCE_LIMITS });
    const t = new PollerThread(worker, { ...options, schemas, logger: options.logger ?? silentLogger });
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (m: PollerWorkerMessage) => {
        if ('ready' in m) {
          t.priority = m.priority;
          resolve();
        } else if ('fatal' in m) reject(fromWireError(m.fatal, "the pollers' thread"));
        else t.onMessage(m);
      });
      worker.on('error', (e: unknown) => {
        reject(e);
        t.o.logger.error({ err: String(e) }, "the pollers' thread failed");
      });
      worker.on('exit', (code) => {
        t.exited = true;
        reject(new Error(`the pollers' thread exited while starting (code ${code})`));
        if (!t.stopped) t.died(code);
      });
    });
    return t;
  }

  /** Each poller's status as the worker last reported it. */
  status(): PollerStatus[] {
    return this.last.map((s) => ({ ...s, faults: { ...s.faults }, feeds: { ...s.feeds } }));
  }

  /** Roster rounds completed, as the worker last reported. */
  rosterRounds(): number {
    return this.rounds;
  }

  /** Stops the pollers (each finishes or abandons the page in hand; what they send meanwhile is still appended), then the worker. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      if (!this.exited) {
        const done = new Promise<void>((resolve) => {
          this.worker.on('message', (m: PollerWorkerMessage) => 'stopped' in m && resolve());
          this.worker.once('exit', () => resolve());
        });
        this.worker.postMessage({ stop: true } satisfies PollerReply);
        // Budget waits end at once: a stopping poller sends nothing more.
        this.stopping.abort();
        await done;
      }
      await this.worker.terminate();
    })();
    return this.stopped;
  }

  private onMessage(m: PollerWorkerMessage): void {
    if ('status' in m) {
      this.last = m.status;
      this.rounds = m.rosterRounds;
    }
    else if ('log' in m) this.o.logger[m.log]?.(m.obj, m.msg);
    else if ('op' in m) void this.answer(m);
  }

  private async answer(m: PollerAsk): Promise<void> {
    const reply = (r: PollerReply) => {
      if (!this.exited) this.worker.postMessage(r);
    };
    try {
      let value: unknown;
      if (m.op === 'send') await this.o.producer.send(m.topic, unpackOutgoing(m.packed));
      else if (m.op === 'admit') await this.o.endpoints.admit(m.venue, { signal: this.stopping.signal });
      else if (m.op === 'register') value = await this.o.schemas.register(m.subject, m.schema);
      else if (m.op === 'getSchema') value = await this.o.schemas.getSchema(m.schemaId);
      else if (m.op === 'readRosters') value = [...(await writtenRosters(this.o))];
      else await this.readState(m.rid, reply);
      reply({ rid: m.rid, ok: true, value });
    } catch (e) {
      reply({ rid: m.rid, error: toWireError(e) });
    }
  }

  /** `pollers.state` read here (the log is this thread's), its records sent on in chunks. */
  private async readState(rid: number, reply: (r: PollerReply) => void): Promise<void> {
    let chunk: [string | null, RawRecord | null][] = [];
    await LogPollerState.readTopic(this.o, (key, value) => {
      chunk.push([key, value]);
      if (chunk.length >= STATE_CHUNK) {
        reply({ rid, chunk });
        chunk = [];
      }
    });
    if (chunk.length) reply({ rid, chunk });
  }
}


/**
 * The pollers' thread, started again when it dies unasked (a crash in a worker ends only that
 * thread: without this no venue would be read until someone restarted the process, while the API
 * went on serving ever older snapshots). Each new thread reads the change-only memory back from the
 * log as the first did, so a crawl goes on where the log says; the wait doubles while starts fail.
 */
export class SupervisedPollerThread {
  private current: PollerThread | null = null;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private restartCount = 0;
  private readonly logger: PollerLogger;

  private constructor(
    private readonly options: PollerThreadOptions,
    private readonly backoffMs: number,
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  static async start(options: PollerThreadOptions, backoffMs = RESTART_BACKOFF_MS): Promise<SupervisedPollerThread> {
    const s = new SupervisedPollerThread(options, backoffMs);
    s.watch(await PollerThread.start(options), backoffMs);
    return s;
  }

  /** Times the thread was started again after it died. */
  restarts(): number {
    return this.restartCount;
  }

  /** The running thread's pollers as it last reported them (none while one is being started again). */
  status(): PollerStatus[] {
    return this.current?.status() ?? [];
  }

  /** The running thread's completed roster rounds (0 while one is being started again). */
  rosterRounds(): number {
    return this.current?.rosterRounds() ?? 0;
  }

  /** The running thread, for tests that end it the way a crash would. */
  thread(): PollerThread | null {
    return this.current;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.current?.stop();
  }

  private watch(t: PollerThread, wait: number): void {
    this.current = t;
    void t.death.then((code) => {
      if (this.stopping || this.current !== t) return;
      this.current = null;
      this.logger.error({ code, restart_in_ms: wait }, "the pollers' thread exited: starting it again");
      this.again(wait);
    });
  }

  private again(wait: number): void {
    this.timer = setTimeout(() => {
      if (this.stopping) return;
      PollerThread.start(this.options).then(
        (t) => {
          this.restartCount++;
          if (this.stopping) void t.stop();
          else this.watch(t, this.backoffMs);
        },
        (err: unknown) => {
          const next = nextRestartWait(wait);
          this.logger.error({ err: String(err), restart_in_ms: next }, "the pollers' thread did not start");
          this.again(next);
        },
      );
    }, wait);
  }
}
