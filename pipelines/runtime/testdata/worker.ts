// A stage process for the kill test (backbone.e2e.spec.ts): runs the pass-through processor and the
// read-model sinks until killed, or until caught up when told to. In: BACKBONE_WORKER (JSON
// settings) in the environment. Out: 'progress <stage> <records>' lines on stdout as batches are written,
// 'caught-up' once every stage has committed everything, then exit 0 (exitWhenCaughtUp).
import path from 'node:path';
import { EmbeddedLog } from '../../log/embedded.ts';
import { KafkaLog } from '../../log/kafka.ts';
import type { Log } from '../../log/types.ts';
import { ChdbHistory } from '../../readmodels/chdb-history.ts';
import { ClickhouseHistory } from '../../readmodels/clickhouse-history.ts';
import type { History } from '../../readmodels/history.ts';
import { RedisSnapshotStore } from '../../readmodels/redis-store.ts';
import { MemorySnapshotStore } from '../../readmodels/memory-store.ts';
import { defineTopics } from '../../topics.ts';
import { passThroughStage } from '../passthrough.ts';
import { StageRunner } from '../runner.ts';
import { canonicalHistorySink, canonicalStoreSink, rawHistorySink } from '../sinks.ts';
import { PipelineMetrics } from '../metrics.ts';
import { workerSerde } from './serde.ts';

export interface WorkerSettings {
  dir: string;
  prefix: string;
  brokers?: string[];
  redisUrl?: string;
  redisNamespace?: string;
  clickhouseUrl?: string;
  registryUrl?: string;
  database: string;
  /** Largest batch a stage is handed, on either log: small, so there is a stream to kill. */
  maxBatch: number;
  exitWhenCaughtUp: boolean;
}

const s = JSON.parse(process.env.BACKBONE_WORKER ?? '{}') as WorkerSettings;
const topics = defineTopics({ prefix: s.prefix, partitions: 3 });
const log: Log = s.brokers
  ? new KafkaLog({ brokers: s.brokers, maxBatchRecords: s.maxBatch, retryBackoffMs: 20 })
  : await EmbeddedLog.open({ dir: path.join(s.dir, 'log'), maxBatchRecords: s.maxBatch, compactIntervalMs: 0, retryBackoffMs: 20 });
const history: History = s.clickhouseUrl
  ? await ClickhouseHistory.open(s.clickhouseUrl, s.database)
  : await ChdbHistory.open(path.join(s.dir, 'chdb'), s.database);
const store = s.redisUrl ? new RedisSnapshotStore({ url: s.redisUrl, namespace: s.redisNamespace }) : new MemorySnapshotStore();
const serde = await workerSerde(s.dir, s.registryUrl);

// Progress is what the runners count once a batch is written (their recordsIn metric), whichever way
// a stage writes: the history sinks insert from Avro (avro-history.ts) without calling handle().
const metrics = new PipelineMetrics();
const countIn = metrics.recordsIn.inc.bind(metrics.recordsIn) as (labels: { stage: string; topic: string }, n: number) => void;
metrics.recordsIn.inc = ((labels: { stage: string; topic: string }, n: number) => {
  countIn(labels, n);
  process.stdout.write(`progress ${labels.stage} ${n}\n`);
}) as typeof metrics.recordsIn.inc;
const stages = [passThroughStage, rawHistorySink, canonicalHistorySink, ...(s.redisUrl ? [canonicalStoreSink] : [])];
const deps = { log, topics, serde, history, store, metrics };
const runners = stages.map((d) => new StageRunner(d, deps));
for (const r of runners) await r.start();
if (s.exitWhenCaughtUp) {
  for (let i = 0; i < 2; i++) for (const r of runners) await r.caughtUp(90_000);
  for (const r of runners) await r.stop();
  await store.close();
  await history.close();
  await log.close();
  process.stdout.write('caught-up\n');
  process.exit(0);
}
