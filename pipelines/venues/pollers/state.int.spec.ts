// The pollers' change-only memory behind its seam: in memory, and on the compacted `pollers.state`
// topic of the embedded log and of Kafka, read back by a new instance as after a restart (also once
// the topic was compacted, where only the latest record of each key and the tombstones remain).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedLog } from '../../log/embedded.ts';
import { KafkaLog } from '../../log/kafka.ts';
import type { Log, Producer } from '../../log/types.ts';
import { EmbeddedRegistry } from '../../registry/embedded.ts';
import { avroSerde } from '../../serde/index.ts';
import { createAllTopics, defineTopics } from '../../topics.ts';
import { available, randomName, requireKafka } from '../../../test/services/index.ts';
import { pollerStateContract } from './state.contract.ts';
import { crawlStateKey, LogPollerState, MemoryPollerState } from './state.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-poller-state-'));
const serde = avroSerde(new EmbeddedRegistry(path.join(dir, 'registry')));
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  while (closers.length) await closers.pop()!();
});

pollerStateContract('in memory', { open: async () => new MemoryPollerState(), reopen: async (s) => s });

/** A log-backed harness over one log; `compact` runs the embedded cleaner before each reopen. */
function onLog(openLog: () => Promise<Log>, compact?: (log: Log, topic: string) => Promise<void>) {
  let shared: Promise<{ log: Log; producer: Producer; topics: ReturnType<typeof defineTopics> }> | null = null;
  const backbone = () =>
    (shared ??= (async () => {
      const log = await openLog();
      const topics = defineTopics({ prefix: `${randomName('ps')}.`, partitions: 3 });
      await createAllTopics(log, topics);
      const producer = await log.producer();
      closers.push(async () => {
        await producer.close();
        await log.close();
      });
      return { log, producer, topics };
    })());
  return {
    backbone,
    open: async () => LogPollerState.restore({ ...(await backbone()), serde }),
    reopen: async () => {
      const b = await backbone();
      if (compact) await compact(b.log, b.topics['pollers.state'].name);
      return LogPollerState.restore({ ...b, serde });
    },
  };
}

pollerStateContract('on the embedded log', onLog(() => EmbeddedLog.open({ dir: mkdtempSync(path.join(dir, 'log-')), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 })));
pollerStateContract(
  'on the embedded log, compacted',
  onLog(
    () => EmbeddedLog.open({ dir: mkdtempSync(path.join(dir, 'log-')), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 }),
    (log, topic) => (log as EmbeddedLog).compact(topic),
  ),
);

// In CI (CI=true) a missing broker throws here: the suite fails rather than skips.
const kafka = await available('kafka');
if (kafka.ok) pollerStateContract('on Kafka', onLog(async () => new KafkaLog({ brokers: (await requireKafka()).brokers, retryBackoffMs: 20 })));

describe('LogPollerState.forgetFullCrawls (pollers started without change-only ingestion)', () => {
  it('leaves the hashes but no full crawl on record, so change-only pollers begin with a full crawl again', async () => {
    const h = onLog(() => EmbeddedLog.open({ dir: mkdtempSync(path.join(dir, 'log-')), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 }));
    const s = await h.open();
    await s.save('venue_4', 'sports', { set: [['market:1', 'h1']], lastFullStartedAt: 100 }, 100);
    await s.save('venue_6', 'sports', { set: [['market:2', 'h2']], lastFullStartedAt: 100 }, 100);
    await LogPollerState.forgetFullCrawls({ ...(await h.backbone()), serde }, ['venue_4'], ['sports']);
    const after = await h.reopen();
    expect(after.load('venue_4', 'sports')?.lastFullStartedAt ?? null).toBeNull();
    expect(after.load('venue_6', 'sports')?.lastFullStartedAt).toBe(100);
  });
});

describe('the crawl starts on pollers.state', () => {
  it('survive forgetFullCrawls (a feed written whole keeps its cadence), and a record of another form is no crawl on record', async () => {
    const h = onLog(() => EmbeddedLog.open({ dir: mkdtempSync(path.join(dir, 'log-')), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 }));
    const s = await h.open();
    await s.save('venue_1', 'listing', { lastCompleteStartedAt: 1_000 }, 1_500);
    await s.save('venue_2', 'listing', { lastCompleteStartedAt: 2_000 }, 2_500);
    const b = await h.backbone();
    await LogPollerState.forgetFullCrawls({ ...b, serde }, ['venue_1', 'venue_2'], ['listing']);
    const topic = b.topics['pollers.state'];
    const other = (payload: string) => ({ venue: 'venue_2', record_type: 'crawl_state', native_id: 'listing', read_started_at: 3_000, payload, read_id: 'listing', source_url: null });
    await b.producer.send(topic.name, await serde.encodeMany(topic, [{ key: crawlStateKey('venue_2', 'listing'), value: other('{"began":3000}') }]));
    const after = await h.reopen();
    expect(after.lastCompleteStart('venue_1', 'listing')).toBe(1_000);
    expect(after.lastCompleteStart('venue_2', 'listing')).toBeNull();
    await b.producer.send(topic.name, await serde.encodeMany(topic, [{ key: crawlStateKey('venue_1', 'listing'), value: other('not json') }]));
    expect((await h.reopen()).lastCompleteStart('venue_1', 'listing')).toBeNull();
  });
});

describe('LogPollerState with startsOnly (pollers without change-only ingestion)', () => {
  it('reads and writes the crawl starts alone: no hashes back, none written', async () => {
    const h = onLog(() => EmbeddedLog.open({ dir: mkdtempSync(path.join(dir, 'log-')), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 }));
    const s = await h.open();
    await s.save('venue_3', 'sports', { set: [['market:1', 'h1']], lastFullStartedAt: 100, lastCompleteStartedAt: 100 }, 100);
    const b = await h.backbone();
    const only = await LogPollerState.restore({ ...b, serde }, { startsOnly: true });
    expect(only.load('venue_3', 'sports')).toBeUndefined();
    expect(only.lastCompleteStart('venue_3', 'sports')).toBe(100);
    const records = async () => (await b.log.topicOffsets(b.topics['pollers.state'].name)).reduce((n, o) => n + Number(o.high), 0);
    const n = await records();
    await only.save('venue_3', 'sports', { set: [['market:2', 'h2']], gone: ['market:1'], lastFullStartedAt: 200, lastCompleteStartedAt: 200 }, 200);
    expect(await records()).toBe(n + 1);
    const back = await h.reopen();
    expect(Object.fromEntries(back.load('venue_3', 'sports')!.hashes)).toEqual({ 'market:1': 'h1' });
    expect(back.load('venue_3', 'sports')!.lastFullStartedAt).toBe(100);
    expect(back.lastCompleteStart('venue_3', 'sports')).toBe(200);
  });
});
