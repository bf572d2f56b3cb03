// A stage on the stage thread gets its batches as the log's bytes (StageDef.handleLog): the runner's
// serde decodes and encodes none of that stage's records (the stage thread does, through the same
// registry), a record that does not decode is a dead letter as on this thread, and what the stage
// writes is what the same stage writes when it runs here. On the embedded log and on Kafka (kafkajs):
// the same runner code, chosen by configuration.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLog } from '../log/embedded.ts';
import { KafkaLog } from '../log/kafka.ts';
import type { Log, LogRecord } from '../log/types.ts';
import { available, requireKafka } from '../../test/services/index.ts';
import { createAllTopics, defineTopics, rawTopicId, type RawRecord, type TopicId, type TopicMap } from '../topics.ts';
import type { Serde } from '../serde/index.ts';
import { canonicalizeStage } from '../matching/stages/canonicalize.ts';
import { crawlComplete, venue1Records, type GameSpec } from '../matching/fixtures.ts';
import { StageThread } from './stage-thread.ts';
import { startStage, type StageRunner } from './runner.ts';
import { testSerde } from './test-services.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const g: GameSpec = { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z'), total: 6.5 };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The serde, counting the records it decodes and encodes per topic (on this thread). */
function counting(serde: Serde) {
  const decoded = new Map<string, number>();
  const encoded = new Map<string, number>();
  const add = (m: Map<string, number>, topic: string, n: number) => m.set(topic, (m.get(topic) ?? 0) + n);
  const s: Serde = {
    ...serde,
    decode: (topic, r) => (add(decoded, topic.name, 1), serde.decode(topic, r)),
    decodeMany: (topic, rs) => (add(decoded, topic.name, rs.length), serde.decodeMany(topic, rs)),
    decoder: (topic, rs) => (add(decoded, topic.name, rs.length), serde.decoder!(topic, rs)),
    encode: (topic, k, v, e) => (add(encoded, topic.name, 1), serde.encode(topic, k, v, e)),
    encodeMany: (topic, rs) => (add(encoded, topic.name, rs.length), serde.encodeMany(topic, rs)),
  };
  return { serde: s, decoded, encoded };
}

/** Every record of a topic up to its high watermark at the call, by partition then offset (a tail: any log). */
async function readTopic(log: Log, name: string): Promise<LogRecord[]> {
  const high = new Map((await log.topicOffsets(name)).map((p) => [p.partition, Number(p.high)]));
  const got = new Map<number, LogRecord[]>([...high.keys()].map((p) => [p, []]));
  const done = () => [...high].every(([p, h]) => (got.get(p)!.at(-1) ? Number(got.get(p)!.at(-1)!.offset) + 1 >= h : h === 0));
  if (done()) return [];
  const tail = log.tail({ topics: [name] });
  await new Promise<void>((resolve, reject) => {
    tail
      .run(async (batch) => {
        got.get(batch.partition)!.push(...batch.records.filter((r) => Number(r.offset) < high.get(batch.partition)!));
        if (done()) resolve();
      })
      .catch(reject);
  });
  await tail.stop();
  return [...got.keys()].sort((a, b) => a - b).flatMap((p) => got.get(p)!);
}

const kafka = await available('kafka');

describe.each([
  ['the embedded log', async (dir: string): Promise<Log> => EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 }), true, ''],
  ['Kafka', async (): Promise<Log> => new KafkaLog({ brokers: (await requireKafka()).brokers, retryBackoffMs: 20 }), kafka.ok, kafka.reason],
] as const)('a stage on the stage thread, its batches as bytes, on %s', (_, openLog, runs, reason) => {
  it.runIf(runs)(`decodes and encodes nothing of them here, makes the same dead letters and writes what the stage writes on this thread${reason ? ` (${reason})` : ''}`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-stage-bytes-'));
    const log = await openLog(dir);
    const base = await testSerde(dir);
    const thread = await StageThread.open({ tickMs: 3_600_000 });
    cleanups.push(async () => {
      await thread.close();
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const suffix = Math.random().toString(36).slice(2, 8);
    // One topic map per way (prefixes apart), the same input in both. One venue and one partition:
    // the canonicalizer's output depends on the order it reads records in, which across partitions and
    // topics a consumer group on Kafka does not fix.
    const there = defineTopics({ prefix: `a${suffix}.`, partitions: 1 });
    const here = defineTopics({ prefix: `b${suffix}.`, partitions: 1 });
    const producer = await log.producer();
    const raw: RawRecord[] = [...venue1Records(g, NOW, {}, 'c1'), crawlComplete('venue_1', 'c1', NOW)];
    for (const topics of [there, here]) {
      await createAllTopics(log, topics);
      for (const r of raw) {
        const t = topics[rawTopicId(r.venue as 'venue_1')];
        await producer.send(t.name, [await base.encode(t, r.native_id, r, { timestamp: r.read_started_at })]);
      }
      // A record whose value is not Avro of its schema id: a dead letter, never a stuck partition.
      await producer.send(topics['raw.venue_1'].name, [{ key: await base.encodeKey(topics['raw.venue_1'], 'bad-1'), value: Buffer.from([0, 0, 0, 0, 1, 0xff, 0xff]) }]);
    }

    const runThere = counting(base);
    const runHere = counting(base);
    const runners: StageRunner[] = [];
    cleanups.push(async () => {
      for (const r of runners) await r.stop();
    });
    runners.push(await startStage(thread.def(canonicalizeStage()), { log, serde: runThere.serde, topics: there }));
    runners.push(await startStage(canonicalizeStage(), { log, serde: runHere.serde, topics: here }));
    for (const r of runners) await r.caughtUp(30_000);

    // Nothing of the raw topics was decoded on this thread, nothing of canonical.markets encoded.
    expect(runThere.decoded.get(there['raw.venue_1'].name) ?? 0).toBe(0);
    expect(runThere.encoded.get(there['canonical.markets'].name) ?? 0).toBe(0);
    // ...where the stage on this thread did both (the counting is not blind).
    expect(runHere.decoded.get(here['raw.venue_1'].name)).toBeGreaterThan(0);
    expect(runHere.encoded.get(here['canonical.markets'].name)).toBeGreaterThan(0);

    const read = async (topics: TopicMap, id: TopicId) => {
      const out: { key: string | null; value: unknown }[] = [];
      const decoded = await base.decodeMany(topics[id], await readTopic(log, topics[id].name));
      out.push(...decoded.map((d) => ({ key: d.key, value: d.value })));
      return out;
    };
    const canonicalThere = await read(there, 'canonical.markets');
    expect(canonicalThere.length).toBeGreaterThan(0);
    expect(canonicalThere).toEqual(await read(here, 'canonical.markets'));
    expect(await read(there, 'matching.state')).toEqual(await read(here, 'matching.state'));
    const dead = await read(there, 'dead.letters');
    expect(dead).toHaveLength(1);
    const deadHere = await read(here, 'dead.letters');
    // The same letter but for the group (and topic) it names.
    const strip = (d: (typeof dead)[number]) => ({ ...(d.value as object), stage: '', topic: '', failed_at: 0 });
    expect(dead[0]!.key).toMatch(new RegExp(`^a${suffix}\\.stage\\.canonicalize\\|a${suffix}\\.raw\\.venue_1\\|`));
    expect(strip(dead[0]!)).toEqual(strip(deadHere[0]!));
  }, 60_000);
});
