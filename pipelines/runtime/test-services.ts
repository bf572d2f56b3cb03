// Test-only: where the backbone suites get their services. Delegates to test/services (the one
// place for services under test: environment addresses, else testcontainers; in CI a missing
// service throws there) and answers undefined when a service cannot be had locally, so a suite
// skips it with a reason.
import { available, requireClickHouse, requireKafka, requireRedis, requireRegistry } from '../../test/services/index.ts';
import type { Serde } from '../serde/index.ts';

export async function redisUrlForTests(): Promise<string | undefined> {
  return (await available('redis')).ok ? (await requireRedis()).url : undefined;
}
export async function clickhouseUrlForTests(): Promise<string | undefined> {
  return (await available('clickhouse')).ok ? (await requireClickHouse()).url : undefined;
}
export async function kafkaBrokersForTests(): Promise<string[] | undefined> {
  return (await available('kafka')).ok ? (await requireKafka()).brokers : undefined;
}
export async function registryUrlForTests(): Promise<string | undefined> {
  return (await available('registry')).ok ? (await requireRegistry()).url : undefined;
}

/** The serde tests use: Avro through an embedded registry under dir (wire format, schema ids). */
export async function testSerde(dir: string): Promise<Serde> {
  const { workerSerde } = await import('./testdata/serde.ts');
  return workerSerde(dir);
}
