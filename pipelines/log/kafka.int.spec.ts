// The log contract against a real broker, with both clients behind the seam (kafkajs, the default,
// and @platformatic/kafka). The broker comes from test/services: testcontainers where Docker answers,
// else KAFKA_BROKERS; in CI a missing broker fails the run.
import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { available, randomName, requireKafka } from '../../test/services/index.ts';
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

describe.skipIf(!availability.ok)(`Kafka topics as configured (${availability.reason})`, () => {
  // "topics created with configured partitions, replication and cleanup policy": read back from the broker.
  it.each([
    ['kafkajs', (brokers: string[]) => new KafkaLog({ brokers })],
    ['@platformatic/kafka', (brokers: string[]) => new PlatformaticKafkaLog({ brokers })],
  ] as const)('creates them through %s with their partitions, cleanup.policy and retention.ms', async (_name, make) => {
    const { brokers } = await requireKafka();
    const log = make(brokers);
    const compacted = randomName('t');
    const retained = randomName('t');
    await log.createTopics([
      { name: compacted, partitions: 4, cleanupPolicy: 'compact' },
      { name: retained, partitions: 2, cleanupPolicy: 'delete', retentionMs: 3_600_000 },
    ]);
    expect((await log.topicOffsets(compacted)).length).toBe(4);
    expect((await log.topicOffsets(retained)).length).toBe(2);
    await log.close();
    const admin = new kafkajs.Kafka({ brokers, logLevel: kafkajs.logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [compacted, retained].map((name) => ({ type: kafkajs.ConfigResourceTypes.TOPIC, name })),
      });
      const conf = (name: string, key: string) =>
        resources.find((r) => r.resourceName === name)!.configEntries.find((e) => e.configName === key)!.configValue;
      expect(conf(compacted, 'cleanup.policy')).toBe('compact');
      expect(conf(retained, 'cleanup.policy')).toBe('delete');
      expect(conf(retained, 'retention.ms')).toBe('3600000');
      const md = await admin.fetchTopicMetadata({ topics: [compacted] });
      expect(md.topics[0]!.partitions.every((p) => p.replicas.length === 1)).toBe(true);
    } finally {
      await admin.disconnect();
    }
  });
});
