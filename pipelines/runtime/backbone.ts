// Opens the backbone for a process from configuration: the log (embedded or Kafka), the serde
// (Avro through the registry), the History (chdb or ClickHouse server) and the SnapshotStore
// (in-process or Redis), and the topic map. In: Config. Out: RuntimeDeps for stage runners, and a
// close(). The service (bin/run.ts), bin/replay.ts, bin/status.ts and the benchmark all open the
// backbone through here, so the two modes differ only by configuration.
import path from 'node:path';
import type { Config } from '../../lib/config.ts';
import { createLog } from '../log/index.ts';
import type { Log } from '../log/types.ts';
import type { History } from '../readmodels/history.ts';
import { applyHistoryTtl, applyPriceHistoryTtl, migrate, openHistory } from '../readmodels/migrate.ts';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import { RedisSnapshotStore } from '../readmodels/redis-store.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { SchemaLookup, Serde } from '../serde/index.ts';
import { createAllTopics, defineTopics, topicSettings, type TopicMap } from '../topics.ts';
import { HistoryHost, type StageOffload, type WorkerLog } from './history-host.ts';
import type { RuntimeDeps } from './runner.ts';
import { HOSTED_STAGES } from './hosted.ts';

export interface OpenedBackbone extends RuntimeDeps {
  log: Log;
  topics: TopicMap;
  history: History;
  store: SnapshotStore;
  close(): Promise<void>;
}

/**
 * Which parts a process opens (bin/run.ts derives it from ROLES): a part it does not use is never
 * opened, so an API replica with REDIS_URL opens no chdb (an exclusive lock on DATA_DIR/chdb) and
 * no log. Unset: every part.
 */
export interface BackboneUses {
  log: boolean;
  history: boolean;
  store: boolean;
}

/**
 * Stands in for a part the process did not open: any use throws an error naming the part, instead
 * of a lock or connection error from a seam the process was never meant to touch.
 */
function unopened<T extends object>(part: string): T {
  return new Proxy({} as T, {
    get(_t, prop) {
      if (prop === 'then') return undefined; // not a thenable: awaiting it must not call get('then')
      if (prop === 'kind') return 'unopened';
      throw new Error(`this process did not open the ${part} (ROLES does not use it); ${String(prop)} is unavailable`);
    },
  });
}

export function openStore(config: Pick<Config, 'REDIS_URL'> & Partial<Pick<Config, 'SNAPSHOT_RETAINED_MB'>>, namespace = 'pm:'): SnapshotStore {
  return config.REDIS_URL ? new RedisSnapshotStore({ url: config.REDIS_URL, namespace, generations: true }) : new MemorySnapshotStore({ retainedBytes: config.SNAPSHOT_RETAINED_MB === undefined ? undefined : config.SNAPSHOT_RETAINED_MB * 1024 * 1024 });
}

export async function openBackbone(
  config: Config,
  parts: {
    serde: Serde;
    /**
     * The serde's registry: with it, chdb and the history sinks run on a worker thread; on Kafka the
     * sinks' consumers too (HISTORY_WORKER_CONSUMES), on the embedded log this thread consumes.
     */
    registry?: SchemaLookup;
    log?: Log;
    history?: History;
    store?: SnapshotStore;
    createTopics?: boolean;
    uses?: Partial<BackboneUses>;
  },
): Promise<OpenedBackbone> {
  const uses: BackboneUses = { log: true, history: true, store: true, ...parts.uses };
  const topics = defineTopics(topicSettings(config));
  const log = parts.log ?? (uses.log ? await createLog(config) : unopened<Log>('log'));
  if (uses.log && parts.createTopics !== false) await createAllTopics(log, topics);
  let offload: StageOffload | undefined;
  let history = parts.history ?? (uses.history ? undefined : unopened<History>('history (chdb / ClickHouse)'));
  if (!history && !config.CLICKHOUSE_URL && config.HISTORY_WORKER && parts.registry) {
    const host = await HistoryHost.open({
      chdbPath: path.resolve(config.DATA_DIR, 'chdb'),
      database: config.CLICKHOUSE_DATABASE,
      stages: HOSTED_STAGES.map((d) => d.name),
      nice: config.WORKER_NICE,
      registry: parts.registry,
      workerLog: config.HISTORY_WORKER_CONSUMES && !parts.log && uses.log ? workerLogOf(config, log) : undefined,
    });
    await migrate(host);
    await applyHistoryTtl(host, config.HISTORY_TTL_DAYS);
    await applyPriceHistoryTtl(host, config.PRICE_HISTORY_TTL_DAYS);
    history = host;
    offload = host;
  }
  if (!history) {
    history = await openHistory(config);
    await applyHistoryTtl(history, config.HISTORY_TTL_DAYS);
    await applyPriceHistoryTtl(history, config.PRICE_HISTORY_TTL_DAYS);
  }
  const store = parts.store ?? (uses.store ? openStore(config) : unopened<SnapshotStore>('snapshot store'));
  return {
    log,
    topics,
    serde: parts.serde,
    history,
    store,
    offload,
    async close() {
      if (uses.store || parts.store) await store.close();
      if (uses.history || parts.history) await history.close();
      if (uses.log || parts.log) await log.close();
    },
  };
}

/**
 * The Kafka log createLog() opened from this configuration, as the history worker opens its own copy
 * of it; undefined for the embedded log, which only this thread can read.
 */
export function workerLogOf(config: Pick<Config, 'KAFKA_BROKERS' | 'KAFKA_REPLICATION'>, log: Log): { log: Log; spec: WorkerLog } | undefined {
  if (!config.KAFKA_BROKERS || log.kind !== 'kafka') return undefined;
  const options = { brokers: config.KAFKA_BROKERS.split(',').map((s) => s.trim()).filter(Boolean), replication: config.KAFKA_REPLICATION };
  return { log, spec: { client: 'kafkajs', options } };
}
