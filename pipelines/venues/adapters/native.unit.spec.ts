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

  it('answers the same for a text read again, before and after its remembered answers are started afresh', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z'));
    for (let round = 0; round < 2; round++) {
      for (const t of texts) expect(isoTime(t)).toBe(t.replace('Z', '.000Z'));
      expect(isoTime('2026-02-30T00:00:00Z')).toBe('2026-03-02T00:00:00.000Z');
      expect(isoTime('2026-13-40T00:00:00Z')).toBeNull();
      expect(isoTime('  2026-11-27T03:00:00+02  ')).toBe('2026-11-27T01:00:00.000Z');
    }
  });

  it('answers by the text and the unit asked: a number sent as text is seconds or milliseconds as the caller says, whichever was asked first', () => {
    for (const order of [['s', 'ms', 'auto'], ['ms', 'auto', 's'], ['auto', 's', 'ms']] as const) {
      for (const unit of order) {
        const want = { s: '2026-11-27T01:00:00.000Z', ms: '1970-01-21T18:49:01.200Z', auto: '2026-11-27T01:00:00.000Z' }[unit];
        expect(isoTime('1795741200', unit), unit).toBe(want);
        expect(isoTime(1795741200, unit), unit).toBe(want);
      }
    }
  });
});

