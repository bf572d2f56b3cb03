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

describe.skipIf(!availability.ok)(`@platformatic/kafka consumer failure (${availability.reason})`, () => {
  it('restarts a consumer whose message stream failed, from the committed offsets', async () => {
    const { brokers } = await requireKafka();
    const log = new PlatformaticKafkaLog({ brokers, retryBackoffMs: 20 });
    const topic = randomName('t');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    const producer = await log.producer();
    await producer.send(topic, [{ key: Buffer.from('k'), value: Buffer.from('before') }]);
    const seen: string[] = [];
    const consumer = log.consumer({ groupId: randomName('g'), topics: [topic], fromBeginning: true });
    await consumer.run(async (b) => void seen.push(...b.records.map((r) => String(r.value))));
    const wait = async (n: number) => {
      for (let i = 0; i < 300 && seen.length < n; i++) await new Promise((r) => setTimeout(r, 50));
    };
    await wait(1);
    const inner = consumer as unknown as { stream: { destroy(e: Error): void } };
    const errors = console.error;
    console.error = () => {};
    try {
      inner.stream.destroy(new Error('connection lost'));
      await producer.send(topic, [{ key: Buffer.from('k'), value: Buffer.from('after') }]);
      await wait(2);
    } finally {
      console.error = errors;
    }
    await consumer.stop();
    await log.close();
    expect(seen).toEqual(['before', 'after']);
  });
});

describe.skipIf(!availability.ok)(`Kafka consumer groups with two members (${availability.reason})`, () => {
  // The scale-out stack runs a stage in several processes: the group splits the partitions between
  // them and, together, they see every record. (The embedded log gives a group one consumer.)
  it.each([
    ['kafkajs', (brokers: string[]) => new KafkaLog({ brokers, retryBackoffMs: 20 })],
    ['@platformatic/kafka', (brokers: string[]) => new PlatformaticKafkaLog({ brokers, retryBackoffMs: 20 })],
  ] as const)('splits partitions between two members through %s and loses nothing', { timeout: 90_000 }, async (_name, make) => {
    const { brokers } = await requireKafka();
    const log = make(brokers);
    const topic = randomName('t');
    const group = randomName('g');
    await log.createTopics([{ name: topic, partitions: 4, cleanupPolicy: 'delete' }]);
    const seen = [new Set<string>(), new Set<string>()];
    const members = [0, 1].map((i) => {
      const c = log.consumer({ groupId: group, topics: [topic], fromBeginning: true });
      return { c, run: c.run(async (b) => void b.records.forEach((r) => seen[i]!.add(String(r.value)))) };
    });
    await Promise.all(members.map((m) => m.run));
    const producer = await log.producer();
    // Produce until both members have been assigned partitions and seen records (a rebalance waits
    // for the first member's next heartbeat), at least 2 s, at most 30 s.
    let sent = 0;
    for (let i = 0; i < 600 && (i < 40 || !seen[0]!.size || !seen[1]!.size); i++) {
      await producer.send(topic, Array.from({ length: 50 }, (_, j) => ({ key: Buffer.from(`k${j}`), value: Buffer.from(String(sent + j)) })));
      sent += 50;
      await new Promise((r) => setTimeout(r, 50));
    }
    const union = () => new Set([...seen[0]!, ...seen[1]!]).size;
    for (let i = 0; i < 600 && union() < sent; i++) await new Promise((r) => setTimeout(r, 50));
    for (const m of members) await m.c.stop();
    await log.close();
    expect(union()).toBe(sent);
    expect(seen[0]!.size).toBeGreaterThan(0);
    expect(seen[1]!.size).toBeGreaterThan(0);
  });
});
