// The push stream's int-test harness (test-only), shared by the sports and quotes suites: a log
// (embedded, and Kafka where KAFKA_BROKERS is set), topics under a random prefix, the stream area
// on them, the API listening on a free port with a key, SSE clients, and everything closed when the
// test finishes. Each suite writes its own records (matched events, raw venue records) on top.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { build, type TestApp } from '../../test/helper.ts';
import { available, randomName, requireKafka } from '../../test/services/index.ts';
import { EmbeddedLog } from '../../pipelines/log/embedded.ts';
import { KafkaLog } from '../../pipelines/log/kafka.ts';
import type { Log, LogRecord, Producer } from '../../pipelines/log/types.ts';
import { jsonSerde, type Serde } from '../../pipelines/serde/index.ts';
import { defineTopics, topicSpecs, type TopicId, type TopicMap } from '../../pipelines/topics.ts';
import type { PlanKey } from '../auth/plans.ts';
import type { Permission } from '../routes/table.ts';
import { startStreamArea, type StreamArea } from './area.ts';
import { openSse, type SseClient } from './sse-client.ts';

export interface LogImpl {
  name: string;
  open(): Promise<Log>;
}

/** The logs a suite runs on: embedded (its files under a temporary `<dir>-…`), and Kafka when it is up. */
export async function logImpls(dir: string): Promise<LogImpl[]> {
  const kafka = await available('kafka');
  return [
    { name: 'embedded log', open: () => EmbeddedLog.open({ dir: mkdtempSync(join(tmpdir(), `${dir}-`)), compactIntervalMs: 0 }) },
    ...(kafka.ok ? [{ name: 'Kafka', open: async () => new KafkaLog({ brokers: (await requireKafka()).brokers }) }] : []),
  ];
}

/** A log with the suite's topics created under a random prefix, and a producer on it. */
export interface Backbone {
  log: Log;
  topics: TopicMap;
  serde: Serde;
  producer: Producer;
}

export async function openBackbone(impl: LogImpl, o: { prefix: string; topics: readonly TopicId[] }): Promise<Backbone> {
  const log = await impl.open();
  const topics = defineTopics({ prefix: randomName(o.prefix) + '.', partitions: 2 });
  const wanted = new Set(o.topics.map((id) => topics[id].name));
  await log.createTopics(topicSpecs(topics).filter((s) => wanted.has(s.name)));
  return { log, topics, serde: jsonSerde(), producer: await log.producer() };
}

export type StreamConfig = Parameters<typeof startStreamArea>[0];

export interface StreamHarness extends Backbone {
  area: StreamArea;
  t: TestApp;
  /** The API's address (`http://127.0.0.1:<port>`). */
  base: string;
  /** A `pro` key with `stream.read`. */
  key: string;
  keyOf(plan?: PlanKey, permissions?: Permission[], account?: string): Promise<string>;
  /** An SSE client on `/v1/stream?<query>` (destroyed when the test finishes). */
  open(query: string, headers?: Record<string, string>, key?: string): Promise<SseClient>;
  /** Every record of one topic, in offset order per partition, read from the log itself (waits for `count`, a minute at most). */
  topicRecords(topicName: string, count: number): Promise<LogRecord[]>;
  /** Waits until `done()` holds, a minute at most; else fails with `what()`. */
  until(done: () => boolean, what: () => string): Promise<void>;
}

/** The stream area on a backbone and the API serving it; all of it (the backbone too) closes when the test finishes. */
export async function serveStream(b: Backbone, config: StreamConfig, o: { quotes?: boolean | 'on-demand' } = {}): Promise<StreamHarness> {
  const area = await startStreamArea(config, { log: b.log, serde: b.serde, topics: b.topics, ...(o.quotes !== undefined ? { quotes: o.quotes } : {}) });
  area.deps.readyMs = 30_000;
  const t = await build({ deps: { stream: area.deps } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const clients: SseClient[] = [];
  onTestFinished(async () => {
    for (const c of clients) c.destroy();
    await t.app.close();
    await area.stop();
    await b.producer.close();
    await b.log.close();
  });
  const keyOf = (plan: PlanKey = 'pro', permissions: Permission[] = ['stream.read'], account?: string) => t.createKey({ plan, permissions, account });
  const key = await keyOf();
  return {
    ...b,
    area,
    t,
    base,
    key,
    keyOf,
    async open(query, headers = {}, k = key) {
      const c = await openSse(`${base}/v1/stream?${query}`, { ...t.auth(k), ...headers });
      clients.push(c);
      return c;
    },
    async topicRecords(topicName, count) {
      const got: LogRecord[] = [];
      const tail = b.log.tail({ topics: [topicName] });
      await tail.run(async (batch) => void got.push(...batch.records));
      const end = Date.now() + 60_000;
      while (got.length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      await tail.stop();
      return got;
    },
    async until(done, what) {
      const end = Date.now() + 60_000;
      while (!done()) {
        if (Date.now() > end) throw new Error(what());
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
