import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstCrawlDelay } from './cadence.ts';

const MIN = 60_000;
const INTERVAL = 30 * MIN;
const NOW = Date.UTC(2026, 10, 29, 1, 0, 0);

describe('firstCrawlDelay', () => {
  it('crawls at once without a complete crawl on record', () => {
    expect(firstCrawlDelay(null, NOW, INTERVAL)).toBe(0);
    expect(firstCrawlDelay(undefined, NOW, INTERVAL)).toBe(0);
    expect(firstCrawlDelay(Number.NaN, NOW, INTERVAL)).toBe(0);
  });

  it('a restart 2 minutes after a complete crawl began waits the 28 minutes left', () => {
    expect(firstCrawlDelay(NOW - 2 * MIN, NOW, INTERVAL)).toBe(28 * MIN);
  });

  it('crawls at once when the interval is over, or exactly over', () => {
    expect(firstCrawlDelay(NOW - INTERVAL, NOW, INTERVAL)).toBe(0);
    expect(firstCrawlDelay(NOW - 3 * INTERVAL, NOW, INTERVAL)).toBe(0);
  });

  it('waits the whole interval for a crawl that began now, and never trusts a start after now', () => {
    expect(firstCrawlDelay(NOW, NOW, INTERVAL)).toBe(INTERVAL);
    expect(firstCrawlDelay(NOW + 1, NOW, INTERVAL)).toBe(0);
    expect(firstCrawlDelay(NOW + 5 * MIN, NOW, INTERVAL)).toBe(0);
  });

  it('property: never skips a venue with no complete crawl; never delays past the interval or past the start on record plus the interval', () => {
    const start = fc.option(fc.integer({ min: 0, max: 4e12 }), { nil: null });
    fc.assert(
      fc.property(start, fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 1, max: 48 * 3600_000 }), (last, now, interval) => {
        const d = firstCrawlDelay(last, now, interval);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(interval);
        if (last === null) expect(d).toBe(0);
        else {
          // The first crawl comes no later than the interval after the last complete one began…
          if (last <= now) expect(now + d).toBe(Math.max(now, last + interval));
          // …and a start on record from the future never delays it.
          else expect(d).toBe(0);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
