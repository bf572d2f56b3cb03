// The adapters' field readers: venue times, read as market detail reads them.
import { describe, expect, it } from 'vitest';
import { timeOf } from './fields.ts';

describe('timeOf', () => {
  it('reads ISO text, the space-separated form with a bare hour offset, and Unix seconds or ms', () => {
    expect(timeOf('2026-11-21T21:00:00Z')).toBe(Date.UTC(2026, 10, 21, 21));
    expect(timeOf('2026-11-21 21:00:00+00')).toBe(Date.UTC(2026, 10, 21, 21));
    expect(timeOf(1_795_000_000)).toBe(1_795_000_000_000);
    expect(timeOf('1795000000000')).toBe(1_795_000_000_000);
    expect(timeOf('1795000', 'ms')).toBe(1_795_000);
  });

  it('gives each text its own time when texts alternate, repeat and go blank (the last one read is remembered)', () => {
    const a = '2026-11-21T21:00:00Z';
    const b = '2026-11-21 22:30:00+02';
    const reads = [a, a, b, a, '', a, '   ', 'not a time', 'not a time', b, '1795000', b];
    expect(reads.map((t) => timeOf(t))).toEqual([
      Date.UTC(2026, 10, 21, 21),
      Date.UTC(2026, 10, 21, 21),
      Date.UTC(2026, 10, 21, 20, 30),
      Date.UTC(2026, 10, 21, 21),
      null,
      Date.UTC(2026, 10, 21, 21),
      null,
      null,
      null,
      Date.UTC(2026, 10, 21, 20, 30),
      1_795_000_000,
      Date.UTC(2026, 10, 21, 20, 30),
    ]);
    expect(timeOf(null)).toBeNull();
    expect(timeOf(a)).toBe(Date.UTC(2026, 10, 21, 21));
  });
});
