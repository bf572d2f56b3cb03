// The candle tables after migrations/003 (one table, one view over the three widths, the old names
// kept as views): the candles are those the three views of 002 made, for a fresh database and for
// one upgraded with candles already written; the route's reads see each write at once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChdbHistory } from './chdb-history.ts';
import { applyPriceHistoryTtl, loadMigrations, migrate } from './migrate.ts';
import { midOf, type CandleInterval } from './price-history.ts';
import { candleRows } from './price-queries.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-chdb-candles-'));
const opened: ChdbHistory[] = [];
const open = async () => {
  const h = await ChdbHistory.open(dir, `candles_${randomBytes(4).toString('hex')}`);
  opened.push(h);
  return h;
};
afterAll(async () => {
  for (const h of opened) await h.close();
});

const DAY = 1_767_225_600; // 2026-01-01T00:00:00Z
/** Changes of two outcomes over two days: every 7 minutes and 13 s, bid moving, last on one side. */
function changes(marketId: string, from: number, n: number) {
  return Array.from({ length: n }, (_, i) => {
    const bid = Math.round((0.2 + ((i * 7) % 50) / 100) * 100) / 100;
    const ask = Math.round((bid + 0.03) * 100) / 100;
    return {
      provider: 'venue_3',
      market_id: marketId,
      outcome_id: i % 3 === 0 ? 'no' : 'yes',
      bid,
      ask,
      last: i % 2 ? bid : null,
      price: midOf(bid, ask),
      mid: midOf(bid, ask),
      bid_size: null,
      ask_size: null,
      venue_time: null,
      observed_at: (from + i * 433) * 1000,
    };
  });
}

/** Every candle of the market at each width, through the views the route and the data teams read. */
async function allCandles(h: ChdbHistory, marketId: string) {
  const out: Record<string, unknown> = {};
  for (const t of ['price_candles_1m', 'price_candles_1h', 'price_candles_1d'])
    out[t] = await h.query(
      `SELECT toUnixTimestamp(bucket) AS b, outcome_id, argMinMerge(mid_open) AS mo, max(mid_high) AS mh, min(mid_low) AS ml, argMaxMerge(mid_close) AS mc,
              argMinMerge(last_open) AS lo, max(last_high) AS lh, min(last_low) AS ll, argMaxMerge(last_close) AS lc, sum(changes) AS n
       FROM ${t} WHERE provider = 'venue_3' AND market_id = {m:String} GROUP BY bucket, outcome_id ORDER BY b, outcome_id`,
      { m: marketId },
    );
  return out;
}

describe('price candles in one table (migrations/003)', () => {
  it('an upgraded database keeps the candles 002 wrote and goes on as a fresh one does', async () => {
    const m = String(1_000_000 + randomBytes(2).readUInt16BE(0));
    const before = loadMigrations().filter((x) => x.version <= 2);
    const old = await open();
    await migrate(old, before);
    const fresh = await open();
    await migrate(fresh);
    const first = changes(m, DAY, 300);
    const later = changes(m, DAY + 300 * 433 + 17, 200);
    await old.insert('price_history', first);
    await fresh.insert('price_history', first);
    const written = await allCandles(old, m);
    // The three widths as 002's three views made them.
    expect((written.price_candles_1d as unknown[]).length).toBe(4); // two days, two outcomes
    expect(await migrate(old)).toContain(3);
    expect(await allCandles(old, m)).toEqual(written);
    expect(await allCandles(fresh, m)).toEqual(written);
    // Writes after the upgrade land in the same buckets as on the fresh database, added to the moved ones.
    await old.insert('price_history', later);
    await fresh.insert('price_history', later);
    expect(await allCandles(old, m)).toEqual(await allCandles(fresh, m));
    const n = (await allCandles(fresh, m)).price_candles_1d as { n: number | string }[];
    expect(n.reduce((s, r) => s + Number(r.n), 0)).toBe(500);
    // The TTL is set on the table that holds the candles.
    await applyPriceHistoryTtl(fresh, 30);
    const [ddl] = await fresh.query<{ statement: string }>(`SHOW CREATE TABLE price_candles`);
    expect(ddl!.statement).toMatch(/TTL toDateTime\(bucket\) \+ toIntervalDay\(30\)/);
  });

  it("the route's read sees a change in its candle right after the write, at every interval", async () => {
    const h = await open();
    await migrate(h);
    const m = String(1_000_000 + randomBytes(2).readUInt16BE(0));
    const at = DAY + 3 * 86_400 + 3_725; // 01:02:05 on day 4
    const row = (bid: number, sec: number) => ({ ...changes(m, at + sec, 1)[0]!, outcome_id: 'yes', bid, ask: 0.9, mid: midOf(bid, 0.9), price: midOf(bid, 0.9) });
    for (const [interval, start] of [['1m', at - 5], ['1h', at - 3_725 + 3_600], ['1d', at - 3_725]] as [CandleInterval, number][]) {
      await h.insert('price_history', [row(0.1, interval === '1m' ? 0 : 1)]);
      const q = { provider: 'venue_3', marketId: m, interval, from: start, to: start + 59, buckets: 10 };
      const rows = await candleRows(h, q);
      expect(rows.map((r) => [r.bucket, r.outcome_id]), interval).toEqual([[start, 'yes']]);
    }
    // One more change moves the close of the same 1m candle at once (the four changes of this minute).
    await h.insert('price_history', [row(0.3, 2)]);
    const [c] = await candleRows(h, { provider: 'venue_3', marketId: m, interval: '1m', from: at - 5, to: at + 54, buckets: 10 });
    expect(c).toMatchObject({ bucket: at - 5, mid_close: midOf(0.3, 0.9), changes: 4 });
  });
});
