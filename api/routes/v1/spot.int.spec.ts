/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// GET /v1/crypto-prices/spot through the API against the simulator's spot venue: every parameter
// rule of the spec's table, and paging a range returns every second exactly once.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { simulatorForSuite, liveApp, schemaProblems, simJson } from '../../live/testkit.ts';
import { SpotPageSchema } from '../../live/schemas.ts';

let sim: Simulator;
simulatorForSuite(11, (s) => (sim = s));

const pastSecond = () => Math.floor(sim.clock.now() / 1000) * 1000 - 60_000;

describe('spot prices', () => {
  it('without a range: the single latest price, limit 1, no snapshot, total null', async () => {
    const { get } = await liveApp(sim);
    const r = await get('/v1/crypto-prices/spot?currency=BTCUSDT&limit=7');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'pagination']);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].symbol).toBe('btcusdt');
    expect(r.body.data[0].timestamp % 1000).toBe(0);
    expect(typeof r.body.data[0].value).toBe('number');
    expect(r.body.pagination).toEqual({ limit: 1, total: null, has_more: false });
    expect(schemaProblems(SpotPageSchema, r.body)).toEqual([]);
  });

  it('unknown or invalid symbols give 200 with empty data', async () => {
    const { get } = await liveApp(sim);
    for (const c of ['btc-usdt', 'btc_usdt', 'zzzusdt', 'BTC%2FUSDT']) {
      const r = await get(`/v1/crypto-prices/spot?currency=${c}&start_time=0`);
      expect(r.status, c).toBe(200);
      expect(r.body.data).toEqual([]);
      expect(r.body.pagination.has_more).toBe(false);
    }
  });

  it('a range pages newest first; following cursors returns every second exactly once', async () => {
    const { get } = await liveApp(sim);
    const end = pastSecond() + 500; // inclusive bounds need not sit on a second
    const start = end - 249_500;
    const seen: number[] = [];
    let url = `/v1/crypto-prices/spot?currency=ethusdt&start_time=${start}&end_time=${end}&limit=60`;
    for (let page = 0; page < 10; page++) {
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(r.body.pagination.total).toBeNull();
      expect(r.body.pagination.limit).toBe(60);
      expect(schemaProblems(SpotPageSchema, r.body)).toEqual([]);
      seen.push(...r.body.data.map((x: any) => x.timestamp));
      if (!r.body.pagination.has_more) {
        expect(r.body.pagination.next_cursor).toBeUndefined();
        break;
      }
      // end_time is ignored with a cursor; the same start_time is accepted.
      url = `/v1/crypto-prices/spot?cursor=${encodeURIComponent(r.body.pagination.next_cursor)}&end_time=1&start_time=${start}`;
    }
    const want: number[] = [];
    for (let t = Math.floor(end / 1000) * 1000; t >= start; t -= 1000) want.push(t);
    expect(seen).toEqual(want);
    // Values are the venue's for those seconds.
    const direct = await simJson(sim, `/spot/api/v3/ticks?symbol=ETHUSDT&startTime=${start}&endTime=${end}&limit=1000`);
    expect(direct.ticks.map((x: any) => x[0])).toEqual(want);
  });

  it('default limit is 100 with a range; limit above 100 is 400 even without a range', async () => {
    const { get } = await liveApp(sim);
    const end = pastSecond();
    const r = await get(`/v1/crypto-prices/spot?currency=btcusdt&end_time=${end}`);
    expect(r.body.data).toHaveLength(100);
    expect(r.body.pagination).toMatchObject({ limit: 100, has_more: true });
    expect(r.body.data[0].timestamp).toBe(end);
    for (const q of ['limit=101', 'limit=0', 'limit=abc']) {
      const bad = await get(`/v1/crypto-prices/spot?currency=btcusdt&${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
    }
  });

  it('negative times are clamped to 0', async () => {
    const { get } = await liveApp(sim);
    const r = await get('/v1/crypto-prices/spot?currency=btcusdt&start_time=-100&end_time=-1');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    const s = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=-100&end_time=${pastSecond()}&limit=2`);
    expect(s.body.data).toHaveLength(2);
  });

  it('a different start_time with a cursor is 400; a cursor of another route is 400; pagination_key is retired', async () => {
    const { get } = await liveApp(sim);
    const end = pastSecond();
    const r = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${end - 10_000}&end_time=${end}&limit=3`);
    const cursor = encodeURIComponent(r.body.pagination.next_cursor);
    const bad = await get(`/v1/crypto-prices/spot?cursor=${cursor}&start_time=${end - 9_000}`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_cursor');
    const garbage = await get('/v1/crypto-prices/spot?cursor=abc');
    expect(garbage.body.code).toBe('invalid_cursor');
    const retired = await get('/v1/crypto-prices/spot?currency=btcusdt&pagination_key=x');
    expect(retired.status).toBe(400);
    expect(retired.body.message).toContain('cursor');
  });
  it('a start_time in the future without end_time is the client\'s invalid_parameter quoting it, not upstream_rejected', async () => {
    const { get } = await liveApp(sim);
    const future = Date.now() + 10 * 86_400_000;
    const r = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${future}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_parameter', param: 'start_time', status_code: 400 });
    expect(r.body.message).toContain(JSON.stringify(String(future)));
    expect(r.body.message).not.toMatch(/startTime|endTime/);
  });

  it('times past ±2^53 (even past int64) are clamped like negatives, not refused', async () => {
    const { get } = await liveApp(sim);
    const end = pastSecond();
    const low = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=-9007199254740993&end_time=${end}&limit=2`);
    expect(low.status).toBe(200);
    expect(low.body.data.map((x: any) => x.timestamp)).toEqual([end, end - 1000]);
    const lower = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=-99999999999999999999999&end_time=${end}&limit=2`);
    expect(lower.body).toEqual(low.body);
    const high = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${end - 5000}&end_time=9007199254740993&limit=3`);
    expect(high.status).toBe(200);
    expect(high.body.data).toHaveLength(3);
  });
  it('forged cursors (unsigned base64 JSON of the earlier form) are invalid_cursor: no page of 999, no chosen range, no upstream_rejected', async () => {
    const { get } = await liveApp(sim);
    const end = pastSecond();
    const forge = (f: Record<string, unknown>) => Buffer.from(JSON.stringify({ v: 1, k: 'spot', c: 'btcusdt', s: end - 2_000_000, e: end, l: 3, ...f })).toString('base64url');
    for (const f of [{ l: 999 }, { s: 0 }, { s: end + 10_000_000, e: end + 20_000_000 }, { e: -1 }, { l: 0 }]) {
      const r = await get(`/v1/crypto-prices/spot?cursor=${forge(f)}`);
      expect(r.status, JSON.stringify(f)).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    }
    // The real cursor still pages.
    const first = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${end - 10_000}&end_time=${end}&limit=3`);
    const next = await get(`/v1/crypto-prices/spot?cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(next.status).toBe(200);
    expect(next.body.data.map((x: any) => x.timestamp)).toEqual([end - 3000, end - 4000, end - 5000]);
  });

  it('range boundaries: equal bounds on a second give that second, between seconds nothing; far past and all-future ranges are empty 200s', async () => {
    const { get } = await liveApp(sim);
    const sec = pastSecond();
    const eq = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${sec}&end_time=${sec}`);
    expect(eq.status).toBe(200);
    expect(eq.body.data.map((x: any) => x.timestamp)).toEqual([sec]);
    expect(eq.body.pagination).toEqual({ limit: 100, total: null, has_more: false });
    const between = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${sec + 1}&end_time=${sec + 999}`);
    expect(between.body).toEqual({ data: [], pagination: { limit: 100, total: null, has_more: false } });
    const past = await get('/v1/crypto-prices/spot?currency=btcusdt&start_time=0&end_time=1000');
    expect(past.body).toEqual({ data: [], pagination: { limit: 100, total: null, has_more: false } });
    const future = Math.floor(sim.clock.now() / 1000) * 1000 + 86_400_000;
    const ahead = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${future}&end_time=${future + 60_000}`);
    expect(ahead.status).toBe(200);
    expect(ahead.body.data).toEqual([]);
    expect(ahead.body.pagination.has_more).toBe(false);
    // An end_time in the future: the newest second is the current one, not one ahead of it.
    const toFuture = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${sec}&end_time=${future}&limit=1`);
    expect(toFuture.body.data).toHaveLength(1);
    expect(toFuture.body.data[0].timestamp).toBeLessThanOrEqual(sim.clock.now());
    expect(toFuture.body.data[0].timestamp).toBeGreaterThan(sec);
  });

  it('times that are not integers of Unix ms are 400 naming the parameter and quoting the value', async () => {
    const { get } = await liveApp(sim);
    for (const name of ['start_time', 'end_time']) {
      for (const v of ['1.5', '1e3', '0x10', '%2B5', '%205', 'now', '2026-11-20T00:00:00Z']) {
        const r = await get(`/v1/crypto-prices/spot?currency=btcusdt&${name}=${v}`);
        expect(r.status, `${name}=${v}`).toBe(400);
        expect(r.body, `${name}=${v}`).toMatchObject({ code: 'invalid_parameter', param: name });
        expect(r.body.message, `${name}=${v}`).toContain(JSON.stringify(decodeURIComponent(v)));
      }
    }
  });

  it('a cursor of another currency is 400; limit with a cursor sets the next page size', async () => {
    const { get } = await liveApp(sim);
    const end = pastSecond();
    const r = await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${end - 20_000}&end_time=${end}&limit=2`);
    const cursor = encodeURIComponent(r.body.pagination.next_cursor);
    const other = await get(`/v1/crypto-prices/spot?cursor=${cursor}&currency=ethusdt`);
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'invalid_cursor' });
    const same = await get(`/v1/crypto-prices/spot?cursor=${cursor}&currency=BTCUSDT&limit=5`);
    expect(same.status).toBe(200);
    expect(same.body.data.map((x: any) => x.timestamp)).toEqual([2, 3, 4, 5, 6].map((i) => end - i * 1000));
    expect(same.body.pagination.limit).toBe(5);
  });
});
