// Log throughput: produce + consume records/s through the Log seam, acks=all, for the embedded log
// and Kafka through kafkajs, in one run (same records, same machine, same moment), so the figures compare as ratios against the embedded baseline.
// In: KAFKA_BROKERS (Kafka rows are skipped without it), BENCH_RECORDS (default 50000),
// BENCH_BATCH (records per send, default 500), BENCH_INFLIGHT (concurrent sends, default 4).
// Out: a markdown table on stdout (copy it into bench/log.md with the command).
//
// Each row: a fresh 3-partition topic; a consumer group (fromBeginning) is started first; then every
// record is sent with up to BENCH_INFLIGHT sends in flight. "produce" is records / time until every
// send resolved (acks=all on Kafka, written to the segment on embedded); "end-to-end" is records /
// time from the first send until the consumer's handler has seen every record (and committed all but
// the last batch).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { KafkaLog } from '../pipelines/log/kafka.ts';
import type { Log, OutgoingRecord } from '../pipelines/log/types.ts';
import { randomName } from '../test/services/index.ts';

const N = Number(process.env.BENCH_RECORDS ?? 50_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const INFLIGHT = Number(process.env.BENCH_INFLIGHT ?? 4);
const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);

function makeRecords(): OutgoingRecord[] {
  // ~220-byte values, 1,000 keys: the shape of raw venue records.
  const pad = 'x'.repeat(160);
  return Array.from({ length: N }, (_, i) => ({
    key: Buffer.from(`venue-${i % 9}:market-${i % 1000}`),
    value: Buffer.from(JSON.stringify({ seq: i, price: (i % 100) / 100, pad })),
  }));
}

interface Row {
  name: string;
  produceRps: number;
  e2eRps: number;
  produceMs: number;
  e2eMs: number;
  /** consumer.run() until the handler sees the warm-up record: group join + first fetch */
  joinMs: number;
  stopMs: number;
}

async function measure(name: string, log: Log, records: OutgoingRecord[]): Promise<Row> {
  const topic = randomName('bench');
  await log.createTopics([{ name: topic, partitions: 3, cleanupPolicy: 'delete' }]);
  const producer = await log.producer();
  // Warm the connection and the idempotent producer id outside the timing.
  await producer.send(topic, [{ key: Buffer.from('warm'), value: Buffer.from('up') }]);
  let seen = 0;
  let resolveDone!: () => void;
  let resolveFirst!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const first = new Promise<void>((r) => (resolveFirst = r));
  const consumer = log.consumer({ groupId: randomName('bench'), topics: [topic], fromBeginning: true });
  const tJoin = performance.now();
  await consumer.run(async (batch) => {
    seen += batch.records.length;
    resolveFirst();
    if (seen >= records.length + 1) resolveDone();
  });
  await first;
  const joinMs = performance.now() - tJoin;

  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < records.length) {
      const start = next;
      next += BATCH;
      await producer.send(topic, records.slice(start, start + BATCH));
    }
  };
  await Promise.all(Array.from({ length: INFLIGHT }, worker));
  const tProduced = performance.now();
  await done;
  const tConsumed = performance.now();
  await consumer.stop();
  const stopMs = performance.now() - tConsumed;
  await producer.close();
  return {
    name,
    joinMs,
    stopMs,
    produceMs: tProduced - t0,
    e2eMs: tConsumed - t0,
    produceRps: records.length / ((tProduced - t0) / 1000),
    e2eRps: records.length / ((tConsumed - t0) / 1000),
  };
}

async function main(): Promise<void> {
  const records = makeRecords();
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-log-'));
  const embedded = await EmbeddedLog.open({ dir });
  rows.push(await measure('embedded', embedded, records));
  await embedded.close();
  rmSync(dir, { recursive: true, force: true });
  if (brokers?.length) {
    const kjs = new KafkaLog({ brokers, logLevel: 'nothing', partitionsConsumedConcurrently: 3 });
    rows.push(await measure('kafka (kafkajs)', kjs, records));
    await kjs.close();
  } else {
    console.error('KAFKA_BROKERS is not set: Kafka rows skipped');
  }
  const base = rows[0]!;
  console.log(`records=${N} batch=${BATCH} inflight=${INFLIGHT} partitions=3 acks=all (embedded: written to segment)`);
  console.log('| log | produce rec/s | end-to-end rec/s | end-to-end vs embedded | group join ms | consumer stop ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${Math.round(r.produceRps)} | ${Math.round(r.e2eRps)} | ${(r.e2eRps / base.e2eRps).toFixed(3)} | ${Math.round(r.joinMs)} | ${Math.round(r.stopMs)} |`,
    );
}

await main();
process.exit(0);
