// Test-only: where the backbone suites get their services. Delegates to test/services (the one
// place for services under test) and falls back to the environment, so a suite that needs Redis,
// ClickHouse or Kafka runs against it when it is there and is skipped (locally) when not.
import * as services from '../../test/services/index.ts';

type Maybe = (() => Promise<string | undefined> | string | undefined) | undefined;
const svc = services as unknown as Record<string, Maybe>;

async function pick(fn: string, env: string): Promise<string | undefined> {
  const f = svc[fn];
  if (typeof f === 'function') {
    const v = await f();
    if (v) return v;
  }
  return process.env[env] || undefined;
}

export const redisUrlForTests = () => pick('optionalRedisUrl', 'REDIS_URL');
export const clickhouseUrlForTests = () => pick('optionalClickhouseUrl', 'CLICKHOUSE_URL');
export const kafkaBrokersForTests = () => pick('optionalKafkaBrokers', 'KAFKA_BROKERS');
export const registryUrlForTests = () => pick('optionalRegistryUrl', 'SCHEMA_REGISTRY_URL');

/** The serde tests use: Avro through the embedded registry when it exists, JSON until then. */
export async function testSerde(): Promise<import('../serde/index.ts').Serde> {
  const { jsonSerde } = await import('../serde/index.ts');
  return jsonSerde();
}
