// The evaluation's crawl reads each listing record once, as the pollers emit it: the offset walks
// read overlapping pages, and a record read twice became a market paired with itself.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

describe('crawlVenue on connections that reset', () => {
  // A server in front of the simulator that resets every third connection's request before any
  // answer, as a keep-alive connection closed under a reader does: the crawl tries the read again.
  let proxy: Server;
  let base: string;
  let resets = 0;
  beforeAll(async () => {
    let n = 0;
    proxy = createServer((req, res) => {
      if (n++ % 3 === 0) {
        resets++;
        req.socket.destroy();
        return;
      }
      fetch(`${sim.baseUrl}${req.url}`)
        .then(async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()))
        .catch(() => res.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => proxy?.close(r));
  });

  it('reads the same records as without the resets', async () => {
    const provider = PROVIDER_LIST[2]!;
    const direct = await crawlVenue(sim.baseUrl, provider);
    const through = await crawlVenue(base, provider);
    expect(resets).toBeGreaterThan(0);
    expect(through.map((r) => `${r.recordType}:${r.nativeId}`).sort()).toEqual(direct.map((r) => `${r.recordType}:${r.nativeId}`).sort());
  });
});
