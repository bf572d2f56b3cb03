// The composition root: one process per ROLES value. In: Config (lib/config.ts). Out: the running
// parts and, for the API, the address and (embedded default) a demo key printed on stdout.
//   ROLES=all (default): simulator + pollers + processors + API in one process on the embedded seams
//     (in-process log, chdb, in-process store) unless KAFKA_BROKERS / CLICKHOUSE_URL / REDIS_URL are set.
//   Scale-out stack: ROLES=simulator | pollers | processors | api, each its own process and each
//     replicable (pollers and processors are Kafka consumer groups; API replicas are stateless and
//     share keys, rate limits and snapshots in Redis).
// The same business code runs in every combination: only the seams differ, chosen by configuration.
import { startStreamArea } from '../api/stream/area.ts';
import { loadConfigOrExit, ConfigError, quotesLookbackMs, type Config } from '../lib/config.ts';
import { startApi } from '../api/server.ts';
import { createAuthDeps, createDemoKey } from '../api/auth/index.ts';
import type { AppDeps } from '../api/types.ts';
import { createRegistry } from '../pipelines/registry/index.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { openBackbone } from '../pipelines/runtime/backbone.ts';
import { abandonInFlight, startStage, type StageRunner } from '../pipelines/runtime/runner.ts';
import { abandonHistoryWorker } from '../pipelines/runtime/history-host.ts';
import { BatchAbandoned, isBatchAbandoned } from '../pipelines/log/types.ts';
import { endProcess } from '../lib/end-process.ts';
import { setUpServiceHeaps } from '../pipelines/runtime/worker-heap.ts';
import { backboneSinks } from '../pipelines/runtime/sinks.ts';
import { startCandleRollup } from '../pipelines/runtime/price-rollup.ts';
import { MemoryLease } from '../pipelines/runtime/lease.ts';
import { RedisLease } from '../pipelines/runtime/redis-lease.ts';
import { StageThread } from '../pipelines/runtime/stage-thread.ts';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { startSimulatorThread, type SimulatorThread } from '../pipelines/venues/simulator/thread.ts';
import { VenueEndpoints } from '../pipelines/venues/client/endpoints.ts';
import { startPollers, startCatalog, type RunningPollers, type RunningCatalog } from '../pipelines/catalog/area.ts';
import { catalogDeps, CATALOG_SNAPSHOT_NAME } from '../pipelines/catalog/index.ts';
import { startSportsArea, type SportsArea } from '../pipelines/matching/area.ts';
import { sportsDepsOf } from '../pipelines/matching/readmodel.ts';
import { startLiveArea } from '../api/live/area.ts';
import { startMetricsServer } from '../pipelines/runtime/metrics.ts';
import { startPipelineSummary } from '../pipelines/runtime/summary.ts';
import { FeeSchedulePoller, writtenFeeSchedules } from '../pipelines/venues/pollers/fee-schedules.ts';
import { startSqlPort } from '../pipelines/readmodels/sql-port.ts';

/** Rosters change a few times a day; a read every ten minutes keeps new players within minutes. */
const ROSTER_REFRESH_MS = 10 * 60_000;
/**
 * venue_1 announces fee changes ahead of their time (scheduled_ts) and the prices view applies each
 * at its time from the record already read, so a read every ten minutes only has to see schedules
 * that change at once.
 */
const FEE_SCHEDULE_REFRESH_MS = 10 * 60_000;

/** After the stop deadline, the time the rest of the stop (the log's last writes, closes) may take. */
const STOP_GRACE_MS = 10_000;

/** A stage's failed batch or tick, in the pipeline's log (the batch is redelivered; a tick runs again). */
function stageErrorLogger(logger: { warn(obj: object, msg: string): void }) {
  return (err: unknown, where: { stage: string; topic: string; partition: number }) => {
    // Not retried: the stop gave it up, and the log's consumer says so once (abandonedLine).
    if (isBatchAbandoned(err)) return;
    logger.warn({ ...where, err: String(err) }, 'stage batch failed; it is retried');
  };
}
import { pino } from 'pino';
import { isMainThread } from 'node:worker_threads';
import type { History } from '../pipelines/readmodels/history.ts';
import type { SnapshotStore } from '../pipelines/readmodels/snapshots.ts';
import type { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { openStore } from '../pipelines/runtime/backbone.ts';
import { startPipelineThread } from '../pipelines/runtime/pipeline-thread.ts';
import type { Log } from '../pipelines/log/types.ts';
import type { SchemaLookup, Serde } from '../pipelines/serde/index.ts';
import { defineTopics, topicSettings, type TopicMap } from '../pipelines/topics.ts';
import { pinWorkerThreads, workerCpus } from '../pipelines/runtime/thread-affinity.ts';

export interface RunningService {
  address?: string;
  /** The venues' base URL the pollers and the live routes read (the simulator's, or VENUE_BASE_URL). */
  venueBaseUrl?: string;
  /** PIPELINE_THREAD: the pipeline thread's Prometheus metrics as text (this thread's are metricsText()). */
  pipelineMetricsText?(): Promise<string>;
  /** The history SQL port (HISTORY_SQL_PORT), when on. */
  sqlAddress?: string;
  /** The stages' metrics server (METRICS_PORT), when on: its base address (GET /metrics). */
  metricsAddress?: string;
  demoKey?: string;
  simulator?: SimulatorThread;
  stop(): Promise<void>;
  /** Whether the stop ran past STOP_DEADLINE_MS and abandoned work in flight (a worker thread may still be busy). */
  abandoned(): boolean;
}

export interface RunOptions {
  quiet?: boolean;
  /** The snapshot store to use instead of opening one (the pipeline thread's port to the main thread's store). */
  store?: SnapshotStore;
  /** Given the backbone this process opened, once open (the pipeline thread serves its history and log's tails to the main thread). */
  onBackbone?: (b: { history?: History; log?: Log; registry: SchemaLookup }) => void;
  /** PIPELINE_THREAD: the pipeline thread failed after its start (main() stops the process). */
  onFatal?: (err: Error) => void;
}

export async function runService(config: Config, opts: RunOptions = {}): Promise<RunningService> {
  const roles = new Set(config.ROLES.split(',').map((r) => r.trim()));
  if (config.PIPELINE_THREAD && roles.has('all')) return runSplit(config, opts);
  const has = (r: string) => roles.has('all') || roles.has(r);
  const say = (msg: string) => {
    if (!opts.quiet) console.log(msg);
  };
  const stops: (() => Promise<void>)[] = [];
  // The pipeline's own log (the API logs through Fastify's pino, with the Authorization header redacted).
  const logger = pino({ level: config.LOG_LEVEL, base: { component: 'pipeline' } });

  let simulator: SimulatorThread | undefined;
  // No simulator where every venue is read from a host of its own (VENUE_<n>_BASE_URL).
  if (has('simulator') && !config.VENUE_BASE_URL && !VenueEndpoints.fromConfig(config, undefined).allOwn) {
    const clockStart = config.SIM_CLOCK_START === undefined ? undefined : Date.parse(config.SIM_CLOCK_START);
    const options = { seed: config.SIM_SEED, scale: config.SIM_SCALE, port: config.SIM_PORT, scenario: config.SIM_SCENARIO, clockStart };
    simulator = config.SIM_THREAD ? await startSimulatorThread({ ...options, nice: config.WORKER_NICE }) : await startSimulator(options);
    stops.push(() => simulator!.close());
    say(`venue simulator: ${simulator.baseUrl}`);
  }
  const venueBaseUrl = config.VENUE_BASE_URL ?? simulator?.baseUrl;
  // One per process: the pollers and the live routes take from the same per-venue budgets.
  const endpoints = VenueEndpoints.fromConfig(config, venueBaseUrl);

  const needsBackbone = has('pollers') || has('processors') || has('api');
  let abandoned = false;
  const stop = async () => {
    abandoned = (await stopWithin(stops, config.STOP_DEADLINE_MS, logger)) || abandoned;
  };
  if (!needsBackbone) return { simulator, venueBaseUrl, stop, abandoned: () => abandoned };

  // Each role opens only what it uses: pollers the log; processors everything; an API replica the
  // snapshot store, and the history (for the catalog) only where reading it takes no exclusive lock
  // or there is no Redis to serve from (an API replica with REDIS_URL opens no chdb and no log).
  // The push stream tails the log from every API process that has one to tail: the Kafka stack, or
  // the embedded log of a process that also runs the pipeline.
  const streams = has('api') && config.STREAM && (has('pollers') || has('processors') || config.KAFKA_BROKERS !== undefined);
  const uses = {
    log: has('pollers') || has('processors') || streams,
    history: has('processors') || (has('api') && (!config.REDIS_URL || config.CLICKHOUSE_URL !== undefined)),
    store: has('processors') || has('api'),
  };
  const registry = createRegistry(config);
  const backbone = await openBackbone(config, { serde: avroSerde(registry), registry, uses, ...(opts.store && { store: opts.store }) });
  opts.onBackbone?.({ history: uses.history ? backbone.history : undefined, log: uses.log ? backbone.log : undefined, registry });
  stops.push(async () => {
    await backbone.close();
    await registry.close();
  });
  const b = { log: backbone.log, serde: backbone.serde, topics: backbone.topics, history: backbone.history, store: backbone.store, offload: backbone.offload };

  let catalog: RunningCatalog | undefined;
  let sports: SportsArea | undefined;
  if (has('processors')) {
    const sinks: StageRunner[] = [];
    for (const def of backboneSinks(config)) sinks.push(await startStage(def, backbone));
    stops.push(async () => {
      for (const s of sinks) await s.stop();
    });
    if (config.PRICE_HISTORY && config.PRICE_CANDLE_ROLLUP_MS > 0) {
      // The roll-up's lease, as wide as the database: on a ClickHouse server the stack's processors
      // share, in Redis (every processors process asks it, one rolls up); on chdb in-process (the
      // process is its database's only roller: a lease in Redis would leave the other processes'
      // databases without one). A ClickHouse server shared by several processors processes needs
      // REDIS_URL, which the stack's processors have anyway (the snapshot store).
      const lease = config.REDIS_URL && backbone.history.kind === 'clickhouse' ? new RedisLease({ url: config.REDIS_URL }) : new MemoryLease();
      const rollup = startCandleRollup(backbone.history, {
        intervalMs: config.PRICE_CANDLE_ROLLUP_MS,
        lease,
        onError: (err) => logger.warn({ err }, 'candle roll-up failed; the next one does it again'),
      });
      stops.push(async () => {
        await rollup.stop();
        await lease.close();
      });
    }
    catalog = await startCatalog(config, b, logger);
    stops.push(() => catalog!.stop());
    const thread = config.STAGE_THREAD ? await StageThread.open({ tickMs: config.SPORTS_PUBLISH_MS, nice: config.WORKER_NICE }) : undefined;
    if (thread) stops.push(() => thread.close());
    sports = await startSportsArea({ config, deps: { ...b, onError: stageErrorLogger(logger) }, thread });
    stops.push(() => sports!.stop());
  }
  let pollers: RunningPollers | undefined;
  if (has('pollers')) {
    if (!venueBaseUrl && !endpoints.allOwn) throw new ConfigError('pollers need VENUE_BASE_URL, VENUE_<n>_BASE_URL for every venue, or ROLES including simulator');
    // The sports data source's rosters, read like venue data into the log (matching reads them there),
    // with the venue pollers (on their thread by default). They live beside the venues on the shared
    // host; without one, matching reads names as listed.
    pollers = await startPollers(config, b, venueBaseUrl ?? '', logger, endpoints, { rosters: venueBaseUrl ? { intervalMs: ROSTER_REFRESH_MS } : undefined });
    stops.push(() => pollers!.stop());
    if (!venueBaseUrl) {
      logger.warn('no shared venue host (VENUE_BASE_URL): rosters are not read; players are matched by name as listed');
    }
    // venue_1's fee schedules per series (its listing carries none), read through its endpoint into
    // the log, where the prices view reads them. What the topic holds is always read back: a
    // schedule withdrawn while the process was down is written as a tombstone only if it is known.
    const feeProducer = await backbone.log.producer();
    const fees = new FeeSchedulePoller({
      endpoints,
      producer: feeProducer,
      serde: b.serde,
      topics: b.topics,
      intervalMs: FEE_SCHEDULE_REFRESH_MS,
      deadlineMs: config.UPSTREAM_DEADLINE_MS,
      logger,
      written: await writtenFeeSchedules({ log: backbone.log, serde: b.serde, topics: b.topics }),
    });
    fees.start();
    stops.push(async () => {
      await fees.stop();
      await feeProducer.close();
    });
  }

  // Prometheus metrics of the stages (throughput, batch latency, consumer lag) on their own port, so
  // scrapers never need an API key and processes without the API expose them too.
  let metricsAddress: string | undefined;
  if (config.METRICS_PORT > 0 && (has('processors') || has('pollers'))) {
    const m = await startMetricsServer(config.METRICS_PORT, config.HOST);
    stops.push(() => m.close());
    metricsAddress = m.address;
    say(`metrics: ${m.address}/metrics`);
  }
  // The history SQL port: data teams' read-only ClickHouse HTTP access to this process's chdb
  // (the embedded default; lib/config.ts refuses it beside CLICKHOUSE_URL).
  let sqlAddress: string | undefined;
  if (config.HISTORY_SQL_PORT !== undefined) {
    if (!uses.history) throw new ConfigError('HISTORY_SQL_PORT needs a process that opens the history: ROLES=all or processors, or an API replica without REDIS_URL');
    const sql = await startSqlPort(backbone.history, {
      port: config.HISTORY_SQL_PORT,
      host: config.HOST,
      token: config.HISTORY_SQL_TOKEN!,
      timeoutMs: config.HISTORY_SQL_TIMEOUT_MS,
      maxResultBytes: config.HISTORY_SQL_MAX_RESULT_BYTES,
      logger,
    });
    stops.push(() => sql.close());
    sqlAddress = sql.address;
    say(`history SQL (ClickHouse HTTP, read-only, HISTORY_SQL_TOKEN as the password): ${sql.address}`);
  }
  // One info line a minute for the pipeline (records per venue, faults, failed batches, lag).
  if (config.LOG_SUMMARY_MS > 0 && (has('processors') || has('pollers'))) {
    const running = pollers;
    const summary = startPipelineSummary({ logger, intervalMs: config.LOG_SUMMARY_MS, lagWarn: config.LOG_LAG_WARN, pollers: running ? () => running.status() : undefined });
    stops.push(async () => summary.stop());
  }

  let address: string | undefined;
  let demoKey: string | undefined;
  if (has('api')) {
    const stream = streams ? { log: backbone.log, serde: backbone.serde, topics: backbone.topics } : undefined;
    const api = await startApiRole(config, {
      catalog: catalog?.deps ?? catalogDeps(config, backbone.store),
      sports: sports?.deps ?? sportsDepsOf(backbone.store),
      store: backbone.store,
      // Candles are read from the History where this process opened one (chdb, or CLICKHOUSE_URL);
      // an API replica of the stack without CLICKHOUSE_URL has none and answers the route 503.
      history: uses.history ? backbone.history : undefined,
      venueBaseUrl,
      endpoints,
      stream,
    });
    stops.push(...api.stops);
    address = api.address;
    demoKey = api.demoKey;
  }
  // Stop in reverse order of start: API first, so nothing reads a closed store.
  stops.reverse();
  return { address, venueBaseUrl, sqlAddress, metricsAddress, demoKey, simulator, stop, abandoned: () => abandoned };
}

/**
 * The API's part of a process: routes on the given read models, the live routes where venues are
 * known, the push stream where a log is given. Out: its address, the demo key, and its stops in
 * start order (the stream's after the server's, so stops run in reverse close the streams first).
 */
async function startApiRole(
  config: Config,
  p: {
    catalog: AppDeps['catalog'];
    sports: AppDeps['sports'];
    store: SnapshotStore;
    history?: History;
    venueBaseUrl?: string;
    endpoints: VenueEndpoints;
    stream?: { log: Log; serde: Serde; topics: TopicMap };
  },
): Promise<{ address: string; demoKey?: string; stops: (() => Promise<void>)[] }> {
  const stops: (() => Promise<void>)[] = [];
  const auth = createAuthDeps(config);
  // Catalog pages are read from the SnapshotStore: every replica serves them, with or without chdb.
  const deps: AppDeps = { config, clock: Date.now, auth, catalog: p.catalog, sports: p.sports };
  // PRICE_HISTORY=false: no price history is written, so the route answers 503 rather than empty pages.
  if (p.history && config.PRICE_HISTORY) deps.priceHistory = { history: p.history };
  if (p.venueBaseUrl || p.endpoints.allOwn) {
    const live = startLiveArea({ venueBaseUrl: p.venueBaseUrl, endpoints: p.endpoints });
    deps.live = live.deps;
    stops.push(() => live.stop());
  }
  const area = p.stream
    ? await startStreamArea({ ...config, STREAM_QUOTES_LOOKBACK_MS: quotesLookbackMs(config) }, { ...p.stream, catalog: { store: p.store, name: CATALOG_SNAPSHOT_NAME }, quotes: 'on-demand' })
    : undefined;
  if (area) deps.stream = area.deps;
  const api = await startApi(config, deps);
  stops.push(() => api.close());
  // Stopped before the API (stops run in reverse): the open streams end, then the server closes.
  if (area) stops.push(() => area.stop());
  return { address: api.address, demoKey: config.DEMO_KEY ? await createDemoKey(auth) : undefined, stops };
}

/**
 * ROLES=all with PIPELINE_THREAD: the API on this thread, on the in-process snapshot store it keeps
 * here; the simulator, pollers and processors on the pipeline thread (pipelines/runtime/
 * pipeline-thread.ts), which writes the store and serves its history through ports. The stop: the
 * API first, then the pipeline thread's own stopWithin (STOP_DEADLINE_MS), answered when done.
 */
async function runSplit(config: Config, opts: RunOptions): Promise<RunningService> {
  // lib/config.ts refuses PIPELINE_THREAD with REDIS_URL: the store is the in-process one.
  const store = openStore(config) as MemorySnapshotStore;
  const pipeline = await startPipelineThread({ config, store, nice: config.WORKER_NICE, onFatal: opts.onFatal, stream: config.STREAM });
  // Here the main thread is the API's alone: every other thread may be kept off its core.
  const unpin = pinWorkerThreads(workerCpus(config.WORKER_CPUS), (msg) => console.warn(msg));
  let abandoned = false;
  // Run in reverse: the API's parts, then the pipeline (its last writes reach the store), then the store.
  const stops: (() => Promise<void>)[] = [
    async () => {
      unpin();
      await store.close();
    },
    async () => {
      abandoned = (await pipeline.stop()) || abandoned;
    },
  ];
  try {
    const endpoints = VenueEndpoints.fromConfig(config, pipeline.venueBaseUrl);
    // The live routes' per-venue budgets are this thread's own (the pollers' are on the pipeline thread).
    const api = await startApiRole(config, {
      catalog: catalogDeps(config, store),
      sports: sportsDepsOf(store),
      store,
      history: pipeline.history,
      venueBaseUrl: pipeline.venueBaseUrl,
      endpoints,
      // The push stream's hubs tail the pipeline thread's log through its port, and decode with its registry.
      stream: pipeline.log ? { log: pipeline.log, serde: avroSerde(pipeline.log.registry()), topics: defineTopics(topicSettings(config)) } : undefined,
    });
    stops.push(...api.stops);
    stops.reverse();
    if (!opts.quiet && pipeline.venueBaseUrl) console.log(`venues: ${pipeline.venueBaseUrl} (the pipeline on its own thread)`);
    if (!opts.quiet && pipeline.sqlAddress) console.log(`history SQL (ClickHouse HTTP, read-only, HISTORY_SQL_TOKEN as the password): ${pipeline.sqlAddress}`);
    // The metrics server runs on the pipeline thread (its stages count there); said as the single thread says it.
    if (!opts.quiet && pipeline.metricsAddress) console.log(`metrics: ${pipeline.metricsAddress}/metrics`);
    // The simulator belongs to the pipeline thread, which closes it in its stop.
    const simulator: SimulatorThread | undefined = pipeline.venueBaseUrl && !config.VENUE_BASE_URL ? { baseUrl: pipeline.venueBaseUrl, close: async () => {} } : undefined;
    const logger = pino({ level: config.LOG_LEVEL, base: { component: 'api' } });
    let stopped: Promise<void> | undefined;
    return {
      address: api.address,
      venueBaseUrl: pipeline.venueBaseUrl,
      sqlAddress: pipeline.sqlAddress,
      metricsAddress: pipeline.metricsAddress,
      demoKey: api.demoKey,
      simulator,
      pipelineMetricsText: () => pipeline.metricsText(),
      // The pipeline thread bounds its own stop by STOP_DEADLINE_MS; this one bounds the API's part too.
      // Once: a second call (a test's afterAll after its own stop) waits for the first.
      stop: () =>
        (stopped ??= stopWithin(stops, config.STOP_DEADLINE_MS, logger).then((a) => {
          abandoned = a || abandoned;
        })),
      abandoned: () => abandoned,
    };
  } catch (e) {
    stops.reverse();
    await stopAll(stops);
    throw e;
  }
}

/**
 * stopAll, bounded: past deadlineMs the batches still in flight are abandoned (not committed, so the
 * log redelivers them after the restart) and the history worker is ended without waiting for its
 * chdb call, so the stops still waiting on them return and the rest (the log's last commits and
 * writes) runs. A far-behind pipeline otherwise held the stop for minutes (bench/soak.md run 14).
 */
export async function stopWithin(stops: (() => Promise<void>)[], deadlineMs: number, logger: { warn(obj: object, msg: string): void }): Promise<boolean> {
  let abandoned = false;
  const timer = setTimeout(() => {
    abandoned = true;
    const reason = new BatchAbandoned(`the stop deadline (STOP_DEADLINE_MS=${deadlineMs}) passed: the batch is abandoned uncommitted and redelivered after a restart`);
    const runners = abandonInFlight(reason);
    const worker = abandonHistoryWorker(reason);
    logger.warn({ deadlineMs, runners, historyWorker: worker }, 'stop deadline passed: batches in flight abandoned uncommitted (redelivered after the restart)');
  }, deadlineMs);
  try {
    await stopAll(stops);
  } finally {
    clearTimeout(timer);
  }
  return abandoned;
}

async function stopAll(stops: (() => Promise<void>)[]): Promise<void> {
  for (const s of stops) {
    try {
      await s();
    } catch (e) {
      console.error('stop failed:', e);
    }
  }
}

/** `make run`: bin/start.mjs calls it from the bundle (or through tsx), `node --import tsx bin/run.ts` below. */
export async function main(): Promise<void> {
  // Before any worker starts: the command line's semi-space size and reducer are for this thread only.
  setUpServiceHeaps();
  const config = loadConfigOrExit();
  // PIPELINE_THREAD: a pipeline that failed on its thread stops the process (as an error nothing
  // caught would, were it on this thread), with the stop's deadline rules; exit code 1.
  let failed = false;
  let started: RunningService | undefined;
  const onFatal = (e: Error) => {
    console.error('the pipeline thread failed; stopping:', e);
    failed = true;
    if (started) void shutdown('SIGTERM', 1);
  };
  const svc = (started = await runService(config, { onFatal }));
  if (svc.address) {
    console.log(`\nAPI listening on ${svc.address}`);
    if (svc.demoKey) {
      console.log(`demo key (pro plan, every permission; shown once): ${svc.demoKey}\n`);
      console.log('try:');
      console.log(`  curl -s ${svc.address}/v1/plans`);
      console.log(`  curl -s -H "Authorization: Bearer ${svc.demoKey}" "${svc.address}/v1/markets?limit=5"`);
      console.log(`  curl -s -H "Authorization: Bearer ${svc.demoKey}" "${svc.address}/v1/matching-markets/sports?limit=2"`);
      console.log(`  curl -s -H "Authorization: Bearer ${svc.demoKey}" "${svc.address}/v1/crypto-prices/spot?currency=btcusd"`);
      console.log('(the catalog and sports snapshots appear after the first crawl, within seconds)');
    }
  }
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals, code = 0) => {
    if (stopping) return;
    stopping = true;
    // Past the deadline the stop abandons what it waits on (stopWithin); should a stop still hang
    // after that (a close that never returns), the process ends anyway, uncommitted work redelivered.
    setTimeout(() => {
      console.error(`stop did not finish within ${config.STOP_DEADLINE_MS + STOP_GRACE_MS} ms; ending without it`);
      endProcess(signal);
    }, config.STOP_DEADLINE_MS + STOP_GRACE_MS).unref();
    await svc.stop();
    // A worker thread left inside chdb would hold process.exit() until its call returns.
    endProcess(svc.abandoned() ? signal : null, code);
  };
  process.on('SIGINT', (s) => void shutdown(s));
  process.on('SIGTERM', (s) => void shutdown(s));
  if (failed) await shutdown('SIGTERM', 1);
}

// Not on a worker thread: the pipeline thread imports runService from here with the same argv.
if (isMainThread && import.meta.url === `file://${process.argv[1]}`) await main();
