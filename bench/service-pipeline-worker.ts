// The body of bench/service-pipeline-thread.ts's worker: the service's pipeline (bench/service-
// pipeline.ts) on a thread of its own, as PIPELINE_THREAD runs it (pipelines/runtime/pipeline-
// worker.ts): it writes the API thread's snapshot store through its port and serves its log's tails
// and its registry's lookups to the push stream's hubs there (log-port.ts). The bench's input (each
// round's records, encoded ahead here, where the pollers' thread hands them over in the service) and
// its 20 changes a second (bench/stream-probes.ts) are appended here, where the log is.
import { readFileSync } from 'node:fs';
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Config } from '../lib/config.ts';
import { PortSnapshotStore } from '../pipelines/readmodels/store-port.ts';
import { serveLogTail } from '../pipelines/log/log-port.ts';
import { replyTo } from '../pipelines/runtime/port-calls.ts';
import type { RawRecord } from '../pipelines/topics.ts';
import { startServicePipeline, type EncodedRecords, type ServicePipeline } from './service-pipeline.ts';
import { startProbes, type Probes } from './stream-probes.ts';
import type { PipelineCall } from './service-pipeline-thread.ts';

const data = workerData as { config: Config; rounds: RawRecord[][]; storePort: MessagePort; logPort: MessagePort; controlPort: MessagePort };
const control = data.controlPort;

let started: Promise<{ pipeline: ServicePipeline; encoded: EncodedRecords[]; probes: Probes }> | undefined;
// Every call of the pipeline to the API thread's snapshot store, timed from the call to its answer:
// the time the pipeline's stages wait on the API thread (a call waits behind whatever that thread
// is doing when it arrives, the clients' fan-out among it). Per operation: [calls, ms awaited, most ms].
const storeWaits = new Map<string, [number, number, number]>();
function timedStore(store: PortSnapshotStore): PortSnapshotStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || prop === 'constructor') return v;
      return (...a: unknown[]) => {
        const t0 = performance.now();
        const out = (v as (...x: unknown[]) => unknown).apply(target, a);
        if (!(out instanceof Promise)) return out;
        const done = () => {
          const ms = performance.now() - t0;
          const w = storeWaits.get(String(prop)) ?? [0, 0, 0];
          storeWaits.set(String(prop), [w[0] + 1, w[1] + ms, Math.max(w[2], ms)]);
        };
        out.then(done, done);
        return out;
      };
    },
  });
}

const start = () =>
  (started ??= (async () => {
    const pipeline = await startServicePipeline(data.config, { store: timedStore(new PortSnapshotStore(data.storePort)) });
    serveLogTail(pipeline.backbone.log, pipeline.registry, data.logPort);
    const encoded: EncodedRecords[] = [];
    for (const recs of data.rounds) encoded.push(await pipeline.encode(recs));
    const probes = await startProbes({ producer: pipeline.producer, serde: pipeline.backbone.serde, topics: pipeline.backbone.topics });
    return { pipeline, encoded, probes };
  })());

async function answer(m: PipelineCall): Promise<unknown> {
  const p = await start();
  switch (m.op) {
    case 'start':
      // This thread's id, so the bench can tell its schedstat from the stage thread's and chdb's.
      return { tid: Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]) };
    case 'round': {
      const input = p.encoded[m.round]!;
      const t0 = performance.now();
      const seq0 = p.probes.seq();
      storeWaits.clear();
      await p.pipeline.append(input);
      const appendedS = (performance.now() - t0) / 1000;
      // When each stage was first caught up (the last one is what the round waited for).
      const caught: Record<string, number> = {};
      await p.pipeline.caughtUp(600_000, (stage) => (caught[stage] = +((performance.now() - t0) / 1000).toFixed(2)));
      const wall = (performance.now() - t0) / 1000;
      const store_waits = Object.fromEntries([...storeWaits].map(([op, [n, ms, max]]) => [op, [n, Math.round(ms), Math.round(max)]]));
      return { records: data.rounds[m.round]!.length, wall_s: wall, seqs: [seq0, p.probes.seq()], appended_s: +appendedS.toFixed(2), caught_up_s: caught, store_waits };
    }
    case 'commits':
      return Object.fromEntries([...p.probes.commits].filter(([s]) => s >= m.from && s < m.to));
    case 'stop':
      await p.probes.stop();
      await p.pipeline.stop();
      return null;
  }
}

// The API thread ends this thread once 'stop' is answered.
control.on('message', (m: PipelineCall) => replyTo(control, m.id, answer(m)));

