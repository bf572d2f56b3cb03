// Opens the backbone for a process from configuration: the log (embedded or Kafka), the serde
// (Avro through the registry), the History (chdb or ClickHouse server) and the SnapshotStore
// (in-process or Redis), and the topic map. In: Config. Out: RuntimeDeps for stage runners, and a
// close(). The service (bin/run.ts), bin/replay.ts, bin/status.ts and the benchmark all open the
// backbone through here, so the two modes differ only by configuration.
import type { Config } from '../../lib/config.ts';
import { createLog } from '../log/index.ts';
import type { Log } from '../log/types.ts';
import type { History } from '../readmodels/history.ts';
import { openHistory } from '../readmodels/migrate.ts';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import { RedisSnapshotStore } from '../readmodels/redis-store.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { Serde } from '../serde/index.ts';
import { createAllTopics, defineTopics, topicSettings, type TopicMap } from '../topics.ts';
import type { RuntimeDeps } from './runner.ts';

export interface OpenedBackbone extends RuntimeDeps {
  log: Log;
  topics: TopicMap;
  history: History;
  store: SnapshotStore;
  close(): Promise<void>;
}

export function openStore(config: Pick<Config, 'REDIS_URL'>, namespace = 'pm:'): SnapshotStore {
  return config.REDIS_URL ? new RedisSnapshotStore({ url: config.REDIS_URL, namespace }) : new MemorySnapshotStore();
}

export async function openBackbone(
  config: Config,
  parts: { serde: Serde; log?: Log; history?: History; store?: SnapshotStore; createTopics?: boolean },
): Promise<OpenedBackbone> {
  const topics = defineTopics(topicSettings(config));
  const log = parts.log ?? (await createLog(config));
  if (parts.createTopics !== false) await createAllTopics(log, topics);
  const history = parts.history ?? (await openHistory(config));
  const store = parts.store ?? openStore(config);
  return {
    log,
    topics,
    serde: parts.serde,
    history,
    store,
    async close() {
      await store.close();
      await history.close();
      await log.close();
    },
  };
}
