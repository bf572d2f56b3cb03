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
 * the run" (issue 3), never a silent skip.
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
