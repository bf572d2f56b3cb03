import { describe, expect, it } from 'vitest';
import { faultFor, retryAfterSeconds } from './http.ts';

describe('venue fault mapping (spec: "Errors", upstream rows)', () => {
  it('429 keeps Retry-After only when the venue sent one', () => {
    const a = faultFor('venue_3', 429, '7', '');
    expect([a.code, a.statusCode, a.options.headers]).toEqual(['upstream_rate_limited', 429, { 'Retry-After': '7' }]);
    const b = faultFor('venue_3', 429, undefined, '');
    expect(b.options.headers).toBeUndefined();
  });
  it('other 4xx is a rejection (400), 5xx is no valid answer (502)', () => {
    expect(faultFor('venue_2', 400, undefined, 'bad id').code).toBe('upstream_rejected');
    expect(faultFor('venue_2', 422, undefined, '').statusCode).toBe(400);
    expect(faultFor('venue_2', 503, undefined, '').code).toBe('upstream_unavailable');
    expect(faultFor('venue_2', 503, undefined, '').statusCode).toBe(502);
  });
  it('Retry-After as seconds or an HTTP date becomes whole seconds', () => {
    expect(retryAfterSeconds('12')).toBe('12');
    expect(retryAfterSeconds(undefined)).toBeUndefined();
    const now = Date.parse('2026-11-21T00:00:00Z');
    expect(retryAfterSeconds('Sat, 21 Nov 2026 00:00:30 GMT', now)).toBe('30');
    expect(retryAfterSeconds('soon')).toBeUndefined();
  });
});

describe('boundedSignal (the bounded second fetch)', () => {
  it('aborts on its own bound and when the request deadline aborts first', async () => {
    const { boundedSignal } = await import('./http.ts');
    const outer = new AbortController();
    const own = boundedSignal(outer.signal, 20);
    await new Promise((r) => setTimeout(r, 60));
    expect(own.aborted).toBe(true);
    expect(outer.signal.aborted).toBe(false);
    const follow = boundedSignal(outer.signal, 60_000);
    outer.abort(new Error('deadline'));
    expect(follow.aborted).toBe(true);
    expect(boundedSignal(outer.signal, 10).aborted).toBe(true);
  });
});
