// Benchmark of how soon a replica's quotes hub is ready on Kafka: QuotesHub.start over the nine raw
// venue topics, reading from a time (STREAM_QUOTES_LOOKBACK_MS) so that every topic's tail starts
// past older records, until the hub has caught up (ready()). Each topic holds `--old` records from
// three hours ago and `--recent` from now; the hub starts one hour back. The seek to those starts
// is what took about 5 s per topic when each was set on the tail's group one topic at a time.
//
//   KAFKA_BROKERS=… node --import tsx bench/quotes-start.ts [--old 200] [--recent 50] [--repeat 3]
// A broker as Kafka ships it waits 3 s before a new group's first rebalance; the test broker does
// not (infra/scripts/start-kafka.sh). To measure with Kafka's default:
//   KAFKA_HOME=.infra/kafka-delay KAFKA_PORT=19190 KAFKA_CONTROLLER_PORT=19191 KAFKA_REBALANCE_DELAY_MS=3000 \
//     bash infra/scripts/start-kafka.sh   (link .infra/kafka/libs into that KAFKA_HOME first)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaLog } from '../pipelines/log/kafka.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { defineTopics, PROVIDERS, rawTopicId, topicSpecs } from '../pipelines/topics.ts';
import { QuotesHub } from '../api/stream/quotes-hub.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ old: 200, recent: 50, repeat: 3 });
const brokers = process.env.KAFKA_BROKERS?.split(',');
if (!brokers) throw new Error('set KAFKA_BROKERS (or run through infra/scripts/with-test-services.sh)');
const dir = mkdtempSync(join(tmpdir(), 'bench-quotes-start-'));
const log = new KafkaLog({ brokers });
// Counted: the start positions set on a group topic by topic (each a throwaway join and a fetch poll).
let setGroupOffsetsCalls = 0;
const setGroupOffsets = log.setGroupOffsets.bind(log);
log.setGroupOffsets = (...a) => (setGroupOffsetsCalls++, setGroupOffsets(...a));
const serde = avroSerde(new EmbeddedRegistry(join(dir, 'registry')));
const topics = defineTopics({ prefix: `bench.${Date.now().toString(36)}.` });
await log.createTopics(topicSpecs(topics).filter((t) => t.name.includes('.raw.')));
const producer = await log.producer();
const now = Date.now();
for (const venue of PROVIDERS) {
  const def = topics[rawTopicId(venue)];
  const rec = (i: number, at: number) => ({ venue, record_type: 'market', native_id: `m${i}`, read_started_at: at, payload: JSON.stringify({ id: `m${i}` }) });
  const old = await serde.encodeMany(def, Array.from({ length: cli.old }, (_, i) => ({ key: `m${i}`, value: rec(i, now - 3 * 3_600_000) })));
  const recent = await serde.encodeMany(def, Array.from({ length: cli.recent }, (_, i) => ({ key: `m${i}`, value: rec(i, now) })));
  await producer.send(def.name, old.map((r) => ({ ...r, timestamp: now - 3 * 3_600_000 })));
  await producer.send(def.name, recent.map((r) => ({ ...r, timestamp: now })));
}
await producer.close();

for (let i = 0; i < cli.repeat; i++) {
  const t0 = performance.now();
  const hub = await QuotesHub.start({ log, serde, topics, fromTime: now - 3_600_000 });
  const ok = await hub.ready(300_000);
  const ms = performance.now() - t0;
  console.log(`run ${i + 1}: ${ok ? 'ready' : 'NOT ready'} after ${Math.round(ms)} ms; ${hub.records} records read (of ${PROVIDERS.length * cli.recent} recent); setGroupOffsets calls so far ${setGroupOffsetsCalls}`);
  await hub.stop();
}
await log.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
