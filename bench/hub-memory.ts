// What the push stream's hub holds on the API's thread with no client connected: a StreamHub tails a
// copy of a service's log (`<DATA_DIR>/log`, e.g. a soak's kept DATA_DIR) from the start with the
// service's Avro serde, and the thread's V8 heap and array buffers are read after full collections
// before the hub starts and once it has read everything. Run the same command in two checkouts (a
// base and a change) on the same DATA_DIR to compare what their hubs keep (bench/soak.md).
//
//   node --expose-gc --import tsx bench/hub-memory.ts <DATA_DIR>
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { defineTopics } from '../pipelines/topics.ts';
import { StreamHub } from '../api/stream/hub.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node --expose-gc --import tsx bench/hub-memory.ts <DATA_DIR>');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

// A copy: the log takes a lock on its directory, and the hub must not touch the service's files.
const copy = mkdtempSync(join(tmpdir(), 'pm-hub-memory-'));
cpSync(join(dataDir, 'log'), join(copy, 'log'), { recursive: true });
cpSync(join(dataDir, 'registry'), join(copy, 'registry'), { recursive: true });
const log = await EmbeddedLog.open({ dir: join(copy, 'log'), compactIntervalMs: 0 });
const serde = avroSerde(new EmbeddedRegistry(join(copy, 'registry')));
const topics = defineTopics({});
const MB = (b: number) => (b / 2 ** 20).toFixed(1);

const settle = () => {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage();
};
const before = settle();
const t0 = performance.now();
const hub = await StreamHub.start({ log, serde, topics });
if (!(await hub.ready(300_000))) throw new Error('the hub did not catch up within 5 minutes');
const ms = performance.now() - t0;
const after = settle();
console.log(`hub read ${hub.changes} matched.events changes (${hub.entries.size} events) in ${ms.toFixed(0)} ms; parsed ${JSON.stringify(hub.parsed)}`);
console.log(`heap used +${MB(after.heapUsed - before.heapUsed)} MB (committed +${MB(after.heapTotal - before.heapTotal)} MB), array buffers +${MB(after.arrayBuffers - before.arrayBuffers)} MB, RSS +${MB(after.rss - before.rss)} MB`);
await hub.stop();
await log.close();
rmSync(copy, { recursive: true, force: true });
