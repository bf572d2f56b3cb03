// The evaluation's crawl reads each listing record once, as the pollers emit it: the offset walks
// read overlapping pages, and a record read twice became a market paired with itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../venues/simulator/server.ts';
import { crawlVenue, PROVIDER_LIST } from './crawl.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 1 + Math.floor(Math.random() * 1000), scale: 0.05, scenario: 'default' });
});
afterAll(async () => {
  await sim?.close();
});

describe('crawlVenue', () => {
  it.each(PROVIDER_LIST)('reads each record of %s once per crawl', async (provider) => {
    const recs = await crawlVenue(sim.baseUrl, provider);
    expect(recs.length).toBeGreaterThan(0);
    const keys = recs.map((r) => `${r.recordType}:${r.nativeId}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
