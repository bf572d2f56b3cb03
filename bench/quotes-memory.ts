// Memory of the quotes channel at the largest scale: the heap an API replica's quotes hub
// (api/stream/quotes-hub.ts) holds with a quote for each of 1,000,000 markets, and what each
// subscribed connection adds.
//
// The markets: the simulator's open listings of all nine venues at SIM_SCALE=1 (as bench/quotes.ts
// reads them) are the templates; each record is copied with its id-like tokens renamed (see
// `renamed`) until the copies quote `--markets` markets. A record whose copy does not quote as many
// new markets (the renaming missed an id) is left out, so the mix of venues and record shapes is the
// listings', less those records (the run prints how many markets of each venue the templates quote). They are written as Avro raw
// records through the embedded registry, in one process, then:
// - the hub: heap after a full GC with the hub caught up with every record (journal STREAM_JOURNAL,
//   `--journal`, default 20,000 as the service), minus before it started, per market and in all;
// - connections: `--connections` QuotesConnections of `--per` markets each (random quoted markets,
//   as a client's market_id list) subscribed to the hub over a sink that drops what it is given (the
//   socket and the snapshot frame it sends at connect are the transport's: bench/stream.md measures
//   an SSE connection's RSS), heap after a full GC minus before, per connection.
//
//   node --expose-gc --max-old-space-size=6144 --import tsx bench/quotes-memory.ts [--markets 1000000] [--journal 20000] [--connections 1000] [--per 100]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import type { PROVIDERS} from '../pipelines/topics.ts';
import { defineTopics, topicSpecs, type RawRecord } from '../pipelines/topics.ts';
import { logRawSink } from '../pipelines/venues/pollers/sink.ts';
import { listedRecords } from './listed-records.ts';
import { QuotesConnection, QuotesHub } from '../api/stream/quotes-hub.ts';
import { quotesOfRecord } from '../api/stream/quotes.ts';
import type { Sink } from '../api/stream/connection.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ markets: 1_000_000, journal: 20_000, connections: 1000, per: 100 });
const target = cli.markets;
const journal = cli.journal;
const connections = cli.connections;
const per = cli.per;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (b: number) => Math.round(b / 1048576);
const t0 = performance.now();
const log = (s: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${s}`);

// The templates: every record the listing crawls read at SIM_SCALE=1.
const listed = await listedRecords({ seed: 7, scale: 1 });
// The time every listed record was read at (listedRecords gives them one).
const at = listed[0]?.read_started_at ?? Date.now();

// A copy's ids: every id-like token of the record renamed the same way, so its markets (and their
// outcomes' ids, which some venues' market ids are) are new ones: runs of 6 or more digits get the
// copy number appended (4 digits), 0x hex strings get it in their first 4 hex digits.
const renamed = (text: string, copy: number) => {
  const c = copy.toString().padStart(4, '0');
  const h = copy.toString(16).padStart(4, '0');
  return text.replace(/0x[0-9a-f]{4}([0-9a-f]{36,})/g, `0x${h}$1`).replace(/(?<![0-9.])([0-9]{6,})(?![0-9.])/g, `$1${c}`);
};
// Or, for a venue whose ids are strings that nothing else in the record repeats: the native id,
// quoted, gets `r<copy>` appended.
type Rename = (r: RawRecord, copy: number) => RawRecord;
const byTokens: Rename = (r, copy) => ({ ...r, native_id: renamed(r.native_id, copy), payload: renamed(r.payload, copy) });
const byNativeId: Rename = (r, copy) => {
  const id = `${r.native_id}r${copy}`;
  return { ...r, native_id: id, payload: r.payload.replaceAll(JSON.stringify(r.native_id), JSON.stringify(id)) };
};
// A template: a record whose copy quotes as many markets as it does, none under an id of another;
// a market two records quote (seen already) is used once.
const templates: Array<{ record: RawRecord; markets: number; rename: Rename }> = [];
const seen = new Set<string>();
for (const r of listed) {
  const ids = quotesOfRecord(r.venue, r.record_type, r.payload, at).map((q) => q.id);
  if (!ids.length || ids.some((x) => seen.has(x))) continue;
  for (const x of ids) seen.add(x);
  for (const rename of [byNativeId, byTokens]) {
    const copy = quotesOfRecord(r.venue, r.record_type, rename(r, 1).payload, at).map((q) => q.id);
    if (copy.length === ids.length && copy.every((x) => !seen.has(x)) && new Set(copy).size === copy.length) {
      templates.push({ record: r, markets: ids.length, rename });
      break;
    }
  }
}
const perVenue = new Map<string, number>();
for (const t of templates) perVenue.set(t.record.venue, (perVenue.get(t.record.venue) ?? 0) + t.markets);
log(`${listed.length} listed records; ${templates.length} usable as templates, quoting ${[...perVenue.values()].reduce((a, b) => a + b, 0)} markets (${[...perVenue].map(([v, n]) => `${v} ${n}`).join(', ')})`);

const dir = mkdtempSync(join(tmpdir(), 'bench-quotes-memory-'));
const elog = await EmbeddedLog.open({ dir: join(dir, 'log'), compactIntervalMs: 0 });
const serde = avroSerde(new EmbeddedRegistry(join(dir, 'registry')));
const topics = defineTopics({ prefix: 'bench.', partitions: 1 });
await elog.createTopics(topicSpecs(topics));
const producer = await elog.producer();
const sink = logRawSink(producer, serde, topics);
const pending = new Map<string, RawRecord[]>();
let written = 0;
let quoted = 0;
for (let copy = 1; quoted < target; copy++) {
  for (const t of templates) {
    if (quoted >= target) break;
    const v = t.record.venue;
    let batch = pending.get(v);
    if (!batch) pending.set(v, (batch = []));
    batch.push(t.rename(t.record, copy));
    quoted += t.markets;
    written++;
    if (batch.length === 1000) {
      await sink(v as (typeof PROVIDERS)[number], batch);
      pending.set(v, []);
    }
  }
}
for (const [v, batch] of pending) if (batch.length) await sink(v as (typeof PROVIDERS)[number], batch);
listed.length = 0;
templates.length = 0;
pending.clear();
log(`${written} records written, quoting ${quoted} markets`);

const before = heap();
const rss0 = process.memoryUsage().rss;
const tRead = performance.now();
const hub = await QuotesHub.start({ log: elog, serde, topics, journalSize: journal });
if (!(await hub.ready(3_600_000))) throw new Error('the hub did not catch up');
const read = (performance.now() - tRead) / 1000;
const held = heap() - before;
const rss1 = process.memoryUsage().rss;
let chars = 0;
for (const m of hub.markets.values()) chars += m.json.length;
const markets = hub.markets.size;
log(
  `hub: ${markets} markets quoted (${hub.names.size} names), ${hub.records} records; heap ${mb(held)} MiB = ${Math.round(held / markets)} B per market (its quote's JSON: ${Math.round(chars / markets)} characters); RSS +${mb(rss1 - rss0)} MiB; journal ${journal}`,
);

// Connections: each a random set of `per` quoted markets, as a client names them.
const keys = [...hub.markets.keys()];
const drop: Sink = { event() {}, heartbeat() {}, buffered: () => 0, close() {} };
const opts = { bufferBytes: 1_048_576, heartbeatMs: 15_000 };
const conns: QuotesConnection[] = [];
const c0 = heap();
for (let i = 0; i < connections; i++) {
  const ids = Array.from({ length: per }, () => keys[Math.floor(Math.random() * keys.length)]!);
  const c = new QuotesConnection(hub, ids, drop, opts);
  c.start(undefined);
  conns.push(c);
}
const c1 = heap();
log(`connections: ${connections} of ${per} markets each: heap ${mb(c1 - c0)} MiB = ${Math.round((c1 - c0) / connections)} B per connection (${((c1 - c0) / connections / per).toFixed(0)} B per market named)`);
console.log(
  JSON.stringify({
    markets,
    names: hub.names.size,
    records: hub.records,
    journal,
    hub_heap_mib: mb(held),
    heap_per_market_b: Math.round(held / markets),
    quote_json_chars: Math.round(chars / markets),
    hub_read_s: +read.toFixed(0),
    connections,
    markets_per_connection: per,
    heap_per_connection_b: Math.round((c1 - c0) / connections),
    loadavg: loadavg().map((x) => +x.toFixed(1)),
  }),
);
for (const c of conns) c.close();
await hub.stop();
await producer.close();
await elog.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
