/* eslint-disable @typescript-eslint/no-explicit-any -- API JSON is read loosely in tests */
// GET /v1/markets/{market_id}/history through the HTTP API (app.inject), on price history in chdb:
// id forms market detail accepts, the spot route's time rules, paging by signed cursor, and 503
// where no History is open (an API replica of the stack without ClickHouse).
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';
import { ChdbHistory } from '../../../pipelines/readmodels/chdb-history.ts';
import { migrate } from '../../../pipelines/readmodels/migrate.ts';
import { midOf } from '../../../pipelines/readmodels/price-history.ts';
import { rollUpCandles } from '../../../pipelines/readmodels/price-rollup.ts';
import { PERMISSIONS } from '../table.ts';
import { schemaProblems } from '../../live/testkit.ts';
import { MarketHistorySchema } from '../../schemas/history.ts';

let history: ChdbHistory;
beforeAll(async () => {
  history = await ChdbHistory.open(path.join(tmpdir(), `pm-chdb-${process.pid}`), `hist_${randomBytes(4).toString('hex')}`);
  await migrate(history);
});
afterAll(async () => history.close());

const DAY = 1_767_225_600; // 2026-01-01T00:00:00Z, Unix seconds
const NOW = (DAY + 3 * 86_400) * 1000;
const num = () => String(1_000_000 + randomBytes(3).readUIntBE(0, 3) % 8_999_999);

/** One change per minute for `minutes` minutes from `from` (Unix seconds), outcome a only. */
async function changes(provider: string, marketId: string, from: number, minutes: number) {
  const rows = Array.from({ length: minutes }, (_, i) => {
    const bid = Math.round((0.3 + (i % 10) / 100) * 100) / 100;
    return { provider, market_id: marketId, outcome_id: 'a', bid, ask: 0.6, last: null, price: midOf(bid, 0.6), mid: midOf(bid, 0.6), bid_size: null, ask_size: null, venue_time: null, observed_at: (from + i * 60 + 5) * 1000 };
  });
  await history.insert('price_history', rows);
}

async function app(opts: { withHistory?: boolean; permissions?: string[] } = {}) {
  const t = await build({ deps: opts.withHistory === false ? {} : { priceHistory: { history } }, now: NOW });
  const key = await t.createKey({ plan: 'business', permissions: (opts.permissions ?? [...PERMISSIONS]) as any });
  return async (url: string) => {
    const res = await t.app.inject({ url, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
  };
}

describe('GET /v1/markets/{market_id}/history', () => {
  it('answers candles of the composite, bare and provider-hinted forms and of an alias, from the candles', async () => {
    const v3 = num();
    await changes('venue_3', v3, DAY, 3);
    const slug = `nba-lal-bos-${randomBytes(3).toString('hex')}`;
    const v2 = num();
    await changes('venue_2', v2, DAY, 2);
    await history.insert('price_aliases', [{ provider: 'venue_2', alias: slug, market_id: v2, observed_at: DAY * 1000 }]);
    const get = await app();
    const a = await get(`/v1/markets/venue_3:${v3}/history?interval=1m&start_time=0`);
    expect(a.status).toBe(200);
    expect(schemaProblems(MarketHistorySchema, a.body)).toEqual([]);
    expect(a.body.market).toEqual({ id: `venue_3:${v3}`, provider: 'venue_3', provider_id: v3 });
    expect(a.body.data.map((c: any) => c.start_time)).toEqual([DAY + 120, DAY + 60, DAY]);
    expect(a.body.data[2]).toEqual({ start_time: DAY, end_time: DAY + 59, outcomes: [{ outcome_id: 'a', mid: { open: 0.45, high: 0.45, low: 0.45, close: 0.45 }, last: null, price: { open: 0.45, high: 0.45, low: 0.45, close: 0.45 }, changes: 1 }] });
    expect(a.body.pagination).toEqual({ limit: 100, total: null, has_more: false });
    // The same candles by every other form.
    for (const url of [`/v1/markets/${v3}/history?interval=1m`, `/v1/markets/${v3}/history?interval=1m&provider=v3`]) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      expect(r.body.data, url).toEqual(a.body.data);
    }
    const s = await get(`/v1/markets/${slug}/history?interval=1h`);
    expect(s.status).toBe(200);
    expect(s.body.market.id).toBe(`venue_2:${v2}`);
    expect(s.body.data).toEqual([{ start_time: DAY, end_time: DAY + 3599, outcomes: [{ outcome_id: 'a', mid: { open: 0.45, high: 0.455, low: 0.45, close: 0.455 }, last: null, price: { open: 0.45, high: 0.455, low: 0.45, close: 0.455 }, changes: 2 }] }]);
  });

  it('a venue_9 bare parent gives the group view: one outcome per child (its pair), from the children Yes candles', async () => {
    const hex = () => `0x${randomBytes(32).toString('hex')}`;
    const parent = hex();
    const [c1, c2] = [`${parent}:${hex()}`, `${parent}:${hex()}`];
    const mark = (market_id: string, outcome_id: string, price: number, sec: number) => ({ provider: 'venue_9', market_id, outcome_id, bid: null, ask: null, last: null, price, mid: null, bid_size: null, ask_size: null, venue_time: null, observed_at: (DAY + sec) * 1000 });
    await history.insert('price_history', [mark(c1, 'yes', 0.6, 1), mark(c1, 'no', 0.4, 1), mark(c2, 'yes', 0.3, 2), mark(c2, 'no', 0.7, 2), mark(c1, 'yes', 0.65, 30), mark(c1, 'no', 0.35, 30)]);
    const get = await app();
    const g = await get(`/v1/markets/venue_9:${parent}/history?interval=1d`);
    expect(g.status).toBe(200);
    expect(g.body.market).toEqual({ id: `venue_9:${parent}`, provider: 'venue_9', provider_id: parent });
    const want = [
      { outcome_id: c1, mid: null, last: null, price: { open: 0.6, high: 0.65, low: 0.6, close: 0.65 }, changes: 2 },
      { outcome_id: c2, mid: null, last: null, price: { open: 0.3, high: 0.3, low: 0.3, close: 0.3 }, changes: 1 },
    ].sort((a, b) => (a.outcome_id < b.outcome_id ? -1 : 1));
    expect(g.body.data).toEqual([{ start_time: DAY, end_time: DAY + 86_399, outcomes: want }]);
    // A child pair is a binary market of its own, Yes and No.
    const c = await get(`/v1/markets/${c1}/history?provider=venue_9&interval=1d`);
    expect(c.body.data[0].outcomes.map((o: any) => [o.outcome_id, o.price.close])).toEqual([['no', 0.35], ['yes', 0.65]]);
  });

  it('answers the same whether the candles were rolled up or not: before a roll-up, after it, right after a change into a rolled-up bucket, a group view too', async () => {
    const id = num();
    await changes('venue_3', id, DAY, 130); // 130 one-minute buckets (two pages of 100), three hours, one day
    const hex = () => `0x${randomBytes(32).toString('hex')}`;
    const parent = hex();
    const child = `${parent}:${hex()}`;
    const mark = (price: number, sec: number) => ({ provider: 'venue_9', market_id: child, outcome_id: 'yes', bid: null, ask: null, last: null, price, mid: null, bid_size: null, ask_size: null, venue_time: null, observed_at: (DAY + sec) * 1000 });
    await history.insert('price_history', [mark(0.6, 1), mark(0.62, 70)]);
    const get = await app();
    /** Every page of every interval, following cursors. */
    const answers = async () => {
      const out: Record<string, any[]> = {};
      for (const [name, first] of [
        ['1m', `/v1/markets/venue_3:${id}/history?interval=1m&start_time=0`],
        ['1h', `/v1/markets/venue_3:${id}/history?interval=1h&start_time=0`],
        ['1d', `/v1/markets/venue_3:${id}/history?interval=1d&start_time=0`],
        ['group', `/v1/markets/venue_9:${parent}/history?interval=1m&start_time=0`],
      ] as const) {
        out[name] = [];
        let url = first as string;
        for (let page = 0; page < 5; page++) {
          const r = await get(url);
          expect(r.status, url).toBe(200);
          out[name].push(...r.body.data);
          if (!r.body.pagination.has_more) break;
          url = `${first}&cursor=${encodeURIComponent(r.body.pagination.next_cursor)}`;
        }
      }
      return out;
    };
    const before = await answers();
    expect([before['1m'].length, before['1h'].length, before['1d'].length, before.group.length]).toEqual([130, 3, 1, 2]);
    await rollUpCandles(history);
    expect(await answers()).toEqual(before);

    // A change into the first minute and hour (rolled up already), and one of the group's child.
    await history.insert('price_history', [
      { provider: 'venue_3', market_id: id, outcome_id: 'a', bid: 0.9, ask: 0.6, last: null, price: 0.75, mid: 0.75, bid_size: null, ask_size: null, venue_time: null, observed_at: (DAY + 30) * 1000 },
      mark(0.7, 75),
    ]);
    const after = await answers();
    expect(after['1m'].at(-1).outcomes).toEqual([{ outcome_id: 'a', mid: { open: 0.45, high: 0.75, low: 0.45, close: 0.75 }, last: null, price: { open: 0.45, high: 0.75, low: 0.45, close: 0.75 }, changes: 2 }]);
    expect(after['1h'].at(-1).outcomes[0].changes).toBe(61);
    expect(after['1d'][0].outcomes[0].changes).toBe(131);
    expect(after.group[0].outcomes).toEqual([{ outcome_id: child, mid: null, last: null, price: { open: 0.62, high: 0.7, low: 0.62, close: 0.7 }, changes: 2 }]);
    expect(after['1m'].slice(0, -1)).toEqual(before['1m'].slice(0, -1));
    await rollUpCandles(history);
    expect(await answers()).toEqual(after);
  });

  it('market detail resolution rules: 409 with candidates when both venue_2 and venue_3 hold a bare id, 404 unknown, 400 impossible', async () => {
    const id = num();
    await changes('venue_2', id, DAY, 1);
    await changes('venue_3', id, DAY, 1);
    const get = await app();
    const amb = await get(`/v1/markets/${id}/history`);
    expect(amb.status).toBe(409);
    expect(amb.body).toMatchObject({ code: 'ambiguous_identifier', param: 'market_id', candidates: ['venue_2', 'venue_3'] });
    expect((await get(`/v1/markets/${id}/history?provider=venue_2`)).body.market.id).toBe(`venue_2:${id}`);
    const unknown = await get(`/v1/markets/venue_3:${num()}9/history`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('market_not_found');
    const bad = await get('/v1/markets/venue_3:not-a-number/history');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_identifier', param: 'market_id' });
  });

  it('the spot route rules for start_time and end_time, interval and limit, each error quoting the value', async () => {
    const id = num();
    await changes('venue_3', id, DAY, 1);
    const get = await app();
    const cases: [string, string, string, RegExp][] = [
      ['start_time=abc', 'invalid_parameter', 'start_time', /abc/],
      ['end_time=1.5', 'invalid_parameter', 'end_time', /1\.5/],
      [`start_time=${DAY + 10}&end_time=${DAY}`, 'invalid_parameter', 'start_time', new RegExp(`${DAY + 10}`)],
      [`start_time=${NOW / 1000 + 3600}`, 'invalid_parameter', 'start_time', /future/],
      ['interval=5m', 'invalid_parameter', 'interval', /5m/],
      ['limit=101', 'invalid_parameter', 'limit', /101/],
      ['limit=0', 'invalid_parameter', 'limit', /0/],
      ['cursor=12', 'invalid_cursor', 'cursor', /12/],
      ['bogus=1', 'unknown_parameter', 'bogus', /bogus/],
    ];
    for (const [qs, code, param, message] of cases) {
      const r = await get(`/v1/markets/venue_3:${id}/history?${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.body.code, qs).toBe(code);
      expect(r.body.param, qs).toBe(param);
      expect(r.body.message, qs).toMatch(message);
    }
    // Negatives are clamped to 0, as on the spot route: the whole history up to end_time.
    const neg = await get(`/v1/markets/venue_3:${id}/history?interval=1d&start_time=-5&end_time=${DAY}`);
    expect(neg.status).toBe(200);
    expect(neg.body.data.map((c: any) => c.start_time)).toEqual([DAY]);
    // Past int64 either way: clamped the same, never refused for size (the OpenAPI document says so).
    const huge = await get(`/v1/markets/venue_3:${id}/history?interval=1d&start_time=-4754596145057228071721639688011776&end_time=107805507766476366413824`);
    expect(huge.status).toBe(200);
    expect(huge.body.data.map((c: any) => c.start_time)).toEqual([DAY]);
    // end_time before the first bucket: empty, not an error.
    const before = await get(`/v1/markets/venue_3:${id}/history?start_time=0&end_time=${DAY - 1}`);
    expect(before.body).toMatchObject({ data: [], pagination: { has_more: false } });
  });

  it('pages newest first; following cursors returns every bucket of the range exactly once; a cursor binds market, interval and start_time', async () => {
    const id = num();
    await changes('venue_3', id, DAY, 50);
    const get = await app();
    const start = DAY + 5 * 60;
    const end = DAY + 44 * 60 + 30; // inclusive bounds need not sit on a bucket
    let url = `/v1/markets/venue_3:${id}/history?interval=1m&start_time=${start}&end_time=${end}&limit=7`;
    const seen: number[] = [];
    let first: any;
    for (let page = 0; page < 20; page++) {
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(schemaProblems(MarketHistorySchema, r.body)).toEqual([]);
      first ??= r.body;
      seen.push(...r.body.data.map((c: any) => c.start_time));
      if (!r.body.pagination.has_more) {
        expect(r.body.pagination.next_cursor).toBeUndefined();
        break;
      }
      // end_time is ignored with a cursor; the same start_time is accepted.
      url = `/v1/markets/venue_3:${id}/history?cursor=${encodeURIComponent(r.body.pagination.next_cursor)}&start_time=${start}&end_time=1`;
    }
    const want = Array.from({ length: 40 }, (_, i) => DAY + (44 - i) * 60);
    expect(seen).toEqual(want);

    const cursor = encodeURIComponent(first.pagination.next_cursor);
    const other = await get(`/v1/markets/venue_3:${num()}/history?cursor=${cursor}`);
    expect(other.body).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    const otherStart = await get(`/v1/markets/venue_3:${id}/history?cursor=${cursor}&start_time=${start + 60}`);
    expect(otherStart.body).toMatchObject({ code: 'invalid_cursor', param: 'start_time' });
    const otherInterval = await get(`/v1/markets/venue_3:${id}/history?cursor=${cursor}&interval=1h`);
    expect(otherInterval.body).toMatchObject({ code: 'invalid_cursor', param: 'interval' });
    const forged = await get(`/v1/markets/venue_3:${id}/history?cursor=${cursor.slice(0, -2)}xx`);
    expect(forged.body).toMatchObject({ code: 'invalid_cursor' });
  });

  it('more id forms of market detail: venue_1 tickers in any case, a venue_7 pair and its line in any spelling, a venue_4 hash (no prices kept: 404)', async () => {
    const tag = randomBytes(3).toString('hex').toUpperCase();
    const ticker = `KXNBAGAME-26NOV26${tag}-CHI`;
    await changes('venue_1', ticker, DAY, 2);
    const ev = String(30_000_000 + randomBytes(2).readUInt16BE(0));
    await changes('venue_7', `${ev}:2:-1.5`, DAY, 3);
    const get = await app();
    const want = await get(`/v1/markets/venue_1:${ticker}/history?interval=1m`);
    expect(want.body.data).toHaveLength(2);
    for (const form of [ticker.toLowerCase(), `VENUE_1:${ticker.toLowerCase()}`, `${ticker.toLowerCase()}?provider=venue_1`]) {
      const url = `/v1/markets/${form.includes('?') ? form.replace('?', '/history?interval=1m&') : `${form}/history?interval=1m`}`;
      const r = await get(url);
      expect([url, r.status, r.body.market?.id]).toEqual([url, 200, `venue_1:${ticker}`]);
      expect(r.body.data, url).toEqual(want.body.data);
    }
    for (const line of ['-1.5', '-1.50', '-01.5']) {
      const url = `/v1/markets/venue_7:${ev}:2:${line}/history?interval=1m`;
      const r = await get(url);
      expect([url, r.status, r.body.market?.id, r.body.data?.length]).toEqual([url, 200, `venue_7:${ev}:2:-1.5`, 3]);
    }
    const hash = `0x${randomBytes(32).toString('hex')}`;
    const v4 = await get(`/v1/markets/${hash}/history`);
    expect([v4.status, v4.body.code]).toEqual([404, 'market_not_found']);
  });

  it('time boundaries: start_time = end_time names one second (the bucket starting then), a future range is empty, not an error; a cursor of another route or another spelling of the id is refused', async () => {
    const id = num();
    await changes('venue_3', id, DAY, 3);
    const get = await app();
    const one = await get(`/v1/markets/venue_3:${id}/history?interval=1m&start_time=${DAY + 60}&end_time=${DAY + 60}`);
    expect(one.body.data.map((c: any) => c.start_time)).toEqual([DAY + 60]);
    // A bucket starts in the range or it is not served (its change at DAY + 65 is after start).
    const inside = await get(`/v1/markets/venue_3:${id}/history?interval=1m&start_time=${DAY + 70}&end_time=${DAY + 70}`);
    expect([inside.status, inside.body.data]).toEqual([200, []]);
    const future = await get(`/v1/markets/venue_3:${id}/history?start_time=${NOW / 1000 + 60}&end_time=${NOW / 1000 + 3600}`);
    expect([future.status, future.body.data, future.body.pagination.has_more]).toEqual([200, [], false]);
    // A start after the end by one second is refused, quoting both.
    const after = await get(`/v1/markets/venue_3:${id}/history?start_time=${DAY + 1}&end_time=${DAY}`);
    expect([after.status, after.body.code, after.body.param]).toEqual([400, 'invalid_parameter', 'start_time']);
    for (const bad of ['1e3', '+5', '0x10', '12.0']) {
      const r = await get(`/v1/markets/venue_3:${id}/history?start_time=${encodeURIComponent(bad)}`);
      expect([bad, r.status, r.body.code, r.body.param]).toEqual([bad, 400, 'invalid_parameter', 'start_time']);
    }
    const paged = await get(`/v1/markets/venue_3:${id}/history?interval=1m&start_time=0&limit=1`);
    const cursor = encodeURIComponent(paged.body.pagination.next_cursor);
    // The cursor is bound to the id as sent: the same market by its bare id is another request.
    const bare = await get(`/v1/markets/${id}/history?cursor=${cursor}&provider=venue_3`);
    expect([bare.status, bare.body.code]).toEqual([400, 'invalid_cursor']);
    const spot = await get(`/v1/crypto-prices/spot?currency=btcusd&start_time=0&end_time=10&cursor=${cursor}`);
    expect([spot.status, spot.body.code]).toEqual([400, 'invalid_cursor']);
  });

  it('503 service_unavailable where no price history is open; 403 without markets.read', async () => {
    const none = await app({ withHistory: false });
    const r = await none(`/v1/markets/venue_3:${num()}/history`);
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('service_unavailable');
    // Bad input is still named as such before the store is needed.
    expect((await none(`/v1/markets/venue_3:${num()}/history?interval=2h`)).status).toBe(400);
    const noPerm = await app({ permissions: ['events.read'] });
    const f = await noPerm(`/v1/markets/venue_3:${num()}/history`);
    expect(f.status).toBe(403);
    expect(f.body.code).toBe('forbidden');
  });

  it('503 naming PRICE_HISTORY where an operator turned the price history off, even with a History open', async () => {
    const id = num();
    await changes('venue_3', id, DAY, 1);
    const t = await build({ deps: { priceHistory: { history } }, now: NOW, env: { PRICE_HISTORY: 'false' } });
    const key = await t.createKey({ plan: 'business', permissions: ['markets.read'] });
    const res = await t.app.inject({ url: `/v1/markets/venue_3:${id}/history?interval=1m&start_time=0`, headers: t.auth(key) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('PRICE_HISTORY=false') });
    // The same market with the price history on answers its candle.
    expect((await (await app())(`/v1/markets/venue_3:${id}/history?interval=1m&start_time=0`)).body.data).toHaveLength(1);
  });

  it('503 when the store stops answering (a History that fails every read)', async () => {
    const broken = { ...history, kind: 'clickhouse', query: () => Promise.reject(new Error('connect ECONNREFUSED')) } as unknown as ChdbHistory;
    const t = await build({ deps: { priceHistory: { history: broken } }, now: NOW });
    const key = await t.createKey({ plan: 'business', permissions: ['markets.read'] });
    const res = await t.app.inject({ url: `/v1/markets/venue_3:${num()}/history`, headers: t.auth(key) });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toBe('5');
  });
});
