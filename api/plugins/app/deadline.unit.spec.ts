import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deadlineSignal } from './deadline.ts';

describe('deadlineSignal (the per-request upstream deadline)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const clock = () => Date.now();

  it('aborts with a TimeoutError no sooner than the deadline and at most 1% after it', () => {
    const ms = 9_000 + Math.floor(Math.random() * 1_000);
    const s = deadlineSignal(ms, clock);
    vi.advanceTimersByTime(ms - 1);
    expect(s.aborted).toBe(false);
    vi.advanceTimersByTime(Math.ceil(ms / 100) + 1);
    expect(s.aborted).toBe(true);
    expect((s.reason as DOMException).name).toBe('TimeoutError');
    expect((s.reason as Error).message).toContain(`${ms} ms`);
  });

  it('is one signal for requests of the same instant, another for a later one', () => {
    const ms = 5_000 + Math.floor(Math.random() * 1_000);
    const a = deadlineSignal(ms, clock);
    expect(deadlineSignal(ms, clock)).toBe(a);
    vi.advanceTimersByTime(ms / 10);
    const later = deadlineSignal(ms, clock);
    expect(later).not.toBe(a);
    vi.advanceTimersByTime(ms - ms / 10 + ms / 100 + 1);
    expect(a.aborted).toBe(true);
    expect(later.aborted).toBe(false);
  });

  it('takes any number of listeners without a leak warning', () => {
    const warn = vi.spyOn(process, 'emitWarning');
    const s = deadlineSignal(7_000 + Math.floor(Math.random() * 1_000), clock);
    const off = Array.from({ length: 50 }, () => () => {});
    for (const f of off) s.addEventListener('abort', f, { once: true });
    expect(warn).not.toHaveBeenCalled();
    for (const f of off) s.removeEventListener('abort', f);
    warn.mockRestore();
  });
});
