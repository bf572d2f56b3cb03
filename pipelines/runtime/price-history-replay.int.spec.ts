// Replay rebuilds the price history: sink.price-history on the embedded backbone with chdb on the
// history worker (the embedded default's path), then a stop-the-world replay from earliest, which
// clears the tables the view and the candles' roll-up fill too, gives the same rows and, rolled up
// again, the same candles. Its own file: chdb opens one
// data directory per process.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { avroSerde } from '../serde/index.ts';
import type { RawRecord } from '../topics.ts';
import { replay, replayHistorySideBySide } from './replay.ts';
import { startStage } from './runner.ts';
import { priceHistorySink } from './sinks.ts';
import { rollUpCandles } from '../readmodels/price-rollup.ts';
import { embeddedBackbone, produceRaw, randomPrefix } from './testkit.ts';

const MIN = 1_767_225_600_000; // 2026-01-01T00:00:00Z

describe('sink.price-history replay', () => {
  it('on the embedded backbone (history worker) the sink writes from the log, and replay from earliest rebuilds the same history and candles', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-price-replay-'));
    const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
    const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: avroSerde(registry), historyWorker: { registry } });
    const producer = await b.log.producer();
    try {
      const raw = (id: string, at: number, bid: number): RawRecord => ({
        venue: 'venue_3', record_type: 'market', native_id: id, read_started_at: at, read_id: null, source_url: null,
        payload: JSON.stringify({ id: Number(id), status: 'open', outcomes: [{ token: 't1', best_bid: bid, best_ask: 0.6, last_price: null }] }),
      });
      const ids = ['1000001', '1000002', '1000003'];
      // Ten polls a market, the quote changing every other poll: five changes each.
      await produceRaw(b, producer, ids.flatMap((id) => Array.from({ length: 10 }, (_, i) => raw(id, MIN + i * 30_000, 0.3 + Math.floor(i / 2) / 100))));
      const r = await startStage(priceHistorySink, b);
      await r.caughtUp(30_000);
      await r.stop();
      // The candles as the roll-up writes them (rolled up first: the timer's work), read alone.
      const snapshot = async () => {
        await rollUpCandles(b.history);
        return {
          rows: await b.history.query(`SELECT market_id, count() AS n, groupArray(bid) AS bids FROM (SELECT * FROM price_history FINAL ORDER BY observed_at) GROUP BY market_id ORDER BY market_id`),
          candles: await b.history.query(`SELECT market_id, toUnixTimestamp(bucket) AS b, argMinMerge(mid_open) AS o, argMaxMerge(mid_close) AS c, toUInt64(sum(changes)) AS n FROM price_rollup_1m GROUP BY market_id, bucket ORDER BY market_id, b`),
          hours: await b.history.query(`SELECT market_id, toUnixTimestamp(bucket) AS b, argMinMerge(mid_open) AS o, argMaxMerge(mid_close) AS c, toUInt64(sum(changes)) AS n FROM price_rollup_1h GROUP BY market_id, bucket ORDER BY market_id, b`),
        };
      };
      const before = await snapshot();
      expect(before.rows).toEqual(ids.map((market_id) => ({ market_id, n: 5, bids: [0.3, 0.31, 0.32, 0.33, 0.34] })));
      // A change every minute (polls every 30 s, the quote moving every other poll): one per bucket.
      expect(before.candles.filter((c) => c.market_id === ids[0])).toEqual(
        [0.45, 0.455, 0.46, 0.465, 0.47].map((mid, i) => ({ market_id: ids[0], b: MIN / 1000 + i * 60, o: mid, c: mid, n: 1 })),
      );
      expect(before.hours.filter((c) => c.market_id === ids[0])).toEqual([{ market_id: ids[0], b: MIN / 1000, o: 0.45, c: 0.47, n: 5 }]);
      const result = await replay([priceHistorySink], b, 'earliest', { timeoutMs: 30_000 });
      // The candles and the roll-up's mark are cleared with the rows: the next roll-up rebuilds them all.
      expect(result.plan.tables).toEqual(expect.arrayContaining(['price_rollup_1d', 'price_rollup_state']));
      expect(result.lagBefore['sink.price-history']).toBe(30);
      expect(await snapshot()).toEqual(before);
      // Beside the live tables it cannot be rebuilt: the copies would have no views.
      await expect(replayHistorySideBySide([priceHistorySink], b)).rejects.toThrow(/cannot be rebuilt side by side \(materialized views feed its tables\); use the stop-the-world replay/);
    } finally {
      await producer.close();
      await b.close();
    }
  });
});
