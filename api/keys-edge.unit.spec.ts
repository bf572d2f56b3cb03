// Regression tests of how a key can be sent, through app.inject (spec: "Authentication": "A key is
// sent only in the header, never in the query string"; "A missing header: 401 missing_api_key (the
// message says what was sent instead, if anything)"). A key value sent anywhere is never echoed in
// an error body, whatever else is wrong with the request.
import { describe, it, expect } from 'vitest';
import { build } from '../test/helper.ts';
import type { Permission } from './routes/table.ts';

describe('a key sent in the query string is never echoed', () => {
  it('not in errors[] of an unknown_parameter (with a header, or on the public plans route), nor in a malformed pair', async () => {
    const t = await build();
    const key = await t.createKey();
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['/v1/categories?api_key=pmk_SECRET1&foo=1', t.auth(key), 400, 'unknown_parameter'],
      ['/v1/plans?api_key=pmk_SECRET2&x=1', {}, 400, 'unknown_parameter'],
      ['/v1/markets?token=pmk_SECRET3&access_token=pmk_SECRET4', t.auth(key), 400, 'unknown_parameter'],
      ['/v1/categories?api_key=pmk_SECRET5%zz', {}, 400, 'invalid_parameter'],
      ['/v1/categories?api_key=pmk_SECRET6;x', {}, 400, 'invalid_parameter'],
      ['/v1/categories?x=%zz&apikey=pmk_SECRET7%zz', {}, 400, 'invalid_parameter'],
      ['/v1/categories?x=1;API_KEY=pmk_SECRET9;y=2', {}, 400, 'invalid_parameter'],
    ];
    for (const [url, headers, status, code] of cases) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, url).toBe(status);
      expect(res.json().code, url).toBe(code);
      expect(res.body, url).not.toMatch(/SECRET/);
    }
    // What was wrong is still said: the parameter by name, its value redacted.
    const unknown = (await t.app.inject({ url: cases[0][0], headers: t.auth(key) })).json();
    expect(unknown.errors).toEqual([
      { param: 'api_key', value: '[redacted]', message: expect.stringContaining('unknown parameter "api_key"') },
      { param: 'foo', value: '1', message: expect.stringContaining('unknown parameter "foo"') },
    ]);
    const bad = (await t.app.inject({ url: cases[3][0] })).json();
    expect(bad.message).toContain('"api_key=[redacted]"');
  });

  it('an empty Authorization header is a missing one: a key in the query string is then 401 missing_api_key saying so', async () => {
    const t = await build();
    const res = await t.app.inject({ url: '/v1/categories?token=pmk_SECRET8', headers: { authorization: '' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'missing_api_key', message: expect.stringContaining('query string ("token")') });
    expect(res.body).not.toMatch(/SECRET/);
  });
});

describe('the Bearer scheme', () => {
  it('is matched case-insensitively (RFC 9110 11.1) and the key is read past extra spaces', async () => {
    const t = await build();
    const key = await t.createKey();
    for (const authorization of [`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}`]) {
      const res = await t.app.inject({ url: '/v1/categories', headers: { authorization } });
      expect(res.statusCode, authorization.slice(0, 10)).toBe(200);
    }
    // A key of exactly 256 characters is looked up (unknown here); 257 is refused for its length.
    const at = await t.app.inject({ url: '/v1/categories', headers: t.auth('k'.repeat(256)) });
    expect(at.json()).toMatchObject({ code: 'invalid_api_key', message: expect.stringContaining('unknown or has been revoked') });
    const over = await t.app.inject({ url: '/v1/categories', headers: t.auth('k'.repeat(257)) });
    expect(over.json()).toMatchObject({ code: 'invalid_api_key', message: expect.stringContaining('at most 256 characters') });
    // Messages never quote the key sent.
    for (const res of [at, over]) expect(res.body).not.toContain('kkkkkkkkkk');
  });
});

describe('permissions (spec: Authentication, the permission table)', () => {
  // The spec's table, written out here rather than read from the route table it checks; the lookup's
  // permission is the service's choice ("not shown" in the spec), as are the two routes beyond it.
  const TABLE: Array<[string, Permission]> = [
    ['/v1/matching-markets/sports', 'markets.matching.read'],
    ['/v1/matching-markets/sports/lookup?event_id=x', 'markets.matching.read'],
    ['/v1/markets', 'markets.read'],
    ['/v1/categories', 'markets.read'],
    ['/v1/markets/venue_1:KX-1', 'markets.read'],
    ['/v1/markets/venue_1:KX-1/history', 'markets.read'],
    ['/v1/events/venue_1:KX-1', 'events.read'],
    ['/v1/crypto-prices/spot?currency=btcusd', 'crypto.prices.read'],
    ['/v1/marketplace/wallet?username=x', 'marketplace.wallet.read'],
    ['/v1/marketplace/wallet/positions?username=x', 'marketplace.positions.read'],
    ['/v1/stream?channel=catalog', 'stream.read'],
  ];
  const ALL: readonly Permission[] = ['markets.matching.read', 'markets.read', 'events.read', 'crypto.prices.read', 'marketplace.wallet.read', 'marketplace.positions.read', 'stream.read'];

  it('each route needs exactly its permission: every other one together is 403 naming it, that one alone is let through', async () => {
    const t = await build();
    for (const [url, perm] of TABLE) {
      const others = await t.createKey({ permissions: ALL.filter((p) => p !== perm) });
      const refused = await t.app.inject({ url, headers: t.auth(others) });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json(), url).toEqual({ code: 'forbidden', message: expect.stringContaining(JSON.stringify(perm)), status_code: 403 });
      const only = await t.createKey({ permissions: [perm] });
      const passed = await t.app.inject({ url, headers: t.auth(only) });
      // Past the key check: whatever the route answers without its data sources, it is not a key error.
      expect([401, 402, 403], `${url} ${passed.statusCode} ${passed.body.slice(0, 80)}`).not.toContain(passed.statusCode);
    }
    // A key with no permission at all is 403 on every keyed route, and charged nothing.
    const none = await t.createKey({ permissions: [] });
    for (const [url] of TABLE) expect((await t.app.inject({ url, headers: t.auth(none) })).statusCode, url).toBe(403);
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(none) })).headers['x-ratelimit-remaining']).toBe('300');
  });
});
