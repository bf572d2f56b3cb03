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
