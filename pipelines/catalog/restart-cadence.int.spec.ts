// A restart does not crawl the whole listing again when its last complete crawl is recent: the
// listing feed's cadence goes on across it (pollers/cadence.ts, the crawl starts kept on
// `pollers.state`). On the embedded log against the simulator, as bin/run.ts starts the area
// (startPollers + startCatalog), with the pollers on this thread and on their own (and without
// change-only ingestion, where `pollers.state` keeps only the crawl starts): one listing crawl
// completes and the catalog serves it; after a restart no listing record is written until the
// interval since that crawl began is over, the catalog served is the same (its rows and its
// observed_at), and the next crawl comes when due. Then, with a VenuePoller on the log: a restart
// after a crawl that did not complete crawls at once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../lib/config.ts';
import { PROVIDERS, type Provider } from '../../lib/vocabulary.ts';
import { startSimulator } from '../venues/simulator/server.ts';
import { embeddedBackbone, randomPrefix, type Backbone } from '../runtime/testkit.ts';
import { testSerde } from '../runtime/test-services.ts';
import type { InRecord } from '../runtime/types.ts';
import { ends, rawRecords, until } from '../venues/pollers/raw.testkit.ts';
import { LISTING_FEED, VenuePoller, type RawSink } from '../venues/pollers/poller.ts';
import { adapterFor } from '../venues/adapters/index.ts';
import { logRawSink } from '../venues/pollers/sink.ts';
import { LogPollerState } from '../venues/pollers/state.ts';
import { startCatalog, startPollers, type RunningCatalog, type RunningPollers } from './area.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const isListing = (r: InRecord<'raw.venue_1'>) => r.value?.read_id?.startsWith(`${LISTING_FEED}:`) === true;
/** Per venue, the starts of the listing crawls whose markers are on the topic (partition 0's copy). */
async function listingStarts(b: Backbone, venue: Provider, from?: Map<number, string>): Promise<number[]> {
  return (await rawRecords(b, venue, from))
    .filter((r) => isListing(r) && r.partition === 0 && r.value!.record_type === 'crawl_complete')
    .map((r) => r.value!.read_started_at);
}

/** What GET /v1/markets serves, in walk order: the snapshot's rows and its observed_at. */
async function served(catalog: RunningCatalog): Promise<{ id: string | null; observedAt: number | null; rows: string[] }> {
  const id = await catalog.store.currentSnapshotId();
  if (id === null) return { id, observedAt: null, rows: [] };
  const meta = (await catalog.store.listSnapshots()).find((m) => m.snapshotId === id)!;
  const rows: string[] = [];
  let after = null;
  do {
    const page = await catalog.store.page({ snapshotId: id, category: null, provider: null, after, limit: 1000 });
    rows.push(...page.rows.map((r) => `${r.id}|${r.title}|${r.category}`));
    after = page.next;
  } while (after);
  return { id, observedAt: meta.observedAt, rows };
}

const INTERVAL_MS = 20_000;

/** A small simulated world (seed `seed`) and an embedded backbone in a temp directory, both closed after the test. */
async function world(seed: number): Promise<{ sim: Awaited<ReturnType<typeof startSimulator>>; b: Backbone }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-restart-cadence-'));
  const sim = await startSimulator({ seed, scale: 0.05, scenario: 'default' });
  cleanups.push(() => sim.close());
  const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(dir) });
  cleanups.push(() => b.close());
  return { sim, b };
}

describe.each([
  ['on this thread', 'false', 'true'],
  ["on the pollers' thread", 'true', 'true'],
  ["on the pollers' thread, without change-only ingestion", 'true', 'false'],
])('a restart soon after a complete listing crawl, the pollers %s', (_, pollerThread, changeOnly) => {
  it('writes no listing record until the interval since that crawl began is over, serves the same catalog, and crawls when due', async () => {
    const { sim, b } = await world(13);
    // Sports crawls far apart: the raw topics after the restart hold only what the feeds' first crawls wrote.
    const config: Config = loadConfig({ LOG_LEVEL: 'silent', CATALOG_CRAWL_MS: String(INTERVAL_MS), CATALOG_REFRESH_MS: '3600000', POLL_INTERVAL_MS: '3600000', POLLER_THREAD: pollerThread, POLL_CHANGE_ONLY: changeOnly });
    const backbone = { log: b.log, serde: b.serde, topics: b.topics, history: b.history, store: b.store };
    const listed = (p: RunningPollers) => p.status().length === PROVIDERS.length && p.status().every((s) => (s.feeds.listing?.crawlsCompleted ?? 0) >= 1);
    const sportsRead = (p: RunningPollers) => p.status().length === PROVIDERS.length && p.status().every((s) => (s.feeds.sports?.crawlsCompleted ?? 0) >= 1);

    let catalog = await startCatalog(config, backbone);
    let pollers = await startPollers(config, backbone, sim.baseUrl);
    await until(async () => listed(pollers) && (await catalog.store.currentSnapshotId()) !== null);
    await pollers.stop();
    await catalog.stop();
    const before = await served(catalog);
    const first = new Map<Provider, number>();
    for (const v of PROVIDERS) {
      const starts = await listingStarts(b, v);
      expect(starts, v).toHaveLength(1);
      first.set(v, starts[0]!);
    }
    // The snapshot's observed_at is the oldest start of the crawls it was built from.
    expect(before.observedAt).toBe(Math.min(...first.values()));
    expect(before.rows.length).toBeGreaterThan(400);
    const due = Math.min(...first.values()) + INTERVAL_MS;
    // The test needs the restart well inside the interval (a loaded machine may take longer than it to get here).
    expect(Date.now(), 'restart inside the interval').toBeLessThan(due - 8_000);

    const offsets = new Map(await Promise.all(PROVIDERS.map(async (v) => [v, await ends(b, v)] as const)));
    const restartedAt = Date.now();
    catalog = await startCatalog(config, backbone);
    cleanups.push(() => catalog.stop());
    pollers = await startPollers(config, backbone, sim.baseUrl);
    cleanups.push(() => pollers.stop());
    // The sports feed crawls at once, as before; the catalog builds at once from the crawls it staged.
    await until(async () => sportsRead(pollers) && (await catalog.store.currentSnapshotId()) !== before.id);
    const after = await served(catalog);
    expect(after.observedAt).toBe(before.observedAt);
    expect(after.rows).toEqual(before.rows);
    expect(Date.now()).toBeLessThan(due - 1_000);
    for (const v of PROVIDERS) {
      const since = await rawRecords(b, v, offsets.get(v));
      expect(since.length, `${v}: the sports crawl wrote its marker`).toBeGreaterThan(0);
      expect(since.filter(isListing), `${v}: listing records written at the restart`).toEqual([]);
    }
    expect(pollers.status().every((s) => s.feeds.listing!.crawlsCompleted === 0)).toBe(true);

    // Then the next listing crawl of each venue, when its interval is over and not before.
    await until(() => listed(pollers), INTERVAL_MS + 40_000);
    for (const v of PROVIDERS) {
      const next = await listingStarts(b, v, offsets.get(v));
      expect(next.length, v).toBeGreaterThanOrEqual(1);
      // A timer may fire a millisecond or two before Date.now() says its time has come.
      expect(next[0]!, v).toBeGreaterThanOrEqual(first.get(v)! + INTERVAL_MS - 10);
      expect(next[0]! - restartedAt, v).toBeLessThan(INTERVAL_MS);
    }
  });
});

describe('a restart after a listing crawl that did not complete', () => {
  it('crawls at once, whether it was the first crawl or a later one', async () => {
    const { sim, b } = await world(14);
    const producer = await b.log.producer();
    cleanups.push(() => producer.close());
    const toLog = logRawSink(producer, b.serde, b.topics);
    const venue: Provider = 'venue_2';
    let refuse = false;
    // A crawl that did not complete: the sink refuses its marker (its records are on the log).
    const sink: RawSink = async (p, recs) => {
      if (refuse && recs.some((r) => r.record_type === 'crawl_complete')) throw new Error('refused');
      await toLog(p, recs);
    };
    const interval = 1_500;
    const start = async () => {
      const p = new VenuePoller({
        provider: venue,
        baseUrl: sim.baseUrl,
        sink,
        crawlIntervalMs: interval,
        deadlineMs: 5_000,
        pageAttempts: 1,
        backoff: { baseMs: 5_000, maxMs: 5_000, maxRetryAfterMs: 5_000 },
        feeds: [{ name: LISTING_FEED, steps: adapterFor(venue).listingSteps(), intervalMs: interval, resumes: true }],
        state: await LogPollerState.restore({ ...b, producer }),
      });
      p.start();
      cleanups.push(() => p.stop());
      return p;
    };

    // The first crawl on a fresh log does not complete: nothing on record, the restart crawls at once.
    refuse = true;
    let p = await start();
    await until(() => (p.status.faults.sink ?? 0) >= 1);
    await p.stop();
    refuse = false;
    let restartedAt = Date.now();
    p = await start();
    await until(() => p.status.crawlsCompleted >= 1);
    expect(p.status.lastCrawl!.startedAt - restartedAt).toBeLessThan(1_000);
    const completeStart = p.status.lastCrawl!.startedAt;

    // The next one (due 1.5 s after) does not complete either: the last complete crawl on record is
    // past its interval at the restart, which crawls at once.
    refuse = true;
    await until(() => (p.status.faults.sink ?? 0) >= 1);
    await p.stop();
    refuse = false;
    restartedAt = Date.now();
    expect(restartedAt).toBeGreaterThanOrEqual(completeStart + interval);
    p = await start();
    await until(() => p.status.crawlsCompleted >= 1);
    expect(p.status.lastCrawl!.startedAt - restartedAt).toBeLessThan(1_000);

    // Whereas a restart right after a complete crawl waits for what is left of the interval.
    await p.stop();
    const last = p.status.lastCrawl!.startedAt;
    restartedAt = Date.now();
    p = await start();
    await until(() => p.status.crawlsCompleted >= 1, 10_000);
    expect(p.status.lastCrawl!.startedAt).toBeGreaterThanOrEqual(last + interval - 10);
    expect(Date.now()).toBeGreaterThanOrEqual(restartedAt);
  });
});
