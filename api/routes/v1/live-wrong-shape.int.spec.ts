/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// A venue that answers 200 with well-formed JSON of the wrong shape (an error object, an empty
// object, an array where an object belongs) has given "no valid answer" (spec: "Errors", 502
// upstream_unavailable). The spot and wallet routes must not read such an answer as "no prices" or
// "no such profile": a client would conclude a range holds no seconds, or a username does not exist.
// The simulator's `malformed` fault sends cut-off JSON only, so this suite serves the wrong shapes itself.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';
import { PERMISSIONS } from '../table.ts';
import { createLiveDeps } from '../../live/io.ts';

/** The body the fake venue sends for a path (null: 404). */
let answer: (path: string) => unknown = () => null;
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = answer(new URL(req.url ?? '/', 'http://x').pathname);
    if (body === null) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((r) => server.close(() => r())));

async function app() {
  const t = await build({ deps: { live: createLiveDeps(baseUrl) } });
  const key = await t.createKey({ plan: 'business', permissions: [...PERMISSIONS] });
  return async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() as Record<string, any> };
  };
}

const END = Date.UTC(2026, 10, 20, 12);
const cases = (bodies: unknown[]) => bodies.map((w) => [JSON.stringify(w), w]);
/** Documented: {symbol, price, time}. */
const TICKERS = [{}, { error: 'Internal error' }, [], 'ok', 42, { symbol: 'BTCUSDT' }, { symbol: 'BTCUSDT', price: 'n/a', time: END }, { symbol: 'BTCUSDT', price: '1.5' }];
/** Documented: {symbol, ticks: [[t, "p"], ...]}; a tick that cannot be read would leave a second out of the range unannounced. */
const TICKS = [{}, { error: 'Internal error' }, [], 'ok', 42, { ticks: 'none' }, { ticks: [['x', '1.5']] }, { ticks: [{}] }, { ticks: [[END, '1.5'], [END - 1000]] }];
/** Documented: {profiles: [...]}; an object without `profiles` is an empty search (no matching: 404), but not one that carries an error. */
/** Documented: [{proxyWallet, conditionId, outcome, size, ...}]; a position that cannot be read would be left out of its page unannounced. */
const POSITIONS = [{}, { positions: [] }, 'ok', [{ conditionId: '0x' + 'a'.repeat(64), outcome: 'Yes' }], [{ conditionId: '0x' + 'a'.repeat(64), outcome: 'Yes', size: 5 }, { size: 3 }]];
const SEARCHES = [{ error: 'Internal error' }, [], 'ok', 42, { profiles: 'none' }, { profiles: {} }];

describe('a venue answer of the wrong shape is 502 upstream_unavailable', () => {
  it.each(cases(TICKERS))('spot latest price: ticker %s', async (_, w) => {
    answer = (p) => (p.endsWith('/ticker/price') ? w : null);
    const get = await app();
    const r = await get('/v1/crypto-prices/spot?currency=btcusdt');
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
  });

  it.each(cases(TICKS))('spot range: ticks %s', async (_, w) => {
    answer = (p) => (p.endsWith('/ticks') ? w : null);
    const get = await app();
    const r = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${END - 10_000}&end_time=${END}`);
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
  });

  it.each(cases(SEARCHES))('wallet profile and positions by username: search %s', async (_, w) => {
    answer = (p) => (p.endsWith('/profiles/search') ? w : null);
    const get = await app();
    for (const url of ['/v1/marketplace/wallet?username=someone', '/v1/marketplace/wallet/positions?username=someone']) {
      const r = await get(url);
      expect(r.status, url).toBe(502);
      expect(r.body, url).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
    }
  });

  it.each(cases(POSITIONS))('wallet positions by address: %s', async (_, w) => {
    answer = (p) => (p.endsWith('/positions') ? w : null);
    const get = await app();
    const r = await get(`/v1/marketplace/wallet/positions?address=0x${'1'.repeat(40)}`);
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
  });

  // Event detail: an answer without the venue's list of markets (children, for venue_9) is not an
  // event with no markets; the title would be made up from the id.
  const EVENTS: Array<[string, string, unknown]> = [];
  for (const [id, list] of [
    ['KXNBAGAME-26NOV20MEMDET', 'markets'],
    ['venue_2:12345', 'markets'],
    ['venue_2:some-event-slug', 'markets'],
    ['venue_6:01ARZ3NDEKTSV4RRFFQ69G5FAV', 'markets'],
    ['venue_7:123', 'markets'],
    [`venue_9:0x${'a'.repeat(64)}`, 'children'],
  ] as const) {
    for (const w of [{}, { error: 'Internal error' }, { title: 'A title', [list]: 'none' }]) EVENTS.push([id, JSON.stringify(w), w]);
  }
  it.each(EVENTS)('event detail %s: %s', async (id, _, w) => {
    answer = () => w;
    const get = await app();
    const r = await get(`/v1/events/${id}`);
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
  });

  it('a venue_1 sibling that answers without its markets list is missing, not returned', async () => {
    const primary = { event: { event_ticker: 'KXNBAGAME-26NOV20MEMDET', title: 'Memphis at Detroit' }, markets: [{ ticker: 'KXNBAGAME-26NOV20MEMDET-MEM', title: 'Winner?' }] };
    answer = (p) => (p.endsWith('/KXNBAGAME-26NOV20MEMDET') ? primary : p.endsWith('/KXNBASPREAD-26NOV20MEMDET') ? { error: 'Internal error' } : p.endsWith('/KXNBATOTAL-26NOV20MEMDET') ? {} : null);
    const get = await app();
    const r = await get('/v1/events/KXNBAGAME-26NOV20MEMDET');
    expect(r.status).toBe(200);
    expect(r.body.markets).toEqual([{ market_id: 'KXNBAGAME-26NOV20MEMDET-MEM', title: 'Winner?' }]);
    expect(r.body.fanout.siblings_missing.sort()).toEqual(['KXNBASPREAD', 'KXNBATOTAL']);
    expect(r.body.fanout.siblings_returned).toEqual([]);
  });

  it('the well-formed answers of the same fake venue still answer 200 / 404 (the test can tell them apart)', async () => {
    const get = await app();
    answer = (p) => (p.endsWith('/ticker/price') ? { symbol: 'BTCUSDT', price: '100.5', time: END } : p.endsWith('/ticks') ? { ticks: [[END, '100.5']] } : p.endsWith('/profiles/search') ? { profiles: [] } : null);
    const latest = await get('/v1/crypto-prices/spot?currency=btcusdt');
    expect(latest.status).toBe(200);
    expect(latest.body.data).toEqual([{ symbol: 'btcusdt', value: 100.5, timestamp: END }]);
    const range = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${END - 10_000}&end_time=${END}`);
    expect(range.body.data).toEqual([{ symbol: 'btcusdt', value: 100.5, timestamp: END }]);
    answer = (p) => (p.endsWith('/positions') ? [{ conditionId: '0x' + 'A'.repeat(64), outcome: 'Yes', size: 5 }] : null);
    const held = await get(`/v1/marketplace/wallet/positions?address=0x${'1'.repeat(40)}`);
    expect(held.status).toBe(200);
    expect(held.body.data).toEqual([{ condition_id: '0x' + 'a'.repeat(64), outcome: 'Yes', shares: 5 }]);
    // An empty search is "no matching": 404, not 502; so is a search answer without `profiles`.
    for (const search of [{ profiles: [] }, {}, { profiles: null }]) {
      answer = (p) => (p.endsWith('/profiles/search') ? search : null);
      const nobody = await get('/v1/marketplace/wallet?username=someone');
      expect(nobody.status, JSON.stringify(search)).toBe(404);
      expect(nobody.body.code).toBe('profile_not_found');
    }
  });
});
