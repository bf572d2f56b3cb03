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

describe('readDeadline (one read of a poller, under its stop)', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('aborts with a TimeoutError at its deadline, also when the heap was collected while it waited', async () => {
    const { readDeadline } = await import('./http.ts');
    const { collectGarbage } = await import('../../../test/collect-garbage.ts');
    const stop = new AbortController();
    const ms = 30 + Math.floor(Math.random() * 20);
    const d = readDeadline(stop.signal, ms);
    await sleep(5);
    collectGarbage();
    await sleep(ms + 100);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as DOMException).name).toBe('TimeoutError');
    expect((d.signal.reason as Error).message).toContain(`${ms} ms`);
    expect(stop.signal.aborted).toBe(false);
    d.release();
  });

  it('aborts when its outer signal does (at once when that has already), and a released read holds nothing on it', async () => {
    const { readDeadline } = await import('./http.ts');
    const { getEventListeners } = await import('node:events');
    const stop = new AbortController();
    const before = getEventListeners(stop.signal, 'abort').length;
    const released = readDeadline(stop.signal, 20);
    const open = readDeadline(stop.signal, 60_000);
    // However many reads wait, the stop signal carries one listener for all of them.
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(before + 1);
    released.release();
    await sleep(60);
    expect(released.signal.aborted).toBe(false);
    const why = new Error(`stopped ${Math.random()}`);
    stop.abort(why);
    expect(open.signal.reason).toBe(why);
    expect(released.signal.aborted).toBe(false);
    open.release();
    expect(readDeadline(stop.signal, 60_000).signal.reason).toBe(why);
  });

  it('holds any number of reads in flight under one stop without a listener-leak warning', async () => {
    const { readDeadline } = await import('./http.ts');
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const stop = new AbortController();
      // A crawl's concurrent page reads and the live routes' reads each listen on the poller's stop.
      const reads = Array.from({ length: 11 + Math.floor(Math.random() * 20) }, () => readDeadline(stop.signal, 60_000));
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
      for (const r of reads) r.release();
    } finally {
      process.off('warning', onWarning);
    }
  });
});
