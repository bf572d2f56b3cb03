// A process for price-history-gather.e2e.spec.ts: sink.price-history on the embedded backbone (chdb on
// the history worker) in PRICE_GATHER.dir.
// 'hold': produces the records in two reads, runs the sink gathering its rows for an hour (nothing
// inserted unless stopped), prints `held <records>` once it has handled every record, then waits
// (to be killed), or with `stop` stops the sink (which inserts what it holds) and prints `stopped`.
// 'finish': prints what the group committed and the rows stored, runs the sink (as configured by
// default) until it has caught up, prints the table, replays the sink from earliest and prints the
// table again.
import path from 'node:path';
import { EmbeddedRegistry } from '../../registry/embedded.ts';
import { avroSerde } from '../../serde/index.ts';
import type { RawRecord } from '../../topics.ts';
import { pipelineMetrics } from '../metrics.ts';
import { replay } from '../replay.ts';
import { groupLag, stageGroupId, startStage } from '../runner.ts';
import { priceHistorySink } from '../sinks.ts';
import { embeddedBackbone, produceRaw } from '../testkit.ts';

export interface PriceGatherSettings {
  mode: 'hold' | 'finish';
  dir: string;
  prefix: string;
  /** 'hold': stop the sink once it holds every record's rows, rather than wait to be killed. */
  stop?: boolean;
}

export const MIN = 1_767_225_600_000; // 2026-01-01T00:00:00Z
export const MARKETS = ['1000001', '1000002', '1000003', '1000004', '1000005', '1000006'];
/** Ten polls a market, the bid moving every other poll: five changes each (0.30 to 0.34). */
export const POLLS = 10;

const raw = (id: string, at: number, bid: number): RawRecord => ({
  venue: 'venue_3',
  record_type: 'market',
  native_id: id,
  read_started_at: at,
  read_id: null,
  source_url: null,
  payload: JSON.stringify({ id: Number(id), status: 'open', outcomes: [{ token: 't1', best_bid: bid, best_ask: 0.6, last_price: null }] }),
});
const poll = (i: number) => MARKETS.map((id) => raw(id, MIN + i * 30_000, 0.3 + Math.floor(i / 2) / 100));

const s = JSON.parse(process.env.PRICE_GATHER!) as PriceGatherSettings;
const registry = new EmbeddedRegistry(path.join(s.dir, 'registry'));
const b = await embeddedBackbone({ dir: s.dir, prefix: s.prefix, serde: avroSerde(registry), historyWorker: { registry } });
const topicNames = [b.topics['raw.venue_3'].name];
const group = stageGroupId(priceHistorySink, b.topics);
const table = () =>
  b.history.query<{ market_id: string; n: string; bids: number[] }>(
    `SELECT market_id, count() AS n, groupArray(bid) AS bids FROM (SELECT * FROM price_history FINAL ORDER BY observed_at) GROUP BY market_id ORDER BY market_id`,
  );
const handled = async () => (await pipelineMetrics.recordsIn.get()).values.filter((v) => v.labels.stage === priceHistorySink.name).reduce((n, v) => n + v.value, 0);

if (s.mode === 'hold') {
  const producer = await b.log.producer();
  const sink = await startStage({ ...priceHistorySink, accumulate: { ms: 3_600_000, rows: 1_000_000 } }, b);
  // Two reads: the second after the sink has handled the first (its rows still held).
  const total = MARKETS.length * POLLS;
  await produceRaw(b, producer, Array.from({ length: POLLS / 2 }, (_, i) => poll(i)).flat());
  while ((await handled()) < total / 2) await new Promise((r) => setTimeout(r, 10));
  await produceRaw(b, producer, Array.from({ length: POLLS / 2 }, (_, i) => poll(POLLS / 2 + i)).flat());
  while ((await handled()) < total) await new Promise((r) => setTimeout(r, 10));
  await producer.close();
  const lag = [...(await groupLag(b.log, group, topicNames)).values()].reduce((x, y) => x + y, 0);
  console.log(`held ${await handled()} lag ${lag}`);
  if (s.stop) {
    await sink.stop();
    const after = [...(await groupLag(b.log, group, topicNames)).values()].reduce((x, y) => x + y, 0);
    console.log(`stopped lag ${after}`);
    await b.close();
    process.exit(0);
  }
  await new Promise(() => {});
} else {
  const lag = [...(await groupLag(b.log, group, topicNames)).values()].reduce((x, y) => x + y, 0);
  console.log(`before ${JSON.stringify({ lag, rows: await table() })}`);
  const sink = await startStage(priceHistorySink, b);
  await sink.caughtUp(30_000);
  await sink.stop();
  console.log(`finished ${JSON.stringify(await table())}`);
  await replay([priceHistorySink], b, 'earliest', { timeoutMs: 30_000 });
  console.log(`replayed ${JSON.stringify(await table())}`);
  await b.close();
  process.exit(0);
}
