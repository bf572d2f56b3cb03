import { describe, it, expect } from 'vitest';
import { chargeWindow, SlidingLog, WINDOW_MS } from './window.ts';

describe('chargeWindow (rolling 60 s sliding log)', () => {
  it('admits at most `limit` requests in any 60 s window, under a randomized schedule', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const log = new SlidingLog();
    const admitted: number[] = [];
    let t = 0;
    for (let i = 0; i < 5000; i++) {
      t += Math.floor(rand() * 3000);
      if (chargeWindow(log, t, 7).admitted) admitted.push(t);
    }
    // For every admitted request, the admitted requests in the 60 s window ending at it.
    for (let i = 0; i < admitted.length; i++) {
      let j = i;
      while (j > 0 && admitted[j - 1] > admitted[i] - WINDOW_MS) j--;
      expect(i - j + 1).toBeLessThanOrEqual(7);
    }
    expect(admitted.length).toBeGreaterThan(500);
  });

  it('recovers one slot exactly when the oldest request is 60 s old; resetAt is when it ages out', () => {
    const log = new SlidingLog();
    expect(chargeWindow(log, 1000, 2)).toEqual({ admitted: true, count: 1, resetAt: 61_000 });
    expect(chargeWindow(log, 2000, 2)).toEqual({ admitted: true, count: 2, resetAt: 61_000 });
    expect(chargeWindow(log, 60_999, 2)).toEqual({ admitted: false, count: 2, resetAt: 61_000 });
    expect(chargeWindow(log, 61_000, 2)).toEqual({ admitted: true, count: 2, resetAt: 62_000 });
    expect(chargeWindow(log, 61_500, 2).admitted).toBe(false);
  });

  it('keeps order when a controlled clock steps back, and compacts long logs', () => {
    const log = new SlidingLog();
    chargeWindow(log, 5000, 10);
    chargeWindow(log, 3000, 10);
    expect(log.times.slice(log.head)).toEqual([3000, 5000]);
    const big = new SlidingLog();
    for (let i = 0; i < 5000; i++) chargeWindow(big, i * 100, 1e9);
    expect(big.size).toBe(600);
    expect(big.times.length).toBeLessThan(5000);
  });
});
