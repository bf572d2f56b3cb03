/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// GET /v1/markets/{market_id} asked several times at once: the requests that reach the venue client
// in one turn of the loop share one venue read, and each answer is what the request would have got
// alone (the body, or the spec's error status and body). A counting proxy in front of the simulator
// says how many venue reads were made.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { liveApp, simJson } from '../../live/testkit.ts';

let sim: Simulator;
let proxy: Server;
let viaProxy: Simulator;
const reads = new Map<string, number>();
let market: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 11 });
  proxy = createServer((req, res) => {
    const url = req.url ?? '';
    reads.set(url, (reads.get(url) ?? 0) + 1);
    void request(sim.baseUrl + url, { headers: { accept: 'application/json' } }).then(async (r) => {
      const headers: Record<string, string> = { 'content-type': String(r.headers['content-type'] ?? 'application/json') };
      if (r.headers['retry-after'] !== undefined) headers['retry-after'] = String(r.headers['retry-after']);
      res.writeHead(r.statusCode, headers).end(await r.body.text());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  viaProxy = { baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } as Simulator;
  [{ id: market }] = (await simJson(sim, '/venue_3/v1/markets?per_page=1')).data;
});
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await sim?.close();
});

const readsOf = (path: string) => [...reads].filter(([u]) => u.split('?')[0] === path).reduce((n, [, c]) => n + c, 0);
/** The body without the times each request stamps for itself. */
const unstamped = (b: any) => ({ ...b, pricing: { ...b.pricing, observed_at: undefined }, trading_fees: { ...b.trading_fees, observed_at: undefined } });

describe('market detail asked several times at once', () => {
  it('makes one venue read, and every request gets the whole answer a request alone gets', async () => {
    const { get } = await liveApp(viaProxy);
    const path = `/venue_3/v1/markets/${market}`;
    const before = readsOf(path);
    const together = await Promise.all([1, 2, 3, 4].map(() => get(`/v1/markets/venue_3:${market}`)));
    expect(readsOf(path) - before).toBe(1);
    const alone = await get(`/v1/markets/venue_3:${market}`);
    expect(readsOf(path) - before).toBe(2);
    expect(alone.status).toBe(200);
    for (const r of together) {
      expect(r.status).toBe(200);
      expect(unstamped(r.body)).toEqual(unstamped(alone.body));
      expect(Number.isNaN(Date.parse(r.body.pricing.observed_at))).toBe(false);
    }
  });

  it('a market the venue does not hold is 404 market_not_found for every request', async () => {
    const { get } = await liveApp(viaProxy);
    const id = String(900_000_000 + Math.floor(Math.random() * 1_000_000));
    const together = await Promise.all([1, 2, 3].map(() => get(`/v1/markets/venue_3:${id}`)));
    expect(readsOf(`/venue_3/v1/markets/${id}`)).toBe(1);
    const alone = await get(`/v1/markets/venue_3:${id}`);
    expect(alone.status).toBe(404);
    expect(alone.body).toMatchObject({ code: 'market_not_found', status_code: 404 });
    for (const r of together) expect([r.status, r.body]).toEqual([alone.status, alone.body]);
  });

  it('a venue 429 is 429 upstream_rate_limited with Retry-After for every request', async () => {
    const { get } = await liveApp(viaProxy);
    const path = `/venue_3/v1/markets/${market}`;
    sim.faults.set('venue_3', { kind: 'rate_limit', retry_after_s: 7 });
    try {
      const before = readsOf(path);
      const together = await Promise.all([1, 2, 3].map(() => get(`/v1/markets/venue_3:${market}`)));
      expect(readsOf(path) - before).toBe(1);
      const alone = await get(`/v1/markets/venue_3:${market}`);
      expect(alone.status).toBe(429);
      expect(alone.body).toMatchObject({ code: 'upstream_rate_limited', status_code: 429 });
      expect(alone.headers['retry-after']).toBe('7');
      for (const r of together) {
        expect([r.status, r.body]).toEqual([alone.status, alone.body]);
        expect(r.headers['retry-after']).toBe('7');
      }
    } finally {
      sim.faults.set('venue_3', null);
    }
  });
});

describe('market detail asked at once while the venue fails', () => {
  // Spec "Errors": a venue rejection is 400 upstream_rejected; down, refused, a bad body or no answer
  // within the deadline is 502 upstream_unavailable. A read shared by several requests is each one's
  // read: each gets the body a request alone gets, whatever form it named the market in.
  it.each([
    ['reject', 400, 'upstream_rejected'],
    ['down', 502, 'upstream_unavailable'],
    ['refuse', 502, 'upstream_unavailable'],
    ['malformed', 502, 'upstream_unavailable'],
    ['slow', 502, 'upstream_unavailable'],
  ] as const)('%s: every request sharing the read gets %i %s, as alone', async (kind, status, code) => {
    const { get } = await liveApp(sim, { UPSTREAM_DEADLINE_MS: '300' });
    const forms = [`venue_3:${market}`, `${market}?provider=venue_3`, `${market}?provider=v3`, `venue_3:${market}`];
    sim.faults.set('venue_3', kind === 'slow' ? { kind, delay_ms: 3000 } : { kind });
    try {
      const together = await Promise.all(forms.map((f) => get(`/v1/markets/${f}`)));
      const alone = await get(`/v1/markets/venue_3:${market}`);
      expect(alone.status).toBe(status);
      expect(alone.body).toMatchObject({ code, status_code: status });
      expect(alone.body.message).toContain('venue_3');
      for (const r of together) expect([r.status, r.body]).toEqual([alone.status, alone.body]);
    } finally {
      sim.faults.set('venue_3', null);
    }
    expect((await get(`/v1/markets/venue_3:${market}`)).status).toBe(200);
  });
});
