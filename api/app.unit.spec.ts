// The shell through app.inject: every router-level error, every key/limit error and header of
// spec "Authentication", "Errors", "Limits", with the in-memory key store and a controlled clock.
import { gunzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { build } from '../test/helper.ts';
import { ApiError } from './errors.ts';
import { EncodedJson, JsonText } from './plugins/external/encoded.ts';
import type { PLANS } from './auth/plans.ts';
import { MemoryKeyStore } from './auth/memory-store.ts';
import { keyDisplayPrefix } from './auth/keys.ts';
import type { RouteHandler } from './types.ts';

const echo: RouteHandler = async (ctx) => ({ body: { query: ctx.query, typed: ctx.typed, params: ctx.params, key: ctx.key } });
const withEcho = { markets_list: echo, market_detail: echo, sports_list: echo, sports_lookup: echo, spot_prices: echo };

describe('router level (no key needed, answered before the key is read)', () => {
  it('404 route_not_found for a path matching no route, with X-Request-Id and no rate-limit headers', async () => {
    const t = await build();
    for (const url of ['/v1/nope', '/v2/markets', '/v1/markets/a/b', '/v1/plans/', '/']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ code: 'route_not_found', message: expect.stringContaining(JSON.stringify(url)), status_code: 404 });
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('405 method_not_allowed with Allow, repeated in the message', async () => {
    const t = await build();
    const res = await t.app.inject({ method: 'POST', url: '/v1/markets?limit=5' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json()).toMatchObject({ code: 'method_not_allowed', status_code: 405 });
    expect(res.json().message).toContain('"POST"');
    expect(res.json().message).toContain('allowed: GET');
    const del = await t.app.inject({ method: 'DELETE', url: '/v1/markets/venue_1:ABC' });
    expect(del.statusCode).toBe(405);
    const portal = await t.app.inject({ method: 'GET', url: '/v1/account/billing/portal' });
    expect(portal.statusCode).toBe(405);
    expect(portal.headers.allow).toBe('POST');
    const head = await t.app.inject({ method: 'HEAD', url: '/v1/plans' });
    expect(head.statusCode).toBe(405);
  });

  it('400 unknown_parameter names the key and lists the accepted ones; every unknown key in errors[]', async () => {
    const t = await build();
    const res = await t.app.inject({ url: '/v1/markets?foo=1&limit=5' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'unknown_parameter',
      message: 'unknown parameter "foo"; accepted parameters: limit, cursor, category, provider',
      status_code: 400,
      param: 'foo',
    });
    const two = (await t.app.inject({ url: '/v1/categories?a=1&b=2' })).json();
    expect(two.code).toBe('unknown_parameter');
    expect(two.message).toContain('this route accepts no query parameters');
    expect(two.errors.map((e: { param: string }) => e.param)).toEqual(['a', 'b']);
    expect(two.errors[1]).toMatchObject({ param: 'b', value: '2' });
    // The lookup route has no limit/cursor/list filters.
    const lookup = (await t.app.inject({ url: '/v1/matching-markets/sports/lookup?event_id=x&limit=3' })).json();
    expect(lookup).toMatchObject({ code: 'unknown_parameter', param: 'limit' });
    expect(lookup.message).toContain('accepted parameters: event_id, source_id, include_settled');
  });

  it('400 for retired names, naming the replacement', async () => {
    const t = await build();
    const cases: Array<[string, string, RegExp]> = [
      ['/v1/markets/venue_1:X?platform=venue_1', 'platform', /renamed to provider/],
      ['/v1/events/abc?platform=venue_2', 'platform', /renamed to provider/],
      ['/v1/crypto-prices/spot?currency=btcusd&pagination_key=abc', 'pagination_key', /renamed to cursor/],
      ['/v1/matching-markets/sports?event_id=nba-a-b-2026-01-01', 'event_id', /GET \/v1\/matching-markets\/sports\/lookup/],
      ['/v1/matching-markets/sports?source_id=venue_1:X', 'source_id', /GET \/v1\/matching-markets\/sports\/lookup/],
    ];
    for (const [url, param, re] of cases) {
      const body = (await t.app.inject({ url })).json();
      expect(body.status_code, url).toBe(400);
      expect(body.code).toBe('unknown_parameter');
      expect(body.param).toBe(param);
      expect(body.message).toMatch(re);
    }
  });

  it('400 invalid_parameter for a repeated parameter (except repeatable lookup ids) and for an empty filter or identifier', async () => {
    const t = await build({ handlers: withEcho });
    const rep = (await t.app.inject({ url: '/v1/markets?limit=5&limit=6' })).json();
    expect(rep).toMatchObject({ code: 'invalid_parameter', param: 'limit', status_code: 400 });
    expect(rep.message).toContain('"5", "6"');
    const empty = (await t.app.inject({ url: '/v1/markets?category=' })).json();
    expect(empty).toMatchObject({ code: 'invalid_parameter', param: 'category', message: 'parameter "category" must not be empty' });
    const ppm = (await t.app.inject({ url: '/v1/matching-markets/sports?player_prop_match=&league=' })).json();
    expect(ppm.errors.map((e: { param: string }) => e.param)).toEqual(['player_prop_match', 'league']);
    const emptyId = (await t.app.inject({ url: '/v1/matching-markets/sports/lookup?event_id=' })).json();
    expect(emptyId).toMatchObject({ code: 'invalid_parameter', param: 'event_id' });
    // A trailing slash is no identifier at all: 404 like every other trailing slash (api/edge.unit.spec.ts).
    const emptyPath = (await t.app.inject({ url: '/v1/markets/' })).json();
    expect(emptyPath).toMatchObject({ code: 'route_not_found' });
    // Repeatable lookup ids pass the router and reach the handler as arrays.
    const key = await t.createKey();
    const ok = await t.app.inject({ url: '/v1/matching-markets/sports/lookup?event_id=a&event_id=b&source_id=venue_5%3A%2312', headers: t.auth(key) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().query).toEqual({ event_id: ['a', 'b'], source_id: ['venue_5:#12'] });
    // include_rules= (empty) means false.
    const rules = await t.app.inject({ url: '/v1/matching-markets/sports?include_rules=', headers: t.auth(key) });
    expect(rules.json().typed.include_rules).toBe(false);
  });

  it('400 invalid_parameter quoting the pair for a malformed query string', async () => {
    const t = await build();
    const semi = (await t.app.inject({ url: '/v1/markets?limit=5;category=sports' })).json();
    expect(semi).toMatchObject({ code: 'invalid_parameter', status_code: 400 });
    expect(semi.message).toContain('"limit=5;category=sports"');
    const pct = (await t.app.inject({ url: '/v1/markets?limit=5&cursor=ab%zz' })).json();
    expect(pct.code).toBe('invalid_parameter');
    expect(pct.message).toContain('"cursor=ab%zz"');
    const trailing = (await t.app.inject({ url: '/v1/markets?category=sp%2' })).json();
    expect(trailing.message).toContain('"category=sp%2"');
    const both = (await t.app.inject({ url: '/v1/markets?a=%&b=1;c' })).json();
    expect(both.errors).toHaveLength(2);
    const badPath = await t.app.inject({ url: '/v1/markets/%zz' });
    expect(badPath.statusCode).toBe(400);
    expect(badPath.json().code).toBe('invalid_parameter');
    expect(badPath.headers['x-request-id']).toBeDefined();
  });
});

describe("Fastify's own errors are mapped into the catalog", () => {
  it('bad JSON, unsupported media type and an over-long path parameter answer in the catalog shape', async () => {
    const t = await build();
    const cases = [
      await t.app.inject({ method: 'POST', url: '/v1/account/billing/portal', headers: { 'content-type': 'application/json' }, payload: '{bad' }),
      await t.app.inject({ method: 'POST', url: '/v1/account/billing/portal', headers: { 'content-type': 'application/x-weird' }, payload: 'x' }),
      await t.app.inject({ url: `/v1/markets/${'A'.repeat(600)}` }),
    ];
    for (const res of cases) {
      const body = res.json();
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(body.status_code).toBe(res.statusCode);
      expect(Object.keys(body).sort()).toEqual(body.param === undefined ? ['code', 'message', 'status_code'] : ['code', 'message', 'param', 'status_code']);
      expect(body.message).not.toMatch(/FST_/);
      expect(res.headers['x-request-id']).toBeDefined();
    }
  });
});

describe('keys (spec: Authentication)', () => {
  it('401 missing_api_key says what was sent instead', async () => {
    const t = await build();
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{}, '/v1/categories', /send Authorization: Bearer <API_KEY>/],
      [{ authorization: 'Basic dXNlcjpwYXNz' }, '/v1/categories', /Basic/],
      [{ authorization: 'pmk_abc' }, '/v1/categories', /without a scheme/],
      [{ authorization: 'Bearer ' }, '/v1/categories', /no key/],
      [{}, '/v1/categories?api_key=pmk_secret', /query string \("api_key"\)/],
      [{}, '/v1/markets?limit=2&key=pmk_secret', /query string \("key"\)/],
      [{ 'x-api-key': 'pmk_secret' }, '/v1/categories', /x-api-key header/],
    ];
    for (const [headers, url, re] of cases) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe('missing_api_key');
      expect(res.json().message).toMatch(re);
      expect(res.json().message).not.toContain('pmk_secret');
    }
  });

  it('401 invalid_api_key for an unknown or revoked key and for any key over 256 characters', async () => {
    const t = await build();
    const unknown = await t.app.inject({ url: '/v1/categories', headers: t.auth('pmk_nope') });
    expect(unknown.json()).toMatchObject({ code: 'invalid_api_key', status_code: 401 });
    const long = await t.app.inject({ url: '/v1/categories', headers: t.auth('k'.repeat(257)) });
    expect(long.json().code).toBe('invalid_api_key');
    expect(long.json().message).toContain('257');
    const key = await t.createKey();
    const [rec] = await t.authDeps.admin.list();
    await t.authDeps.admin.revoke(rec.id);
    const revoked = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('a key answered before (its stored form remembered) is refused on the very next request once revoked; a rerolled key likewise, the new value accepted', async () => {
    const t = await build();
    const a = await t.createKey({ account: 'acct_forms' });
    const b = await t.createKey({ account: 'acct_forms' });
    for (const key of [a, b, a, b]) expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode).toBe(200);
    const listed = await t.authDeps.admin.list('acct_forms');
    const ra = listed.find((r) => r.prefix === keyDisplayPrefix(a))!;
    const rb = listed.find((r) => r.prefix === keyDisplayPrefix(b))!;
    await t.authDeps.admin.revoke(ra.id);
    const revoked = await t.app.inject({ url: '/v1/categories', headers: t.auth(a) });
    expect(revoked.json()).toMatchObject({ code: 'invalid_api_key', status_code: 401 });
    expect(revoked.headers['x-ratelimit-limit']).toBeUndefined();
    const fresh = await t.authDeps.admin.reroll(rb.id);
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(b) })).json().code).toBe('invalid_api_key');
    const ok = await t.app.inject({ url: '/v1/categories', headers: t.auth(fresh) });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBeDefined();
    // Still refused on later requests (the refused key was forgotten, not remembered again).
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(a) })).statusCode).toBe(401);
  });

  it('the same key under another pepper is another stored form: an app with a different KEY_PEPPER refuses a key the first accepts', async () => {
    const store = new MemoryKeyStore();
    const one = await build({ store });
    const key = await one.createKey();
    expect((await one.app.inject({ url: '/v1/categories', headers: one.auth(key) })).statusCode).toBe(200);
    const other = await build({ store, env: { KEY_PEPPER: `${one.config.KEY_PEPPER}-other` } });
    expect((await other.app.inject({ url: '/v1/categories', headers: other.auth(key) })).json().code).toBe('invalid_api_key');
    expect((await one.app.inject({ url: '/v1/categories', headers: one.auth(key) })).statusCode).toBe(200);
  });

  it('403 forbidden per the permission table (lookup needs markets.matching.read)', async () => {
    const t = await build({ handlers: withEcho });
    const key = await t.createKey({ permissions: ['events.read'] });
    for (const url of ['/v1/categories', '/v1/markets', '/v1/matching-markets/sports', '/v1/matching-markets/sports/lookup?event_id=x', '/v1/crypto-prices/spot']) {
      const res = await t.app.inject({ url, headers: t.auth(key) });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    const lookupKey = await t.createKey({ permissions: ['markets.matching.read'] });
    const ok = await t.app.inject({ url: '/v1/matching-markets/sports/lookup?event_id=x', headers: t.auth(lookupKey) });
    expect(ok.statusCode).toBe(200);
  });

  it('403 forbidden is an authenticated response: it carries X-RateLimit-* as the window stands, uncharged', async () => {
    const t = await build({ handlers: withEcho });
    const key = await t.createKey({ plan: 'starter', permissions: ['events.read', 'markets.read'] });
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode).toBe(200);
    const res = await t.app.inject({ url: '/v1/crypto-prices/spot', headers: t.auth(key) });
    expect(res.statusCode).toBe(403);
    expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining'], res.headers['x-ratelimit-reset']]).toEqual(['60', '59', String(Math.ceil((t.clock.now + 60_000) / 1000))]);
    expect(res.headers['retry-after']).toBeUndefined();
    // Not charged: the next charged request sees 58 left.
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).headers['x-ratelimit-remaining']).toBe('58');
  });

  it('502 upstream_unavailable when the key store cannot be reached', async () => {
    const store = new MemoryKeyStore();
    store.authorize = async () => {
      throw new Error('ECONNREFUSED');
    };
    const t = await build({ store });
    const res = await t.app.inject({ url: '/v1/categories', headers: t.auth('pmk_whatever') });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'upstream_unavailable', status_code: 502 });
  });

  it('the session-only billing route answers 401 to API-key requests', async () => {
    const t = await build();
    const key = await t.createKey();
    const res = await t.app.inject({ method: 'POST', url: '/v1/account/billing/portal', headers: t.auth(key) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain('account session');
  });
});

describe('limits (spec: Limits)', () => {
  it('X-RateLimit-* on authenticated responses; 429 rate_limited with whole-second Retry-After; recovers on the rolling window', async () => {
    const t = await build({ now: Date.UTC(2026, 10, 21, 12, 0, 0, 500) });
    const key = await t.createKey({ plan: 'free' });
    const t0 = t.clock.now;
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('10');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(9 - i));
      expect(res.headers['x-ratelimit-reset']).toBe(String(Math.ceil((t0 + 60_000) / 1000)));
      t.clock.advance(1000);
    }
    t.clock.set(t0 + 58_200);
    const limited = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', status_code: 429 });
    expect(limited.headers['retry-after']).toBe('2'); // 1.8 s until the first request ages out
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    t.clock.set(t0 + 60_000);
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode).toBe(429);
    // Router-level errors carry no rate-limit headers and are not charged.
    const unknown = await t.app.inject({ url: '/v1/categories?x=1', headers: t.auth(key) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('402 payment_required, upgrade_plan, for a Free key past its monthly allowance', async () => {
    const t = await build();
    const key = await t.createKey({ plan: 'free', account: 'free-acct' });
    for (let i = 0; i < 1000; i++) {
      t.clock.advance(6001);
      const res = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
      if (res.statusCode !== 200) throw new Error(`request ${i}: ${res.statusCode}`);
    }
    t.clock.advance(6001);
    const res = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      code: 'payment_required',
      message: expect.stringContaining('1000'),
      status_code: 402,
      action: 'upgrade_plan',
      required_tier: 'starter',
      current_tier: 'free',
      included_requests_per_month: 1000,
      current_period_requests: 1000,
    });
    expect(res.headers['x-ratelimit-limit']).toBe('10');
  }, 30_000);

  it('a paid subscription in payment recovery is served as Free and gets resolve_payment', async () => {
    const t = await build();
    const key = await t.createKey({ plan: 'business', paymentState: 'unpaid', account: 'late' });
    const first = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(first.headers['x-ratelimit-limit']).toBe('10');
    for (let i = 0; i < 999; i++) {
      t.clock.advance(6001);
      await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    }
    t.clock.advance(6001);
    const res = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ action: 'resolve_payment', required_tier: 'business', current_tier: 'free', current_period_requests: 1000 });
  }, 30_000);
});

describe('every response', () => {
  it('X-Request-Id is generated per request; a client-sent one is ignored, not echoed', async () => {
    const t = await build();
    const a = await t.app.inject({ url: '/v1/plans', headers: { 'x-request-id': 'client-chosen' } });
    const b = await t.app.inject({ url: '/v1/plans' });
    expect(a.headers['x-request-id']).not.toBe('client-chosen');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    expect(String(a.headers['x-request-id']).length).toBeLessThanOrEqual(16);
  });

  it('gzip for Accept-Encoding: gzip, and Vary: Accept-Encoding on every response', async () => {
    const t = await build();
    const key = await t.createKey();
    const plain = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await t.app.inject({ url: '/v1/categories', headers: { ...t.auth(key), 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    const err = await t.app.inject({ url: '/v1/nope', headers: { 'accept-encoding': 'gzip' } });
    expect(err.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(err.rawPayload).toString()).code).toBe('route_not_found');
    expect((await t.app.inject({ url: '/v1/nope' })).headers.vary).toBe('Accept-Encoding');
    const refused = await t.app.inject({ url: '/v1/plans', headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const star = await t.app.inject({ url: '/v1/plans', headers: { 'accept-encoding': 'br;q=1, *;q=0.1' } });
    expect(star.headers['content-encoding']).toBe('gzip');
    const plans405 = await t.app.inject({ method: 'PUT', url: '/v1/plans', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(plans405.headers['content-encoding']).toBe('gzip');
    expect(plans405.headers.allow).toBe('GET');
    // The OpenAPI document, gzipped.
    const big = await t.app.inject({ url: '/v1/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(JSON.parse(gunzipSync(big.rawPayload).toString()).openapi).toBe('3.1.0');
  });

  it('gzip compressed here (small bodies) or off the loop (large ones): the whole body, for JSON, JsonText and EncodedJson bodies', async () => {
    const small = { a: 1, text: 'x'.repeat(100) };
    const large = { rows: Array.from({ length: 4000 }, (_, i) => ({ i, text: `row ${i} `.repeat(4) })) };
    for (const [name, body] of [['small', small], ['large', large]] as const) {
      const forms: [string, unknown][] = [
        ['object', body],
        ['JsonText', new JsonText(JSON.stringify(body))],
        ['EncodedJson', new EncodedJson(JSON.stringify(body))],
      ];
      for (const [form, sent] of forms) {
        const t = await build({ handlers: { market_detail: async () => ({ body: sent }) } });
        const key = await t.createKey();
        const res = await t.app.inject({ url: '/v1/markets/venue_3:42', headers: { ...t.auth(key), 'accept-encoding': 'gzip' } });
        expect([res.statusCode, res.headers['content-encoding'], res.headers.vary, res.headers['content-type']], `${name} ${form}`).toEqual([200, 'gzip', 'Accept-Encoding', 'application/json; charset=utf-8']);
        expect(JSON.parse(gunzipSync(res.rawPayload).toString()), `${name} ${form}`).toEqual(body);
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        const plain = await t.app.inject({ url: '/v1/markets/venue_3:42', headers: t.auth(key) });
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.json()).toEqual(body);
      }
    }
  });

  it('a route without a handler yet answers 503 service_unavailable (after auth)', async () => {
    const t = await build({ onlyHandlers: {} });
    const key = await t.createKey();
    const res = await t.app.inject({ url: '/v1/markets', headers: t.auth(key) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable', status_code: 503 });
    expect((await t.app.inject({ url: '/v1/markets' })).statusCode).toBe(401);
  });

  it('handler errors: ApiError passes through with rate headers; anything else is 503 in the catalog shape', async () => {
    const t = await build({
      handlers: {
        market_detail: async (ctx) => {
          throw new ApiError('market_not_found', `no market ${JSON.stringify(ctx.params.market_id)}`, { param: 'market_id' });
        },
        event_detail: async () => {
          throw new TypeError('boom');
        },
      },
    });
    const key = await t.createKey();
    const nf = await t.app.inject({ url: '/v1/markets/venue_1:NOPE', headers: t.auth(key) });
    expect(nf.json()).toEqual({ code: 'market_not_found', message: 'no market "venue_1:NOPE"', status_code: 404, param: 'market_id' });
    expect(nf.headers['x-ratelimit-limit']).toBe('300');
    const boom = await t.app.inject({ url: '/v1/events/x', headers: t.auth(key) });
    expect(boom.json()).toMatchObject({ code: 'service_unavailable', status_code: 503 });
    expect(boom.body).not.toContain('boom');
  });

  it('generic value checks after auth: every problem in errors[], the body message describes the first', async () => {
    const t = await build({ handlers: withEcho });
    const key = await t.createKey();
    const res = (await t.app.inject({ url: '/v1/matching-markets/sports?limit=500&league=NFLX&scheduled_date=2026-02-30&include_rules=yes', headers: t.auth(key) })).json();
    expect(res.code).toBe('invalid_parameter');
    expect(res.param).toBe('limit');
    expect(res.message).toBe('limit must be an integer from 1 to 100; got "500"');
    expect(res.errors.map((e: { param: string }) => e.param)).toEqual(['limit', 'league', 'scheduled_date', 'include_rules']);
    expect(res.errors[1].value).toBe('NFLX');
    const ok = (await t.app.inject({ url: '/v1/matching-markets/sports?league=NBA&include_submarkets=TRUE', headers: t.auth(key) })).json();
    expect(ok.typed).toMatchObject({ league: 'nba', include_submarkets: true, limit: 25, include_settled: false, include_rules: false });
    expect(ok.key).toMatchObject({ plan: 'pro' });
    const noKey = await t.app.inject({ url: '/v1/matching-markets/sports?limit=500' });
    expect(noKey.statusCode).toBe(401);
    const spot = (await t.app.inject({ url: '/v1/crypto-prices/spot?currency=BTCUSD&start_time=-5&end_time=1700000000000', headers: t.auth(key) })).json();
    expect(spot.typed).toMatchObject({ currency: 'BTCUSD', start_time: -5, end_time: 1700000000000, limit: 100 });
  });
});

describe('GET /v1/plans and GET /v1/categories', () => {
  it('plans: the published values exactly, no key, no rate-limit headers', async () => {
    const t = await build();
    const res = await t.app.inject({ url: '/v1/plans' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    const data = res.json().data as typeof PLANS;
    const row = (k: string) => data.find((p) => p.key === k)!;
    const pick = (p: (typeof PLANS)[number]) => [p.billing_tier, p.monthly_price_cents, p.included_requests_per_month, p.overage_cents_per_1k, p.rate_limit_per_min, p.max_keys, p.trial_days, p.highlighted, p.contact_sales];
    expect(data.map((p) => p.key)).toEqual(['free', 'starter', 'pro', 'business', 'enterprise']);
    expect(pick(row('free'))).toEqual(['free', 0, 1000, 0, 10, 1, 0, false, false]);
    expect(pick(row('starter'))).toEqual(['starter', 2900, 100000, 25, 60, 3, 0, false, false]);
    expect(pick(row('pro'))).toEqual(['pro', 7900, 500000, 12, 300, 10, 0, true, false]);
    expect(pick(row('business'))).toEqual(['enterprise', 19900, 2000000, 6, 1000, 25, 0, false, false]);
    expect(pick(row('enterprise'))).toEqual(['', 0, 0, 0, 0, 0, 0, false, true]);
    for (const p of data) {
      expect(Object.keys(p).sort()).toEqual(
        ['billing_tier', 'contact_sales', 'cta_label', 'features', 'highlighted', 'included_requests_per_month', 'key', 'max_keys', 'monthly_price_cents', 'name', 'overage_cents_per_1k', 'rate_limit_per_min', 'tagline', 'trial_days'].sort(),
      );
    }
    expect(res.body).not.toMatch(/price_[A-Za-z0-9]{8,}|secret/);
    // Fields in the spec's order (the "Plan" table), the body nothing but data.
    expect(Object.keys(res.json())).toEqual(['data']);
    for (const p of data) {
      expect(Object.keys(p)).toEqual(['key', 'name', 'billing_tier', 'trial_days', 'tagline', 'monthly_price_cents', 'included_requests_per_month', 'overage_cents_per_1k', 'rate_limit_per_min', 'max_keys', 'features', 'cta_label', 'highlighted', 'contact_sales']);
      expect(p.features.length).toBeGreaterThan(0);
      for (const f of p.features) expect(typeof f).toBe('string');
      for (const k of ['name', 'tagline', 'cta_label'] as const) expect(p[k].length, `${p.key} ${k}`).toBeGreaterThan(0);
    }
    // The public route reads no key: an unknown, revoked or over-long one changes nothing and is not charged.
    for (const authorization of ['Bearer pmk_unknown', `Bearer ${'k'.repeat(300)}`, 'Basic dXNlcjpwYXNz']) {
      const keyed = await t.app.inject({ url: '/v1/plans', headers: { authorization } });
      expect(keyed.statusCode).toBe(200);
      expect(keyed.body).toBe(res.body);
      expect(keyed.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('plans: 503 when the catalog is not configured', async () => {
    const t = await build({ env: { PLAN_CATALOG: 'none' } });
    const res = await t.app.inject({ url: '/v1/plans' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('service_unavailable');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('categories: the eleven categories with id, name, description', async () => {
    const t = await build();
    const key = await t.createKey({ permissions: ['markets.read'] });
    const res = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    const data = res.json().data as Array<{ id: string; name: string; description: string }>;
    expect(data.map((c) => c.id)).toEqual(['sports', 'politics', 'crypto', 'finance', 'economics', 'weather', 'culture', 'technology', 'entertainment', 'other', 'unknown']);
    for (const c of data) expect(Object.keys(c)).toEqual(['id', 'name', 'description']);
  });
});

describe('keys are never logged', () => {
  it('neither the Authorization header nor a key in the query string reaches the log', async () => {
    const { buildApp } = await import('./app.ts');
    const { loadConfig } = await import('../lib/config.ts');
    const { authDepsFor } = await import('./auth/index.ts');
    const lines: string[] = [];
    const config = loadConfig({ LOG_LEVEL: 'trace' });
    const auth = authDepsFor(new MemoryKeyStore(), 'p');
    const { key } = await auth.admin.create({ accountId: 'logs', plan: 'pro' });
    const app = await buildApp(
      { config, clock: Date.now, auth },
      {
        categories: async () => {
          throw new Error('handler exploded');
        },
      },
      { logStream: { write: (l) => void lines.push(l) }, requestLogging: true },
    );
    try {
      await app.inject({ url: '/v1/categories', headers: { authorization: `Bearer ${key}` } });
      await app.inject({ url: '/v1/categories?api_key=pmk_querysecret' });
      await app.inject({ url: '/v1/markets', headers: { authorization: 'Bearer pmk_unknownsecret' } });
    } finally {
      await app.close();
    }
    const log = lines.join('');
    expect(log).toContain('handler exploded');
    expect(log).toContain('/v1/categories');
    expect(log).not.toContain(key);
    expect(log).not.toContain('querysecret');
    expect(log).not.toContain('unknownsecret');
  });
});
