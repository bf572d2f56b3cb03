import { gunzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { build } from '../../../test/helper.ts';
import { EncodedJson, EncodedMemo, etagMatches } from './encoded.ts';

describe('EncodedJson', () => {
  it('keeps the bytes and one gzip of them; the weak ETag names the content', async () => {
    const a = EncodedJson.of({ data: [1, 2], n: 'x' });
    expect(a.json.toString()).toBe('{"data":[1,2],"n":"x"}');
    expect(a.etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(EncodedJson.of({ data: [1, 2], n: 'x' }).etag).toBe(a.etag);
    expect(EncodedJson.of({ data: [1, 3], n: 'x' }).etag).not.toBe(a.etag);
    const z = await a.gzip();
    expect(gunzipSync(z).toString()).toBe(a.json.toString());
    expect(await a.gzip()).toBe(z);
    const big = new EncodedJson(JSON.stringify({ s: 'y'.repeat(100_000) }));
    const first = big.gzip();
    expect(big.gzip()).toBe(first);
    expect(gunzipSync(await first).length).toBe(big.json.length);
  });
});

describe('etagMatches', () => {
  it('compares weakly against each listed tag or *', () => {
    const tag = 'W/"abc"';
    expect(etagMatches(undefined, tag)).toBe(false);
    expect(etagMatches('W/"abc"', tag)).toBe(true);
    expect(etagMatches('"abc"', tag)).toBe(true);
    expect(etagMatches('"x", W/"abc"', tag)).toBe(true);
    expect(etagMatches('*', tag)).toBe(true);
    expect(etagMatches('"abcd"', tag)).toBe(false);
    expect(etagMatches('', tag)).toBe(false);
  });
});

describe('EncodedMemo', () => {
  it('evicts the least recently used entries beyond its byte budget', () => {
    const e = () => new EncodedJson(JSON.stringify('x'.repeat(98))); // 100 bytes, counted as 134
    const memo = new EncodedMemo(300);
    const a = e();
    memo.set('a', a);
    memo.set('b', e());
    expect(memo.get('a')).toBe(a); // a is now the most recent
    memo.set('c', e());
    expect(memo.entries).toBe(2);
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')).toBe(a);
    expect(memo.get('c')).toBeDefined();
  });
});

describe('an EncodedJson body through the shell', () => {
  it('is sent as its bytes with its ETag; If-None-Match with that tag answers 304 without a body', async () => {
    const body = EncodedJson.of({ data: [{ id: 'venue_1:A' }] });
    const t = await build({ handlers: { categories: async () => ({ body, headers: { 'cache-control': 'private, max-age=60' } }) } });
    const key = await t.createKey({ permissions: ['markets.read'] });
    const ok = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers.etag).toBe(body.etag);
    expect(ok.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ok.body).toBe(body.json.toString());

    const gz = await t.app.inject({ url: '/v1/categories', headers: { ...t.auth(key), 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(body.json.toString());

    const same = await t.app.inject({ url: '/v1/categories', headers: { ...t.auth(key), 'if-none-match': body.etag } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(body.etag);
    expect(same.headers['cache-control']).toBe('private, max-age=60');
    expect(same.headers['x-request-id']).toBeTruthy();
    expect(same.headers.vary).toBe('Accept-Encoding');

    const other = await t.app.inject({ url: '/v1/categories', headers: { ...t.auth(key), 'if-none-match': 'W/"another"' } });
    expect(other.statusCode).toBe(200);
  });
});
