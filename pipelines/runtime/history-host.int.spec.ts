// The history host: chdb and the history sinks on a worker thread. It must be a History like any
// other (the same contract), and stages run on it must leave exactly the read models they leave on
// the main thread, commit only after the worker wrote, and fail loudly when the worker is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Producer } from '../log/types.ts';
import { historyContract } from '../readmodels/history.contract.ts';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { avroSerde } from '../serde/index.ts';
import { defineTopics } from '../topics.ts';
import { HistoryHost } from './history-host.ts';
import { passThroughStage } from './passthrough.ts';
import { replay } from './replay.ts';
import { startStage } from './runner.ts';
import { BACKBONE_SINKS, HISTORY_SINKS } from './sinks.ts';
import { embeddedBackbone, produceRaw, randomPrefix, rawMarket, type Backbone } from './testkit.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-history-host-'));
const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
const chdbPath = path.join(dir, 'chdb');
const openHost = (database: string, stages = HISTORY_SINKS.map((d) => d.name)) =>
  HistoryHost.open({ chdbPath, database, stages, registry });

historyContract('chdb on the history worker thread', (database) => openHost(database));

describe('stages on the history worker', () => {
  let b: Backbone;
  let producer: Producer;
  beforeAll(async () => {
    b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: avroSerde(registry), historyWorker: { registry } });
    producer = await b.log.producer();
  });
  afterAll(async () => {
    await producer?.close();
    await b?.close();
  });

  it('runs the history sinks there and the store sink here; the read models answer as on one thread, and after a replay', async () => {
    expect(b.offload).toBeInstanceOf(HistoryHost);
    expect(HISTORY_SINKS.map((d) => d.name).sort()).toEqual(['sink.canonical-history', 'sink.matched-history', 'sink.price-history', 'sink.raw-history']);
    expect(BACKBONE_SINKS.filter((d) => b.offload!.runs(d.name)).map((d) => d.name)).toEqual(HISTORY_SINKS.map((d) => d.name));
    await produceRaw(b, producer, [
      rawMarket('venue_1', 'KX-A', 'A wins?'),
      rawMarket('venue_2', '42', 'Team 42?'),
      { ...rawMarket('venue_2', 'bad', 'x'), payload: '{not json' },
      rawMarket('venue_2', '42', 'Team 42, renamed', { status: 'closed' }),
    ]);
    const runners = await Promise.all([passThroughStage, ...BACKBONE_SINKS].map((s) => startStage(s, b)));
    for (let i = 0; i < 2; i++) for (const r of runners) await r.caughtUp(30_000);
    for (const r of runners) await r.stop();

    const answers = async () => ({
      markets: await b.history.query<Record<string, unknown>>(`SELECT provider, market_id, title, status FROM canonical_markets FINAL ORDER BY provider, market_id`),
      raw: await b.history.query<Record<string, unknown>>(`SELECT venue, native_id, count() AS n FROM raw_records FINAL GROUP BY venue, native_id ORDER BY venue, native_id`),
      doc: (await b.store.get<{ title: string; body: { status: string } }>('market:venue_2:42'))?.value,
    });
    const before = await answers();
    expect(before.markets).toEqual([
      { provider: 'venue_1', market_id: 'KX-A', title: 'A wins?', status: 'open' },
      { provider: 'venue_2', market_id: '42', title: 'Team 42, renamed', status: 'closed' },
    ]);
    expect(before.raw).toEqual([
      { venue: 'venue_1', native_id: 'KX-A', n: 1 },
      { venue: 'venue_2', native_id: '42', n: 2 },
      { venue: 'venue_2', native_id: 'bad', n: 1 },
    ]);
    expect(before.doc).toMatchObject({ title: 'Team 42, renamed', body: { status: 'closed' } });

    await replay(BACKBONE_SINKS, b, 'earliest', { timeoutMs: 30_000 });
    expect(await answers()).toEqual(before);
  });

  it('a batch the worker cannot decode is not committed, and says why', async () => {
    const b2 = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, log: b.log, store: b.store, history: b.history });
    const t = b2.topics['raw.venue_7'];
    await producer.send(t.name, [{ key: Buffer.from('k'), value: Buffer.from([0, 0, 0, 0, 99, 1]) }]);
    const errors: string[] = [];
    const r = await startStage(HISTORY_SINKS.find((d) => d.name === 'sink.raw-history')!, {
      ...b2,
      offload: b.offload,
      onError: (e) => errors.push((e as Error).message),
    });
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await r.stop();
    expect(errors[0]).toMatch(/schema|wire format|magic/i);
    expect(await b.log.groupOffsets(r.groupId, t.name)).toEqual(new Map());
  });
});

describe('history host failure', () => {
  it('refuses a stage it cannot run, and rejects every call once the worker is gone', async () => {
    await expect(openHost(`t_${randomPrefix().replace(/\W/g, '')}`, ['proc.passthrough'])).rejects.toThrow('cannot run stage "proc.passthrough"');
    const host = await openHost(`t_${randomPrefix().replace(/\W/g, '')}`);
    await host.close();
    await expect(host.query('SELECT 1')).rejects.toThrow();
    await expect(host.batch('sink.raw-history', defineTopics(), 'raw.venue_1', 0, [])).rejects.toThrow();
  });
});
