// Configuration, read from the environment and validated once at start.
// In: process.env. Out: one frozen, typed Config. A bad value stops the process with a message
// naming the variable and quoting the value (secrets are named, never quoted). Each seam (log,
// registry, stores, history, venues) picks its server implementation when its address is set and
// the embedded one otherwise, so the same business code runs in both modes.
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1');

/** The built-in pepper of the embedded default; refused when REDIS_URL is set. */
export const DEV_KEY_PEPPER = 'embedded-dev-pepper';
export const MIN_KEY_PEPPER_LENGTH = 16;
/** The built-in cursor secret of the embedded default; refused when REDIS_URL is set. */
export const DEV_CURSOR_SECRET = 'embedded-dev-catalog-cursor-secret';
type VenueNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
const VENUE_NUMBERS: VenueNumber[] = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Never quoted in a configuration error. */
const SECRETS: ReadonlySet<string> = new Set(['KEY_PEPPER', 'CATALOG_CURSOR_SECRET', 'HISTORY_SQL_TOKEN', ...VENUE_NUMBERS.map((n) => `VENUE_${n}_API_KEY`)]);

// Real venues live on nine hosts, each with its own credentials and request allowance:
// VENUE_<n>_BASE_URL (the venue's own API root: paths are the venue's, without the `/venue_<n>`
// prefix the simulator's shared host uses), VENUE_<n>_API_KEY (sent as a bearer token, never logged)
// and VENUE_<n>_RPS (requests per second this process sends it at most, pollers and live routes
// together; pipelines/venues/client/endpoints.ts). A venue without its own base URL is read from
// VENUE_BASE_URL (or the built-in simulator), as before.
const venueFields = Object.fromEntries(
  VENUE_NUMBERS.flatMap((n) => [
    [`VENUE_${n}_BASE_URL`, z.string().url().optional()],
    [`VENUE_${n}_API_KEY`, z.string().min(1).optional()],
    [`VENUE_${n}_RPS`, z.coerce.number().positive().optional()],
  ]),
) as { [K in `VENUE_${VenueNumber}_BASE_URL` | `VENUE_${VenueNumber}_API_KEY`]: z.ZodOptional<z.ZodString> } & {
  [K in `VENUE_${VenueNumber}_RPS`]: z.ZodOptional<z.ZodCoercedNumber>;
};

const fields = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // info: what an operator acts on (start, stop, snapshots published, a venue failing or recovering,
  // the per-minute pipeline summary); debug adds a line per crawl. README "Logs".
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The pipeline summary line's period (0: none) and the stage lag (records) that makes it a warn.
  LOG_SUMMARY_MS: z.coerce.number().int().min(0).default(60_000),
  LOG_LAG_WARN: z.coerce.number().int().min(0).default(100_000),
  // Unset: `.data` for ROLES=all, else a directory per role (stackDataDir below), so processes of
  // different roles started from one directory never share chdb's or the embedded log's lock.
  DATA_DIR: z.string().optional(),
  // Which parts this process runs (bin/run.ts). `all` is the embedded default; the scale-out stack
  // runs e.g. ROLES=api in several replicas, ROLES=processors, ROLES=pollers, ROLES=simulator.
  ROLES: z
    .string()
    .default('all')
    .refine((v) => v.split(',').every((r) => ['all', 'simulator', 'pollers', 'processors', 'api'].includes(r.trim())), {
      message: 'a comma list of all, simulator, pollers, processors, api',
    }),

  // Seams: set the address to use the server implementation.
  KAFKA_BROKERS: z.string().optional(),
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).default(3),
  KAFKA_REPLICATION: z.coerce.number().int().min(1).default(1),
  SCHEMA_REGISTRY_URL: z.string().url().optional(),
  REDIS_URL: z.string().optional(),
  CLICKHOUSE_URL: z.string().url().optional(),
  CLICKHOUSE_DATABASE: z.string().default('pm'),
  // Embedded default: chdb and the history sinks on a worker thread (pipelines/runtime/history-host.ts),
  // off the event loop that serves the API. false keeps everything on the main thread.
  HISTORY_WORKER: bool.default(true),
  // With Kafka, the history sinks' consumers run on that worker too (their own Kafka client there);
  // false keeps them on the main thread, which hands each batch to the worker (the earlier relay).
  HISTORY_WORKER_CONSUMES: bool.default(true),

  // Backbone (pipelines/topics.ts): topic name prefix (tests use a random one), raw retention.
  TOPIC_PREFIX: z.string().default(''),
  RAW_RETENTION_MS: z.coerce.number().int().min(1).default(7 * 86_400_000),
  // Bytes kept per partition of each raw topic (and dead.letters), on the embedded log and Kafka
  // (retention.bytes): the size half of the storage budget (README "Storage budget").
  RAW_RETENTION_BYTES: z.coerce.number().int().min(1).default(512 * 1024 * 1024),
  // Days of rows kept in the history tables that grow with every read (raw_records, matched_events,
  // catalog_crawls, catalog_crawl_rows): ClickHouse TTL, applied at every start.
  HISTORY_TTL_DAYS: z.coerce.number().int().min(1).default(7),
  // The history SQL port (pipelines/readmodels/sql-port.ts): a read-only ClickHouse HTTP interface
  // to the embedded default's chdb, for data teams while the service runs (on the stack they query
  // the ClickHouse server). Unset: off; 0: any free port. HISTORY_SQL_TOKEN, required with it, is
  // the operator's token every request must carry; a statement may run HISTORY_SQL_TIMEOUT_MS and
  // answer HISTORY_SQL_MAX_RESULT_BYTES at most (the engine's max_execution_time and
  // max_result_bytes, and the formatted answer's size).
  HISTORY_SQL_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HISTORY_SQL_TOKEN: z.string().optional(),
  HISTORY_SQL_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  HISTORY_SQL_MAX_RESULT_BYTES: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
  // Days of quote changes and candles kept (price_history, price_latest, price_aliases and the
  // 1m/1h/1d candle tables): ClickHouse TTL, applied at every start. Longer than HISTORY_TTL_DAYS:
  // a quote change is about a hundred bytes where a raw read is a whole venue record.
  PRICE_HISTORY_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  // Whether the processors write the price history (sink.price-history: every quote change and its
  // 1m/1h/1d candles) and the API serves it (GET /v1/markets/{market_id}/history). false: an operator
  // who wants no price history (its storage, its CPU) turns it off; the route then answers 503, and
  // replay leaves the price tables alone. Set it alike on every process of the stack.
  PRICE_HISTORY: bool.default(true),
  // How often the processors roll the candles up (1m, 1h, 1d) from the quote changes written since
  // the last roll-up (pipelines/readmodels/price-rollup.ts). The history route's answers do not
  // depend on it (it merges the changes not rolled up yet itself); a longer interval costs fewer
  // roll-ups and leaves the route more changes to merge. 0: this process rolls up nothing. One
  // process rolls up a database at a time whatever this says: a lease (in Redis for a ClickHouse
  // server with REDIS_URL, in-process on chdb, each process's own database) and its fence keep it so
  // (pipelines/runtime/price-rollup.ts).
  PRICE_CANDLE_ROLLUP_MS: z.coerce.number().int().refine((n) => n === 0 || n >= 100, 'PRICE_CANDLE_ROLLUP_MS must be 0 (no roll-up here) or at least 100').default(10_000),
  // Stage metrics endpoint (GET /metrics) of the processes that run stages; 0 = none. Unset: the
  // role's own default (METRICS_PORT_DEFAULTS: processors 9464, pollers 9465, so both run on one
  // host without colliding and bin/status.ts finds them), none for ROLES=all and API replicas.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),

  // Venues: the built-in simulator unless VENUE_BASE_URL points elsewhere.
  VENUE_BASE_URL: z.string().url().optional(),
  SIM_SEED: z.coerce.number().int().default(42),
  SIM_SCALE: z.coerce.number().min(0).default(1),
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  SIM_SCENARIO: z.string().optional(),
  // Test and demo aid: the simulator's clock starts at this instant (ISO 8601 with a zone, e.g.
  // 2026-11-28T21:00:00Z) instead of now, and runs on from there; a scenario's own clock_start wins.
  // What the world holds (which games are live, final or gone) depends on that instant, so a test
  // run pinned to one is repeatable and a run at another probes a different hour (README "The
  // nine-venue simulator"). Read by the simulator's default clock (simClockStart below).
  SIM_CLOCK_START: z.iso.datetime({ offset: true }).optional(),
  // The simulator on a worker thread of its own (pipelines/venues/simulator/thread.ts): its page
  // building during a crawl stays off the API's event loop. false runs it on the main thread.
  SIM_THREAD: bool.default(true),
  // The canonicalizer, the matching round and the sports snapshot sink on a worker thread of their
  // own (pipelines/runtime/stage-thread.ts): their CPU work and state (the sink's fold and
  // serialization too) stay off the API's event loop; their consumers, commits and the sink's
  // writes to the SnapshotStore stay on the main thread. false runs them on the main thread.
  STAGE_THREAD: bool.default(true),
  // ROLES=all only: the simulator, pollers and processors on a worker thread of their own
  // (pipelines/runtime/pipeline-thread.ts), the API alone on the main thread. The snapshot store
  // stays on the main thread (the pipeline writes through a MessagePort); the candle route reads
  // the pipeline thread's history, and the push stream tails its log, through ports. false keeps
  // the single-thread path: the main thread carries the pipeline's orchestration (the embedded log,
  // the stage runners' loops, commits) between requests. Default: on with ROLES=all and no
  // REDIS_URL, off otherwise (true where it cannot apply is refused, below).
  PIPELINE_THREAD: bool.optional(),
  // The venue pollers on a worker thread of their own (pipelines/venues/pollers/thread.ts): page
  // reads, JSON parsing, change detection and Avro encoding stay off the API's event loop; this
  // thread appends what they encoded to the log. Default: on with the embedded log, off with
  // KAFKA_BROKERS (the stack runs its pollers as a process of their own).
  POLLER_THREAD: bool.optional(),
  // The nice value of those worker threads (simulator, history, stages): they yield the CPU to the
  // main thread, which serves the API (Linux sets it per thread; bench/crawl-latency.md). 0 leaves
  // them at the process's priority.
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  // The CPUs every thread of the process but the main one (the API's) may run on (Linux, by util-linux's
  // taskset; pipelines/runtime/thread-affinity.ts): 'auto' keeps them off the first CPU where there are
  // two or more, so a crawl's threads never take the API's core (bench/crawl-latency.md); a list in
  // taskset's syntax ('1', '2-7'); 'off' leaves them alone. Default off; `make run` and `npm start` pass
  // 'auto' (with the embedded default's pipeline thread only: elsewhere the main thread is not the API's alone).
  WORKER_CPUS: z
    .string()
    .regex(/^(off|auto|\d+(-\d+)?(,\d+(-\d+)?)*)$/, "WORKER_CPUS must be 'off', 'auto' or a CPU list such as 1 or 2-7")
    .default('off'),
  // The in-process snapshot store (embedded default) keeps retired snapshots behind cursors up to
  // this many MB of JSON in all, oldest evicted first (catalog snapshots are 4 MB at SIM_SCALE=1,
  // about 200 MB at 1,000,000 markets; README "Memory").
  SNAPSHOT_RETAINED_MB: z.coerce.number().min(0).default(256),
  UPSTREAM_DEADLINE_MS: z.coerce.number().int().min(1).default(9000),
  // An operator's stop (SIGINT/SIGTERM) waits this long for the batches in flight; then it abandons
  // them uncommitted (redelivered after the restart) and ends the worker threads, so the stop ends
  // within about this (systemd and Kubernetes kill after 30 s by default; a raw-history batch into
  // chdb took up to 183 s on a loaded machine, bench/soak.md run 14).
  STOP_DEADLINE_MS: z.coerce.number().int().min(0).default(15_000),

  // Cadences (spec: catalog about 30 minutes, sports snapshot about 12 s).
  CATALOG_REFRESH_MS: z.coerce.number().int().min(1).default(30 * 60_000),
  CATALOG_RETENTION_MS: z.coerce.number().int().min(1).default(8 * 3600_000),
  // Catalog: time between two listing crawls of a venue (default: the refresh cadence; kept across a
  // restart, which crawls a venue only once this long has passed since its last complete crawl began:
  // pipelines/venues/pollers/cadence.ts), and the
  // HMAC secret signing GET /v1/markets cursors (set it in the stack so every API node agrees).
  CATALOG_CRAWL_MS: z.coerce.number().int().min(1).optional(),
  // Sports feed of the pollers with POLL_CHANGE_ONLY=false: a full crawl this often; between them
  // only changed records are written to the raw topics (every POLL_INTERVAL_MS).
  POLL_FULL_MS: z.coerce.number().int().min(1).default(300_000),
  // Change-only ingestion: the sports feed publishes a record only when its content changed since
  // its last publish, each crawl ending in a marker that names what is still listed and what left
  // (pipelines/venues/pollers/changes.ts). The content hashes are kept on the compacted
  // `pollers.state` topic and read back at start, so a restart goes on with delta crawls instead of
  // a full one; a full crawl comes every POLL_REFRESH_MS instead of every POLL_FULL_MS, inside
  // RAW_RETENTION_MS so a replay of the raw topics still finds every listed record. false: the
  // previous behaviour (full crawl every POLL_FULL_MS, memory per process).
  POLL_CHANGE_ONLY: bool.default(true),
  POLL_REFRESH_MS: z.coerce.number().int().min(1).default(6 * 3600_000),
  // With POLL_CHANGE_ONLY, the listing feed (every CATALOG_CRAWL_MS, the catalog's source) change-only
  // too: a full crawl every POLL_REFRESH_MS, delta crawls between, the catalog assembling each venue's
  // listing from its last full crawl and the delta crawls after it. Off by default: at the 30-minute
  // cadence a delta crawl still writes about 65% of the simulator's listing, so it saves 9-16% of the
  // listing's log bytes for more CPU and about 90 MB of content hashes held at SIM_SCALE=100
  // (bench/ingest.md, bench/poller-memory.md).
  POLL_CHANGE_ONLY_LISTING: bool.default(false),
  // HMAC secret of every cursor the API issues (lib/cursor.ts; the catalog's were first, hence the
  // name). The embedded default falls back to DEV_CURSOR_SECRET; with REDIS_URL it is required (below).
  CATALOG_CURSOR_SECRET: z.string().optional(),
  SPORTS_PUBLISH_MS: z.coerce.number().int().min(1).default(250),
  POLL_INTERVAL_MS: z.coerce.number().int().min(1).default(2_000),
  // include_prices on the sports routes: a quote last read longer ago than this is marked stale and
  // left out of best prices and complete sets. The sports feed reads every venue every
  // POLL_INTERVAL_MS, so a minute means a venue missed about thirty reads.
  PRICES_STALE_MS: z.coerce.number().int().min(1000).default(60_000),

  // The push stream (GET /v1/stream, api/stream/): each API process tails the matching topics
  // itself. STREAM=false leaves it out (the route answers 503).
  STREAM: bool.default(true),
  // A comment line this often keeps proxies from closing an idle stream.
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(1).default(15_000),
  // Unsent bytes a connection may hold before it gets `overflow` and is closed.
  STREAM_BUFFER_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  // An SSE connection is written at most once per this many ms: changes arriving within it of the
  // last write go out together at its end, in one socket write (0: every turn's at the turn's end).
  STREAM_FLUSH_MS: z.coerce.number().int().min(0).max(1000).default(20),
  // Changes kept in memory for resumes; an older position is resumed from the folded state.
  STREAM_JOURNAL: z.coerce.number().int().min(1).default(20_000),
  // Oldest resumable event id (a later one gets `reset`); inside the 24 h tombstone retention.
  STREAM_RESUME_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  // The quotes channel reads the raw venue topics (days of reads) from this long ago only: every open
  // market must have been read in that window, so with change-only ingestion (an unchanged sports
  // market is re-sent only by a full crawl, every POLL_REFRESH_MS) it must reach past one full crawl;
  // otherwise the resume window plus a catalog crawl. Unset: that, with an hour to spare.
  STREAM_QUOTES_LOOKBACK_MS: z.coerce.number().int().min(60_000).optional(),

  // "503 when the plan catalog is not configured": PLAN_CATALOG=none turns it off.
  PLAN_CATALOG: z.enum(['published', 'none']).default('published'),
  // Embedded default prints a demo key; the stack never creates one implicitly.
  DEMO_KEY: bool.default(true),
  // HMAC key of the stored API key hashes (api/auth/keys.ts). The embedded default falls back to
  // DEV_KEY_PEPPER so `make run` needs no configuration; with REDIS_URL it is required (below).
  KEY_PEPPER: z.string().optional(),
  ...venueFields,
});

// With REDIS_URL the keys live in a store shared by every API process and bin/keys.ts, so they must
// all hash with the same pepper, and a known pepper lets whoever reads Redis test guessed keys
// offline: the stack refuses to start without a real one. The cursor secret likewise: with a public
// one anyone can forge a cursor (any snapshot, offset or page size), and API nodes behind one
// balancer must share it.
const STACK_SECRETS = [
  { name: 'KEY_PEPPER', dev: DEV_KEY_PEPPER, why: 'API keys are kept in Redis', same: 'every API process and bin/keys.ts' },
  { name: 'CATALOG_CURSOR_SECRET', dev: DEV_CURSOR_SECRET, why: 'it signs every cursor of the API', same: 'every API process' },
] as const;

/** The shortest HISTORY_SQL_TOKEN accepted (the same floor as the other secrets). */
export const MIN_SQL_TOKEN_LENGTH = MIN_KEY_PEPPER_LENGTH;

const schema = fields
  .superRefine((c, ctx) => {
    if (c.HISTORY_SQL_PORT === undefined) return;
    if (c.CLICKHOUSE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['HISTORY_SQL_PORT'],
        message: 'serves the embedded history (chdb) only; with CLICKHOUSE_URL set, query the ClickHouse server itself (unset HISTORY_SQL_PORT)',
      });
    const t = c.HISTORY_SQL_TOKEN;
    if (t === undefined || t.length < MIN_SQL_TOKEN_LENGTH)
      ctx.addIssue({
        code: 'custom',
        path: ['HISTORY_SQL_TOKEN'],
        message: `${t === undefined ? 'is required when HISTORY_SQL_PORT is set' : `is shorter than ${MIN_SQL_TOKEN_LENGTH} characters`}: every request to the history SQL port must carry it; set it to a random secret (e.g. HISTORY_SQL_TOKEN=$(openssl rand -base64 32))`,
      });
  })
  .superRefine((c, ctx) => {
    // Only a PIPELINE_THREAD=true that was asked for: the default resolves to off where it cannot apply.
    if (!c.PIPELINE_THREAD) return;
    // The split is of the embedded default's one process; its store stays on the API's thread.
    if (!c.ROLES.split(',').some((r) => r.trim() === 'all'))
      ctx.addIssue({ code: 'custom', path: ['PIPELINE_THREAD'], message: `splits ROLES=all only (the API's thread and the pipeline's), got ROLES=${JSON.stringify(c.ROLES)}: unset PIPELINE_THREAD` });
    if (c.REDIS_URL)
      ctx.addIssue({ code: 'custom', path: ['PIPELINE_THREAD'], message: "keeps the in-process snapshot store on the API's thread; with REDIS_URL set, unset PIPELINE_THREAD" });
  })
  .superRefine((c, ctx) => {
    if (c.POLL_CHANGE_ONLY && c.STREAM_QUOTES_LOOKBACK_MS !== undefined && c.STREAM_QUOTES_LOOKBACK_MS <= c.POLL_REFRESH_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['STREAM_QUOTES_LOOKBACK_MS'],
        message: `STREAM_QUOTES_LOOKBACK_MS ${c.STREAM_QUOTES_LOOKBACK_MS} is not above POLL_REFRESH_MS ${c.POLL_REFRESH_MS}: with change-only ingestion an unchanged market is read into the log only by a full crawl, so the quotes channel would start without its quote`,
      });
    if (c.POLL_CHANGE_ONLY && c.POLL_REFRESH_MS >= c.RAW_RETENTION_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['POLL_REFRESH_MS'],
        message: `POLL_REFRESH_MS ${c.POLL_REFRESH_MS} is not below RAW_RETENTION_MS ${c.RAW_RETENTION_MS}: with change-only ingestion a full crawl must come inside the raw topics' retention, or a replay misses records that did not change`,
      });
    if (!c.REDIS_URL) return;
    for (const { name, dev, why, same } of STACK_SECRETS) {
      const p = c[name];
      const problem =
        p === undefined
          ? `is required when REDIS_URL is set (${why})`
          : p === dev
            ? `is the development default, refused when REDIS_URL is set (${why})`
            : p.length < MIN_KEY_PEPPER_LENGTH
              ? `is shorter than ${MIN_KEY_PEPPER_LENGTH} characters`
              : undefined;
      if (problem)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `${problem}: set ${name} to a random secret of at least ${MIN_KEY_PEPPER_LENGTH} characters, the same for ${same} (e.g. ${name}=$(openssl rand -base64 32))`,
        });
    }
  })
  .transform((c) => ({
    ...c,
    KEY_PEPPER: c.KEY_PEPPER ?? DEV_KEY_PEPPER,
    CATALOG_CURSOR_SECRET: c.CATALOG_CURSOR_SECRET ?? DEV_CURSOR_SECRET,
    DATA_DIR: c.DATA_DIR ?? stackDataDir(c.ROLES, c.PORT),
    METRICS_PORT: c.METRICS_PORT ?? defaultMetricsPort(c.ROLES),
    POLLER_THREAD: c.POLLER_THREAD ?? !c.KAFKA_BROKERS,
    PIPELINE_THREAD: c.PIPELINE_THREAD ?? (c.ROLES.split(',').some((r) => r.trim() === 'all') && !c.REDIS_URL),
  }));

export type Config = Readonly<z.infer<typeof schema>>;

/** Where processes of the scale-out stack expose their stage metrics when METRICS_PORT is unset. */
export const METRICS_PORT_DEFAULTS = { processors: 9464, pollers: 9465 } as const;

function roleList(roles: string): string[] {
  return [...new Set(roles.split(',').map((r) => r.trim()))].sort();
}

/**
 * DATA_DIR when unset. ROLES=all: `.data` (the embedded default). Any other ROLES: `.data/<roles>`
 * (e.g. `.data/processors`), and an API replica adds its PORT (`.data/api-8080`): several replicas
 * started from one directory must not open the same chdb (an exclusive lock) or keys file.
 */
export function stackDataDir(roles: string, port: number): string {
  const list = roleList(roles);
  if (list.includes('all')) return '.data';
  return `.data/${list.join('+')}${list.includes('api') ? `-${port}` : ''}`;
}

/** METRICS_PORT when unset: the processors' default for a process running them, else the pollers', else none. */
export function defaultMetricsPort(roles: string): number {
  const list = roleList(roles);
  if (list.includes('all')) return 0;
  if (list.includes('processors')) return METRICS_PORT_DEFAULTS.processors;
  if (list.includes('pollers')) return METRICS_PORT_DEFAULTS.pollers;
  return 0;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(fields.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      const shown = picked[name] === undefined ? ' (not set)' : SECRETS.has(name) ? ' (value not shown)' : `=${JSON.stringify(picked[name])}`;
      return `${name}${shown}: ${i.message}`;
    });
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return Object.freeze(parsed.data);
}

/** loadConfig for a process entry point: a bad configuration prints its message and exits 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
}

/**
 * SIM_CLOCK_START in epoch ms, undefined when unset: the start of the simulator's default clock
 * (pipelines/venues/simulator/server.ts), which tests start without a Config. A bad value throws
 * the ConfigError loadConfig would.
 */
export function simClockStart(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const v = env.SIM_CLOCK_START;
  if (v === undefined || v === '') return undefined;
  const parsed = fields.shape.SIM_CLOCK_START.safeParse(v);
  if (!parsed.success) throw new ConfigError(`invalid configuration:\n  SIM_CLOCK_START=${JSON.stringify(v)}: ${parsed.error.issues[0].message}`);
  return Date.parse(v);
}

/**
 * How far back the quotes channel reads the raw topics (STREAM_QUOTES_LOOKBACK_MS, else: past one
 * full crawl with change-only ingestion, or the resume window plus a catalog crawl, with an hour to spare).
 */
export function quotesLookbackMs(c: Pick<Config, 'STREAM_QUOTES_LOOKBACK_MS' | 'POLL_CHANGE_ONLY' | 'POLL_REFRESH_MS'>): number {
  return c.STREAM_QUOTES_LOOKBACK_MS ?? (c.POLL_CHANGE_ONLY ? c.POLL_REFRESH_MS + 3_600_000 : 2 * 3_600_000);
}
