// Backbone benchmark. In one run:
//  1. throughput: records/s through produce -> process (pass-through canonicalizer) -> read-model
//     writes (raw history + canonical history in ClickHouse/chdb, canonical documents in the
//     snapshot store), Avro through the registry, against a baseline of the bare log (produce and
//     consume the same records, no serde, no processing, no sinks) in the same run;
//  2. Avro vs JSON: encode and decode of the same records, same run;
//  3. produce-to-visible latency at a steady rate: from send() to the moment the read-model write
//     that shows the record has resolved, p50/p95/p99.
// Embedded always; with Kafka too when KAFKA_BROKERS is set (kafkajs).
// Usage: npx tsx bench/backbone.ts [--n 50000] [--rate 1000] [--seconds 5] [--only embedded|kafka]
//
// --price: what the price-history sink adds to the pipeline's CPU per record. The same pipeline
// (embedded default) without and with sink.price-history, on the same records: the simulator's
// listings as the pollers publish them (the first crawl whole, then only changed records: the
// generic records above carry no quote any venue's reader finds). Each run is a fresh process
// (nothing of one run's quotes is left for the next), the two alternating, `--pairs` times:
//   node --max-semi-space-size=64 --import tsx bench/backbone.ts --price [--pairs 5] [--scale 1] [--crawls 4]
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import type { Log, LogRecord, OutgoingRecord } from '../pipelines/log/types.ts';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import type { History } from '../pipelines/readmodels/history.ts';
import { migrate } from '../pipelines/readmodels/migrate.ts';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { passThrough, passThroughStage } from '../pipelines/runtime/passthrough.ts';
import { StageRunner } from '../pipelines/runtime/runner.ts';
import { canonicalHistorySink, canonicalStoreSink, HISTORY_SINKS, PRICE_HISTORY_TABLES, priceHistorySink, rawHistorySink } from '../pipelines/runtime/sinks.ts';
import type { StageDef } from '../pipelines/runtime/types.ts';
import { truncateTables } from '../pipelines/readmodels/migrate.ts';
import { HistoryHost, type StageOffload, type WorkerLog } from '../pipelines/runtime/history-host.ts';
import { avroSerde, jsonSerde, type Serde } from '../pipelines/serde/index.ts';
import { createAllTopics, defineTopics, PROVIDERS, type RawRecord, type TopicId, type TopicMap } from '../pipelines/topics.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '50000' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '5' },
    only: { type: 'string' },
    // Only the throughput runs (no serde comparison, no latency run): for profiling the pipeline.
    'pipeline-only': { type: 'boolean', default: false },
    price: { type: 'boolean', default: false },
    pairs: { type: 'string', default: '5' },
    scale: { type: 'string', default: '1' },
    crawls: { type: 'string', default: '4' },
    // One run of --price's comparison (a child process): the records file and whether the sink runs.
    'price-run': { type: 'string' },
    'with-price': { type: 'boolean', default: false },
  },
});
if (values.price) await priceComparison();
const N = Number(values.n);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-backbone-'));
const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
const avro = avroSerde(registry);
// As the service: chdb and the history sinks on a worker thread (history-host.ts) unless
// HISTORY_WORKER=0, which keeps them on the main thread (the figures before that change).
const onWorker = process.env.HISTORY_WORKER !== '0';
const host = onWorker
  ? await HistoryHost.open({ chdbPath: path.join(dir, 'chdb'), database: 'bench', stages: HISTORY_SINKS.map((d) => d.name), registry })
  : undefined;
const history: History = host ?? (await ChdbHistory.open(path.join(dir, 'chdb'), 'bench'));
// As the service on Kafka: the history sinks' consumers on that worker too, each with its own Kafka
// client there; HISTORY_WORKER_CONSUMES=0 keeps them on the main thread, which relays each batch to
// the worker (the way before commit cbbed7b, its baseline).
const workerConsumes = onWorker && process.env.HISTORY_WORKER_CONSUMES !== '0';
await migrate(history);

/** A venue market as a poller would read it: a realistic ~600-byte JSON payload. */
function record(i: number, readAt: number): RawRecord {
  const venue = PROVIDERS[i % PROVIDERS.length]!;
  const id = `MKT-${i}-${randomBytes(3).toString('hex')}`;
  return {
    venue,
    record_type: 'market',
    native_id: id,
    read_started_at: readAt,
    payload: JSON.stringify({
      id,
      title: `Will the home team win game ${i}?`,
      status: 'open',
      category: 'sports',
      event_id: `EVT-${Math.floor(i / 4)}`,
      outcomes: [
        { name: 'Yes', token: randomBytes(16).toString('hex'), price: 0.53 },
        { name: 'No', token: randomBytes(16).toString('hex'), price: 0.47 },
      ],
      rules: 'Resolves to Yes if the home team wins the game, including overtime. Otherwise No.',
      volume: i * 13.5,
      close_time: '2026-12-01T00:00:00Z',
    }),
    read_id: null,
    source_url: `/markets/${id}`,
  };
}

/** As topicSettings() does: one partition per topic embedded (one consumer per group), 3 on Kafka. */
const partitionsFor = (log: Log) => (log.kind === 'embedded' ? 1 : 3);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type RawTopicId = `raw.${(typeof PROVIDERS)[number]}`;

/** Records by their venue's raw topic, in order. */
function byRawTopic(recs: RawRecord[]): Map<RawTopicId, RawRecord[]> {
  const byTopic = new Map<RawTopicId, RawRecord[]>();
  for (const r of recs) {
    const id = `raw.${r.venue as (typeof PROVIDERS)[number]}` as const;
    // Appended in place: copying the list per record made this quadratic (5% of a timed 50,000 run).
    const list = byTopic.get(id);
    if (list) list.push(r);
    else byTopic.set(id, [r]);
  }
  return byTopic;
}

async function encodeAll(serde: Serde, topics: TopicMap, recs: RawRecord[]): Promise<Map<string, OutgoingRecord[]>> {
  const out = new Map<string, OutgoingRecord[]>();
  for (const [id, list] of byRawTopic(recs)) {
    const t = topics[id];
    out.set(t.name, await serde.encodeMany(t, list.map((r) => ({ key: r.native_id, value: r }))));
  }
  return out;
}

async function sendAll(log: Log, byTopic: Map<string, OutgoingRecord[]>): Promise<void> {
  // One send in flight per topic (kafkajs' idempotent producer serializes sends anyway).
  const p = await log.producer();
  await Promise.all(
    [...byTopic].map(async ([name, list]) => {
      for (let i = 0; i < list.length; i += 1000) await p.send(name, list.slice(i, i + 1000));
    }),
  );
  await p.close();
}

/**
 * As pollers produce: each topic's records encoded and sent 1,000 at a time, one send in flight per
 * topic, so the stages work while the rest is still being produced. (Encoding all 50,000 records
 * before the first send left every stage idle for the first few hundred milliseconds of the run.)
 */
async function produceAll(log: Log, topics: TopicMap, recs: RawRecord[]): Promise<void> {
  const p = await log.producer();
  await Promise.all(
    [...byRawTopic(recs)].map(async ([id, list]) => {
      const t = topics[id];
      for (let i = 0; i < list.length; i += 1000)
        await p.send(t.name, await avro.encodeMany(t, list.slice(i, i + 1000).map((r) => ({ key: r.native_id, value: r }))));
    }),
  );
  await p.close();
}

/** Bare log: produce and consume the same bytes, no serde, no processing, no sinks. */
async function logBaseline(log: Log, n: number): Promise<number> {
  const topics = defineTopics({ prefix: `b${randomBytes(3).toString('hex')}.`, partitions: partitionsFor(log) });
  await createAllTopics(log, topics);
  const byTopic = await encodeAll(jsonSerde(), topics, Array.from({ length: n }, (_, i) => record(i, Date.now())));
  const t0 = performance.now();
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  const consumer = log.consumer({ groupId: `${topics['raw.venue_1'].name}.baseline`, topics: [...byTopic.keys()], fromBeginning: true });
  const running = consumer.run(async (batch) => {
    seen += batch.records.length;
    if (seen >= n) done();
  });
  await sendAll(log, byTopic);
  await all;
  const ms = performance.now() - t0;
  await consumer.stop();
  await running;
  return (n / ms) * 1000;
}

/**
 * Produce -> pass-through -> raw history + canonical history + canonical documents (+ `more.stages`),
 * on `more.records` if given (else n generic records). `more.settleMs`: CPU is read again that long
 * after the pipeline caught up too, so chdb's merges of the parts just written are billed as well.
 */
async function pipeline(log: Log, n: number, offload: StageOffload | undefined = host, more: { records?: RawRecord[]; stages?: StageDef[]; settleMs?: number } = {}) {
  const topics = defineTopics({ prefix: `p${randomBytes(3).toString('hex')}.`, partitions: partitionsFor(log) });
  await createAllTopics(log, topics);
  const store = new MemorySnapshotStore();
  const deps = { log, topics, serde: avro, history, store, offload };
  const recs = more.records ?? Array.from({ length: n }, (_, i) => record(i, Date.now()));
  n = recs.length;
  const runners = [passThroughStage, rawHistorySink, canonicalHistorySink, canonicalStoreSink, ...(more.stages ?? [])].map((s) => new StageRunner(s, deps));
  for (const r of runners) await r.start();
  const prof = n >= N ? await startProfile() : null;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const welu0 = host?.workerUtilization();
  // Encoding is part of producing: it is timed.
  await produceAll(log, topics, recs);
  for (let i = 0; i < 2; i++) for (const r of runners) await r.caughtUp(300_000, 5);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await prof?.();
  const load = {
    cpuCores: (cpu.user + cpu.system) / 1000 / ms,
    cpuUsPerRecord: (cpu.user + cpu.system) / n,
    mainBusy: performance.eventLoopUtilization(elu0).utilization,
    workerBusy: welu0 ? host!.workerUtilization(welu0).utilization : null,
    cpuSettledUsPerRecord: null as number | null,
  };
  if (more.settleMs) {
    await new Promise((res) => setTimeout(res, more.settleMs));
    const settled = process.cpuUsage(cpu0);
    load.cpuSettledUsPerRecord = (settled.user + settled.system) / n;
  }
  if (process.env.BENCH_DIAG) {
    const { pipelineMetrics, parseMetrics } = await import('../pipelines/runtime/metrics.ts');
    const by: Record<string, Record<string, number>> = {};
    for (const x of parseMetrics(await pipelineMetrics.text()))
      if (['pm_stage_batches_total', 'pm_stage_batch_duration_seconds_sum', 'pm_stage_records_in_total'].includes(x.name)) {
        const st = x.labels.stage!;
        by[st] ??= {};
        by[st][x.name] = (by[st][x.name] ?? 0) + x.value;
      }
    console.error(JSON.stringify(by, null, 1), ms);
  }
  for (const r of runners) await r.stop();
  // Every market the pass-through makes of these records is visible (a market polled again is one).
  const markets = new Set(recs.filter((r) => r.record_type === 'market' && passThrough(r)).map((r) => `${r.venue}:${r.native_id}`)).size;
  const [c] = await history.query<{ c: number }>(`SELECT count() AS c FROM canonical_markets FINAL WHERE (provider, market_id) IN (SELECT venue, native_id FROM raw_records WHERE topic LIKE {t:String})`, { t: `${topics['raw.venue_1'].name.slice(0, -11)}%` });
  if (c!.c !== markets) throw new Error(`pipeline lost records: ${c!.c} of ${markets} markets visible`);
  return { perSec: (n / ms) * 1000, ms, load };
}

/**
 * BENCH_CPU_PROF=<file>: a CPU profile of the main thread over the timed pipeline run only (not the
 * record generation, warm-up or baseline around it), for chrome://inspect or a script.
 */
async function startProfile(): Promise<(() => Promise<void>) | null> {
  const file = process.env.BENCH_CPU_PROF;
  if (!file) return null;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    (await import('node:fs')).writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/** Steady rate; visible = the snapshot-store write (and the history insert) showing the record resolved. */
async function latency(log: Log, rate: number, seconds: number, hosting: StageOffload | undefined = host): Promise<{ store: number[]; history: number[] }> {
  const topics = defineTopics({ prefix: `l${randomBytes(3).toString('hex')}.`, partitions: partitionsFor(log) });
  await createAllTopics(log, topics);
  const sentAt = new Map<string, number>();
  const storeLat: number[] = [];
  const historyLat: number[] = [];
  const inner = new MemorySnapshotStore();
  const store = Object.assign(Object.create(inner) as MemorySnapshotStore, {
    putMany: async (docs: { key: string; value: unknown; version: number }[]) => {
      const w = await inner.putMany(docs);
      const now = performance.now();
      for (const d of docs) {
        const t = sentAt.get(d.key.slice(d.key.indexOf(':', 'market:'.length) + 1));
        if (t !== undefined) storeLat.push(now - t);
      }
      return w;
    },
  });
  const hist = Object.assign(Object.create(history) as History, {
    insert: async (table: string, rows: Record<string, unknown>[]) => {
      await history.insert(table, rows);
      if (table !== 'canonical_markets') return;
      const now = performance.now();
      for (const r of rows) {
        const t = sentAt.get(String(r.market_id));
        if (t !== undefined) historyLat.push(now - t);
      }
    },
  });
  // On the worker, a canonical-history batch's rows are visible when its batch resolves. Consumed on
  // the worker (consume), no batch passes here: pollHistory() below asks chdb instead.
  const offload = host && {
    runs: (stage: string) => host.runs(stage),
    consume: hosting?.consume?.bind(hosting),
    batch: async (stage: string, topics: TopicMap, topic: TopicId, partition: number, records: LogRecord[]) => {
      await host.batch(stage, topics, topic, partition, records);
      if (stage !== canonicalHistorySink.name) return;
      const now = performance.now();
      for (const d of await avro.decodeMany(topics[topic], records)) {
        const t = d.key === null ? undefined : sentAt.get(d.key.slice(d.key.indexOf(':') + 1));
        if (t !== undefined) historyLat.push(now - t);
      }
    },
  };
  const deps = { log, topics, serde: avro, history: hist, store, offload };
  const runners = [passThroughStage, canonicalHistorySink, canonicalStoreSink].map((s) => new StageRunner(s, deps));
  for (const r of runners) await r.start();
  // Consumed on the worker, the canonical-history rows are seen by asking chdb every 20 ms for the
  // markets sent and not yet seen (a query's view, up to 20 ms later than the batch's end).
  const unseen = new Set<string>();
  let polling = Boolean(hosting && hosting !== host && hosting.consume);
  const poller = polling
    ? (async () => {
        while (polling || unseen.size) {
          if (unseen.size) {
            const rows = await history.query<{ market_id: string }>(`SELECT market_id FROM canonical_markets WHERE market_id IN ({ids:Array(String)})`, { ids: [...unseen] });
            const now = performance.now();
            for (const r of rows) if (unseen.delete(r.market_id)) historyLat.push(now - sentAt.get(r.market_id)!);
          }
          await new Promise((res) => setTimeout(res, 20));
        }
      })()
    : null;
  const p = await log.producer();
  const tickMs = 10;
  const total = rate * seconds;
  let i = 0;
  const start = performance.now();
  // Records due in each tick go out as one send per topic; sends are chained so at most one is in
  // flight, as a poller would do.
  let chain: Promise<void> = Promise.resolve();
  while (i < total) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    const batch: RawRecord[] = [];
    while (i < Math.min(due, total)) batch.push(record(i++, Date.now()));
    if (batch.length) {
      const byTopic = await encodeAll(avro, topics, batch);
      const now = performance.now();
      for (const r of batch) sentAt.set(r.native_id, now);
      if (poller) for (const r of batch) unseen.add(r.native_id);
      chain = chain.then(() => Promise.all([...byTopic].map(([name, list]) => p.send(name, list))).then(() => undefined));
    }
    await new Promise((res) => setTimeout(res, tickMs));
  }
  await chain;
  for (let k = 0; k < 2; k++) for (const r of runners) await r.caughtUp(120_000, 5);
  polling = false;
  await poller;
  for (const r of runners) await r.stop();
  await p.close();
  return { store: storeLat.sort((a, b) => a - b), history: historyLat.sort((a, b) => a - b) };
}

const asLog = (enc: OutgoingRecord[]) => enc.map((e) => ({ topic: '', partition: 0, offset: '0', key: e.key, value: e.value, timestamp: 0, headers: {} }));

async function serdeCompare(n: number) {
  const topics = defineTopics({ prefix: 'serde.' });
  const recs = Array.from({ length: n }, (_, i) => record(i, Date.now()));
  const out: Record<string, { encodePerSec: number; decodePerSec: number; bytesPerRecord: number }> = {};
  for (const [name, serde] of [['json', jsonSerde()], ['avro', avro]] as const) {
    // warm up: schema registration and JIT
    const t = topics['raw.venue_1'];
    const asOut = (chunk: RawRecord[]) => chunk.map((r) => ({ key: r.native_id, value: r }));
    await serde.decodeMany(t, asLog(await serde.encodeMany(t, asOut(recs.slice(0, 1000)))));
    // Batches of 1,000, as the stage runner encodes and decodes them.
    const t0 = performance.now();
    const enc: OutgoingRecord[] = [];
    for (let i = 0; i < recs.length; i += 1000) enc.push(...(await serde.encodeMany(t, asOut(recs.slice(i, i + 1000)))));
    const t1 = performance.now();
    for (let i = 0; i < enc.length; i += 1000) await serde.decodeMany(t, asLog(enc.slice(i, i + 1000)));
    const t2 = performance.now();
    const bytes = enc.reduce((a, e) => a + (e.key?.length ?? 0) + (e.value?.length ?? 0), 0);
    out[name] = { encodePerSec: (n / (t1 - t0)) * 1000, decodePerSec: (n / (t2 - t1)) * 1000, bytesPerRecord: bytes / n };
  }
  return out;
}

// ---- --price: one run of the comparison (in a process of its own, started by priceComparison)
if (values['price-run']) {
  const recs = JSON.parse(readFileSync(values['price-run'], 'utf8')) as RawRecord[];
  const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), compactIntervalMs: 0 });
  const stages = values['with-price'] ? [priceHistorySink] : [];
  // Warm-up on a tenth of the records, then the price tables emptied: the timed run's quotes are
  // then as new to the sink as a fresh service's first crawl, in both kinds of run.
  await pipeline(log, 0, host, { records: recs.slice(0, Math.round(recs.length / 10)), stages });
  await truncateTables(history, PRICE_HISTORY_TABLES);
  const run = await pipeline(log, 0, host, { records: recs, stages, settleMs: 3000 });
  const [{ rows }] = await history.query<{ rows: number }>('SELECT count() AS rows FROM price_history');
  console.log(JSON.stringify({ withPrice: values['with-price'], n: recs.length, perSec: run.perSec, ...run.load, priceRows: Number(rows) }));
  await log.close();
  await history.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

/**
 * --price: the records crawled once, then the pipeline run without and with the price-history sink,
 * alternating (ABBA: the order flips every pair, so a load that rises or falls through the pairs
 * weighs on both alike), each run a process of its own. Prints each pair and the median of the pairs'
 * ratios: CPU per record (process CPU time over records, every thread) with the sink over without.
 */
async function priceComparison(): Promise<never> {
  const { polledRecords } = await import('./listed-records.ts');
  const { execFileSync } = await import('node:child_process');
  const os = await import('node:os');
  const recs = await polledRecords({ seed: 7, scale: Number(values.scale), crawls: Number(values.crawls), everyMs: 10_000 });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pm-bench-price-')), 'records.json');
  writeFileSync(file, JSON.stringify(recs));
  console.log(`${recs.length} records: ${values.crawls} crawls of the simulator (seed 7, scale ${values.scale}) 10 s apart, the first whole, then the changed records only`);
  const runOnce = (withPrice: boolean) => {
    const load = os.loadavg()[0];
    const args = [...process.execArgv, import.meta.filename, '--price-run', file, ...(withPrice ? ['--with-price'] : [])];
    const out = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_CPU_PROF: '' } });
    return { ...(JSON.parse(out.trim().split('\n').at(-1)!) as { perSec: number; cpuUsPerRecord: number; cpuSettledUsPerRecord: number; mainBusy: number; workerBusy: number; priceRows: number }), load };
  };
  const ratios: number[] = [];
  const settledRatios: number[] = [];
  console.log('\n| pair | load (1 min) without; with | records/s without -> with | CPU µs/record without -> with | with / without | CPU µs/record incl. 3 s after, without -> with | with / without | price rows |');
  console.log('|---|---|---|---|---:|---|---:|---:|');
  for (let p = 1; p <= Number(values.pairs); p++) {
    const order = p % 2 ? [false, true] : [true, false];
    const [first, second] = [runOnce(order[0]), runOnce(order[1])];
    const [a, b] = order[0] ? [second, first] : [first, second];
    ratios.push(b.cpuUsPerRecord / a.cpuUsPerRecord);
    settledRatios.push(b.cpuSettledUsPerRecord / a.cpuSettledUsPerRecord);
    console.log(
      `| ${p} | ${a.load.toFixed(1)}; ${b.load.toFixed(1)} | ${Math.round(a.perSec)} -> ${Math.round(b.perSec)} | ${a.cpuUsPerRecord.toFixed(1)} -> ${b.cpuUsPerRecord.toFixed(1)} | ${ratios.at(-1)!.toFixed(2)} | ` +
        `${a.cpuSettledUsPerRecord.toFixed(1)} -> ${b.cpuSettledUsPerRecord.toFixed(1)} | ${settledRatios.at(-1)!.toFixed(2)} | ${b.priceRows} |`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(`\nwith / without, median of ${ratios.length} pairs: CPU per record x${median(ratios).toFixed(2)} (to caught up), x${median(settledRatios).toFixed(2)} (incl. 3 s after)`);
  rmSync(path.dirname(file), { recursive: true, force: true });
  process.exit(0);
}

const f0 = (x: number) => Math.round(x).toLocaleString('en-US');
const results: Record<string, unknown> = { historyWorker: onWorker, historyWorkerConsumes: workerConsumes, n: N, rate: RATE, seconds: SECONDS, node: process.version, cpus: (await import('node:os')).cpus().length };
const lines: string[] = [];

const serde = values['pipeline-only'] ? null : await serdeCompare(20_000);
results.serde = serde;
if (serde) lines.push(
  `serde (20,000 raw records, ~${Math.round(serde.json!.bytesPerRecord)} B JSON): avro encode ${f0(serde.avro!.encodePerSec)}/s vs json ${f0(serde.json!.encodePerSec)}/s (x${(serde.avro!.encodePerSec / serde.json!.encodePerSec).toFixed(2)}), ` +
    `decode ${f0(serde.avro!.decodePerSec)}/s vs ${f0(serde.json!.decodePerSec)}/s (x${(serde.avro!.decodePerSec / serde.json!.decodePerSec).toFixed(2)}), ` +
    `size ${serde.avro!.bytesPerRecord.toFixed(0)} B vs ${serde.json!.bytesPerRecord.toFixed(0)} B (x${(serde.avro!.bytesPerRecord / serde.json!.bytesPerRecord).toFixed(2)})`,
);

const logs: { name: string; open: () => Promise<Log>; worker?: WorkerLog }[] = [];
if (values.only !== 'kafka')
  logs.push({ name: 'embedded', open: () => EmbeddedLog.open({ dir: path.join(dir, `log-${randomBytes(3).toString('hex')}`), compactIntervalMs: 0 }) });
if (process.env.KAFKA_BROKERS && values.only !== 'embedded') {
  const brokers = process.env.KAFKA_BROKERS.split(',');
  logs.push({ name: 'kafka (kafkajs)', open: async () => new (await import('../pipelines/log/kafka.ts')).KafkaLog({ brokers }), worker: { client: 'kafkajs', options: { brokers } } });
}

for (const l of logs) {
  const log = await l.open();
  // On Kafka the worker opens its own copy of this log and consumes the history sinks itself.
  const hosting =
    host && workerConsumes && l.worker
      ? await HistoryHost.open({ chdbPath: path.join(dir, 'chdb'), database: 'bench', stages: HISTORY_SINKS.map((d) => d.name), registry, workerLog: { log, spec: l.worker } })
      : host;
  try {
    const n = l.name === 'embedded' ? N : Math.min(N, 20_000);
    // One untimed round of each first, at a tenth of the size: what is measured is the steady state,
    // not V8 compiling the stages' code (a fifth of the CPU of a cold 20,000-record run, perf shows).
    const warm = Math.max(1000, Math.round(n / 10));
    await logBaseline(log, warm);
    const base = await logBaseline(log, n);
    await pipeline(log, warm, hosting);
    const run = await pipeline(log, n, hosting);
    const lat = values['pipeline-only'] ? null : await latency(log, RATE, SECONDS, hosting);
    results[l.name] = {
      n,
      baselinePerSec: base,
      pipelinePerSec: run.perSec,
      pipelineLoad: run.load,
      ...(lat && {
        latencyStoreMs: { p50: pct(lat.store, 50), p95: pct(lat.store, 95), p99: pct(lat.store, 99), count: lat.store.length },
        latencyHistoryMs: { p50: pct(lat.history, 50), p95: pct(lat.history, 95), count: lat.history.length },
      }),
    };
    lines.push(
      `${l.name}: ${f0(run.perSec)} records/s produce->process->read models (n=${n}); bare log ${f0(base)} records/s (pipeline = x${(run.perSec / base).toFixed(2)} of bare log)`,
      `${l.name}: process CPU ${run.load.cpuCores.toFixed(2)} cores, ${run.load.cpuUsPerRecord.toFixed(0)} µs per record; main event loop ${(run.load.mainBusy * 100).toFixed(0)}% busy, history worker ${run.load.workerBusy === null ? 'off' : `${(run.load.workerBusy * 100).toFixed(0)}% busy`}${hosting !== host ? ' (consuming its sinks)' : ''}`,
    );
    if (lat)
      lines.push(
        `${l.name}: produce-to-visible at ${RATE}/s for ${SECONDS}s: snapshot store p50 ${pct(lat.store, 50).toFixed(1)} ms, p95 ${pct(lat.store, 95).toFixed(1)} ms, p99 ${pct(lat.store, 99).toFixed(1)} ms (${lat.store.length} records); history p50 ${pct(lat.history, 50).toFixed(1)} ms, p95 ${pct(lat.history, 95).toFixed(1)} ms`,
      );
  } catch (err) {
    lines.push(`${l.name}: failed: ${(err as Error).message}`);
  } finally {
    if (hosting !== host) await hosting?.close();
    await log.close();
  }
}

await history.close();
rmSync(dir, { recursive: true, force: true });
console.log(lines.join('\n'));
console.log(JSON.stringify(results));
process.exit(0);
