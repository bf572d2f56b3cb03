// The pollers as startPollers runs them from the configuration, on this thread (POLLER_THREAD=false)
// and on their own thread (the embedded default), against the simulator on the embedded log: what
// reaches the log must be the same either way. Each crawl's records precede its marker on every
// partition of the venue's raw topic (a copy of the marker on each); change-only memory is written to
// `pollers.state` after the crawl and read back by pollers started afresh, whose sports crawls go on
// as delta crawls of the same full crawl; the venues' request budgets are this thread's (the live
// routes take from the same); and the status shows the completed crawls.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../lib/config.ts';
import { PROVIDERS, type Provider } from '../../../lib/vocabulary.ts';
import { startSimulator } from '../simulator/server.ts';
import { embeddedBackbone, randomPrefix } from '../../runtime/testkit.ts';
import { testSerde } from '../../runtime/test-services.ts';
import { ends, rawRecords, until } from './raw.testkit.ts';
import { rawTopicId } from '../../topics.ts';
import { startPollers, type RunningPollers } from '../../catalog/area.ts';
import { VenueEndpoints } from '../client/endpoints.ts';
import { BARRIER_HEADER } from './sink.ts';
import { LogPollerState } from './state.ts';
import { SPORTS_FEED } from './poller.ts';
import { LEAGUE_LIST, TEAMS } from '../../matching/teams.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Counts the budget waits this thread's endpoints served, per venue. */
class CountingEndpoints extends VenueEndpoints {
  readonly admitted = new Map<string, number>();
  override admit(venue: Provider | undefined, opts?: { signal?: AbortSignal; maxWaitMs?: number }): Promise<void> {
    if (venue) this.admitted.set(venue, (this.admitted.get(venue) ?? 0) + 1);
    return super.admit(venue, opts);
  }
}

interface Marker {
  feed: string;
  started_at: number;
  delta?: boolean;
}

describe.each([
  ['on this thread', 'false'],
  ["on the pollers' thread", 'true'],
])('startPollers, the pollers %s', (_, pollerThread) => {
  it('writes each crawl before its marker on every partition, keeps its change-only memory on the log, and takes from this thread\'s budgets', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-poller-thread-'));
    const sim = await startSimulator({ seed: 11, scale: 0.02, scenario: 'default' });
    cleanups.push(() => sim.close());
    const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(dir) });
    cleanups.push(() => b.close());
    const config: Config = loadConfig({ LOG_LEVEL: 'silent', POLL_INTERVAL_MS: '300', CATALOG_CRAWL_MS: '3600000', VENUE_3_RPS: '10000', POLLER_THREAD: pollerThread });
    expect(config.POLL_CHANGE_ONLY).toBe(true);
    const endpoints = new CountingEndpoints(sim.baseUrl, { venue_3: { rps: 10_000 } });
    const sportsCrawls = (p: RunningPollers) => Math.min(...p.status().map((s) => s.feeds[SPORTS_FEED]?.crawlsCompleted ?? 0));

    let pollers = await startPollers(config, b, sim.baseUrl, undefined, endpoints);
    cleanups.push(() => pollers.stop());
    await until(() => pollers.status().length === PROVIDERS.length && sportsCrawls(pollers) >= 2 && pollers.status().every((s) => s.feeds.listing!.crawlsCompleted >= 1));
    await pollers.stop();

    // The venue with a budget waited for it in this thread's endpoints, once per request.
    expect(endpoints.admitted.get('venue_3')).toBeGreaterThanOrEqual(3);

    const firstFull = new Map<Provider, number>();
    for (const venue of PROVIDERS) {
      const records = await rawRecords(b, venue);
      const partitions = b.topics[rawTopicId(venue)].partitions;
      const markers = records.filter((r) => r.value?.record_type === 'crawl_complete');
      const crawls = new Set(markers.map((m) => m.value!.native_id));
      expect(crawls.size, venue).toBeGreaterThanOrEqual(3);
      for (const crawl of crawls) {
        const copies = markers.filter((m) => m.value!.native_id === crawl);
        // One copy on each partition, each saying how many there are.
        expect(copies.map((c) => c.partition).sort(), `${venue} ${crawl}`).toEqual([...Array(partitions).keys()]);
        expect(copies.every((c) => c.headers[BARRIER_HEADER] === String(partitions))).toBe(true);
        // On each partition every record of the crawl comes before its marker.
        for (const c of copies) {
          const late = records.filter((r) => r.partition === c.partition && r.value?.read_id === crawl && r.value.record_type !== 'crawl_complete' && BigInt(r.offset) > BigInt(c.offset));
          expect(late, `${venue} ${crawl}`).toEqual([]);
        }
      }
      const sports = markers.filter((m) => m.partition === 0 && (JSON.parse(m.value!.payload) as Marker).feed === SPORTS_FEED).map((m) => JSON.parse(m.value!.payload) as Marker);
      expect(sports[0]!.delta, venue).toBeUndefined();
      expect(sports.slice(1).every((m) => m.delta === true && m.started_at === sports[0]!.started_at), venue).toBe(true);
      firstFull.set(venue, sports[0]!.started_at);
    }

    // The sports feeds' memory is on pollers.state: the hashes and the start of their full crawl.
    const producer = await b.log.producer();
    cleanups.push(() => producer.close());
    const state = await LogPollerState.restore({ ...b, producer });
    for (const venue of PROVIDERS) {
      const m = state.load(venue, SPORTS_FEED);
      expect(m?.lastFullStartedAt, venue).toBe(firstFull.get(venue));
      expect(m!.hashes.size, venue).toBeGreaterThan(0);
    }

    // Started afresh, they read that memory back and go on with delta crawls of the same full crawl.
    const before = new Map(await Promise.all(PROVIDERS.map(async (v) => [v, await ends(b, v)] as const)));
    pollers = await startPollers(config, b, sim.baseUrl, undefined, endpoints);
    await until(() => sportsCrawls(pollers) >= 1);
    await pollers.stop();
    for (const venue of PROVIDERS) {
      const after = await rawRecords(b, venue, before.get(venue));
      const sports = after.filter((r) => r.partition === 0 && r.value?.record_type === 'crawl_complete').map((r) => JSON.parse(r.value!.payload) as Marker).filter((m) => m.feed === SPORTS_FEED);
      expect(sports.length, venue).toBeGreaterThanOrEqual(1);
      expect(sports[0], venue).toMatchObject({ delta: true, started_at: firstFull.get(venue) });
    }
  });

  it('reads the rosters with the pollers, and started afresh writes only the rosters that changed (none)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-poller-rosters-'));
    const sim = await startSimulator({ seed: 12, scale: 0.02, scenario: 'default' });
    cleanups.push(() => sim.close());
    const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(dir) });
    cleanups.push(() => b.close());
    // Crawls far apart: what is looked at is the roster topic.
    const config: Config = loadConfig({ LOG_LEVEL: 'silent', POLL_INTERVAL_MS: '3600000', CATALOG_CRAWL_MS: '3600000', POLLER_THREAD: pollerThread });
    const rosterRecords = async () => (await b.log.topicOffsets(b.topics['reference.rosters'].name)).reduce((n, o) => n + Number(o.high), 0);

    let pollers = await startPollers(config, b, sim.baseUrl, undefined, undefined, { rosters: { intervalMs: 3_600_000 } });
    cleanups.push(() => pollers.stop());
    await until(() => pollers.rosterRounds() >= 1);
    await pollers.stop();
    const written = await rosterRecords();
    const teams = LEAGUE_LIST.reduce((n, l) => n + TEAMS[l].length, 0);
    expect(written).toBeGreaterThan(teams / 2);

    pollers = await startPollers(config, b, sim.baseUrl, undefined, undefined, { rosters: { intervalMs: 3_600_000 } });
    await until(() => pollers.rosterRounds() >= 1);
    await pollers.stop();
    expect(await rosterRecords()).toBe(written);
  });
});
