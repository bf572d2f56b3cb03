// The history worker thread (started by history-host.ts). In: History calls, batches of the hosted
// stages as raw log records, and (on Kafka) whole hosted stages to run, each naming its host and
// database. Out: answers, a batch's only after its history rows are in chdb; the hosted stages'
// batch counts and errors. It owns the process's chdb session (one ChdbHistory per database, sharing
// it); the registry stays on the main thread. A hosted stage runs here as a StageRunner on this
// thread's own Kafka log, in the stage's usual group, so it consumes, writes and commits without the
// main thread; the runner writes its batches as runBatch writes relayed ones.
import { parentPort, workerData } from 'node:worker_threads';
import type { Log, LogRecord, Producer } from '../log/types.ts';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { workerSerdes } from './worker-serde.ts';
import type { TopicDef } from '../topics.ts';
import type { DistributiveOmit, HistoryWorkerData, HostRequest, MetricName, WorkerLog, WorkerMessage } from './history-host.ts';
import { fromWireError, toWireError } from './history-host.ts';
import type { PipelineMetrics } from './metrics.ts';
import { decodeBatch, StageRunner } from './runner.ts';
import { historyFromAvroFirst } from './avro-history.ts';
import { unpackBatch } from './batch-pack.ts';
import { HOSTED_STAGES } from './hosted.ts';
import { niceNativeThreads } from './native-nice.ts';
import { dropCodePagesEvery } from './code-pages.ts';

const port = parentPort!;
const data = workerData as HistoryWorkerData;
const stages = new Map(HOSTED_STAGES.map((d) => [d.name, d]));

// Schema lookups are answered by the host's registry on the main thread; each host's serde caches
// ids and resolvers, so this is asked once per writer schema.
let nextRid = 1;
const asked = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
const ask = (m: DistributiveOmit<Extract<WorkerMessage, { rid: number }>, 'rid'>): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const rid = nextRid++;
    asked.set(rid, { resolve, reject });
    port.postMessage({ ...m, rid });
  });
const serdes = workerSerdes('the history worker', {
  register: (host, subject, schema) => ask({ host, op: 'register', subject, schema }) as Promise<number>,
  getSchema: (host, schemaId) => ask({ host, op: 'getSchema', schemaId }) as Promise<object | string>,
});

const histories = new Map<string, Promise<ChdbHistory>>();
function historyOf(db: string): Promise<ChdbHistory> {
  let h = histories.get(db);
  if (!h) {
    h = ChdbHistory.open(data.chdbPath, db);
    // chdb's own threads (its query and merge pools) at this thread's priority, as they start.
    if (data.nice && histories.size === 0) niceNativeThreads(data.nice);
    // libchdb's pages its start touched, once chdb has opened (code-pages.ts).
    if (histories.size === 0) h.then(() => dropCodePagesEvery(), () => {});
    histories.set(db, h);
    h.catch(() => histories.delete(db));
  }
  return h;
}

/** One relayed batch of a hosted stage: its history written before it resolves. */
async function runBatch(host: number, db: string, stage: string, topic: TopicDef, partition: number, batch: LogRecord[], claim: string | undefined): Promise<void> {
  const def = stages.get(stage);
  if (!def) throw new Error(`the history worker cannot run stage ${JSON.stringify(stage)}`);
  const serde = serdes.of(host);
  const history = await historyOf(db);
  const rest = await historyFromAvroFirst(def, serde, history, topic.name, batch);
  if (rest.length === 0) return;
  const records = await decodeBatch(serde, topic, rest, def.lazyValues);
  const out = await def.handle(records, { stage: def.name, topic: topic.id, partition, history, claim });
  // A hosted stage writes history only: anything else would be lost here, so it fails the batch.
  if (out.records?.length || out.snapshots?.length) throw new Error(`stage ${def.name} returned records or snapshots, which the history worker cannot write`);
  for (const w of out.history ?? []) await history.insert(w.table, w.rows);
}

// ---- Hosted stages (Kafka): whole StageRunners on this thread ----

/** One Log per configuration, shared by the runners on it (each runner has its own consumer). */
const logs = new Map<string, Promise<Log>>();
function logOf(spec: WorkerLog): Promise<Log> {
  const key = JSON.stringify(spec);
  let l = logs.get(key);
  if (!l) {
    // Imported here so a worker serving the embedded log never loads a Kafka client.
    l = import('../log/kafka.ts').then((m) => new m.KafkaLog(spec.options));
    logs.set(key, l);
  }
  return l;
}

/** Hosted stages write history only: a send is a stage that should not be here (runBatch fails it first). */
const noProducer: Producer = {
  send: () => Promise.reject(new Error('a stage on the history worker produces no records')),
  close: async () => {},
};

/** The runner's metrics, recorded into the main thread's (the lag is read there, from the same groups). */
function reportedMetrics(sid: number): PipelineMetrics {
  const post = (metric: MetricName, labels: Record<string, string>, value: number) =>
    port.postMessage({ sid, ev: 'metric', metric, labels, value } satisfies WorkerMessage);
  const counter = (metric: MetricName) => ({ inc: (labels: Record<string, string>, value = 1) => post(metric, labels, value) });
  const metrics = {
    recordsIn: counter('recordsIn'),
    recordsOut: counter('recordsOut'),
    batches: counter('batches'),
    errors: counter('errors'),
    batchSeconds: { observe: (labels: Record<string, string>, value: number) => post('batchSeconds', labels, value) },
    addLagSource: () => () => {},
  };
  // Only the members the runner calls; the cast is confined here.
  return metrics as unknown as PipelineMetrics;
}

const runners = new Map<number, { host: number; runner: Promise<StageRunner> }>();

async function startStage(req: Extract<HostRequest, { op: 'start-stage' }>): Promise<void> {
  const def = stages.get(req.stage);
  if (!def) throw new Error(`the history worker cannot run stage ${JSON.stringify(req.stage)}`);
  const { host, db, sid } = req;
  let runner: StageRunner | null = null;
  const started = (async () => {
    runner = new StageRunner(def, {
      log: await logOf(req.log),
      serde: serdes.of(host),
      topics: req.topics,
      history: await historyOf(db),
      producer: noProducer,
      metrics: reportedMetrics(sid),
      // No offload: the runner's own batch path is runBatch's (Avro first, then handle() for the
      // rest, history written), and a stage output other than history fails there too (noProducer;
      // no snapshot store).
      onError: (err, where) =>
        // The error that ended the runner is its failure: the host rejects the stage's run() with it
        // (and the main thread's runner reports it once); a batch's error is reported as it comes.
        port.postMessage(
          (runner?.failure === err
            ? { sid, ev: 'failed', error: toWireError(err) }
            : { sid, ev: 'error', error: toWireError(err), where }) satisfies WorkerMessage,
        ),
    });
    await runner.start();
    return runner;
  })();
  runners.set(sid, { host, runner: started });
  try {
    await started;
  } catch (e) {
    runners.delete(sid);
    throw e;
  }
}

async function stopStage(sid: number): Promise<void> {
  const r = runners.get(sid);
  if (!r) return;
  runners.delete(sid);
  await (await r.runner.catch(() => null))?.stop();
}

/** A stage stopped because its host closed under it: the main thread's runner fails with that. */
async function closeStage(sid: number): Promise<void> {
  await stopStage(sid);
  port.postMessage({ sid, ev: 'failed', error: toWireError(new Error('the history host closed while the stage ran')) } satisfies WorkerMessage);
}

async function answer(req: Extract<HostRequest, { id: number }>): Promise<unknown> {
  switch (req.op) {
    case 'batch':
      return runBatch(req.host, req.db, req.stage, req.topic, req.partition, unpackBatch(req.packed), req.claim);
    case 'start-stage':
      return startStage(req);
    case 'stop-stage':
      return stopStage(req.sid);
    case 'exec':
      return (await historyOf(req.db)).exec(req.sql, req.params);
    case 'insert':
      return (await historyOf(req.db)).insert(req.table, req.rows);
    case 'query':
      return (await historyOf(req.db)).query(req.sql, req.params);
    case 'readonly':
      return (await historyOf(req.db)).readOnlyQuery(req.q);
    case 'close': {
      // Its stages are stopped by their runners first; any left would lose their registry here.
      for (const [sid, r] of runners) if (r.host === req.host) await closeStage(sid);
      serdes.forget(req.host);
      // Another host may still use this database; the ChdbHistory of a database is shared, and its
      // session closes with the thread.
      return null;
    }
    case 'shutdown': {
      for (const sid of [...runners.keys()]) await closeStage(sid);
      const openLogs = [...logs.values()];
      logs.clear();
      for (const l of openLogs) await (await l.catch(() => null))?.close();
      const open = [...histories.values()];
      histories.clear();
      for (const h of open) await (await h.catch(() => null))?.close();
      return null;
    }
  }
}

function bodyTransfer(result: unknown): ArrayBuffer[] {
  const body = (result as { body?: Uint8Array } | null)?.body;
  return body && body.buffer instanceof ArrayBuffer ? [body.buffer] : [];
}

port.on('message', (req: HostRequest) => {
  if ('rid' in req) {
    const a = asked.get(req.rid);
    asked.delete(req.rid);
    if (req.ok) a?.resolve(req.result);
    else a?.reject(fromWireError(req.error, 'the main thread'));
    return;
  }
  answer(req).then(
    // A read-only answer's body moves to the main thread rather than being copied (it may be tens of MB).
    (result) => port.postMessage({ id: req.id, ok: true, result: result ?? null } satisfies WorkerMessage, req.op === 'readonly' ? bodyTransfer(result) : []),
    (e: unknown) => port.postMessage({ id: req.id, ok: false, error: toWireError(e) } satisfies WorkerMessage),
  );
});
