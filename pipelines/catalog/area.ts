// Starting the venue pollers and the catalog in a process (bin/run.ts composes the areas).
// In: config and the backbone (log, serde, topic map, History, SnapshotStore). Out: the running
// pieces and `deps` for GET /v1/markets (deps.catalog):
//   - startPollers: nine venue pollers (listing feed every CATALOG_CRAWL_MS, default the refresh
//     cadence; sports feed every POLL_INTERVAL_MS, change-only with POLL_CHANGE_ONLY, the listing feed too
//     with POLL_CHANGE_ONLY_LISTING) writing to
//     the raw topics;
//   - startCatalog: the catalog stage (raw topics -> staged crawls in ClickHouse) and the builder
//     (a snapshot every CATALOG_REFRESH_MS, published in the SnapshotStore).
// In the scale-out stack the two can run in different processes; an API-only process needs just
// createCatalog(...).deps.
import { VenueEndpoints } from '../venues/client/endpoints.ts';
import type { Config } from '../../lib/config.ts';
import type { Log, Producer } from '../log/types.ts';
import type { Serde } from '../serde/index.ts';
import type { TopicMap } from '../topics.ts';
import type { History } from '../readmodels/history.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import { startStage, type StageRunner } from '../runtime/runner.ts';
import type { StageOffload } from '../runtime/history-host.ts';
import { pollersFromConfig } from '../venues/pollers/supervisor.ts';
import { SupervisedPollerThread } from '../venues/pollers/thread.ts';
import { logRawSink } from '../venues/pollers/sink.ts';
import { LogPollerState } from '../venues/pollers/state.ts';
import { RosterPoller, writtenRosters } from '../venues/pollers/rosters.ts';
import { PROVIDERS } from '../../lib/vocabulary.ts';
import { LISTING_FEED, SPORTS_FEED, type PollerLogger, type PollerStatus } from '../venues/pollers/poller.ts';
import { catalogStage } from './stage.ts';
import { CatalogBuilder } from './builder.ts';
import { createCatalog, type CatalogArea } from './index.ts';

export interface AreaBackbone {
  log: Log;
  serde: Serde;
  topics: TopicMap;
  history: History;
  store: SnapshotStore;
  producer?: Producer;
  /** Where the catalog stage's batches run when the history worker hosts it (history-host.ts). */
  offload?: StageOffload;
}

export interface RunningPollers {
  /** Each venue poller's status (from the pollers' thread, as it last reported it: at most STATUS_EVERY_MS old). */
  status(): PollerStatus[];
  /** Roster rounds completed (0 without rosters; from the pollers' thread as it last reported it). */
  rosterRounds(): number;
  /** The pollers themselves, when they run on this thread (POLLER_THREAD off): a bench drives crawls by hand. */
  supervisor?: ReturnType<typeof pollersFromConfig>;
  stop(): Promise<void>;
}

/**
 * `baseUrl`: the simulator's address in the embedded default (VENUE_BASE_URL otherwise).
 * `endpoints`: per-venue base URLs, credentials and budgets, shared with the live routes of the
 * process (bin/run.ts makes one); by default the configuration's own, over baseUrl.
 * With POLLER_THREAD the pollers run on a worker thread (venues/pollers/thread.ts); this thread
 * appends what they encoded to the log and answers their budget waits from `endpoints`.
 * `opts.rosters`: the sports data source's rosters are read too, at that cadence, on the pollers'
 * thread with them (or here without it), into `reference.rosters` (venues/pollers/rosters.ts).
 */
export async function startPollers(
  config: Config,
  b: Pick<AreaBackbone, 'log' | 'serde' | 'topics' | 'producer'>,
  baseUrl: string,
  logger?: PollerLogger,
  endpoints?: VenueEndpoints,
  opts: { rosters?: { intervalMs: number } } = {},
): Promise<RunningPollers> {
  const producer = b.producer ?? (await b.log.producer());
  const listingChangeOnly = config.POLL_CHANGE_ONLY && config.POLL_CHANGE_ONLY_LISTING;
  const fullFeeds = [...(config.POLL_CHANGE_ONLY ? [] : [SPORTS_FEED]), ...(listingChangeOnly ? [] : [LISTING_FEED])];
  // A feed written whole keeps no memory there: pollers that keep it again begin with a full crawl.
  if (fullFeeds.length > 0) await LogPollerState.forgetFullCrawls({ serde: b.serde, topics: b.topics, producer }, PROVIDERS, fullFeeds);
  const shared = config.VENUE_BASE_URL ?? baseUrl;
  const budgets = endpoints ?? VenueEndpoints.fromConfig(config, shared);
  const closeProducer = async () => {
    if (!b.producer) await producer.close();
  };
  if (config.POLLER_THREAD) {
    const thread = await SupervisedPollerThread.start({ config, baseUrl: shared, log: b.log, serde: b.serde, topics: b.topics, producer, endpoints: budgets, logger, rosters: opts.rosters });
    return {
      status: () => thread.status(),
      rosterRounds: () => thread.rosterRounds(),
      async stop() {
        await thread.stop();
        await closeProducer();
      },
    };
  }
  // Change-only ingestion: the sports feed's memory is read back from the log before the first crawl.
  // Without it, only the listing crawls' starts (its cadence across a restart, pollers/cadence.ts).
  const state = await LogPollerState.restore({ log: b.log, serde: b.serde, topics: b.topics, producer }, { startsOnly: !config.POLL_CHANGE_ONLY });
  const supervisor = pollersFromConfig(config, { baseUrl: shared, sink: logRawSink(producer, b.serde, b.topics), state, logger, endpoints: budgets });
  supervisor.start();
  let rosters: RosterPoller | undefined;
  if (opts.rosters) {
    // Change-only ingestion: the rosters already on the topic are not written again after a restart.
    const written = config.POLL_CHANGE_ONLY ? await writtenRosters(b) : undefined;
    rosters = new RosterPoller({ baseUrl: shared, producer, serde: b.serde, topics: b.topics, intervalMs: opts.rosters.intervalMs, deadlineMs: config.UPSTREAM_DEADLINE_MS, logger, written });
    rosters.start();
  }
  return {
    status: () => supervisor.status(),
    rosterRounds: () => rosters?.rounds ?? 0,
    supervisor,
    async stop() {
      await Promise.all([supervisor.stop(), rosters?.stop()]);
      await closeProducer();
    },
  };
}

export interface RunningCatalog extends CatalogArea {
  runner: StageRunner;
  builder: CatalogBuilder;
  stop(): Promise<void>;
}

export async function startCatalog(config: Config, b: AreaBackbone, logger?: PollerLogger): Promise<RunningCatalog> {
  const area = createCatalog(config, b.history, b.store);
  await area.store.migrate();
  const runner = await startStage(catalogStage(), { log: b.log, serde: b.serde, topics: b.topics, history: b.history, store: b.store, producer: b.producer, offload: b.offload });
  const builder = new CatalogBuilder({ store: area.store, refreshMs: config.CATALOG_REFRESH_MS, logger });
  builder.start();
  return {
    ...area,
    runner,
    builder,
    async stop() {
      await builder.stop();
      await runner.stop();
    },
  };
}
