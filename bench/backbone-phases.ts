// Where a backbone batch spends its time: the embedded pipeline of bench/backbone.ts (pass-through
// processor + raw history + canonical history + canonical documents) over 20,000 pre-produced raw
// records, with each phase of the stage runner timed: decode, handler, encode, produce, history
// insert, snapshot write. Sums are over all stages (they overlap in time, on one event loop).
// Usage: npx tsx bench/backbone-phases.ts
import { mkdtempSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import { migrate } from '../pipelines/readmodels/migrate.ts';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { passThroughStage } from '../pipelines/runtime/passthrough.ts';
import { StageRunner } from '../pipelines/runtime/runner.ts';
import { canonicalHistorySink, canonicalStoreSink, HISTORY_SINKS, rawHistorySink } from '../pipelines/runtime/sinks.ts';
import { HistoryHost } from '../pipelines/runtime/history-host.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { createAllTopics, defineTopics } from '../pipelines/topics.ts';
import type { StageDef } from '../pipelines/runtime/types.ts';
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return { stop: async (file: string) => writeFileSync(file, JSON.stringify((await session.post('Profiler.stop')).profile)) };
}
const dir = mkdtempSync(path.join(tmpdir(), 'ph-'));
const t: Record<string, number> = {};
const add = (k: string, ms: number) => (t[k] = (t[k] ?? 0) + ms);
const timed = <A extends unknown[], R>(k: string, f: (...a: A) => Promise<R>) => async (...a: A) => { const s = performance.now(); try { return await f(...a); } finally { add(k, performance.now() - s); } };
const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), compactIntervalMs: 0 });
const reg = new EmbeddedRegistry(path.join(dir, 'reg')); const s0 = avroSerde(reg);
const topics = defineTopics({ prefix: 'x.', partitions: 1 }); await createAllTopics(log, topics);
// HISTORY_WORKER=0: chdb and the history sinks on the main thread (as before history-host.ts).
const onWorker = process.env.HISTORY_WORKER !== '0';
const h = onWorker
  ? await HistoryHost.open({ chdbPath: path.join(dir, 'chdb'), database: 'b', stages: HISTORY_SINKS.map((d) => d.name), registry: reg })
  : await ChdbHistory.open(path.join(dir, 'chdb'), 'b');
await migrate(h);
const hist = Object.assign(Object.create(h), { insert: timed('history.insert', h.insert.bind(h)) });
const st = new MemorySnapshotStore(); const store = Object.assign(Object.create(st), { putMany: timed('store.putMany', st.putMany.bind(st)) });
const origProducer = log.producer.bind(log);
const log2 = Object.assign(Object.create(log), { producer: async () => { const p = await origProducer(); return { send: timed('producer.send', p.send.bind(p)), close: p.close.bind(p) }; } });
const serde = { ...s0, decodeMany: timed('serde.decodeMany', s0.decodeMany), encodeMany: timed('serde.encodeMany', s0.encodeMany) };
const wrap = (d: StageDef): StageDef => ({ ...d, handle: (r, c) => { const s = performance.now(); const o = d.handle(r, c); add('handle ' + d.name, performance.now() - s); return o; } });
const deps = { log: log2, topics, serde, history: hist, store, offload: onWorker ? (h as HistoryHost) : undefined };
const n = 20000;
const recs = Array.from({ length: n }, (_, i) => ({ key: `M${i}`, value: { venue: 'venue_' + (i % 9 + 1), record_type: 'market', native_id: `M${i}`, read_started_at: Date.now(), payload: JSON.stringify({ id: `M${i}`, title: `Will ${i}?`, status: 'open', outcomes: [{ t: randomBytes(16).toString('hex') }, { t: randomBytes(16).toString('hex') }], rules: 'x'.repeat(200) }), read_id: null, source_url: null } }));
const p = await log.producer();
for (let v = 1; v <= 9; v++) { const tt = topics[`raw.venue_${v}` as 'raw.venue_1']; const list = recs.filter((r) => r.value.venue === `venue_${v}`); await p.send(tt.name, await s0.encodeMany(tt, list)); }
const runners = [passThroughStage, rawHistorySink, canonicalHistorySink, canonicalStoreSink].map((d) => new StageRunner(wrap(d), deps));
// PROFILE=<file>: a CPU profile of the pipeline part only (open it in Chrome DevTools).
const prof = process.env.PROFILE ? await startProfile() : null;
const t0 = performance.now();
const elu0 = performance.eventLoopUtilization();
const welu0 = onWorker ? (h as HistoryHost).workerUtilization() : undefined;
const cpu0 = process.cpuUsage();
for (const r of runners) await r.start();
for (let i = 0; i < 2; i++) for (const r of runners) await r.caughtUp(300000, 5);
const ms = performance.now() - t0;
const elu = performance.eventLoopUtilization(elu0);
const welu = welu0 && (h as HistoryHost).workerUtilization(welu0);
if (prof) await prof.stop(process.env.PROFILE!);
const cpu = process.cpuUsage(cpu0);
console.log('consume-only pipeline', Math.round(n / ms * 1000), 'rec/s', Math.round(ms), 'ms; event loop utilization', elu.utilization.toFixed(2), '; history worker', welu ? welu.utilization.toFixed(2) : '-', '; process CPU', ((cpu.user + cpu.system) / 1000 / ms).toFixed(2), 'cores;', ((cpu.user + cpu.system) / n).toFixed(1), 'CPU µs per record');
console.log(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])));
await h.close();
process.exit(0);
