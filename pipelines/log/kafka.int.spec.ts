// The log contract against a real broker, with both clients behind the seam (kafkajs, the default,
// and @platformatic/kafka). The broker comes from test/services: testcontainers where Docker answers,
// else KAFKA_BROKERS; in CI a missing broker fails the run.
import { describe } from 'vitest';
import { available, requireKafka } from '../../test/services/index.ts';
import { KafkaLog } from './kafka.ts';
import { PlatformaticKafkaLog } from './kafka-platformatic.ts';
import { logContract } from './log.contract.ts';

const availability = await available('kafka');

describe.skipIf(!availability.ok)(`Kafka log (${availability.reason})`, () => {
  logContract('kafka (kafkajs)', async () => {
    const { brokers } = await requireKafka();
    return { open: async () => new KafkaLog({ brokers, retryBackoffMs: 50 }) };
  });
});

describe.skipIf(!availability.ok)(`Kafka log through @platformatic/kafka (${availability.reason})`, () => {
  logContract('kafka (@platformatic/kafka)', async () => {
    const { brokers } = await requireKafka();
    return { open: async () => new PlatformaticKafkaLog({ brokers, retryBackoffMs: 50 }) };
  });
});
