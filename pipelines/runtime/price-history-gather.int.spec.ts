// sink.price-history gathering its rows (StageDef.accumulate) on the embedded backbone with chdb on the
// history worker, when its inserts fail: nothing of the batches held is committed, their partitions are
// read again, and once the table takes rows again each change is written once. Its own file: chdb
// opens one data directory per process.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { avroSerde } from '../serde/index.ts';
import type { RawRecord } from '../topics.ts';
import { groupLag, stageGroupId, startStage } from './runner.ts';
import { priceHistorySink } from './sinks.ts';
import { embeddedBackbone, produceRaw, randomPrefix } from './testkit.ts';

const MIN = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const MARKETS = ['1000001', '1000002', '1000003', '1000004', '1000005', '1000006'];
const raw = (id: string, at: number, bid: number): RawRecord => ({
  venue: 'venue_3',
  record_type: 'market',
  native_id: id,
  read_started_at: at,
  read_id: null,
  source_url: null,
  payload: JSON.stringify({ id: Number(id), status: 'open', outcomes: [{ token: 't1', best_bid: bid, best_ask: 0.6, last_price: null }] }),
});
/** Poll i: the bid moves every other poll (0.30, 0.30, 0.31, 0.31, ...). */
const poll = (i: number) => MARKETS.map((id) => raw(id, MIN + i * 30_000, 0.3 + Math.floor(i / 2) / 100));

describe('sink.price-history gathering rows, when an insert fails', () => {
  it('commits nothing of what it held, reads those partitions again, and writes each change once when the table is back', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-price-gather-fail-'));
    const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
    const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: avroSerde(registry), historyWorker: { registry } });
    const producer = await b.log.producer();
    const errors: unknown[] = [];
    const sink = await startStage({ ...priceHistorySink, accumulate: { ms: 100, rows: 1_000_000 } }, { ...b, onError: (e) => errors.push(e) });
    const lag = async () => [...(await groupLag(b.log, stageGroupId(priceHistorySink, b.topics), [b.topics['raw.venue_3'].name])).values()].reduce((x, y) => x + y, 0);
    try {
      await produceRaw(b, producer, [0, 1, 2, 3].flatMap(poll));
      await sink.caughtUp(30_000);
      // Inserts fail from now on (the table is gone for a while).
      await b.history.exec('DETACH TABLE price_history');
      await produceRaw(b, producer, [4, 5, 6, 7].flatMap(poll));
      const until = Date.now() + 10_000;
      while (errors.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      // Failed at least twice (held, inserted, failed, read again, failed again), nothing committed since.
      expect(errors.length).toBeGreaterThanOrEqual(2);
      expect(String(errors[0])).toMatch(/price_history/);
      expect(await lag()).toBe(MARKETS.length * 4);
      await b.history.exec('ATTACH TABLE price_history');
      await sink.caughtUp(30_000);
      const rows = await b.history.query<{ market_id: string; n: number; bids: number[] }>(
        `SELECT market_id, count() AS n, groupArray(bid) AS bids FROM (SELECT * FROM price_history ORDER BY observed_at) GROUP BY market_id ORDER BY market_id`,
      );
      // Not FINAL: a change written twice would show.
      expect(rows).toEqual(MARKETS.map((market_id) => ({ market_id, n: 4, bids: [0.3, 0.31, 0.32, 0.33] })));
    } finally {
      await sink.stop();
      await producer.close();
      await b.close();
    }
  }, 60_000);
});
