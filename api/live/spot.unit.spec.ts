import { describe, expect, it } from 'vitest';
import { planSpot, spotBody, type SpotRow } from './spot.ts';
import { apiErrorCode } from '../../test/helper.ts';
import { createCursorCodec } from '../../lib/cursor.ts';

const NOW = Date.UTC(2026, 10, 23, 12);
const C = createCursorCodec('spot-unit-test-secret');

describe('spot parameter rules', () => {
  it('lower-cases upper case and returns empty for invalid symbols', () => {
    expect(planSpot({ currency: 'BTCUSDT' }, NOW, C)).toEqual({ kind: 'latest', symbol: 'btcusdt' });
    expect(planSpot({ currency: 'btc-usdt' }, NOW, C)).toEqual({ kind: 'empty', limit: 1 });
    expect(planSpot({ currency: 'btc/usdt', start_time: '0' }, NOW, C)).toEqual({ kind: 'empty', limit: 100 });
  });
  it('clamps negative times to 0 and defaults limit to 100 with a range', () => {
    expect(planSpot({ currency: 'ethusdt', start_time: '-5', end_time: '-1' }, NOW, C)).toEqual({ kind: 'range', symbol: 'ethusdt', start: 0, end: 0, limit: 100 });
  });
  it('validates limit even without a range, then ignores it', () => {
    expect(planSpot({ currency: 'ethusdt', limit: '7' }, NOW, C)).toEqual({ kind: 'latest', symbol: 'ethusdt' });
    expect(apiErrorCode(() => planSpot({ currency: 'ethusdt', limit: '101' }, NOW, C))).toBe('invalid_parameter');
    expect(apiErrorCode(() => planSpot({ currency: 'ethusdt', limit: '0', start_time: '1' }, NOW, C))).toBe('invalid_parameter');
    expect(apiErrorCode(() => planSpot({ currency: 'ethusdt', start_time: 'abc' }, NOW, C))).toBe('invalid_parameter');
  });
  it('the cursor carries start_time; a different start_time is 400; end_time is ignored', () => {
    const rows: SpotRow[] = [3000, 2000, 1000].map((t) => ({ symbol: 'btcusdt', value: 1, timestamp: t }));
    const first = planSpot({ currency: 'btcusdt', start_time: '1000', end_time: '3000', limit: '2' }, NOW, C);
    const body = spotBody(first, rows, C);
    expect(body.data.map((r) => r.timestamp)).toEqual([3000, 2000]);
    expect(body.pagination).toMatchObject({ limit: 2, total: null, has_more: true });
    const cursor = body.pagination.next_cursor!;
    const next = planSpot({ cursor, end_time: '999999' }, NOW, C);
    expect(next).toEqual({ kind: 'range', symbol: 'btcusdt', start: 1000, end: 1999, limit: 2 });
    expect(planSpot({ cursor, start_time: '1000' }, NOW, C)).toEqual(next);
    expect(apiErrorCode(() => planSpot({ cursor, start_time: '0' }, NOW, C))).toBe('invalid_cursor');
    expect(apiErrorCode(() => planSpot({ cursor, currency: 'ethusdt' }, NOW, C))).toBe('invalid_cursor');
    expect(apiErrorCode(() => planSpot({ cursor: 'garbage!' }, NOW, C))).toBe('invalid_cursor');
    const last = spotBody(next, rows.slice(2), C);
    expect(last.pagination).toEqual({ limit: 2, total: null, has_more: false });
  });
  it('start after end is 400; a missing currency is 400 missing_parameter', () => {
    expect(apiErrorCode(() => planSpot({ currency: 'btcusdt', start_time: '5', end_time: '4' }, NOW, C))).toBe('invalid_parameter');
    expect(apiErrorCode(() => planSpot({}, NOW, C))).toBe('missing_parameter');
  });
});
