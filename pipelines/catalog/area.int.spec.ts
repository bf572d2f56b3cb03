// The area as bin/run.ts starts it (startPollers + startCatalog from config) on the embedded
// backbone against the simulator: all nine venues crawled, a first snapshot built once every venue
// has a complete crawl, served by GET /v1/markets with every provider in token order. It runs twice:
// the pollers on this thread (POLLER_THREAD=false) and on their own thread (the embedded default).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.ts';
import { PROVIDERS } from '../../lib/vocabulary.ts';
import { startSimulator, type Simulator } from '../venues/simulator/server.ts';
import { embeddedBackbone, randomPrefix, type Backbone } from '../runtime/testkit.ts';
import { testSerde } from '../runtime/test-services.ts';
import { build } from '../../test/helper.ts';
import { startCatalog, startPollers, type RunningCatalog, type RunningPollers } from './area.ts';

let sim: Simulator;
let b: Backbone;
let pollers: RunningPollers | undefined;
let catalog: RunningCatalog | undefined;

beforeEach(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-catalog-area-'));
  sim = await startSimulator({ seed: 5, scale: 0.05, scenario: 'default' });
  b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(dir) });
});
afterEach(async () => {
  await pollers?.stop();
  await catalog?.stop();
  pollers = undefined;
  catalog = undefined;
  await b?.close();
  await sim?.close();
});

describe.each([
  ['on this thread', 'false'],
  ["on the pollers' thread", 'true'],
])('catalog area, the pollers %s', (_, pollerThread) => {
  it('crawls all nine venues and serves the first snapshot', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', CATALOG_REFRESH_MS: '3600000', POLL_INTERVAL_MS: '3600000', POLLER_THREAD: pollerThread });
    expect(config.POLLER_THREAD).toBe(pollerThread === 'true');
    const backbone = { log: b.log, serde: b.serde, topics: b.topics, history: b.history!, store: b.store! };
    catalog = await startCatalog(config, backbone);
    pollers = await startPollers(config, backbone, sim.baseUrl);
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && (await catalog.store.currentSnapshotId()) === null) await new Promise((r) => setTimeout(r, 250));
    expect(await catalog.store.currentSnapshotId()).not.toBeNull();
    // On their own thread the pollers' status is what the thread last reported (at most
    // STATUS_EVERY_MS old), so the snapshot, built from the log, can come before the report of the
    // crawls it was built from: seen once on a loaded CI machine (venue_1's crawl count still 0).
    const listed = () => pollers!.status().length === PROVIDERS.length && pollers!.status().every((s) => (s.feeds.listing?.crawlsCompleted ?? 0) >= 1);
    while (Date.now() < deadline && !listed()) await new Promise((r) => setTimeout(r, 250));
    expect(pollers.status()).toHaveLength(PROVIDERS.length);
    for (const s of pollers.status()) expect(s.feeds.listing.crawlsCompleted, s.provider).toBeGreaterThanOrEqual(1);

    const t = await build({ deps: { catalog: catalog.deps } });
    const key = await t.createKey({ plan: 'business', permissions: ['markets.read'] });
    const total = (await t.app.inject({ url: '/v1/markets?limit=1', headers: t.auth(key) })).json().pagination.total;
    expect(total).toBeGreaterThan(400);
    for (const p of PROVIDERS) {
      const r = (await t.app.inject({ url: `/v1/markets?provider=${p}&limit=3`, headers: t.auth(key) })).json();
      expect(r.pagination.total, p).toBeGreaterThan(0);
      expect(r.data.every((row: { id: string; provider: string }) => row.provider === p && row.id.startsWith(`${p}:`)), p).toBe(true);
    }
    const sports = (await t.app.inject({ url: '/v1/markets?category=sports&limit=1', headers: t.auth(key) })).json();
    expect(sports.pagination.total).toBeGreaterThan(0);
    expect(sports.pagination.total).toBeLessThan(total);
  });
});
