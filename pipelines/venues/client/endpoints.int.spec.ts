// Per-venue endpoints over HTTP: a venue on a host of its own gets its paths without the shared
// host's prefix and its key as a bearer token; its request budget holds for live reads (a read that
// would wait past its deadline answers 429 at once) and a poller crawls through it.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/errors.ts';
import type { RawRecord } from '../../topics.ts';
import { VenuePoller } from '../pollers/poller.ts';
import { startSimulator, type Simulator } from '../simulator/server.ts';
import { VenueEndpoints } from './endpoints.ts';
import { VenueHttp } from './http.ts';

/** Nothing listens here: a read that went to the shared host would fail. */
const DEAD = 'http://127.0.0.1:9';

let venue: FastifyInstance;
let venueUrl: string;
const seen: { url: string; auth: string | undefined }[] = [];
let sim: Simulator;

beforeAll(async () => {
  venue = Fastify();
  venue.get('/v2/markets/:id', async (req) => {
    seen.push({ url: req.url, auth: req.headers.authorization });
    return { id: (req.params as { id: string }).id };
  });
  venueUrl = await venue.listen({ port: 0, host: '127.0.0.1' });
  sim = await startSimulator({ seed: 11, scale: 0.02, scenario: 'none' });
});
afterAll(async () => {
  await venue.close();
  await sim.close();
});

describe('live reads through per-venue endpoints', () => {
  it('go to the venue\'s own host with its key, and past its budget answer 429 with Retry-After', async () => {
    const key = `key-${Math.random().toString(36).slice(2)}`;
    const http = new VenueHttp({ baseUrl: DEAD, endpoints: new VenueEndpoints(DEAD, { venue_3: { baseUrl: `${venueUrl}/v2`, apiKey: key, rps: 1 } }) });
    try {
      seen.length = 0;
      const signal = AbortSignal.timeout(5_000);
      // rps 1: the first goes at once, the second waits its second (within the 1 s a read may wait),
      // the third would wait two and is refused before anything is sent.
      const results = await Promise.allSettled([1, 2, 3].map((i) => http.getJson('venue_3', `/venue_3/markets/${i}`, { q: 'x' }, signal)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((results[0] as PromiseFulfilledResult<unknown>).value).toEqual({ id: '1' });
      const err = (results[2] as PromiseRejectedResult).reason as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect([err.code, err.statusCode]).toEqual(['upstream_rate_limited', 429]);
      expect(err.message).toContain('venue_3 allows 1 requests/s');
      expect(Number(err.options.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
      expect(seen).toEqual([
        { url: '/v2/markets/1?q=x', auth: `Bearer ${key}` },
        { url: '/v2/markets/2?q=x', auth: `Bearer ${key}` },
      ]);
    } finally {
      await http.close();
    }
  });
});

describe('a poller through per-venue endpoints', () => {
  it('crawls a venue from its own base URL while the shared host is down', async () => {
    const got: RawRecord[] = [];
    const p = new VenuePoller({
      provider: 'venue_2',
      baseUrl: DEAD,
      endpoints: new VenueEndpoints(DEAD, { venue_2: { baseUrl: `${sim.baseUrl}/venue_2`, rps: 1000 } }),
      sink: async (_p, recs) => void got.push(...recs),
      crawlIntervalMs: 60_000,
      deadlineMs: 2_000,
      pageAttempts: 1,
    });
    try {
      expect(await p.crawlOnce()).toBe(true);
      expect(got.filter((r) => r.record_type === 'market').length).toBeGreaterThan(10);
      expect(got.every((r) => r.venue === 'venue_2')).toBe(true);
    } finally {
      await p.stop();
    }
  });
});
