// Where a backbone batch spends its time: the embedded pipeline of bench/backbone.ts (pass-through
// processor + raw history + canonical history + canonical documents) over 20,000 pre-produced raw
// records, with each phase of the stage runner timed: decode, handler, encode, produce, history
// insert, snapshot write. Sums are over all stages (they overlap in time, on one event loop).
// Usage: npx tsx bench/backbone-phases.ts
import { mkdtempSync } from 'node:fs';
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
import { canonicalHistorySink, canonicalStoreSink, rawHistorySink } from '../pipelines/runtime/sinks.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { createAllTopics, defineTopics } from '../pipelines/topics.ts';
import type { StageDef } from '../pipelines/runtime/types.ts';
const dir = mkdtempSync(path.join(tmpdir(), 'ph-'));
const t: Record<string, number> = {};
const add = (k: string, ms: number) => (t[k] = (t[k] ?? 0) + ms);
const timed = <A extends unknown[], R>(k: string, f: (...a: A) => Promise<R>) => async (...a: A) => { const s = performance.now(); try { return await f(...a); } finally { add(k, performance.now() - s); } };
const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), compactIntervalMs: 0 });
const h = await ChdbHistory.open(path.join(dir, 'chdb'), 'b'); await migrate(h);
const hist = Object.assign(Object.create(h), { insert: timed('history.insert', h.insert.bind(h)) });
const st = new MemorySnapshotStore(); const store = Object.assign(Object.create(st), { putMany: timed('store.putMany', st.putMany.bind(st)) });
const origProducer = log.producer.bind(log);
const log2 = Object.assign(Object.create(log), { producer: async () => { const p = await origProducer(); return { send: timed('producer.send', p.send.bind(p)), close: p.close.bind(p) }; } });
const reg = new EmbeddedRegistry(path.join(dir, 'reg')); const s0 = avroSerde(reg);
const serde = { ...s0, decodeMany: timed('serde.decodeMany', s0.decodeMany), encodeMany: timed('serde.encodeMany', s0.encodeMany) };
const topics = defineTopics({ prefix: 'x.', partitions: 1 }); await createAllTopics(log, topics);
const wrap = (d: StageDef): StageDef => ({ ...d, handle: (r, c) => { const s = performance.now(); const o = d.handle(r, c); add('handle ' + d.name, performance.now() - s); return o; } });
const deps = { log: log2, topics, serde, history: hist, store };
const n = 20000;
const recs = Array.from({ length: n }, (_, i) => ({ key: `M${i}`, value: { venue: 'venue_' + (i % 9 + 1), record_type: 'market', native_id: `M${i}`, read_started_at: Date.now(), payload: JSON.stringify({ id: `M${i}`, title: `Will ${i}?`, status: 'open', outcomes: [{ t: randomBytes(16).toString('hex') }, { t: randomBytes(16).toString('hex') }], rules: 'x'.repeat(200) }), read_id: null, source_url: null } }));
const p = await log.producer();
for (let v = 1; v <= 9; v++) { const tt = topics[`raw.venue_${v}` as 'raw.venue_1']; const list = recs.filter((r) => r.value.venue === `venue_${v}`); await p.send(tt.name, await s0.encodeMany(tt, list)); }
const runners = [passThroughStage, rawHistorySink, canonicalHistorySink, canonicalStoreSink].map((d) => new StageRunner(wrap(d), deps));
const t0 = performance.now();
for (const r of runners) await r.start();
for (let i = 0; i < 2; i++) for (const r of runners) await r.caughtUp(300000, 5);
const ms = performance.now() - t0;
console.log('consume-only pipeline', Math.round(n / ms * 1000), 'rec/s', Math.round(ms), 'ms');
console.log(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])));
process.exit(0);
