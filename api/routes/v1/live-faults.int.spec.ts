// Upstream faults on the live routes, driven by the simulator's fault injection (spec: "Errors":
// upstream_rate_limited, upstream_rejected, upstream_unavailable; "Limits": per-request deadline).
// The deadline is shortened with UPSTREAM_DEADLINE_MS so the slow case takes milliseconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../pipelines/venues/simulator/server.ts';
import type { Fault, VenueId } from '../../../pipelines/venues/simulator/core.ts';
import { buildWallets } from '../../../pipelines/venues/simulator/wallet.ts';
import { request } from 'undici';
import { liveApp, simJson } from '../../live/testkit.ts';

let sim: Simulator;
let ids: Record<string, { venue: VenueId; url: string }>;
beforeAll(async () => {
  sim = await startSimulator({ seed: 11 });
  const [m1] = (await simJson(sim, '/venue_1/markets?category=Sports&limit=1')).markets;
  const [m3] = (await simJson(sim, '/venue_3/v1/markets?per_page=1')).data;
  const [m7] = (await simJson(sim, '/venue_7/events?count=1')).events;
  ids = {
    market_v1: { venue: 'venue_1', url: `/v1/markets/${m1.ticker}` },
    market_v3: { venue: 'venue_3', url: `/v1/markets/venue_3:${m3.id}` },
    event_v7: { venue: 'venue_7', url: `/v1/events/venue_7:${m7.event_id}` },
    wallet: { venue: 'venue_2', url: `/v1/marketplace/wallet?address=${buildWallets(11)[0].proxy}` },
    // The username path (the venue's search) and positions (by address, and by username: a search then the positions read).
    wallet_username: { venue: 'venue_2', url: `/v1/marketplace/wallet?username=${encodeURIComponent(buildWallets(11)[0].name)}` },
    positions: { venue: 'venue_2', url: `/v1/marketplace/wallet/positions?address=${buildWallets(11)[0].proxy}` },
    positions_username: { venue: 'venue_2', url: `/v1/marketplace/wallet/positions?username=${encodeURIComponent(buildWallets(11)[0].name)}` },
    // venue_1 event detail (the primary fetch of a sports event with siblings).
    event_v1: { venue: 'venue_1', url: `/v1/events/${m1.event_ticker}` },
  };
});
afterAll(async () => {
  await sim?.close();
});

async function withFault<T>(venue: VenueId, fault: Fault, f: () => Promise<T>): Promise<T> {
  sim.faults.set(venue, fault);
  try {
    return await f();
  } finally {
    sim.faults.set(venue, null);
  }
}

describe.each(['market_v1', 'market_v3', 'event_v7', 'event_v1', 'wallet', 'wallet_username', 'positions', 'positions_username'])('%s', (name) => {
  it('venue 429 with Retry-After is 429 upstream_rate_limited with Retry-After', async () => {
    const { get } = await liveApp(sim);
    const { venue, url } = ids[name];
    const r = await withFault(venue, { kind: 'rate_limit', retry_after_s: 7 }, () => get(url));
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ code: 'upstream_rate_limited', status_code: 429 });
    expect(r.headers['retry-after']).toBe('7');
  });

  it('venue 429 without Retry-After is 429 without the header', async () => {
    const { get } = await liveApp(sim);
    const { venue, url } = ids[name];
    const r = await withFault(venue, { kind: 'rate_limit' }, () => get(url));
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('upstream_rate_limited');
    expect(r.headers['retry-after']).toBeUndefined();
  });

  it('a venue rejection is 400 upstream_rejected', async () => {
    const { get } = await liveApp(sim);
    const { venue, url } = ids[name];
    const r = await withFault(venue, { kind: 'reject' }, () => get(url));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('upstream_rejected');
    expect(r.body.message).toContain(venue);
  });

  it.each(['down', 'refuse', 'malformed'] as const)('%s is 502 upstream_unavailable', async (kind) => {
    const { get } = await liveApp(sim);
    const { venue, url } = ids[name];
    const r = await withFault(venue, { kind }, () => get(url));
    expect(r.status).toBe(502);
    expect(r.body.code).toBe('upstream_unavailable');
  });

  it('slower than the deadline is 502 upstream_unavailable, answered at the deadline', async () => {
    const { get } = await liveApp(sim, { UPSTREAM_DEADLINE_MS: '300' });
    const { venue, url } = ids[name];
    const t0 = Date.now();
    const r = await withFault(venue, { kind: 'slow', delay_ms: 8000 }, () => get(url));
    const took = Date.now() - t0;
    expect(r.status).toBe(502);
    expect(r.body.code).toBe('upstream_unavailable');
    expect(took).toBeLessThan(6000); // not waiting for the venue's 8 s answer
  });
});

describe('spot venue (its own fault switch)', () => {
  const setSpot = (body: Record<string, unknown>) => request(`${sim.baseUrl}/spot/__admin/fault`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }).then((r) => r.body.text());
  const url = '/v1/crypto-prices/spot?currency=btcusdt';
  it.each([
    [{ kind: 'rate_limit', retry_after_s: 4 }, 429, 'upstream_rate_limited', '4'],
    [{ kind: 'rate_limit' }, 429, 'upstream_rate_limited', undefined],
    [{ kind: 'reject' }, 400, 'upstream_rejected', undefined],
    [{ kind: 'down' }, 502, 'upstream_unavailable', undefined],
    [{ kind: 'refuse' }, 502, 'upstream_unavailable', undefined],
    [{ kind: 'malformed' }, 502, 'upstream_unavailable', undefined],
  ] as const)('%o -> %i %s', async (fault, status, code, retryAfter) => {
    const { get } = await liveApp(sim);
    await setSpot(fault);
    try {
      const r = await get(url);
      expect(r.status).toBe(status);
      expect(r.body.code).toBe(code);
      expect(r.headers['retry-after']).toBe(retryAfter);
    } finally {
      await setSpot({ kind: 'none' });
    }
    expect((await get(url)).status).toBe(200);
  });

  it('slower than the deadline is 502', async () => {
    const { get } = await liveApp(sim, { UPSTREAM_DEADLINE_MS: '300' });
    await setSpot({ kind: 'slow', delay_ms: 8000 });
    try {
      const r = await get(url);
      expect(r.status).toBe(502);
      expect(r.body.code).toBe('upstream_unavailable');
    } finally {
      await setSpot({ kind: 'none' });
    }
  });
});
