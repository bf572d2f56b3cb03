// Benchmark of the quotes channel's hub (api/stream/quotes-hub.ts) on the embedded log: what it costs
// an API replica to follow the raw venue topics. In one process: the simulator's open listings of
// all nine venues (every record the pollers' listing crawls read), written as Avro raw records
// (through the embedded registry) `--rounds` times, as a crawl every catalog cadence would (later
// rounds read the same quotes: unchanged polls). Then, alternately:
// - baseline: a bare Log.tail over the nine raw topics that decodes each record (Avro, then the
//   payload JSON), as any reader of the raw topics must;
// - hub: QuotesHub.start from the earliest offset until it has read them all (quotes derived with
//   market detail's builders, changes judged, the journal kept; no subscribers).
// Figures: records/s of each and their ratio (same process, same records), changes found, and the
// heap the hub holds per market it quotes (after a full GC, minus before).
//
//   node --expose-gc --import tsx bench/quotes.ts [--scale 1] [--rounds 3] [--repeat 2] [--journal 20000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { defineTopics, PROVIDERS, rawTopicId, topicSpecs } from '../pipelines/topics.ts';
import { logRawSink } from '../pipelines/venues/pollers/sink.ts';
import { listedRecords } from './listed-records.ts';
import { QuotesHub } from '../api/stream/quotes-hub.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ scale: 1, rounds: 3, repeat: 2, journal: 20_000 });
const scale = cli.scale;
const rounds = cli.rounds;
const repeat = cli.repeat;
// Changes the hub keeps for resumes (the service's STREAM_JOURNAL is 20,000). At scale 1 every
// market's change fits in that journal, so its heap counts in the figure per market; with
// --journal 0 the figure is what holding the quotes themselves costs, as at scales whose markets
// outnumber the journal many times.
const journal = cli.journal;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const dir = mkdtempSync(join(tmpdir(), 'bench-quotes-'));
const listed = await listedRecords({ seed: 7, scale });
// The time every listed record was read at (listedRecords gives them one).
const at = listed[0]?.read_started_at ?? Date.now();

const log = await EmbeddedLog.open({ dir: join(dir, 'log'), compactIntervalMs: 0 });
const serde = avroSerde(new EmbeddedRegistry(join(dir, 'registry')));
const topics = defineTopics({ prefix: 'bench.', partitions: 1 });
await log.createTopics(topicSpecs(topics));
const producer = await log.producer();
const sink = logRawSink(producer, serde, topics);
for (let r = 0; r < rounds; r++) {
  for (const venue of PROVIDERS) {
    const mine = listed.filter((x) => x.venue === venue).map((x) => ({ ...x, read_started_at: at + r * 1000 }));
    for (let i = 0; i < mine.length; i += 1000) await sink(venue, mine.slice(i, i + 1000));
  }
}
const names = PROVIDERS.map((p) => topics[rawTopicId(p)].name);
const total = listed.length * rounds;

async function baseline(): Promise<number> {
  const t0 = performance.now();
  let n = 0;
  await new Promise<void>((resolve) => {
    const tail = log.tail({ topics: names });
    void tail.run(async (b) => {
      const provider = b.topic.slice(b.topic.lastIndexOf('raw.') + 4) as (typeof PROVIDERS)[number];
      for (const d of await serde.decodeMany(topics[rawTopicId(provider)], b.records)) if (d.value) JSON.parse(d.value.payload);
      n += b.records.length;
      if (n >= total) void tail.stop().then(resolve);
    });
  });
  return total / ((performance.now() - t0) / 1000);
}

async function hub(): Promise<{ rate: number; changes: number; markets: number; bytesPerMarket: number; jsonPerMarket: number }> {
  gc!();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const h = await QuotesHub.start({ log, serde, topics, journalSize: journal });
  await h.ready(600_000);
  const rate = total / ((performance.now() - t0) / 1000);
  gc!();
  const held = process.memoryUsage().heapUsed - before;
  let chars = 0;
  for (const m of h.markets.values()) chars += m.json.length;
  const out = { rate, changes: h.changes, markets: h.markets.size, bytesPerMarket: held / h.markets.size, jsonPerMarket: chars / h.markets.size };
  await h.stop();
  return out;
}

console.log(`records: ${listed.length} listed x ${rounds} rounds = ${total}; journal ${journal}`);
for (let i = 0; i < repeat; i++) {
  const b = await baseline();
  const h = await hub();
  console.log(
    `run ${i + 1}: baseline ${Math.round(b)} records/s; hub ${Math.round(h.rate)} records/s (ratio ${(h.rate / b).toFixed(2)}); ${h.changes} changes, ${h.markets} markets, ${Math.round(h.bytesPerMarket)} B heap per market (its quote's JSON: ${Math.round(h.jsonPerMarket)} characters)`,
  );
}
await producer.close();
await log.close();
rmSync(dir, { recursive: true, force: true });
