// Memory of a poller's listing feed at SIM_SCALE=100 (1,000,000 listed markets), change-only off and
// on: the real VenuePoller (its crawl-local `seen` set, the last crawl's keys, and with change-only its
// ChangeDetector, the pending hashes and the PollerState's copy) crawls a listing of --keys records
// served by a local HTTP server, and the V8 heap is read after a forced collection before the first
// crawl, after it (a full crawl), and after a delta crawl in which --changed of the records changed.
// A last step models a restart: the memory read back from the state (MemoryPollerState.load, the
// hashes parsed out of `pollers.state` keys as LogPollerState.restore does) and a delta crawl on it.
// The record keys take the shapes of the simulator's own (`<record_type>:<native_id>`, sampled from a
// SIM_SCALE=0.1 listing crawl of the nine venues), the tail of each made unique, lengths kept.
//
//   node --expose-gc --import tsx bench/poller-memory.ts [--keys 1000000] [--changed 0.65] [--mode off|on]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROVIDERS } from '../lib/vocabulary.ts';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { VenuePoller, type FeedSpec } from '../pipelines/venues/pollers/poller.ts';
import { MemoryPollerState, hashStateKey, parseStateKey } from '../pipelines/venues/pollers/state.ts';
import type { ListingStep } from '../pipelines/venues/adapters/listing.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ keys: 1000000, changed: 0.65, mode: 'on' });
const KEYS = cli.keys;
const CHANGED = cli.changed;
const MODE = cli.mode;
const PAGE = 1000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const heap = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};

// The simulator's key shapes: one listing crawl of each venue at a small scale.
async function sampleKeys(): Promise<{ recordType: string; nativeId: string }[]> {
  const sim = await startSimulator({ seed: 42, scale: 0.1 });
  const out: { recordType: string; nativeId: string }[] = [];
  try {
    for (const provider of PROVIDERS) {
      const p = new VenuePoller({ provider, baseUrl: sim.baseUrl, crawlIntervalMs: 86_400_000, deadlineMs: 9000, sink: async (_v, recs) => void out.push(...recs.map((r) => ({ recordType: r.record_type, nativeId: r.native_id }))) });
      if (!(await p.crawlOnce('listing'))) throw new Error(`${provider}: sample crawl failed`);
      await p.stop();
    }
  } finally {
    await sim.close();
  }
  return out.filter((r) => r.recordType !== 'crawl_complete' && r.recordType !== 'final');
}

const samples = await sampleKeys();
const meanKeyLength = samples.reduce((n, s) => n + s.recordType.length + 1 + s.nativeId.length, 0) / samples.length;
/** Record i: a sampled key shape with its tail replaced by i in base 36 (unique, same length). */
function idOf(i: number): { t: string; id: string } {
  const s = samples[i % samples.length]!;
  const tail = i.toString(36);
  return { t: s.recordType, id: s.nativeId.length > tail.length ? s.nativeId.slice(0, s.nativeId.length - tail.length) + tail : `${s.nativeId}${tail}` };
}

// The listing: pages of PAGE records; `version` moves the prices of a CHANGED share of them.
let version = 0;
const server = createServer((req, res) => {
  const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
  const items = [];
  for (let i = page * PAGE; i < Math.min(KEYS, (page + 1) * PAGE); i++) {
    const { t, id } = idOf(i);
    // Record i changes in version v when its hash bucket falls below CHANGED (a fresh draw per version).
    const moved = ((Math.imul(i + 1, 2654435761) ^ Math.imul(version + 1, 40503)) >>> 0) / 2 ** 32 < CHANGED;
    items.push({ t, id, title: `Market ${id} question text of a usual length for a listed market`, price: version > 0 && moved ? 0.5 + version / 1000 : 0.5, volume: i * 7, status: 'open' });
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ items, next: (page + 1) * PAGE < KEYS ? page + 1 : null }));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const step: ListingStep = {
  name: 'bench',
  first: () => ({ path: '/list', query: { page: 0 } }),
  parse(body) {
    const b = body as { items: { t: string; id: string }[]; next: number | null };
    return { records: b.items.map((o) => ({ recordType: o.t, nativeId: o.id, payload: o })), next: b.next === null ? null : { path: '/list', query: { page: b.next } } };
  },
};
const feed = (changeOnly: boolean): FeedSpec => ({ name: 'listing', steps: [step], intervalMs: 86_400_000, ...(changeOnly ? { fullEveryMs: 86_400_000 } : {}) });
const sink = async () => undefined;
const mb = (n: number) => (n / 1e6).toFixed(1);
const perKey = (n: number) => (n / KEYS).toFixed(0);

async function crawl(p: VenuePoller) {
  const t = Date.now();
  if (!(await p.crawlOnce('listing'))) throw new Error('crawl failed');
  return Date.now() - t;
}

const changeOnly = MODE === 'on';
console.log(`${new Date().toISOString()} node ${process.version}, ${KEYS.toLocaleString('en-US')} keys (mean key length ${meanKeyLength.toFixed(1)} characters, ${samples.length} sampled), change-only listing ${MODE}, ${CHANGED} of the records changed per delta crawl`);
const rows: string[] = [];
// What the sampling simulator left behind is collected before the start is read.
await new Promise((r) => setTimeout(r, 2000));
heap();
const base = heap();
// Held in one place so that a restart can let go of the first poller and its state.
const held: { poller: VenuePoller | null; state: MemoryPollerState | null } = { poller: null, state: changeOnly ? new MemoryPollerState() : null };
held.poller = new VenuePoller({ provider: 'venue_1', baseUrl, crawlIntervalMs: 86_400_000, deadlineMs: 60_000, sink, feeds: [feed(changeOnly)], state: held.state ?? undefined });
let peak = base.heap;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
const note = (what: string, ms?: number) => {
  const h = heap();
  rows.push(`| ${what} | ${mb(h.heap - base.heap)} | ${perKey(h.heap - base.heap)} | ${mb(peak - base.heap)} | ${mb(h.rss)} | ${ms ?? ''} |`);
  peak = process.memoryUsage().heapUsed;
};

/** The memory as LogPollerState.restore reads it back: key and hash decoded afresh, the key parsed out of the state key. */
async function readBack(from: MemoryPollerState): Promise<MemoryPollerState> {
  const restored = new MemoryPollerState();
  const set: [string, string][] = [];
  for (const [k, h] of from.load('venue_1', 'listing')!.hashes) {
    set.push([parseStateKey(hashStateKey('venue_1', 'listing', k))!.key!, Buffer.from(h).toString()]);
    if (set.length === 10_000) await restored.save('venue_1', 'listing', { set: set.splice(0) }, 0);
  }
  await restored.save('venue_1', 'listing', { set: set.splice(0), lastFullStartedAt: Date.now() }, 0);
  return restored;
}

note('before the first crawl');
note(`after the first crawl (full)`, await crawl(held.poller));
version++;
note(changeOnly ? `after a delta crawl (${CHANGED} changed)` : 'after a second crawl (full)', await crawl(held.poller));
if (held.state) {
  // A restart: the old poller and its state are gone; the new state holds what it read back.
  await held.poller.stop();
  const restored = await readBack(held.state);
  held.poller = null;
  held.state = null;
  note('restart: memory read back from the state (old poller gone)');
  held.poller = new VenuePoller({ provider: 'venue_1', baseUrl, crawlIntervalMs: 86_400_000, deadlineMs: 60_000, sink, feeds: [feed(true)], state: restored });
  version++;
  note(`restart: after a delta crawl (${CHANGED} changed)`, await crawl(held.poller));
}
clearInterval(sampler);
console.log('| step | heap above the start, MB | bytes per key | peak heap above the start during the step, MB | RSS, MB | crawl ms |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
await held.poller?.stop();
server.close();
