// A process for the kill test of the worker-hosted history sinks (history-worker-kill.e2e.spec.ts):
// the raw-history sink consumed, written and committed on the history worker thread, on its own Kafka
// log, until killed, or until caught up when told to. In: HOSTED_WORKER (JSON settings) in the
// environment. Out: 'started' once the stage runs, 'caught-up' once its group has committed
// everything, then exit 0 (exitWhenCaughtUp).
import path from 'node:path';
import type { Log } from '../../log/types.ts';
import { KafkaLog } from '../../log/kafka.ts';
import { migrate } from '../../readmodels/migrate.ts';
import { EmbeddedRegistry } from '../../registry/embedded.ts';
import { avroSerde } from '../../serde/index.ts';
import { defineTopics } from '../../topics.ts';
import { HistoryHost, type WorkerLog } from '../history-host.ts';
import { StageRunner } from '../runner.ts';
import { rawHistorySink } from '../sinks.ts';

export interface HostedWorkerSettings {
  dir: string;
  prefix: string;
  database: string;
  client: WorkerLog['client'];
  brokers: string[];
  /** Largest batch the stage is handed: small, so there is a stream to kill. */
  maxBatch: number;
  exitWhenCaughtUp: boolean;
}

const s = JSON.parse(process.env.HOSTED_WORKER ?? '{}') as HostedWorkerSettings;
const options = { brokers: s.brokers, maxBatchRecords: s.maxBatch, retryBackoffMs: 20 };
const log: Log = new KafkaLog(options);
const registry = new EmbeddedRegistry(path.join(s.dir, 'registry'));
const host = await HistoryHost.open({
  chdbPath: path.join(s.dir, 'chdb'),
  database: s.database,
  stages: [rawHistorySink.name],
  registry,
  workerLog: { log, spec: { client: s.client, options } },
});
await migrate(host);
const topics = defineTopics({ prefix: s.prefix, partitions: 3 });
const runner = new StageRunner(rawHistorySink, { log, topics, serde: avroSerde(registry), history: host, offload: host });
await runner.start();
process.stdout.write('started\n');
if (s.exitWhenCaughtUp) {
  await runner.caughtUp(90_000);
  await runner.stop();
  await host.close();
  await log.close();
  process.stdout.write('caught-up\n');
  process.exit(0);
}
