// The pollers' thread started again after it dies unasked: a worker that ends (as a crash in it
// would end it) is replaced after a backoff and the new thread's pollers crawl (it reads the
// change-only memory back as any start does: thread.int.spec.ts), and stop() ends the supervision.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { PROVIDERS } from '../../../lib/vocabulary.ts';
import { startSimulator } from '../simulator/server.ts';
import { embeddedBackbone, randomPrefix } from '../../runtime/testkit.ts';
import { testSerde } from '../../runtime/test-services.ts';
import { VenueEndpoints } from '../client/endpoints.ts';
import { SPORTS_FEED, type PollerLogger } from './poller.ts';
import { SupervisedPollerThread, type PollerThread } from './thread.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function until(f: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Ends the worker from outside, as a crash inside it would end it (not through stop()). */
const crash = (t: PollerThread) => (t as unknown as { worker: Worker }).worker.terminate();

describe("the pollers' thread, supervised", () => {
  it('is started again after its worker dies, and the new thread crawls on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-poller-restart-'));
    const sim = await startSimulator({ seed: 12, scale: 0.02, scenario: 'default' });
    cleanups.push(() => sim.close());
    const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(dir) });
    cleanups.push(() => b.close());
    const producer = await b.log.producer();
    cleanups.push(() => producer.close());
    const config = loadConfig({ LOG_LEVEL: 'silent', POLL_INTERVAL_MS: '300', CATALOG_CRAWL_MS: '3600000', VENUE_3_RPS: '10000' });
    const errors: string[] = [];
    const logger: PollerLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: (_o: object, msg: string) => void errors.push(msg) };
    const s = await SupervisedPollerThread.start(
      { config, baseUrl: sim.baseUrl, log: b.log, serde: b.serde, topics: b.topics, producer, endpoints: new VenueEndpoints(sim.baseUrl, { venue_3: { rps: 10_000 } }), logger },
      50,
    );
    cleanups.push(() => s.stop());
    const sports = () => Math.min(...s.status().map((p) => p.feeds[SPORTS_FEED]?.crawlsCompleted ?? 0));
    await until(() => s.status().length === PROVIDERS.length && sports() >= 1);

    const first = s.thread()!;
    await crash(first);
    await until(() => s.restarts() === 1 && s.thread() !== null && s.thread() !== first);
    expect(errors).toContain("the pollers' thread exited: starting it again");
    // The new thread's pollers crawl: their status counts from zero again.
    await until(() => s.status().length === PROVIDERS.length && sports() >= 1);

    // Stopped, it starts nothing more, even when the worker it stopped is gone.
    await s.stop();
    await new Promise((r) => setTimeout(r, 300));
    expect(s.restarts()).toBe(1);
  }, 120_000);
});
