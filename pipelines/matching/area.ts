// Wiring of the sports matching area for bin/run.ts (and the benchmark). In: config and the
// backbone seams (log, serde, topic map, snapshot store). Out: the running processor and the
// dependencies the sports routes read (`deps.sports`). Attach with:
//   const sports = await startSportsArea({ config, log, serde, topics, store, venueBaseUrl });
//   deps.sports = sports.deps;   ...   await sports.stop();
import type { Config } from '../../lib/config.ts';
import type { Log } from '../log/types.ts';
import type { Serde } from '../serde/index.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { TopicMap } from '../topics.ts';
import { SportsProcessor } from './processor.ts';
import { SportsReader } from './readmodel.ts';
import type { SportsDeps } from '../../api/routes/v1/sports.ts';

export interface SportsArea {
  processor: SportsProcessor;
  deps: SportsDeps;
  stop(): Promise<void>;
}

export async function startSportsArea(o: {
  config: Pick<Config, 'SPORTS_PUBLISH_MS' | 'KEY_PEPPER'>;
  log: Log;
  serde: Serde;
  topics: TopicMap;
  store: SnapshotStore;
  /** The venues' base URL (the simulator's in the embedded default): rosters and final records. */
  venueBaseUrl?: string;
  clock?: () => number;
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}): Promise<SportsArea> {
  const processor = new SportsProcessor({
    log: o.log,
    serde: o.serde,
    topics: o.topics,
    store: o.store,
    clock: o.clock,
    publishMs: o.config.SPORTS_PUBLISH_MS,
    venueBaseUrl: o.venueBaseUrl,
    rosterRefreshMs: 10 * 60_000,
    logger: o.logger,
  });
  await processor.start();
  return {
    processor,
    deps: { reader: new SportsReader(o.store) },
    stop: () => processor.stop(),
  };
}
