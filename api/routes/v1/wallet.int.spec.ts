/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// GET /v1/marketplace/wallet and /wallet/positions through the API against the simulator's
// marketplace (venue_2) wallets. The signer EOAs come from the simulator's wallet generator (a
// user knows their own signer); proxies and names are read from the venue's public endpoints.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { buildWallets } from '../../../pipelines/venues/simulator/wallet.ts';
import { simulatorForSuite, liveApp, schemaProblems, simJson } from '../../live/testkit.ts';
import { PositionsPageSchema, WalletProfileSchema } from '../../live/schemas.ts';

const SEED = 11;
let sim: Simulator;
simulatorForSuite(SEED, (s) => (sim = s));

const wallets = buildWallets(SEED);
const mixedCase = (a: string) => '0x' + [...a.slice(2)].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');

describe('wallet profile', () => {
  it('a proxy address (mixed case accepted) gives its profile, signer null', async () => {
    const { get } = await liveApp(sim);
    const w = wallets[0];
    const r = await get(`/v1/marketplace/wallet?address=${mixedCase(w.proxy)}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ address: w.proxy, signer: null, profile_image: expect.any(String), display_name: w.name });
  });

  it('a signer EOA resolves to its deterministic proxy, signer echoing the input', async () => {
    const { get } = await liveApp(sim);
    const w = wallets[3];
    const r = await get(`/v1/marketplace/wallet?address=${w.signer.toUpperCase().replace('0X', '0x')}`);
    expect(r.status).toBe(200);
    expect(r.body.address).toBe(w.proxy);
    expect(r.body.signer).toBe(w.signer);
    expect(schemaProblems(WalletProfileSchema, r.body)).toEqual([]);
  });

  it('username: case-insensitive exact match, leading @ stripped, signer null; fuzzy-only is 404', async () => {
    const { get } = await liveApp(sim);
    const w = wallets[0];
    const hits = (await simJson(sim, `/venue_2/profiles/search?q=${w.name}`)).profiles;
    expect(hits.length, 'the venue search is fuzzy and finds neighbours too').toBeGreaterThan(1);
    const r = await get(`/v1/marketplace/wallet?username=%40${w.name.toLowerCase()}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ address: w.proxy, signer: null, display_name: w.name });
    const fuzzy = await get(`/v1/marketplace/wallet?username=${w.name.slice(0, -2)}`);
    expect(fuzzy.status).toBe(404);
    expect(fuzzy.body.code).toBe('profile_not_found');
  });

  it('parameter rules: exactly one of address and username; address pattern; unknown address 404', async () => {
    const { get } = await liveApp(sim);
    const both = await get(`/v1/marketplace/wallet?address=${wallets[0].proxy}&username=x`);
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('invalid_parameter');
    const none = await get('/v1/marketplace/wallet');
    expect(none.body).toMatchObject({ code: 'missing_parameter' });
    const bad = await get('/v1/marketplace/wallet?address=0x1234');
    expect(bad.body).toMatchObject({ code: 'invalid_parameter', param: 'address' });
    expect(bad.body.message).toContain('0x1234');
    const at = await get('/v1/marketplace/wallet?username=%40');
    expect(at.body).toMatchObject({ code: 'invalid_parameter', param: 'username' });
    const unknown = await get(`/v1/marketplace/wallet?address=0x${'0'.repeat(40)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('profile_not_found');
  });
});

describe('wallet positions', () => {
  it('pages with cursors bound to the wallet; page size from the cursor; total null; every position once', async () => {
    const { get } = await liveApp(sim);
    const w = wallets[0];
    const first = await get(`/v1/marketplace/wallet/positions?address=${w.proxy}`);
    expect(first.status).toBe(200);
    expect(first.body.address).toBe(w.proxy);
    expect(first.body.pagination).toMatchObject({ limit: 50, total: null, has_more: true });
    expect(schemaProblems(PositionsPageSchema, first.body)).toEqual([]);
    const seen = [...first.body.data];
    let cursor = first.body.pagination.next_cursor;
    while (cursor) {
      const r = await get(`/v1/marketplace/wallet/positions?address=${w.proxy}&cursor=${encodeURIComponent(cursor)}&limit=7`);
      expect(r.status).toBe(200);
      expect(r.body.pagination.limit).toBe(50);
      expect(r.body.pagination.total).toBeNull();
      seen.push(...r.body.data);
      cursor = r.body.pagination.next_cursor;
    }
    const direct = (await simJson(sim, `/venue_2/positions?user=${w.proxy}&limit=500`)) as any[];
    expect(seen.map((p) => [p.condition_id, p.outcome, p.shares])).toEqual(direct.map((p) => [p.conditionId, p.outcome, p.size]));
    // condition ids are venue_2 markets: market detail resolves them.
    const md = await get(`/v1/markets/venue_2:${seen[0].condition_id}`);
    expect(md.status).toBe(200);
  });

  it('a cursor of another wallet and the earlier offset cursors are 400 invalid_cursor', async () => {
    const { get } = await liveApp(sim);
    const r = await get(`/v1/marketplace/wallet/positions?address=${wallets[0].proxy}&limit=2`);
    const c = encodeURIComponent(r.body.pagination.next_cursor);
    const other = await get(`/v1/marketplace/wallet/positions?address=${wallets[1].proxy}&cursor=${c}`);
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('invalid_cursor');
    const old = await get(`/v1/marketplace/wallet/positions?address=${wallets[0].proxy}&cursor=50`);
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('invalid_cursor');
  });

  it('forged cursors (unsigned base64 JSON of the earlier form, or a signed one edited) are invalid_cursor: no page of 999, no jump, no upstream_rejected', async () => {
    const { get } = await liveApp(sim);
    const w = wallets[0].proxy;
    const forge = (o: number, l: number) => Buffer.from(JSON.stringify({ v: 1, k: 'positions', w, o, l })).toString('base64url');
    for (const [o, l] of [
      [0, 999],
      [40, 5],
      [-5, 10],
      [0, 0],
      [1e20, 10],
    ]) {
      const r = await get(`/v1/marketplace/wallet/positions?address=${w}&cursor=${forge(o, l)}`);
      expect(r.status, `o=${o} l=${l}`).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    }
    const real = (await get(`/v1/marketplace/wallet/positions?address=${w}&limit=2`)).body.pagination.next_cursor as string;
    const [payload, mac] = real.split('.');
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString().replace(/,2\]$/, ',99]')).toString('base64url');
    const tampered = await get(`/v1/marketplace/wallet/positions?address=${w}&cursor=${edited}.${mac}`);
    expect(tampered.body.code).toBe('invalid_cursor');
    // A spot cursor is not a positions cursor.
    const end = Math.floor(sim.clock.now() / 1000) * 1000 - 60_000;
    const spot = (await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${end - 10_000}&end_time=${end}&limit=2`)).body.pagination.next_cursor as string;
    const cross = await get(`/v1/marketplace/wallet/positions?address=${w}&cursor=${encodeURIComponent(spot)}`);
    expect(cross.body).toMatchObject({ code: 'invalid_cursor', message: expect.stringContaining('another endpoint') });
  });

  it('username resolves to the proxy; an EOA as address gives empty data (no resolution)', async () => {
    const { get } = await liveApp(sim);
    const w = wallets[0];
    const byName = await get(`/v1/marketplace/wallet/positions?username=${w.name.toUpperCase()}&limit=3`);
    expect(byName.body.address).toBe(w.proxy);
    expect(byName.body.data).toHaveLength(3);
    const eoa = await get(`/v1/marketplace/wallet/positions?address=${w.signer}`);
    expect(eoa.status).toBe(200);
    expect(eoa.body).toEqual({ address: w.signer, data: [], pagination: { limit: 50, total: null, has_more: false } });
    const both = await get(`/v1/marketplace/wallet/positions?address=${w.proxy}&username=x`);
    expect(both.status).toBe(400);
    const big = await get(`/v1/marketplace/wallet/positions?address=${w.proxy}&limit=101`);
    expect(big.body).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
  });
});

describe('the wallet lookups\' error bodies (spec: Errors: "message ... quotes the offending value"; param "the query or path parameter concerned")', () => {
  it('404 profile_not_found names the parameter and quotes the value (an address lower-cased, a username without its @), on both routes', async () => {
    const { get } = await liveApp(sim);
    const name = `${wallets[0].name.slice(0, -2)}`;
    const nobody = `0x${'0'.repeat(39)}A`;
    const cases: Array<[string, string, string]> = [
      [`/v1/marketplace/wallet?username=%40${name}`, 'username', name],
      [`/v1/marketplace/wallet?address=${nobody}`, 'address', nobody.toLowerCase()],
      [`/v1/marketplace/wallet/positions?username=${name}`, 'username', name],
    ];
    for (const [url, param, quoted] of cases) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expect(r.body, url).toEqual({ code: 'profile_not_found', message: expect.stringContaining(JSON.stringify(quoted)), status_code: 404, param });
      // An authenticated answer: it reports the rate window.
      expect(r.headers['x-ratelimit-limit'], url).toBe('1000');
    }
  });

  it('400s: both forms (on both routes), neither form, a username that is only "@" or spaces; each names its parameter and quotes what was sent', async () => {
    const { get } = await liveApp(sim);
    const w = wallets[0];
    for (const route of ['/v1/marketplace/wallet', '/v1/marketplace/wallet/positions']) {
      const both = await get(`${route}?address=${w.proxy}&username=somebody`);
      expect(both.body, route).toMatchObject({ code: 'invalid_parameter', status_code: 400, param: 'username' });
      expect(both.body.message).toContain('"somebody"');
      expect(both.body.message).toContain(JSON.stringify(w.proxy));
      const none = await get(route);
      expect(none.body, route).toMatchObject({ code: 'missing_parameter', status_code: 400, param: 'address' });
      for (const raw of ['%40', '%20%20', '%40%20']) {
        const r = await get(`${route}?username=${raw}`);
        expect(r.body, `${route} ${raw}`).toMatchObject({ code: 'invalid_parameter', param: 'username', message: expect.stringContaining(JSON.stringify(decodeURIComponent(raw))) });
      }
    }
    // An address on positions is held to the same pattern.
    const bad = await get('/v1/marketplace/wallet/positions?address=0xZZ');
    expect(bad.body).toMatchObject({ code: 'invalid_parameter', param: 'address', message: expect.stringContaining('"0xZZ"') });
  });
});
