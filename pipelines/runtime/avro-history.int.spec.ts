// The Avro way of a history sink (avro-history.ts) against handle(), its reference: the same records
// through a StageRunner on chdb with History.insertAvro, and on a History without it, leave the same
// table content. The batch holds what takes each way: current-schema records (Avro), tombstones and
// records of an older writer schema without a mapped field (handle()), and values JSON text and
// Unicode could trip (quotes, newlines, backslashes, non-BMP characters).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import avro from 'avsc';
import { EmbeddedLog } from '../log/embedded.ts';
import type { OutgoingRecord } from '../log/types.ts';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import type { History } from '../readmodels/history.ts';
import { migrate } from '../readmodels/migrate.ts';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { encodeWire } from '../registry/wire.ts';
import { avroSerde } from '../serde/index.ts';
import { createAllTopics, defineTopics, loadSchema, valueSubject, type CanonicalMarket, type RawRecord, type TopicDef } from '../topics.ts';
import { StageRunner } from './runner.ts';
import { canonicalHistorySink, rawHistorySink } from './sinks.ts';
import { randomPrefix } from './testkit.ts';
import type { StageDef } from './types.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-avro-history-'));
const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
const serde = avroSerde(registry);
let log: EmbeddedLog;

/** Counts what went which way; `avro: false` hides insertAvro, as a History that cannot read Avro. */
function spy(h: History, avroOn: boolean) {
  const seen = { avroFiles: 0, jsonRows: 0 };
  const wrapped: History = {
    kind: h.kind,
    database: h.database,
    exec: (sql, p) => h.exec(sql, p),
    query: (sql, p) => h.query(sql, p),
    close: () => h.close(),
    insert: async (t, rows) => {
      seen.jsonRows += rows.length;
      await h.insert(t, rows);
    },
    ...(avroOn && {
      insertAvro: async (t: string, select: Record<string, string>, file: Buffer) => {
        seen.avroFiles++;
        await h.insertAvro!(t, select, file);
      },
    }),
  };
  return { history: wrapped, seen };
}

/** Runs `def` over what `produce` writes, to the end of its input, on a fresh topic map. */
async function runSink(def: StageDef, history: History, produce: (topics: ReturnType<typeof defineTopics>) => Promise<void>) {
  const prefix = randomPrefix();
  const topics = defineTopics({ prefix, partitions: 1 });
  await createAllTopics(log, topics);
  await produce(topics);
  const runner = new StageRunner(def, { log, topics, serde, history });
  await runner.start();
  await runner.caughtUp(30_000, 10);
  await runner.stop();
  if (runner.failure) throw runner.failure;
  return prefix;
}

async function send(topic: TopicDef, records: OutgoingRecord[]) {
  const p = await log.producer();
  await p.send(topic.name, records);
  await p.close();
}

const tricky = 'quote " backslash \\ newline \n tab \t emoji 🏀 é';

describe('history sinks from Avro (chdb)', () => {
  let avroDb: ChdbHistory;
  let jsonDb: ChdbHistory;
  beforeAll(async () => {
    log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0 });
    avroDb = await ChdbHistory.open(path.join(dir, 'chdb'), `a_${randomPrefix().replace(/\W/g, '')}`);
    jsonDb = await ChdbHistory.open(path.join(dir, 'chdb'), `j_${randomPrefix().replace(/\W/g, '')}`);
    await migrate(avroDb);
    await migrate(jsonDb);
  });
  afterAll(async () => {
    await avroDb?.close();
    await jsonDb?.close();
    await log?.close();
  });

  it('raw_records: the same rows either way, an older writer schema and tombstones through handle()', async () => {
    const raw = (id: string, extra: Partial<RawRecord> = {}): RawRecord => ({
      venue: 'venue_4',
      record_type: 'market',
      native_id: id,
      read_started_at: 1_767_225_600_123,
      payload: JSON.stringify({ id, title: tricky }),
      read_id: null,
      source_url: null,
      ...extra,
    });
    // The schema before source_url was added: its records read with the reader's default (null).
    const current = loadSchema('raw_record.value.avsc') as { fields: { name: string }[] };
    const older = { ...current, fields: current.fields.filter((f) => f.name !== 'source_url') };
    const produce = async (topics: ReturnType<typeof defineTopics>) => {
      const t = topics['raw.venue_4'];
      const olderId = await registry.register(valueSubject(t), older);
      const encoded = await serde.encodeMany(t, [
        { key: 'A', value: raw('A', { read_id: '01J0000000000000000000000A', source_url: '/markets/A?x=1' }), timestamp: 1_767_225_601_000 },
        { key: 'B', value: raw('B', { payload: tricky }), timestamp: 1_767_225_602_000 },
        { key: 'gone', value: null, timestamp: 1_767_225_603_000 },
        { key: 'C', value: raw('C', { read_started_at: 0 }), timestamp: 1_767_225_604_000 },
      ]);
      const olderBody = avro.Type.forSchema(older as avro.Schema).toBuffer({ ...raw('D'), source_url: undefined });
      encoded.push({ key: encoded[0]!.key, value: encodeWire(olderId, olderBody), timestamp: 1_767_225_605_000 });
      await send(t, encoded);
    };
    const a = spy(avroDb, true);
    const j = spy(jsonDb, false);
    const pa = await runSink(rawHistorySink, a.history, produce);
    const pj = await runSink(rawHistorySink, j.history, produce);
    expect(a.seen).toEqual({ avroFiles: 1, jsonRows: 1 }); // D, of the older schema; the tombstone has no row
    expect(j.seen).toEqual({ avroFiles: 0, jsonRows: 4 });
    const rows = async (h: History, prefix: string) =>
      (await h.query<Record<string, unknown> & { topic: string }>(`SELECT * FROM raw_records WHERE topic = {t:String} ORDER BY offset`, { t: `${prefix}raw.venue_4` })).map(
        (r): Record<string, unknown> => ({ ...r, topic: String(r.topic).slice(prefix.length) }),
      );
    const viaAvro = await rows(avroDb, pa);
    expect(viaAvro).toEqual(await rows(jsonDb, pj));
    expect(viaAvro.map((r) => [r.native_id, r.offset, r.source_url])).toEqual([
      ['A', 0, '/markets/A?x=1'],
      ['B', 1, null],
      ['C', 3, null],
      ['D', 4, null],
    ]);
    expect(viaAvro[1]).toMatchObject({ payload: tricky, read_id: null, logged_at: '2026-01-01 00:00:02.000', read_started_at: '2026-01-01 00:00:00.123' });
  });

  it('canonical_markets: the same rows and the same current state under FINAL, tombstones through handle()', async () => {
    const m = (id: string, extra: Partial<CanonicalMarket> = {}): CanonicalMarket => ({
      provider: 'venue_2',
      market_id: id,
      event_id: null,
      title: `Will ${id} win? ${tricky}`,
      status: 'open',
      category: null,
      league: null,
      market_type: null,
      read_started_at: 1_767_225_600_000,
      body_version: 1,
      body: JSON.stringify({ id, rules: tricky }),
      ...extra,
    });
    const produce = async (topics: ReturnType<typeof defineTopics>) => {
      const t = topics['canonical.markets'];
      await send(
        t,
        await serde.encodeMany(t, [
          { key: 'venue_2:X', value: m('X', { event_id: 'E1', category: 'sports', league: 'nba', market_type: 'moneyline' }), timestamp: 1_767_225_601_000 },
          { key: 'venue_2:Y', value: m('Y'), timestamp: 1_767_225_602_000 },
          { key: 'venue_2:X', value: null, timestamp: 1_767_225_603_000 },
          { key: 'venue_2:Y', value: m('Y', { status: 'closed' }), timestamp: 1_767_225_604_000 },
        ]),
      );
    };
    const a = spy(avroDb, true);
    const j = spy(jsonDb, false);
    await runSink(canonicalHistorySink, a.history, produce);
    await runSink(canonicalHistorySink, j.history, produce);
    expect(a.seen).toEqual({ avroFiles: 1, jsonRows: 1 });
    // Rows are compared under FINAL and by key's latest version: ClickHouse already collapses one
    // key's versions within an insert (optimize_on_insert), and the two ways split inserts differently.
    const latest = (h: History) =>
      h.query(`SELECT market_id, argMax(tuple(*), version) AS row FROM canonical_markets GROUP BY market_id ORDER BY market_id`);
    const viaAvro = await latest(avroDb);
    expect(viaAvro).toEqual(await latest(jsonDb));
    expect(viaAvro).toHaveLength(2);
    const current = (h: History) => h.query(`SELECT * FROM canonical_markets FINAL ORDER BY market_id`);
    expect(await current(avroDb)).toMatchObject([{ market_id: 'Y', status: 'closed', title: `Will Y win? ${tricky}`, body: JSON.stringify({ id: 'Y', rules: tricky }), version: 3 }]);
    expect(await current(jsonDb)).toEqual(await current(avroDb));
  });
});
