// isoTime: every venue time form the adapters read.
import { describe, expect, it } from 'vitest';
import { isoTime } from './native.ts';

describe('isoTime', () => {
  it.each([
    ['2026-11-27T01:00:00Z', '2026-11-27T01:00:00.000Z'],
    ['2026-11-26T12:40:12.545Z', '2026-11-26T12:40:12.545Z'],
    ['  2026-11-27T01:00:00Z  ', '2026-11-27T01:00:00.000Z'],
    ['2026-11-27 01:00:00+00', '2026-11-27T01:00:00.000Z'],
    ['2026-11-27T03:00:00+02', '2026-11-27T01:00:00.000Z'],
    ['2026-11-27T03:00:00+02:00', '2026-11-27T01:00:00.000Z'],
    [1795741200, '2026-11-27T01:00:00.000Z'],
    ['1795741200000', '2026-11-27T01:00:00.000Z'],
  ])('reads %j as %s', (v, want) => {
    expect(isoTime(v)).toBe(want);
  });

  it.each([['2026-13-40T00:00:00Z'], ['xxxxxxxxxxTZ'], [''], [0], [null]])('answers null for %j', (v) => {
    expect(isoTime(v)).toBeNull();
  });
});
