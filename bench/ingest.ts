// Change-only ingestion, off and on, in one run: records written to the log, log bytes and CPU per
// minute of the pollers and the sports matching stages (what reads the sports feed) on the embedded
// log, at the default cadences (sports feed every POLL_INTERVAL_MS, listing every CATALOG_CRAWL_MS).
// The simulator runs in a child process, so the CPU figures are this process's alone: nine pollers,
// serde, the log, the canonicalize/match/snapshot stages. Each mode gets a fresh log; its window
// starts once every feed has completed a crawl (the first listing crawl and the first full sports
// crawl are the same in both modes) and lasts at least one POLL_FULL_MS, so the flag-off window
// holds its periodic full sports crawl. Then a restart: the pollers are stopped and started again on
// the same log, and what their first sports and listing crawls write is counted (since 2026-11-29 the
// restart's first listing crawl is the one due --listing-crawl-s after the last one began, not one at
// the restart: pipelines/venues/pollers/cadence.ts).
// The listing feed (the catalog's source) is change-only too in the "on" mode
// (POLL_CHANGE_ONLY_LISTING=true); its crawls come every --listing-crawl-s (CATALOG_CRAWL_MS; 30 min
// in the service, shorter here so a window holds several), and its records and bytes per crawl are
// reported apart from the sports feed's.
// With --sim-listing-gap-min N the bench measures the listing feed alone at the service's cadence in
// simulated time: the sports feed and the listing loop each crawl once at start (their intervals set
// to a day), then the bench drives --crawls listing crawls of all nine venues itself, advancing the
// simulator's clock (POST /__admin/clock) before each so that consecutive crawls start N simulated
// minutes apart: every market price, game state and market turnover moves as it would in N minutes,
// while the crawls themselves take real time. Figures are per listing crawl of the nine venues.
//
//   npx tsx bench/ingest.ts [--scale 1] [--window-s 300] [--settle-s 30] [--listing-crawl-s 60] [--first off|on]
//   npx tsx bench/ingest.ts --sim-listing-gap-min 30 [--crawls 4] [--scale 1] [--settle-s 5] [--first off|on | --only off|on]
//   (with node --expose-gc --import tsx the heap after the crawls is read after a collection)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { createAllTopics, defineTopics, RAW_TOPIC_IDS, type TopicMap } from '../pipelines/topics.ts';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { startSportsArea } from '../pipelines/matching/area.ts';
import { startPollers, type RunningPollers } from '../pipelines/catalog/area.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ 'window-s': 300, 'settle-s': 30, 'listing-crawl-s': 60, 'sim-listing-gap-min': 0, crawls: 4, scale: '1', only: '', first: 'off' });
const SCALE = cli.scale;
const WINDOW_MS = cli['window-s'] * 1000;
const SETTLE_MS = cli['settle-s'] * 1000;
const LISTING_CRAWL_MS = cli['listing-crawl-s'] * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SIM_GAP_MIN = cli['sim-listing-gap-min'];
const CRAWLS = cli.crawls;

// The simulator on its own process (its page building is not what is measured).
const port = 17_000 + Math.floor(Math.random() * 2000);
const sim = spawn(process.execPath, ['--import', 'tsx', 'pipelines/venues/simulator/bin/serve.ts'], {
  env: { ...process.env, SIM_SEED: '42', SIM_SCALE: SCALE, SIM_PORT: String(port), LOG_LEVEL: 'silent' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const baseUrl = await new Promise<string>((resolve, reject) => {
  sim.stdout!.on('data', (d: Buffer) => {
    const m = /simulator: (\S+)/.exec(d.toString());
    if (m) resolve(m[1]!);
  });
  sim.on('exit', (code) => reject(new Error(`simulator exited ${code}`)));
});

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return n;
}

async function records(log: EmbeddedLog, topics: TopicMap): Promise<{ raw: number; state: number; all: number }> {
  const count = async (name: string) => (await log.topicOffsets(name)).reduce((n, p) => n + Number(p.high), 0);
  const raw = (await Promise.all(RAW_TOPIC_IDS.map((id) => count(topics[id].name)))).reduce((a, b) => a + b, 0);
  const state = await count(topics['pollers.state'].name);
  const all = (await Promise.all(Object.values(topics).map((t) => count(t.name)))).reduce((a, b) => a + b, 0);
  return { raw, state, all };
}

interface Result {
  mode: string;
  rawPerMin: number;
  statePerMin: number;
  allPerMin: number;
  logMbPerMin: number;
  cpuMsPerMin: number;
  restartSportsRecords: number;
  listingCrawls: number;
  listingRecordsPerCrawl: number;
  restartListingRecords: number;
}

/**
 * Counts what each feed's crawls wrote (the pollers' per-crawl debug line carries it), and what the
 * first crawl of each venue's feed wrote.
 */
function crawlCounter() {
  const feeds = new Map<string, { crawls: number; emitted: number }>();
  const firsts = new Map<string, number>();
  const first = (feed: string) => [...firsts].filter(([k]) => k.endsWith(`|${feed}`)).reduce((n, [, e]) => n + e, 0);
  const firstsDone = (feed: string, venues: number) => [...firsts.keys()].filter((k) => k.endsWith(`|${feed}`)).length >= venues;
  const logger = {
    debug(obj: object, msg: string) {
      if (msg !== 'crawl complete') return;
      const o = obj as { venue: string; feed: string; emitted: number };
      const f = feeds.get(o.feed) ?? { crawls: 0, emitted: 0 };
      f.crawls++;
      f.emitted += o.emitted;
      feeds.set(o.feed, f);
      if (!firsts.has(`${o.venue}|${o.feed}`)) firsts.set(`${o.venue}|${o.feed}`, o.emitted);
    },
    info() {},
    warn() {},
    error() {},
  };
  return { feeds, logger, first, firstsDone };
}

async function measure(changeOnly: boolean): Promise<Result> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-ingest-'));
  const logDir = path.join(dir, 'log');
  const log = await EmbeddedLog.open({ dir: logDir });
  const topics = defineTopics({ partitions: 1 });
  await createAllTopics(log, topics);
  const serde = avroSerde(new EmbeddedRegistry(path.join(dir, 'registry')));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SIM_SCALE: SCALE,
    POLL_CHANGE_ONLY: String(changeOnly),
    POLL_CHANGE_ONLY_LISTING: String(changeOnly),
    CATALOG_CRAWL_MS: String(LISTING_CRAWL_MS),
  });
  const counter = crawlCounter();
  const store = new MemorySnapshotStore();
  const sports = await startSportsArea({ config, deps: { log, serde, topics, store } });
  const b = { log, serde, topics };
  let pollers: RunningPollers = await startPollers(config, b, baseUrl, counter.logger);
  const crawled = (p: RunningPollers) => p.status().every((s) => Object.values(s.feeds).every((f) => f.crawlsCompleted >= 1));
  while (!crawled(pollers)) await sleep(500);
  // The stages have read the first crawls (the same work in both modes), then a while to settle.
  await sports.round(600_000);
  await sleep(SETTLE_MS);

  const l0 = { ...(counter.feeds.get('listing') ?? { crawls: 0, emitted: 0 }) };
  const r0 = await records(log, topics);
  const b0 = dirBytes(logDir);
  const c0 = process.cpuUsage();
  const t0 = Date.now();
  await sleep(WINDOW_MS);
  const minutes = (Date.now() - t0) / 60_000;
  const c1 = process.cpuUsage(c0);
  const r1 = await records(log, topics);
  const b1 = dirBytes(logDir);
  const l1 = { ...(counter.feeds.get('listing') ?? { crawls: 0, emitted: 0 }) };

  // A restart of the pollers on the same log: what the first sports crawl after it writes.
  await pollers.stop();
  const again = crawlCounter();
  pollers = await startPollers(config, b, baseUrl, again.logger);
  const venues = pollers.status().length;
  while (!again.firstsDone('sports', venues) || !again.firstsDone('listing', venues)) await sleep(200);
  const restartSportsRecords = again.first('sports');
  const restartListingRecords = again.first('listing');
  await pollers.stop();
  await sports.stop();
  await log.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    mode: changeOnly ? 'POLL_CHANGE_ONLY=true, POLL_CHANGE_ONLY_LISTING=true' : 'POLL_CHANGE_ONLY=false',
    rawPerMin: (r1.raw - r0.raw) / minutes,
    statePerMin: (r1.state - r0.state) / minutes,
    allPerMin: (r1.all - r0.all) / minutes,
    logMbPerMin: (b1 - b0) / 1e6 / minutes,
    cpuMsPerMin: (c1.user + c1.system) / 1000 / minutes,
    restartSportsRecords,
    listingCrawls: l1.crawls - l0.crawls,
    listingRecordsPerCrawl: l1.crawls > l0.crawls ? (l1.emitted - l0.emitted) / (l1.crawls - l0.crawls) : 0,
    restartListingRecords,
  };
}

/** Moves the simulator's clock forward (its admin route); resolves with its time after. */
async function advanceSim(ms: number): Promise<number> {
  const res = await fetch(`${baseUrl}/__admin/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }) });
  if (!res.ok) throw new Error(`simulator clock: ${res.status} ${await res.text()}`);
  return Date.parse(((await res.json()) as { now: string }).now);
}

interface ListingResult {
  mode: string;
  first: { raw: number; state: number; all: number; mb: number; cpuMs: number };
  perCrawl: { raw: number; state: number; all: number; mb: number; cpuMs: number; wallMs: number };
  /** This process: the highest RSS seen (every 200 ms) from the pollers' start to the last crawl, and heap and RSS after the last crawl (after a collection when --expose-gc). */
  memory: { peakRssMb: number; rssMb: number; heapMb: number };
  listingRecordsPerVenueCrawl: number;
  fullListingRecords: number;
}

/**
 * The listing feed alone, crawls GAP simulated minutes apart. `first`: what the first crawls (one
 * full listing crawl and one full sports crawl of each venue) wrote; `perCrawl`: the mean of the
 * CRAWLS listing crawls (nine venues each) after them.
 */
async function measureListing(changeOnly: boolean): Promise<ListingResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-ingest-'));
  const logDir = path.join(dir, 'log');
  const log = await EmbeddedLog.open({ dir: logDir });
  const topics = defineTopics({ partitions: 1 });
  await createAllTopics(log, topics);
  const serde = avroSerde(new EmbeddedRegistry(path.join(dir, 'registry')));
  const DAY = 86_400_000;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SIM_SCALE: SCALE,
    POLL_CHANGE_ONLY: String(changeOnly),
    POLL_CHANGE_ONLY_LISTING: String(changeOnly),
    // Both loops crawl once and then wait a day: the bench drives the listing crawls, so the
    // pollers run on this thread where it can reach them.
    POLLER_THREAD: 'false',
    CATALOG_CRAWL_MS: String(DAY),
    POLL_INTERVAL_MS: String(DAY),
  });
  const counter = crawlCounter();
  const b = { log, serde, topics };
  const r00 = await records(log, topics);
  const b00 = dirBytes(logDir);
  const c00 = process.cpuUsage();
  let lastStart = Date.now();
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
  const pollers = await startPollers(config, b, baseUrl, counter.logger);
  const crawled = (p: RunningPollers) => p.status().every((s) => Object.values(s.feeds).every((f) => f.crawlsCompleted >= 1));
  while (!crawled(pollers)) await sleep(200);
  const cFirst = process.cpuUsage(c00);
  const rFirst = await records(log, topics);
  const bFirst = dirBytes(logDir);
  const fullListing = { ...counter.feeds.get('listing')! };
  await sleep(SETTLE_MS);

  const l0 = { ...counter.feeds.get('listing')! };
  const r0 = await records(log, topics);
  const b0 = dirBytes(logDir);
  const c0 = process.cpuUsage();
  let wall = 0;
  for (let i = 0; i < CRAWLS; i++) {
    // The next crawl starts GAP simulated minutes after the previous one started.
    await advanceSim(SIM_GAP_MIN * 60_000 - (Date.now() - lastStart));
    lastStart = Date.now();
    const ok = await Promise.all(pollers.supervisor!.pollers.map((p) => p.crawlOnce('listing')));
    wall += Date.now() - lastStart;
    if (!ok.every(Boolean)) throw new Error('a listing crawl did not complete');
  }
  const c1 = process.cpuUsage(c0);
  const r1 = await records(log, topics);
  const b1 = dirBytes(logDir);
  const l1 = counter.feeds.get('listing')!;
  clearInterval(sampler);
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  await pollers.stop();
  await log.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    mode: changeOnly ? 'POLL_CHANGE_ONLY=true, POLL_CHANGE_ONLY_LISTING=true' : 'POLL_CHANGE_ONLY=false',
    first: { raw: rFirst.raw - r00.raw, state: rFirst.state - r00.state, all: rFirst.all - r00.all, mb: (bFirst - b00) / 1e6, cpuMs: (cFirst.user + cFirst.system) / 1000 },
    perCrawl: {
      raw: (r1.raw - r0.raw) / CRAWLS,
      state: (r1.state - r0.state) / CRAWLS,
      all: (r1.all - r0.all) / CRAWLS,
      mb: (b1 - b0) / 1e6 / CRAWLS,
      cpuMs: (c1.user + c1.system) / 1000 / CRAWLS,
      wallMs: wall / CRAWLS,
    },
    memory: { peakRssMb: peakRss / 1e6, rssMb: mem.rss / 1e6, heapMb: mem.heapUsed / 1e6 },
    listingRecordsPerVenueCrawl: (l1.emitted - l0.emitted) / (l1.crawls - l0.crawls),
    fullListingRecords: fullListing.emitted,
  };
}

async function listingOnly(): Promise<void> {
  // --only off|on: one mode in this process (its memory figures then owe nothing to the other mode).
  const only = cli.only;
  const onFirst = cli.first === 'on';
  const runs = only ? [await measureListing(only === 'on')] : [await measureListing(onFirst), await measureListing(!onFirst)];
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)}x`);
  console.log(`scale ${SCALE}, listing feed alone, ${CRAWLS} listing crawls per mode ${SIM_GAP_MIN} simulated minutes apart (+${SETTLE_MS / 1000} s settle), ${only ? `${only} only` : `${onFirst ? 'on' : 'off'} first`}, ${new Date().toISOString()}`);
  console.log('| mode | first crawls (full listing + full sports): raw records / pollers.state records / log MB / CPU ms | per listing crawl (9 venues): raw records | pollers.state records | all topics records | log MB | CPU ms | wall ms | listing records written per venue crawl (of a full crawl\'s) | peak RSS MB / RSS MB / heap MB after the crawls |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of [...runs].sort((a, b) => a.mode.length - b.mode.length))
    console.log(
      `| ${r.mode} | ${f(r.first.raw)} / ${f(r.first.state)} / ${f(r.first.mb, 2)} / ${f(r.first.cpuMs)} | ${f(r.perCrawl.raw)} | ${f(r.perCrawl.state)} | ${f(r.perCrawl.all)} | ${f(r.perCrawl.mb, 3)} | ${f(r.perCrawl.cpuMs)} | ${f(r.perCrawl.wallMs)} | ${f(r.listingRecordsPerVenueCrawl)} (${f(r.fullListingRecords / 9)}) | ${f(r.memory.peakRssMb)} / ${f(r.memory.rssMb)} / ${f(r.memory.heapMb)} |`,
    );
  if (runs.length < 2) return;
  const [off, on] = onFirst ? [runs[1]!, runs[0]!] : [runs[0]!, runs[1]!];
  console.log(`on/off per listing crawl: raw records ${ratio(on.perCrawl.raw, off.perCrawl.raw)}, all records ${ratio(on.perCrawl.all, off.perCrawl.all)}, log bytes ${ratio(on.perCrawl.mb, off.perCrawl.mb)}, CPU ${ratio(on.perCrawl.cpuMs, off.perCrawl.cpuMs)}`);
  console.log(`on/off first crawls: raw records ${ratio(on.first.raw, off.first.raw)}, log bytes ${ratio(on.first.mb, off.first.mb)}, CPU ${ratio(on.first.cpuMs, off.first.cpuMs)}`);
}

if (SIM_GAP_MIN > 0) {
  try {
    await listingOnly();
  } finally {
    sim.kill('SIGTERM');
  }
  process.exit(0);
}

try {
  // Which mode runs first (a second run in the other order shows what the order itself does).
  const onFirst = cli.first === 'on';
  const first = await measure(onFirst);
  const second = await measure(!onFirst);
  const [off, on] = onFirst ? [second, first] : [first, second];
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(`scale ${SCALE}, window ${WINDOW_MS / 1000} s per mode after every feed's first crawl (+${SETTLE_MS / 1000} s), listing crawl every ${LISTING_CRAWL_MS / 1000} s, ${onFirst ? 'on' : 'off'} first, ${new Date().toISOString()}`);
  console.log('| mode | raw records/min | pollers.state records/min | all topics records/min | log MB/min | CPU ms/min (pollers + log + sports stages) | listing crawls in window | listing records written per crawl | sports / listing records written by the first crawl after a pollers restart |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of [off, on])
    console.log(
      `| ${r.mode} | ${f(r.rawPerMin)} | ${f(r.statePerMin)} | ${f(r.allPerMin)} | ${f(r.logMbPerMin, 3)} | ${f(r.cpuMsPerMin)} | ${r.listingCrawls} | ${f(r.listingRecordsPerCrawl)} | ${f(r.restartSportsRecords)} / ${f(r.restartListingRecords)} |`,
    );
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)}x`);
  console.log(`on/off: raw records ${ratio(on.rawPerMin, off.rawPerMin)}, all records ${ratio(on.allPerMin, off.allPerMin)}, log bytes ${ratio(on.logMbPerMin, off.logMbPerMin)}, CPU ${ratio(on.cpuMsPerMin, off.cpuMsPerMin)}`);
} finally {
  sim.kill('SIGTERM');
}
