// Configuration, read from the environment and validated once at start.
// In: process.env. Out: one frozen, typed Config. A bad value stops the process with a message
// naming the variable and quoting the value. Each seam (log, registry, stores, history, venues)
// picks its server implementation when its address is set and the embedded one otherwise, so the
// same business code runs in both modes.
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1');

const schema = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('.data'),
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
  KAFKA_CLIENT: z.enum(['kafkajs', 'platformatic']).default('kafkajs'),
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).default(3),
  KAFKA_REPLICATION: z.coerce.number().int().min(1).default(1),
  SCHEMA_REGISTRY_URL: z.string().url().optional(),
  REDIS_URL: z.string().optional(),
  CLICKHOUSE_URL: z.string().url().optional(),
  CLICKHOUSE_DATABASE: z.string().default('pm'),

  // Backbone (pipelines/topics.ts): topic name prefix (tests use a random one), raw retention.
  TOPIC_PREFIX: z.string().default(''),
  RAW_RETENTION_MS: z.coerce.number().int().min(1).default(7 * 86_400_000),
  // Stage metrics endpoint for processes without the API (ROLES=processors); 0 = none.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),

  // Venues: the built-in simulator unless VENUE_BASE_URL points elsewhere.
  VENUE_BASE_URL: z.string().url().optional(),
  SIM_SEED: z.coerce.number().int().default(42),
  SIM_SCALE: z.coerce.number().min(0).default(1),
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  SIM_SCENARIO: z.string().optional(),
  UPSTREAM_DEADLINE_MS: z.coerce.number().int().min(1).default(9000),

  // Cadences (spec: catalog about 30 minutes, sports snapshot about 12 s).
  CATALOG_REFRESH_MS: z.coerce.number().int().min(1).default(30 * 60_000),
  CATALOG_RETENTION_MS: z.coerce.number().int().min(1).default(8 * 3600_000),
  // Catalog: time between two listing crawls of a venue (default: the refresh cadence), and the
  // HMAC secret signing GET /v1/markets cursors (set it in the stack so every API node agrees).
  CATALOG_CRAWL_MS: z.coerce.number().int().min(1).optional(),
  // Sports feed of the pollers: a full crawl this often; between them only changed records are
  // written to the raw topics (every POLL_INTERVAL_MS).
  POLL_FULL_MS: z.coerce.number().int().min(1).default(300_000),
  CATALOG_CURSOR_SECRET: z.string().min(1).default('embedded-dev-catalog-cursor-secret'),
  SPORTS_PUBLISH_MS: z.coerce.number().int().min(1).default(250),
  POLL_INTERVAL_MS: z.coerce.number().int().min(1).default(2_000),

  // "503 when the plan catalog is not configured": PLAN_CATALOG=none turns it off.
  PLAN_CATALOG: z.enum(['published', 'none']).default('published'),
  // Embedded default prints a demo key; the stack never creates one implicitly.
  DEMO_KEY: bool.default(true),
  KEY_PEPPER: z.string().default('embedded-dev-pepper'),
});

export type Config = Readonly<z.infer<typeof schema>>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      return `${name}=${JSON.stringify(picked[name])}: ${i.message}`;
    });
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return Object.freeze(parsed.data);
}
