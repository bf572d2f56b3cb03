// Regression tests of the API's contract edge, through app.inject: each case is a defect an
// independent probe of the service found (error amplification, forged cursors, trailing slashes,
// bodies on GET-only routes, spot time bounds, empty Bearer, empty booleans, long path ids, bad
// UTF-8). Errors raised by Node's HTTP parser need real sockets: api/client-errors.int.spec.ts.
import { describe, it, expect } from 'vitest';
import { build } from '../test/helper.ts';
import { MAX_ERROR_ITEMS } from './errors.ts';

describe('error bodies stay small (no amplification before the key is read)', () => {
  it('7,000 empty ";" pairs: errors[] is capped, the message says how many more, the body is a few KB', async () => {
    const t = await build();
    const qs = Array.from({ length: 7000 }, () => ';').join('&');
    const res = await t.app.inject({ url: `/v1/markets?${qs}` });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('invalid_parameter');
    expect(body.errors).toHaveLength(MAX_ERROR_ITEMS);
    expect(body.message).toContain(`and ${7000 - MAX_ERROR_ITEMS} more problems`);
    expect(res.body.length).toBeLessThan(16_000);
  });

  it('one 14 KB pair, 7,000 unknown keys, one parameter repeated 7,000 times: every body under 16 KB', async () => {
    const t = await build();
    const urls = [
      `/v1/markets?${';'.repeat(14_000)}`,
      `/v1/markets?${Array.from({ length: 7000 }, (_, i) => `k${i}=1`).join('&')}`,
      `/v1/markets?${Array.from({ length: 7000 }, () => 'limit=1').join('&')}`,
      `/v1/markets?${'x'.repeat(14_000)}=1`,
      `/v1/nope/${'x'.repeat(14_000)}`,
      `/v1/markets/${'x'.repeat(400)}?${'y'.repeat(14_000)}=1`,
    ];
    for (const url of urls) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.body.length, url.slice(0, 40)).toBeLessThan(16_000);
    }
    const many = (await t.app.inject({ url: urls[1] })).json();
    expect(many.code).toBe('unknown_parameter');
    expect(many.message).toMatch(/^unknown parameter "k0"; accepted parameters: limit, cursor, category, provider \(and 6980 more problems/);
    const long = (await t.app.inject({ url: urls[0] })).json();
    expect(long.message).toContain('(14000 characters)');
  });
});

describe('Authorization: Bearer with no key', () => {
  it('is missing_api_key, not invalid_api_key', async () => {
    const t = await build();
    for (const authorization of ['Bearer', 'bearer', 'Bearer ', 'Bearer    ']) {
      const res = await t.app.inject({ url: '/v1/categories', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json()).toMatchObject({ code: 'missing_api_key', message: expect.stringContaining('no key') });
    }
  });
});

describe('trailing slashes', () => {
  it('GET /v1/markets/?limit=1 is route_not_found like every other trailing slash, under any method', async () => {
    const t = await build();
    for (const [method, url] of [
      ['GET', '/v1/markets/?limit=1'],
      ['GET', '/v1/markets/'],
      ['GET', '/v1/events/'],
      ['DELETE', '/v1/markets/'],
      ['GET', '/v1/categories/'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ code: 'route_not_found', message: `no route matches ${JSON.stringify(url.split('?')[0])}`, status_code: 404 });
    }
  });
});

describe('minor contract points', () => {
  it('empty include_settled= / include_submarkets= are invalid_parameter (only include_rules may be empty)', async () => {
    const t = await build();
    for (const url of [
      '/v1/matching-markets/sports?include_settled=',
      '/v1/matching-markets/sports?include_submarkets=',
      '/v1/matching-markets/sports/lookup?event_id=x&include_settled=',
      '/v1/matching-markets/sports/lookup?event_id=x&include_submarkets=',
    ]) {
      const param = /include_\w+(?==$)/.exec(url)![0];
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_parameter', param, message: `parameter "${param}" must not be empty` });
    }
  });

  it('a path id over 512 characters is invalid_identifier with param', async () => {
    const t = await build();
    for (const [base, param] of [
      ['/v1/markets/', 'market_id'],
      ['/v1/events/', 'event_id'],
    ]) {
      const id = 'A'.repeat(600);
      const res = await t.app.inject({ url: `${base}${id}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_identifier', param, status_code: 400 });
      expect(res.json().message).toContain(JSON.stringify('A'.repeat(200)));
      expect(res.headers['x-request-id']).toBeDefined();
    }
  });

  it('%C3%28 (not UTF-8) is described as such, in the query and in the path; a broken escape still as a broken escape', async () => {
    const t = await build();
    const q = (await t.app.inject({ url: '/v1/markets?category=%C3%28' })).json();
    expect(q).toMatchObject({ code: 'invalid_parameter' });
    expect(q.message).toContain('"category=%C3%28"');
    expect(q.message).toContain('valid UTF-8');
    expect(q.message).not.toContain('two hex digits');
    const p = await t.app.inject({ url: '/v1/markets/%C3%28' });
    expect(p.statusCode).toBe(400);
    expect(p.json()).toMatchObject({ code: 'invalid_parameter', param: 'market_id' });
    expect(p.json().message).toContain('valid UTF-8');
    const hex = (await t.app.inject({ url: '/v1/markets?category=%zz' })).json();
    expect(hex.message).toContain('two hex digits');
  });
});

describe('a body on a GET-only route', () => {
  it('is never parsed: POST, PUT, PATCH, DELETE, QUERY with a (bad) body answer 405 with Allow, the billing route 401', async () => {
    const t = await build();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'QUERY']) {
      for (const [headers, payload] of [
        [{ 'content-type': 'application/json' }, '{bad'],
        [{ 'content-type': 'application/json' }, '{"limit": 5}'],
        [{ 'content-type': 'application/x-weird' }, 'x'],
        [{}, 'raw bytes'],
        [{ 'content-type': '/;;' }, 'x'],
      ] as const) {
        const res = await t.app.inject({ method: method as 'POST', url: '/v1/markets?limit=5', headers, payload });
        expect(res.statusCode, `${method} ${headers['content-type'] ?? '(none)'}`).toBe(405);
        expect(res.headers.allow).toBe('GET');
        expect(res.json()).toMatchObject({ code: 'method_not_allowed', status_code: 405 });
      }
    }
    for (const ct of ['application/json', '/;;']) {
      const portal = await t.app.inject({ method: 'POST', url: '/v1/account/billing/portal', headers: { 'content-type': ct }, payload: '{bad' });
      expect(portal.statusCode, ct).toBe(401);
      expect(portal.json().code).toBe('missing_api_key');
    }
  });
});
