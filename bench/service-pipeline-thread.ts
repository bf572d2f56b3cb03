// The service's pipeline (bench/service-pipeline.ts) on a worker thread of its own, as the service
// runs it with PIPELINE_THREAD (pipelines/runtime/pipeline-thread.ts): the API thread keeps the
// in-process snapshot store (the pipeline writes it through store-port.ts) and reads the pipeline's
// log through log-port.ts (the push stream's hubs tail it, and decode with its registry's lookups);
// the worker runs at WORKER_NICE, as the pipeline thread does. No pollers and no simulator: the bench
// hands the worker its rounds' records, appended there by round, and the worker appends the stream's
// changes (bench/stream-probes.ts) where the log is. Used by bench/stream.ts --mode service --pipeline-thread.
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Config } from '../lib/config.ts';
import { openStore } from '../pipelines/runtime/backbone.ts';
import type { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { serveSnapshotStore } from '../pipelines/readmodels/store-port.ts';
import { PortLog } from '../pipelines/log/log-port.ts';
import { PortCaller } from '../pipelines/runtime/port-calls.ts';
import type { RawRecord } from '../pipelines/topics.ts';

/** The bench's calls to the worker (bench/service-pipeline-worker.ts answers them). */
export type PipelineCall =
  | { id: number; op: 'start' }
  /** Appends round `round`'s records and waits until every stage committed what its inputs hold. */
  | { id: number; op: 'round'; round: number }
  /** The stream's changes `from` <= seq < `to` with their commit times. */
  | { id: number; op: 'commits'; from: number; to: number }
  | { id: number; op: 'stop' };

export interface PipelineRound {
  records: number;
  /** From the round's first append to every stage caught up, timed on the pipeline's thread. */
  wall_s: number;
  /** The stream's changes appended meanwhile: seqs[0] <= seq < seqs[1]. */
  seqs: [number, number];
  /** From the first append until the last was in the log. */
  appended_s?: number;
  /** When each stage was first caught up, seconds from the round's start, in the order they were checked. */
  caught_up_s?: Record<string, number>;
  /** The pipeline's calls to the API thread's snapshot store during the round, by operation: [calls, ms awaited in all, most ms]. */
  store_waits?: Record<string, [number, number, number]>;
}

export interface ServicePipelineThread {
  store: MemorySnapshotStore;
  log: PortLog;
  /** The pipeline thread's id (Linux), for its schedstat. */
  tid: number;
  round(round: number): Promise<PipelineRound>;
  commits(from: number, to: number): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** `rounds`: each round's records (what the pollers would publish), encoded on the worker before it answers. */
export async function startServicePipelineThread(config: Config, rounds: RawRecord[][]): Promise<ServicePipelineThread> {
  const store = openStore(config) as MemorySnapshotStore;
  const storeCh = new MessageChannel();
  const logCh = new MessageChannel();
  const controlCh = new MessageChannel();
  serveSnapshotStore(store, storeCh.port1);
  const worker = new Worker(new URL('../pipelines/runtime/ts-worker.mjs', import.meta.url), {
    workerData: {
      entry: new URL('./service-pipeline-worker.ts', import.meta.url).href,
      nice: config.WORKER_NICE,
      config,
      rounds,
      storePort: storeCh.port2,
      logPort: logCh.port2,
      controlPort: controlCh.port2,
    },
    transferList: [storeCh.port2, logCh.port2, controlCh.port2],
  });
  const calls = new PortCaller<PipelineCall>(controlCh.port1, 'the bench pipeline port', 'the pipeline thread');
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the pipeline thread exited (code ${code})`)));
  });
  failed.catch(() => {});
  const call = <T>(m: Parameters<typeof calls.call>[0]) => Promise.race([calls.call<T>(m), failed]);
  const { tid } = await call<{ tid: number }>({ op: 'start' });
  const log = new PortLog(logCh.port1, 'embedded');
  return {
    store,
    log,
    tid,
    round: (round) => call({ op: 'round', round }),
    commits: (from, to) => call({ op: 'commits', from, to }),
    async stop() {
      await log.close();
      await call({ op: 'stop' });
      calls.close();
      storeCh.port1.close();
      await worker.terminate();
      await store.close();
    },
  };
}
