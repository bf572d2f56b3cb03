// The headers the spec puts on every authenticated response, checked on each live route this API
// serves (spot prices, wallet profile, wallet positions, event detail), on a 200 and on the route's
// own 4xx: X-RateLimit-Limit (the plan's rate_limit_per_min), X-RateLimit-Remaining,
// X-RateLimit-Reset (Unix seconds, ahead of now), X-Request-Id (generated, a client's not echoed),
// JSON content type, `Vary: Accept-Encoding`, and a gzip body for a client that asks for one
// (spec: "Limits", "Errors", "Endpoints"). The shell's own suite checks these on one route only.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { buildWallets } from '../../../pipelines/venues/simulator/wallet.ts';
import { liveApp, simJson } from '../../live/testkit.ts';

let sim: Simulator;
let urls: Array<[string, string, number]>;
beforeAll(async () => {
  sim = await startSimulator({ seed: 11 });
  const w = buildWallets(11)[0];
  const { markets } = await simJson(sim, '/venue_1/markets?series_ticker=KXNBAGAME&limit=1');
  urls = [
    ['spot latest', '/v1/crypto-prices/spot?currency=btcusdt', 200],
    ['spot bad range', '/v1/crypto-prices/spot?currency=btcusdt&start_time=5&end_time=4', 400],
    ['wallet', `/v1/marketplace/wallet?address=${w.proxy}`, 200],
    ['wallet unknown', `/v1/marketplace/wallet?address=0x${'1'.repeat(40)}`, 404],
    ['positions', `/v1/marketplace/wallet/positions?address=${w.proxy}&limit=2`, 200],
    ['positions bad cursor', `/v1/marketplace/wallet/positions?address=${w.proxy}&cursor=abc`, 400],
    ['event', `/v1/events/${markets[0].event_ticker}`, 200],
    ['event unknown', '/v1/events/KXNBAGAME-99JAN01ZZZYYY', 404],
  ];
});
afterAll(async () => sim?.close());

describe('headers on every live route', () => {
  it('rate-limit headers, a fresh X-Request-Id, JSON, Vary, gzip on request', async () => {
    const { t } = await liveApp(sim);
    const k = await t.createKey({ plan: 'starter', permissions: ['crypto.prices.read', 'marketplace.wallet.read', 'marketplace.positions.read', 'events.read'] });
    for (const [name, url, status] of urls) {
      const before = Math.floor(Date.now() / 1000);
      const res = await t.app.inject({ url, headers: { ...t.auth(k), 'x-request-id': 'client-chosen' } });
      expect(res.statusCode, name).toBe(status);
      expect(res.headers['x-ratelimit-limit'], name).toBe('60'); // starter: 60 a minute
      expect(Number(res.headers['x-ratelimit-remaining']), name).toBeGreaterThanOrEqual(0);
      expect(String(res.headers['x-ratelimit-reset']), name).toMatch(/^\d+$/);
      expect(Number(res.headers['x-ratelimit-reset']), name).toBeGreaterThanOrEqual(before);
      expect(res.headers['x-request-id'], name).toEqual(expect.any(String));
      expect(res.headers['x-request-id'], name).not.toBe('client-chosen');
      expect(res.headers['content-type'], name).toMatch(/^application\/json\b/);
      expect(String(res.headers.vary).toLowerCase(), name).toContain('accept-encoding');
      if (status >= 400) expect(res.json(), name).toMatchObject({ status_code: status, code: expect.any(String), message: expect.any(String) });

      const gz = await t.app.inject({ url, headers: { ...t.auth(k), 'accept-encoding': 'gzip' } });
      expect(gz.statusCode, name).toBe(status);
      expect(gz.headers['content-encoding'], name).toBe('gzip');
      const body = JSON.parse(gunzipSync(gz.rawPayload).toString());
      expect(Object.keys(body), name).toEqual(Object.keys(res.json()));
    }
  });
});
