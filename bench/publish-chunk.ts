// How long the serving thread (the API's, with PIPELINE_THREAD) is held by each message of a catalog
// publish that crosses the snapshot store's port (pipelines/readmodels/store-port.ts): the tasks a
// request can wait behind while a 1,000,000-market snapshot arrives (bench/crawl-latency.md).
// In: --entries N catalog entries of 100 market rows each (pipelines/catalog/pages.ts lays out a
// snapshot's pages as such entries; the rows here are synthetic, about the size of a catalog row),
// --rounds R publishes. Out: per publish, the chunks and their JSON size, and the serving side's
// time per message (each one task on that thread): median, p90 and max.
//
//   npx tsx bench/publish-chunk.ts [--entries 2000] [--rounds 3]
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { PortSnapshotStore, serveSnapshotStore } from '../pipelines/readmodels/store-port.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ entries: 2000, rounds: 3 });
const ENTRIES = cli.entries;
const ROUNDS = cli.rounds;

function row(i: number) {
  return {
    id: `venue_${(i % 9) + 1}:${1_000_000 + i}`,
    provider: `venue_${(i % 9) + 1}`,
    title: `Will the ${i % 50}th listed event of the season resolve above ${i % 1000}?`,
    category: ['politics', 'sports', 'economics', 'crypto'][i % 4],
    status: 'open',
    close_time: '2026-12-31T00:00:00Z',
    yes_price: (i % 100) / 100,
    no_price: 1 - (i % 100) / 100,
    volume: i * 13,
  };
}
const entries = Array.from({ length: ENTRIES }, (_, e) => ({ key: `p${e}`, value: { rows: Array.from({ length: 100 }, (_, r) => row(e * 100 + r)) } }));

const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`${ENTRIES} entries of 100 rows (${new Date().toISOString()})`);
console.log('| round | chunks | MB of JSON | serving-side ms per chunk: median / p90 / max | publish-end ms | whole publish ms |\n|---:|---:|---:|---|---:|---:|');
for (let round = 1; round <= ROUNDS; round++) {
  const ch = new MessageChannel();
  const store = new MemorySnapshotStore();
  const chunkMs: number[] = [];
  let endMs = 0;
  // Time each message's handler (the task it is on the serving thread): the store is served on a
  // wrapper of the port whose 'message' listener is timed.
  const port = ch.port1;
  const timed = {
    on: (event: string, h: (m: { op: string }) => void) =>
      port.on(event, (m: { op: string }) => {
        const t = performance.now();
        h(m);
        const ms = performance.now() - t;
        if (m.op === 'publish-chunk') chunkMs.push(ms);
        else if (m.op === 'publish-end') endMs = ms;
      }),
    postMessage: (m: unknown) => port.postMessage(m),
  } as unknown as MessagePort;
  serveSnapshotStore(store, timed);
  const client = new PortSnapshotStore(ch.port2);
  const t0 = performance.now();
  await client.publish('catalog', entries, { observedAt: null });
  const total = performance.now() - t0;
  const mb = entries.reduce((a, e) => a + JSON.stringify(e.value).length, 0) / 1e6;
  console.log(`| ${round} | ${chunkMs.length} | ${mb.toFixed(0)} | ${q(chunkMs, 0.5).toFixed(1)} / ${q(chunkMs, 0.9).toFixed(1)} / ${Math.max(...chunkMs).toFixed(1)} | ${endMs.toFixed(1)} | ${total.toFixed(0)} |`);
  await client.close();
  ch.port1.close();
}
