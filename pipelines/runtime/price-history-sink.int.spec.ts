// sink.price-history on chdb: batches of raw listing records in, only quote changes written, the
// candles read back (the route merges the changes not rolled up), and a redelivered batch or an unchanged poll after a restart writes
// nothing: without a claim the sink compares with what is stored; under one (QuoteMemory) with the
// quotes it kept while the claim holds and the batches follow each other, else with what is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { migrate } from '../readmodels/migrate.ts';
import { candleRows } from '../readmodels/price-queries.ts';
import { groupCandles } from '../readmodels/price-history.ts';
import { priceHistorySink } from './sinks.ts';
import type { InRecord } from './types.ts';
import type { History } from '../readmodels/history.ts';
import type { RawTopicId } from '../topics.ts';

let h: ChdbHistory;
beforeAll(async () => {
  h = await ChdbHistory.open(mkdtempSync(path.join(tmpdir(), 'pm-price-')), `p_${randomBytes(4).toString('hex')}`);
  await migrate(h);
});
afterAll(async () => {
  await h?.close();
});

const MIN = 1_767_225_600_000; // 2026-01-01T00:00:00Z
let offset = 0;
function v3(id: string, at: number, bid: number, ask: number): InRecord {
  const payload = { id, title: 't', status: 'open', outcomes: [{ token: `${id}a`, name: 'A', best_bid: bid, best_ask: ask, last_price: null }, { token: `${id}b`, name: 'B', best_bid: 0.5, best_ask: 0.6, last_price: null }] };
  return { topic: 'raw.venue_3', topicName: 'raw.venue_3', partition: 0, offset: String(offset++), key: id, timestamp: at, headers: {}, value: { venue: 'venue_3', record_type: 'market', native_id: id, read_started_at: at, read_id: null, source_url: null, payload: JSON.stringify(payload) } } as InRecord;
}

/** Reads of price_latest the sink made through this History, and the History it reads through. */
let latestReads = 0;
const counted = (): History =>
  new Proxy(h, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (sql: string, params?: Record<string, unknown>) => {
          if (sql.includes('price_latest')) latestReads++;
          return target.query(sql, params);
        };
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });

/** One batch through the sink; its rows written unless `write` is false (a write that failed). */
async function run(records: InRecord[], opts: { claim?: string; partition?: number; write?: boolean } = {}): Promise<number> {
  const out = await priceHistorySink.handle(records, { stage: priceHistorySink.name, topic: 'raw.venue_3', partition: opts.partition ?? 0, history: counted(), claim: opts.claim });
  let n = 0;
  for (const w of out.history ?? []) {
    if (opts.write !== false) await h.insert(w.table, w.rows);
    if (w.table === 'price_history') n += w.rows.length;
  }
  return n;
}

const stored = async (id: string) =>
  (await h.query<{ n: number }>(`SELECT count() AS n FROM price_history FINAL WHERE market_id = {id:String}`, { id }))[0].n;

describe('sink.price-history on chdb', () => {
  it('writes changes only, across batches, redeliveries and unchanged polls; candles count the changes', async () => {
    const id = String(1_000_000 + randomBytes(2).readUInt16BE());
    // Batch 1: first sight (two outcomes), an unchanged poll, a change of outcome a.
    expect(await run([v3(id, MIN + 1_000, 0.4, 0.5), v3(id, MIN + 11_000, 0.4, 0.5), v3(id, MIN + 21_000, 0.42, 0.5)])).toBe(3);
    // The same batch again (a redelivery after a crash before the commit): nothing.
    expect(await run([v3(id, MIN + 1_000, 0.4, 0.5), v3(id, MIN + 11_000, 0.4, 0.5), v3(id, MIN + 21_000, 0.42, 0.5)])).toBe(0);
    // A later batch (as after a restart: nothing in memory) with an unchanged poll, then a change in the next minute.
    expect(await run([v3(id, MIN + 31_000, 0.42, 0.5), v3(id, MIN + 61_000, 0.3, 0.5)])).toBe(1);

    const rows = await h.query<{ outcome_id: string; n: number }>(`SELECT outcome_id, count() AS n FROM price_history WHERE market_id = {id:String} GROUP BY outcome_id ORDER BY outcome_id`, { id });
    expect(rows).toEqual([{ outcome_id: `${id}a`, n: 3 }, { outcome_id: `${id}b`, n: 1 }]);
    const candles = groupCandles(await candleRows(h, { provider: 'venue_3', marketId: id, interval: '1m', from: 0, to: MIN / 1000 + 3600, buckets: 10 }), '1m');
    expect(candles.map((c) => [c.start_time, c.outcomes.map((o) => [o.outcome_id, o.changes, o.mid])])).toEqual([
      [MIN / 1000 + 60, [[`${id}a`, 1, { open: 0.4, high: 0.4, low: 0.4, close: 0.4 }]]],
      [MIN / 1000, [[`${id}a`, 2, { open: 0.45, high: 0.46, low: 0.45, close: 0.46 }], [`${id}b`, 1, { open: 0.55, high: 0.55, low: 0.55, close: 0.55 }]]],
    ]);
    const hour = groupCandles(await candleRows(h, { provider: 'venue_3', marketId: id, interval: '1h', from: 0, to: MIN / 1000, buckets: 10 }), '1h');
    expect(hour[0].outcomes.map((o) => [o.outcome_id, o.changes, o.mid])).toEqual([
      [`${id}a`, 3, { open: 0.45, high: 0.46, low: 0.4, close: 0.4 }],
      [`${id}b`, 1, { open: 0.55, high: 0.55, low: 0.55, close: 0.55 }],
    ]);
  });

  it('under one claim, contiguous batches compare with the quotes kept from the last one: price_latest is read once', async () => {
    const id = String(1_000_000 + randomBytes(2).readUInt16BE());
    const claim = randomBytes(6).toString('hex');
    const partition = 100 + randomBytes(1)[0];
    latestReads = 0;
    expect(await run([v3(id, MIN + 1_000, 0.4, 0.5), v3(id, MIN + 11_000, 0.4, 0.5)], { claim, partition })).toBe(2);
    expect(await run([v3(id, MIN + 21_000, 0.4, 0.5), v3(id, MIN + 31_000, 0.41, 0.5)], { claim, partition })).toBe(1);
    // A batch that lists no quotes (crawl markers) keeps the batches after it following on.
    const marker = { ...v3(id, MIN + 41_000, 0.41, 0.5), value: { venue: 'venue_3', record_type: 'crawl_complete', native_id: 'x', read_started_at: MIN, read_id: null, source_url: null, payload: '{}' } } as InRecord;
    expect(await run([marker], { claim, partition })).toBe(0);
    expect(await run([v3(id, MIN + 51_000, 0.41, 0.5)], { claim, partition })).toBe(0);
    expect(latestReads).toBe(1);
    expect(await stored(id)).toBe(3);
  });

  it('a batch mixing outcomes kept under the claim and outcomes read from price_latest writes each change once, in read order per outcome', async () => {
    const [a, b] = [0, 1].map(() => String(1_000_000 + randomBytes(2).readUInt16BE()));
    const claim = randomBytes(6).toString('hex');
    const partition = 100 + randomBytes(1)[0];
    await run([v3(a, MIN + 1_000, 0.4, 0.5)], { claim, partition });
    // b was stored by another member (nothing of it kept here).
    await run([v3(b, MIN + 2_000, 0.3, 0.4)], { partition });
    latestReads = 0;
    // a is kept and compared as read; b is read from price_latest once: its first poll is unchanged,
    // then it changes and repeats; a repeats, then changes.
    const batch = [v3(a, MIN + 11_000, 0.4, 0.5), v3(b, MIN + 12_000, 0.3, 0.4), v3(b, MIN + 22_000, 0.31, 0.4), v3(a, MIN + 31_000, 0.41, 0.5), v3(b, MIN + 32_000, 0.31, 0.4)];
    expect(await run(batch, { claim, partition })).toBe(2);
    expect(latestReads).toBe(1);
    expect([await stored(a), await stored(b)]).toEqual([3, 3]);
    // Delivered again (a crash before the commit): nothing.
    expect(await run(batch, { claim, partition })).toBe(0);
    expect([await stored(a), await stored(b)]).toEqual([3, 3]);
  });

  it('a redelivered batch under the same claim is compared with what is stored: nothing twice once written, nothing lost when its write failed', async () => {
    const id = String(1_000_000 + randomBytes(2).readUInt16BE());
    const claim = randomBytes(6).toString('hex');
    const partition = 100 + randomBytes(1)[0];
    await run([v3(id, MIN + 1_000, 0.4, 0.5)], { claim, partition });
    const batch = [v3(id, MIN + 11_000, 0.42, 0.5), v3(id, MIN + 21_000, 0.43, 0.5)];
    // Its rows were decided (and kept), then the write failed: the batch comes again and writes them.
    expect(await run(batch, { claim, partition, write: false })).toBe(2);
    expect(await run(batch, { claim, partition })).toBe(2);
    // Written this time, and delivered again (a crash before the commit): nothing.
    expect(await run(batch, { claim, partition })).toBe(0);
    expect(await stored(id)).toBe(2 + 2);
  });

  it('after a rebalance (a new claim) the quotes kept are not trusted: what another member wrote meanwhile is not written again', async () => {
    const id = String(1_000_000 + randomBytes(2).readUInt16BE());
    const [mine, mineAgain] = [0, 1].map(() => randomBytes(6).toString('hex'));
    const partition = 100 + randomBytes(1)[0];
    await run([v3(id, MIN + 1_000, 0.4, 0.5)], { claim: mine, partition });
    // Another member (another process: nothing of this one's memory) took the partition, wrote the
    // next batch and died before its commit.
    const next = [v3(id, MIN + 11_000, 0.42, 0.5), v3(id, MIN + 21_000, 0.43, 0.5)];
    expect(await run(next, { partition })).toBe(2);
    // The partition is back here from that batch's first offset, which follows this member's last
    // batch: only the new claim says something happened in between.
    expect(await run(next, { claim: mineAgain, partition })).toBe(0);
    expect(await stored(id)).toBe(2 + 2);
  });

  it('a batch of records that list no quotes writes nothing and reads nothing', async () => {
    const rec = { ...v3('1', MIN, 0.1, 0.2), value: { venue: 'venue_3', record_type: 'crawl_complete', native_id: 'x', read_started_at: MIN, read_id: null, source_url: null, payload: '{}' } } as InRecord;
    // No History given: a sink that had to read would throw.
    expect(await priceHistorySink.handle([rec], { stage: priceHistorySink.name, topic: 'raw.venue_3', partition: 0 })).toEqual({});
  });

  it('the records of a venue whose listing carries no prices are not even decoded', async () => {
    const undecodable = (topic: RawTopicId) => {
      const r = { ...v3('1', MIN, 0.1, 0.2), topic, topicName: topic };
      Object.defineProperty(r, 'value', {
        get() {
          throw new Error(`${topic}: decoded`);
        },
      });
      return r as InRecord;
    };
    for (const topic of ['raw.venue_4', 'raw.venue_5'] as const) expect(await priceHistorySink.handle([undecodable(topic)], { stage: priceHistorySink.name, topic, partition: 0 })).toEqual({});
    await expect(priceHistorySink.handle([undecodable('raw.venue_3')], { stage: priceHistorySink.name, topic: 'raw.venue_3', partition: 0 })).rejects.toThrow('raw.venue_3: decoded');
  });
});
