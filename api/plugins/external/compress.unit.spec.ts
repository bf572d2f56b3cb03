import { gunzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { acceptsGzip, gzipJson } from './compress.ts';

describe('acceptsGzip', () => {
  it('follows content-coding negotiation', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('br, *;q=0.2')).toBe(true);
    expect(acceptsGzip('*;q=0.2, gzip;q=0')).toBe(false);
    expect(acceptsGzip('x-gzip')).toBe(true);
    expect(acceptsGzip('')).toBe(false);
  });
});

describe('gzipJson', () => {
  it('compresses small bodies inline and large ones off the event loop', async () => {
    const small = gzipJson('{"a":1}');
    expect(Buffer.isBuffer(small)).toBe(true);
    const bigJson = JSON.stringify({ data: 'x'.repeat(100_000) });
    const big = gzipJson(bigJson);
    expect(big).toBeInstanceOf(Promise);
    expect(gunzipSync(await big).toString()).toBe(bigJson);
  });
});
