// The one place that gives test suites their services (see requireX below, filled in with the stack).
// In: the environment. Out: addresses of Kafka, the schema registry, ClickHouse and Redis, and random
// names so suites run side by side.
import { randomBytes } from 'node:crypto';

/** A name unique to one test: a topic, a consumer group, a table or a key prefix. */
export function randomName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
