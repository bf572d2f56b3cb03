// The pipeline on a worker thread of its own (PIPELINE_THREAD, ROLES=all): the simulator start, the
// pollers and the processors run there exactly as runService runs them (bin/run.ts, the same
// business code); the main thread keeps the API. In: the configuration and the in-process snapshot
// store, which stays on this thread so requests read it without a hop. Out: the simulator's base URL
// for the live routes, the history (a PortHistory) for the candle route, the history SQL port's
// address, and stop().
//
// Why: with the compute already on worker threads (stage-thread.ts, history-host.ts, the pollers'
// and the simulator's threads), what was left on the API's event loop was the pipeline's
// orchestration: the embedded log's appends and reads, every stage runner's consume loop, packing
// batches for the workers, commits, the catalog area, the pollers' supervisor. During a large crawl
// requests waited behind it, lived longer, were promoted and brought full collections
// (bench/crawl-latency.md). What crosses now: the store's writes and publishes (store-port.ts, as
// moved bytes), the candle route's queries (history-port.ts) and the push stream's tails of the
// log with the registry's lookups (log-port.ts).
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Config } from '../../lib/config.ts';
import type { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import { serveSnapshotStore } from '../readmodels/store-port.ts';
import { PortHistory, type HistoryFacts } from '../readmodels/history-port.ts';
import { fromWireError, type WireError } from './history-host.ts';
import { PortLog } from '../log/log-port.ts';
import { PortCaller } from './port-calls.ts';
import type { Log } from '../log/types.ts';
import { WORKER_RESOURCE_LIMITS } from './worker-heap.ts';

/** The pipeline thread's messages to this thread. */
export type PipelineReply =
  | { ready: true; venueBaseUrl?: string; sqlAddress?: string; metricsAddress?: string; history: HistoryFacts; log?: Log['kind'] }
  | { ready: false; error: WireError }
  | { stopped: true; abandoned: boolean }
  | { fatal: WireError };

/** This thread's calls to the pipeline thread (answered with port-calls.ts's replies); 'stop' is sent bare. */
export type PipelineCall = { id: number; op: 'metrics' };

export interface PipelineThread {
  venueBaseUrl?: string;
  sqlAddress?: string;
  /** Its stages' metrics server (METRICS_PORT), which runs there. */
  metricsAddress?: string;
  history: PortHistory;
  /** Its log's tails, offsets and registry lookups (the push stream), when asked for (`stream`). */
  log?: PortLog;
  /** The pipeline thread's Prometheus metrics (its stages count there; metrics.ts), as text. */
  metricsText(): Promise<string>;
  /** Runs the pipeline's stop there (stopWithin, STOP_DEADLINE_MS); resolves whether it abandoned work in flight. */
  stop(): Promise<boolean>;
}

export interface PipelineThreadOptions {
  config: Config;
  store: MemorySnapshotStore;
  /** The thread's nice value (WORKER_NICE; ts-worker.mjs). */
  nice?: number;
  /** Serve its log's tails to this thread (the push stream, STREAM). */
  stream?: boolean;
  /** The pipeline failed after its start (an error nothing caught there); the thread is gone. */
  onFatal?: (err: Error) => void;
}

export async function startPipelineThread(o: PipelineThreadOptions): Promise<PipelineThread> {
  const storeCh = new MessageChannel();
  const historyCh = new MessageChannel();
  const logCh = o.stream ? new MessageChannel() : undefined;
  serveSnapshotStore(o.store, storeCh.port1);
  const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), {
    workerData: {
      entry: new URL('./pipeline-worker.ts', import.meta.url).href,
      nice: o.nice,
      config: o.config,
      storePort: storeCh.port2,
      historyPort: historyCh.port2,
      logPort: logCh?.port2,
    },
    transferList: [storeCh.port2, historyCh.port2, ...(logCh ? [logCh.port2] : [])],
    resourceLimits: WORKER_RESOURCE_LIMITS,
  });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  let stopping: ((abandoned: boolean) => void) | undefined;
  const first = await new Promise<PipelineReply>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`the pipeline thread exited (code ${code}) before it started`)));
  });
  // The three ports' ends on this thread, closed together (a failed start, a stop, a thread gone).
  const closePorts = async (h?: PortHistory, l?: PortLog) => {
    await l?.close();
    await h?.close();
    for (const p of [storeCh.port1, historyCh.port1, logCh?.port1]) p?.close();
  };
  if (!('ready' in first) || !first.ready) {
    await worker.terminate();
    await closePorts();
    throw 'error' in first ? fromWireError(first.error, 'the pipeline thread') : new Error('the pipeline thread did not start');
  }
  const fatal = (e: Error) => {
    if (stopping) return;
    if (o.onFatal) o.onFatal(e);
    else console.error('the pipeline thread failed:', e);
  };
  // Its metrics are calls on the Worker itself; its other messages (stopped, fatal) come beside them.
  const calls = new PortCaller<PipelineCall>(worker, 'the pipeline thread', 'the pipeline thread', (m) => {
    const r = m as PipelineReply;
    if ('stopped' in r) stopping?.(r.abandoned);
    else if ('fatal' in r) fatal(fromWireError(r.fatal, 'the pipeline thread'));
  });
  worker.on('error', (e) => fatal(e instanceof Error ? e : new Error(String(e))));
  let gone = false;
  void exited.then((code) => {
    gone = true;
    // Gone without a stop asked: nothing of the pipeline runs any more.
    if (!stopping) fatal(new Error(`the pipeline thread exited (code ${code})`));
    stopping?.(true);
  });
  const history = new PortHistory(historyCh.port1, first.history);
  const log = logCh && first.log ? new PortLog(logCh.port1, first.log) : undefined;
  return {
    venueBaseUrl: first.venueBaseUrl,
    sqlAddress: first.sqlAddress,
    metricsAddress: first.metricsAddress,
    history,
    log,
    metricsText() {
      return calls.call<string>({ op: 'metrics' });
    },
    async stop() {
      if (stopping) return false;
      if (gone) {
        await closePorts(history, log);
        return true;
      }
      const answered = new Promise<boolean>((resolve) => (stopping = resolve));
      worker.postMessage('stop');
      const abandoned = await answered;
      await closePorts(history, log);
      calls.close();
      // With work abandoned, a thread under it may be inside chdb: not waited for (the process ends by its signal).
      if (abandoned) void worker.terminate();
      else {
        const done = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000).unref())]);
        if (!done) void worker.terminate();
      }
      return abandoned;
    },
  };
}
