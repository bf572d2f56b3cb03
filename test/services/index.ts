// The one place that gives test suites their services: Kafka, the schema registry, ClickHouse, Redis.
// In: the environment (KAFKA_BROKERS, SCHEMA_REGISTRY_URL, CLICKHOUSE_URL, REDIS_URL, CI) and, where a
// Docker engine answers, testcontainers with pinned images. Out: addresses, and random names so
// suites run side by side against one service.
//
// Order: an address in the environment wins (that is what .ci/run and `make up` export); otherwise a
// container when Docker answers. When neither: in CI (CI=true) `available()` THROWS for a service CI
// must provide, so the suite fails loudly instead of skipping; elsewhere it says why, for
// `describe.skipIf(!x.ok)`. Which services CI must provide: CI_SERVICES (comma separated), which
// .ci/run sets to what it starts (kafka,redis,registry: Apicurio's Confluent-compatible API; no
// ClickHouse server installs on this machine without Docker); with CI_SERVICES unset, CI requires
// every service.
//
// Use:
//   const kafka = await available('kafka');
//   describe.skipIf(!kafka.ok)(`... (${kafka.reason})`, () => {
//     beforeAll(async () => ({ brokers } = await requireKafka()));
//   });
import { randomBytes } from 'node:crypto';

export type ServiceName = 'kafka' | 'redis' | 'registry' | 'clickhouse';

/** Pinned images for machines with Docker (the same versions as infra/compose.yaml). */
export const IMAGES = {
  kafka: 'confluentinc/cp-kafka:7.9.0', // Apache Kafka 3.9, KRaft
  redis: 'redis:7.4.2',
  registry: 'apicurio/apicurio-registry-mem:2.6.13.Final', // Confluent-compatible API at /apis/ccompat/v7
  clickhouse: 'clickhouse/clickhouse-server:24.8.14.39',
} as const;

const ENV: Record<ServiceName, string> = {
  kafka: 'KAFKA_BROKERS',
  redis: 'REDIS_URL',
  registry: 'SCHEMA_REGISTRY_URL',
  clickhouse: 'CLICKHOUSE_URL',
};

/** A name unique to one test: a topic, a consumer group, a table or a key prefix. */
export function randomName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

export function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}

let dockerAnswers: Promise<boolean> | null = null;

/** Whether a container runtime answers (testcontainers' own detection), within 5 s. */
export function dockerAvailable(): Promise<boolean> {
  if (!dockerAnswers) {
    dockerAnswers = (async () => {
      if (process.env.TESTCONTAINERS_DISABLED === 'true') return false;
      try {
        const { getContainerRuntimeClient } = await import('testcontainers');
        const client = await Promise.race([
          getContainerRuntimeClient(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 5000).unref()),
        ]);
        return Boolean(client);
      } catch {
        return false;
      }
    })();
  }
  return dockerAnswers;
}

/** Services CI must provide: CI_SERVICES, or all of them when unset. */
export function requiredInCI(name: ServiceName, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.CI_SERVICES === undefined) return true;
  return env.CI_SERVICES.split(',').map((s) => s.trim()).includes(name);
}

export interface Availability {
  ok: boolean;
  /** Where the service comes from, or why it is missing. */
  reason: string;
}

/**
 * Says whether a service can be had. In CI a missing service throws: "in CI a missing service fails
 * the run", never a silent skip.
 */
export async function available(name: ServiceName, env: NodeJS.ProcessEnv = process.env): Promise<Availability> {
  const v = env[ENV[name]];
  if (v) return { ok: true, reason: `${ENV[name]}=${v}` };
  if (await dockerAvailable()) return { ok: true, reason: `testcontainers ${IMAGES[name]}` };
  const why = `${name}: ${ENV[name]} is not set and no Docker engine answers (run \`make up\` and export ${ENV[name]})`;
  if (isCI(env) && requiredInCI(name, env)) throw new Error(`CI=true and a needed service is missing: ${why}`);
  if (isCI(env)) return { ok: false, reason: `skipped, CI provides no ${name} (CI_SERVICES=${env.CI_SERVICES})` };
  return { ok: false, reason: `skipped, ${why}` };
}

// One container per service per test worker, started on first use; testcontainers' reaper removes it.
const started = new Map<ServiceName, Promise<string>>();

function once(name: ServiceName, start: () => Promise<string>): Promise<string> {
  const v = process.env[ENV[name]];
  if (v) return Promise.resolve(v);
  let p = started.get(name);
  if (!p) {
    p = (async () => {
      if (!(await dockerAvailable())) {
        throw new Error(`${name}: ${ENV[name]} is not set and no Docker engine answers (run \`make up\`)`);
      }
      return start();
    })();
    started.set(name, p);
  }
  return p;
}

export async function requireKafka(): Promise<{ brokers: string[] }> {
  const v = await once('kafka', async () => {
    const { KafkaContainer } = await import('@testcontainers/kafka');
    const c = await new KafkaContainer(IMAGES.kafka).withKraft().start();
    return `${c.getHost()}:${c.getMappedPort(9093)}`;
  });
  return { brokers: v.split(',').map((s) => s.trim()).filter(Boolean) };
}

export async function requireRedis(): Promise<{ url: string }> {
  const url = await once('redis', async () => {
    const { RedisContainer } = await import('@testcontainers/redis');
    const c = await new RedisContainer(IMAGES.redis).start();
    return c.getConnectionUrl();
  });
  return { url };
}

export async function requireRegistry(): Promise<{ url: string }> {
  const url = await once('registry', async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    const c = await new GenericContainer(IMAGES.registry)
      .withExposedPorts(8080)
      .withWaitStrategy(Wait.forHttp('/apis/ccompat/v7/subjects', 8080))
      .start();
    return `http://${c.getHost()}:${c.getMappedPort(8080)}/apis/ccompat/v7`;
  });
  return { url };
}

export async function requireClickHouse(): Promise<{ url: string }> {
  const url = await once('clickhouse', async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    const c = await new GenericContainer(IMAGES.clickhouse)
      .withExposedPorts(8123)
      .withEnvironment({ CLICKHOUSE_SKIP_USER_SETUP: '1' })
      .withWaitStrategy(Wait.forHttp('/ping', 8123))
      .start();
    return `http://${c.getHost()}:${c.getMappedPort(8123)}`;
  });
  return { url };
}

/** A loopback TCP port nothing listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on a loopback port now. */
export async function portIsFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((done) => {
    const s = createServer();
    s.once('error', () => done(false));
    s.listen(port, '127.0.0.1', () => s.close(() => done(true)));
  });
}

/**
 * A free port for a service the test restarts: random in 20000-31999, below the kernel's ephemeral
 * range (32768-60999), so while the service is down no outgoing connection can take its port.
 * `taken`: ports this caller already holds.
 */
export async function restartablePort(taken: readonly number[] = []): Promise<number> {
  for (;;) {
    const p = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.includes(p) && (await portIsFree(p))) return p;
  }
}

/** A redis-server of the test's own, started and stopped by the repository's infra/scripts. */
export interface OwnRedis {
  url: string;
  port: number;
  /** infra/scripts/start-redis.sh (same port and data directory: a restart). */
  start(): Promise<void>;
  /** infra/scripts/stop-redis.sh: a normal shutdown. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash: no shutdown work at all. */
  kill(): Promise<void>;
  /** Stops it and removes its data directory. */
  remove(): Promise<void>;
}

/**
 * Whether a test can start a redis-server of its own (suites that stop and restart Redis cannot
 * use a shared one). In CI with redis in CI_SERVICES a missing binary fails the suite.
 */
export async function ownRedisAvailable(env: NodeJS.ProcessEnv = process.env): Promise<Availability> {
  const { spawnSync } = await import('node:child_process');
  const ok = spawnSync('redis-server', ['--version']).status === 0;
  if (ok) return { ok: true, reason: 'redis-server on PATH' };
  const why = 'redis-server is not installed (apt-get install redis-server)';
  if (isCI(env) && requiredInCI('redis', env)) throw new Error(`CI=true and a needed service is missing: ${why}`);
  return { ok: false, reason: `skipped, ${why}` };
}

/**
 * Starts a redis-server on a random free port with its data in a fresh temp directory, through
 * infra/scripts/start-redis.sh, so what a test proves about restarts holds for the scripts the
 * README and the stack use.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const { execFile } = await import('node:child_process');
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join, resolve } = await import('node:path');
  const root = resolve(import.meta.dirname, '../..');
  const home = mkdtempSync(join(tmpdir(), 'pm-redis-'));
  const port = await restartablePort();
  const env = { ...process.env, REDIS_PORT: String(port), REDIS_HOME: home };
  const script = (name: string) =>
    new Promise<void>((ok, fail) =>
      execFile('bash', [join(root, 'infra/scripts', name)], { env }, (err, _out, stderr) => (err ? fail(new Error(`${name}: ${stderr || err.message}`)) : ok())),
    );
  const r: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    start: () => script('start-redis.sh'),
    stop: () => script('stop-redis.sh'),
    async kill() {
      const pid = Number(readFileSync(join(home, `redis-${port}.pid`), 'utf8').trim());
      process.kill(pid, 'SIGKILL');
      for (;;) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((t) => setTimeout(t, 50));
      }
    },
    async remove() {
      await r.stop().catch(() => {});
      rmSync(home, { recursive: true, force: true });
    },
  };
  await r.start();
  return r;
}
