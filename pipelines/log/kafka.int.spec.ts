// The log contract against a real broker, through kafkajs behind the seam. The broker comes from test/services: testcontainers where Docker answers,
// else KAFKA_BROKERS; in CI a missing broker fails the run.
import kafkajs from 'kafkajs';
import { describe, expect, it, vi } from 'vitest';
import { available, randomName, requireKafka } from '../../test/services/index.ts';
import { KafkaLog } from './kafka.ts';
import { logContract } from './log.contract.ts';
import type { Log, LogRecord } from './types.ts';

const availability = await available('kafka');

describe.skipIf(!availability.ok)(`Kafka log (${availability.reason})`, () => {
  logContract('kafka (kafkajs)', async () => {
    const { brokers } = await requireKafka();
    return { open: async (opts) => new KafkaLog({ brokers, retryBackoffMs: 50, ...opts }), knowsWaiting: true };
  });
});

describe.skipIf(!availability.ok)(`Kafka topics as configured (${availability.reason})`, () => {
  // "topics created with configured partitions, replication and cleanup policy": read back from the broker.
  it.each([
    ['kafkajs', (brokers: string[]) => new KafkaLog({ brokers })],
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

describe.skipIf(!availability.ok)(`Kafka consumer groups with two members (${availability.reason})`, () => {
  // The scale-out stack runs a stage in several processes: the group splits the partitions between
  // them and, together, they see every record. (The embedded log gives a group one consumer.)
  it.each([
    ['kafkajs', (brokers: string[]) => new KafkaLog({ brokers, retryBackoffMs: 20 })],
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

describe.skipIf(!availability.ok)(`Kafka consumers: partitions at a time, stop, batch size (${availability.reason})`, () => {
  const clients = [
    ['kafkajs', (brokers: string[], o: { maxBatchRecords?: number } = {}) => new KafkaLog({ brokers, retryBackoffMs: 20, ...o })],
  ] as const;
  const waitFor = async (ok: () => boolean | Promise<boolean>, what: string) => {
    for (let i = 0; i < 600; i++) {
      if (await ok()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`gave up waiting for ${what}`);
  };
  const committedSum = async (log: Log, group: string, topic: string) => [...(await log.groupOffsets(group, topic)).values()].reduce((a, b) => a + Number(b), 0);
  /** A topic whose every partition holds records (keys k0..k<n-1>, values their index). */
  const filled = async (log: Log, partitions: number, n: number) => {
    const topic = randomName('t');
    await log.createTopics([{ name: topic, partitions, cleanupPolicy: 'delete' }]);
    const producer = await log.producer();
    await producer.send(topic, Array.from({ length: n }, (_, i) => ({ key: Buffer.from(`k${i}`), value: Buffer.from(String(i)) })));
    await producer.close();
    expect((await log.topicOffsets(topic)).every((o) => Number(o.high) > 0)).toBe(true);
    return topic;
  };

  it.each(clients)('handles three partitions at a time through %s by default, each in offset order', { timeout: 60_000 }, async (_name, make) => {
    const { brokers } = await requireKafka();
    const log = make(brokers);
    const topic = await filled(log, 3, 60);
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: LogRecord[] = [];
    const consumer = log.consumer({ groupId: randomName('g'), topics: [topic], fromBeginning: true });
    await consumer.run(async (batch) => {
      most = Math.max(most, ++inFlight);
      // Held until three partitions' batches are in handlers at once; with one at a time it never is.
      await gate;
      inFlight--;
      seen.push(...batch.records);
    });
    try {
      await waitFor(() => most === 3, 'three batches in handlers at once');
      release();
      await waitFor(() => seen.length >= 60, 'every record');
    } finally {
      release();
      await consumer.stop();
      await log.close();
    }
    expect(most).toBe(3);
    expect(seen).toHaveLength(60);
    for (const p of [0, 1, 2]) {
      const offsets = seen.filter((r) => r.partition === p).map((r) => Number(r.offset));
      expect(offsets).toEqual(offsets.map((_, i) => i));
    }
  });

  it.each(clients)('commits the batch in a handler when stop() is called, through %s', { timeout: 60_000 }, async (_name, make) => {
    // Regression: kafkajs's consumer.commitOffsets() does nothing once stop() has begun, so a batch in
    // flight at stop() was written but not committed, and delivered again after a restart.
    const { brokers } = await requireKafka();
    const log = make(brokers);
    const topic = await filled(log, 1, 10);
    const group = randomName('g');
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let handled = 0;
    const consumer = log.consumer({ groupId: group, topics: [topic], fromBeginning: true });
    await consumer.run(async (batch) => {
      entered();
      await gate;
      handled += batch.records.length;
    });
    await inHandler;
    const stopped = consumer.stop();
    // stop() has begun; the handler is still running.
    await new Promise((r) => setImmediate(r));
    release();
    await stopped;
    expect(handled).toBe(10);
    expect(await committedSum(log, group, topic)).toBe(10);
    await log.close();
  });

  it.each(clients)('hands out batches of at most maxBatchRecords through %s, each committed in turn', { timeout: 60_000 }, async (_name, make) => {
    const { brokers } = await requireKafka();
    const log = make(brokers, { maxBatchRecords: 7 });
    const topic = await filled(log, 1, 50);
    const group = randomName('g');
    const sizes: number[] = [];
    const committedBefore: number[] = [];
    const seen: string[] = [];
    const consumer = log.consumer({ groupId: group, topics: [topic], fromBeginning: true });
    await consumer.run(async (batch) => {
      sizes.push(batch.records.length);
      committedBefore.push(await committedSum(log, group, topic));
      seen.push(...batch.records.map((r) => r.offset));
    });
    try {
      await waitFor(async () => seen.length >= 50 && (await committedSum(log, group, topic)) === 50, 'every record committed');
    } finally {
      await consumer.stop();
      await log.close();
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
    // Each batch starts where the previous one's commit left the group.
    expect(committedBefore).toEqual(sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0)));
  });
});

describe.skipIf(!availability.ok)(`Kafka tail over many topics (${availability.reason})`, () => {
  // The quotes hub tails the nine raw venue topics from a time. Each topic's start used to be set on
  // the tail's group first (setGroupOffsets: a throwaway join and a fetch poll per topic, about 5 s
  // each, 45 s of 503 after a start); now the one consumer is told every start and seeks them together.
  it('starts nine topics at their positions in one consumer, with no setGroupOffsets per topic', { timeout: 90_000 }, async () => {
    const { brokers } = await requireKafka();
    const log = new KafkaLog({ brokers, retryBackoffMs: 20 });
    const topics = Array.from({ length: 9 }, () => randomName('t'));
    await log.createTopics(topics.map((name) => ({ name, partitions: 2, cleanupPolicy: 'delete' as const })));
    const producer = await log.producer();
    await Promise.all(topics.map((t) => producer.send(t, Array.from({ length: 6 }, (_, i) => ({ key: Buffer.from(`k${i}`), value: Buffer.from(`${t}:${i}`), partition: i % 2 })))));
    await producer.close();
    // Every topic from offset 1 on partition 0 and offset 2 on partition 1: 2 + 1 records each.
    const from = new Map(topics.map((t) => [t, new Map([[0, '1'], [1, '2']])]));
    const setGroupOffsets = vi.spyOn(log, 'setGroupOffsets');
    const consumer = vi.spyOn(log, 'consumer');
    const tail = log.tail({ topics, from });
    const got: LogRecord[] = [];
    await tail.run(async (batch) => void got.push(...batch.records));
    try {
      for (let i = 0; i < 1200 && got.length < 27; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await tail.stop();
      await log.close();
    }
    expect(setGroupOffsets).not.toHaveBeenCalled();
    expect(consumer).toHaveBeenCalledTimes(1);
    const options = consumer.mock.calls[0]![0];
    expect(options.topics).toEqual(topics);
    expect([...(options.startAt ?? new Map()).keys()]).toEqual(topics);
    for (const t of topics) {
      expect(got.filter((r) => r.topic === t && r.partition === 0).map((r) => r.offset)).toEqual(['1', '2']);
      expect(got.filter((r) => r.topic === t && r.partition === 1).map((r) => r.offset)).toEqual(['2']);
    }
  });
});
