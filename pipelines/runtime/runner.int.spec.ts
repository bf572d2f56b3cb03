// The stage runner on the embedded backbone: outputs and read-model writes happen before the commit,
// a crash after writing redelivers without doubling anything, metrics count what flowed, and replay
// rebuilds the same read models.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { History } from '../readmodels/history.ts';
import { BatchAbandoned, type Producer } from '../log/types.ts';
import type { MatchedEventRecord } from '../topics.ts';
import { metricsText, parseMetrics, PipelineMetrics, summarize } from './metrics.ts';
import { passThroughStage } from './passthrough.ts';
import { replay, planReset } from './replay.ts';
import { abandonInFlight, restoreContext, StageRunner, startStage } from './runner.ts';
import { deadLetterCount } from './status.ts';
import { BACKBONE_SINKS, canonicalHistorySink, canonicalStoreSink, PRICE_HISTORY_TABLES, rawHistorySink } from './sinks.ts';
import { embeddedBackbone, produceRaw, randomPrefix, rawMarket, type Backbone } from './testkit.ts';
import { EmbeddedLog } from '../log/embedded.ts';
import type { StageDef } from './types.ts';
import { testSerde } from './test-services.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-runner-'));

async function answers(b: Backbone) {
  const markets = await b.history.query(
    `SELECT provider, market_id, title, status, body FROM canonical_markets FINAL ORDER BY provider, market_id`,
  );
  const raw = await b.history.query(
    `SELECT venue, native_id, count() AS n, groupArray(payload) AS payloads FROM (SELECT * FROM raw_records FINAL ORDER BY offset) GROUP BY venue, native_id ORDER BY venue, native_id`,
  );
  const keys = await b.store.scan('market:');
  const docs = (await b.store.mget(keys)).map((d) => d && { key: d.key, value: d.value });
  const events = await b.history.query(
    `SELECT event_id, argMax(title, offset) AS title, count() AS versions FROM matched_events FINAL
     GROUP BY event_id HAVING argMax(is_deleted, offset) = 0 ORDER BY event_id`,
  );
  return { markets, raw, docs, events };
}

describe('stage runner (embedded)', () => {
  let b: Backbone;
  let producer: Producer;
  beforeAll(async () => {
    b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(dir) });
    producer = await b.log.producer();
  });
  afterAll(async () => {
    await producer?.close();
    await b?.close();
  });

  it('flows raw -> processor -> canonical topic -> history and store, then replays to identical answers', async () => {
    const records = [
      rawMarket('venue_1', 'KX-A', 'A wins?'),
      rawMarket('venue_2', '42', 'Team 42?'),
      rawMarket('venue_3', '7', 'Seven?'),
      { ...rawMarket('venue_2', 'bad', 'x'), payload: '{not json' },
      rawMarket('venue_2', '42', 'Team 42, renamed', { status: 'closed' }),
    ];
    await produceRaw(b, producer, records);
    const ev = (id: string, title: string): MatchedEventRecord => ({
      event_id: id, league: 'nba', sport: 'basketball', title, scheduled_date: '2026-01-01', scheduled_start: null,
      participant_keys: ['bos', 'nyk'], population: 'current', submarket_count: 1, observed_at: 1_767_225_600_000, body: '{"submarkets":[]}',
    });
    const mt = b.topics['matched.events'];
    await producer.send(mt.name, [
      await b.serde.encode(mt, 'nba-bos-nyk-2026-01-01', ev('nba-bos-nyk-2026-01-01', 'BOS @ NYK')),
      await b.serde.encode(mt, 'nba-lal-gsw-2026-01-01', ev('nba-lal-gsw-2026-01-01', 'LAL @ GSW')),
      await b.serde.encode(mt, 'nba-bos-nyk-2026-01-01', ev('nba-bos-nyk-2026-01-01', 'Boston at New York')),
      await b.serde.encode(mt, 'nba-lal-gsw-2026-01-01', null),
    ]);
    const stages = [passThroughStage, ...BACKBONE_SINKS];
    const runners = await Promise.all(stages.map((s) => startStage(s, b)));
    for (const r of runners) await r.caughtUp(30_000);
    // the pass-through's outputs are consumed by the canonical sinks; wait for them again
    for (const r of runners) await r.caughtUp(30_000);
    for (const r of runners) await r.stop();

    const before = await answers(b);
    expect(before.markets.map((m) => [m.provider, m.market_id, m.title, m.status])).toEqual([
      ['venue_1', 'KX-A', 'A wins?', 'open'],
      ['venue_2', '42', 'Team 42, renamed', 'closed'],
      ['venue_3', '7', 'Seven?', 'open'],
    ]);
    expect(before.raw.map((r) => [r.venue, r.native_id, r.n])).toEqual([
      ['venue_1', 'KX-A', 1],
      ['venue_2', '42', 2],
      ['venue_2', 'bad', 1],
      ['venue_3', '7', 1],
    ]);
    expect(before.events).toEqual([{ event_id: 'nba-bos-nyk-2026-01-01', title: 'Boston at New York', versions: 2 }]);
    const doc = await b.store.get<{ title: string; body: { status: string } }>('market:venue_2:42');
    expect(doc!.value.title).toBe('Team 42, renamed');
    expect(doc!.value.body.status).toBe('closed');

    // Rebuild every read model from the topics: same answers.
    const plan = planReset(BACKBONE_SINKS, b.topics, 'earliest');
    expect(plan.tables.sort()).toEqual(['canonical_markets', 'matched_events', 'raw_records', ...PRICE_HISTORY_TABLES].sort());
    const result = await replay(BACKBONE_SINKS, b, 'earliest', { timeoutMs: 30_000 });
    expect(result.lagBefore['sink.raw-history']).toBe(5);
    expect(await answers(b)).toEqual(before);
  });

  it('replays from a time: re-applies the records from then on, doubles nothing, clears nothing', async () => {
    const p4 = randomPrefix();
    const b4 = await embeddedBackbone({ dir, prefix: p4, serde: b.serde, log: b.log, store: b.store, history: b.history });
    const t = b4.topics['raw.venue_6'];
    const at = (i: number, ts: number) => b4.serde.encode(t, `v6-${p4}${i}`, rawMarket('venue_6', `v6-${p4}${i}`, `M${i}`), { timestamp: ts });
    await producer.send(t.name, [await at(0, 1_000), await at(1, 2_000), await at(2, 3_000), await at(3, 4_000)]);
    const r = await startStage(rawHistorySink, b4);
    await r.caughtUp(10_000);
    await r.stop();
    const count = async () =>
      (await b.history.query<{ c: number }>(`SELECT count() AS c FROM raw_records FINAL WHERE topic = {t:String}`, { t: t.name }))[0]!.c;
    expect(await count()).toBe(4);
    const result = await replay([rawHistorySink], b4, { timestamp: 2_500 }, { timeoutMs: 10_000 });
    expect(result.plan.tables).toEqual([]);
    expect(result.lagBefore['sink.raw-history']).toBe(2);
    expect(await count()).toBe(4);
  });

  it('commits nothing before the read-model write is done', async () => {
    const p2 = randomPrefix();
    const b2 = await embeddedBackbone({ dir, prefix: p2, serde: b.serde, log: b.log, store: b.store, history: b.history });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const blocking: History = {
      ...b.history,
      kind: b.history.kind,
      database: b.history.database,
      exec: (s, p) => b.history.exec(s, p),
      query: (s, p) => b.history.query(s, p),
      close: async () => {},
      insert: async (t, rows) => {
        await gate;
        await b.history.insert(t, rows);
      },
    };
    await produceRaw(b2, producer, [rawMarket('venue_4', 'L1', 'one')]);
    const r = await startStage(rawHistorySink, { ...b2, history: blocking });
    await new Promise((res) => setTimeout(res, 300));
    expect((await r.lag()).get(b2.topics['raw.venue_4'].name)).toBe(1);
    expect(await b.log.groupOffsets(r.groupId, b2.topics['raw.venue_4'].name)).toEqual(new Map());
    release();
    await r.caughtUp(10_000);
    await r.stop();
  });

  it('a crash after writing, before the commit, redelivers the batch and nothing shows twice', async () => {
    const p3 = randomPrefix();
    const b3 = await embeddedBackbone({ dir, prefix: p3, serde: b.serde, log: b.log, store: b.store, history: b.history });
    const n = 300;
    const recs = Array.from({ length: n }, (_, i) => rawMarket('venue_5', `m${i}`, `Market ${i}`, { seq: i }));
    await produceRaw(b3, producer, recs);
    // Crash the handler (as a process dying would) right after its writes, on every third batch
    // the first time each is seen.
    const seen = new Set<string>();
    let crashes = 0;
    let avroInserts = 0;
    const metrics = new PipelineMetrics();
    const origInsert = b.history.insert.bind(b.history);
    const origPut = b.store.putMany.bind(b.store);
    const faulty: Backbone = {
      ...b3,
      metrics,
      history: Object.assign(Object.create(b.history) as History, {
        insert: async (t: string, rows: Record<string, unknown>[]) => {
          await origInsert(t, rows);
          const id = `${t}:${String(rows[0]?.offset ?? rows[0]?.version)}`;
          if (!seen.has(id)) {
            seen.add(id);
            if (seen.size % 3 === 1) {
              crashes++;
              throw new Error('crash after write');
            }
          }
        },
        // The history sinks' own way (avro-history.ts): every third Avro insert crashes after writing.
        // Its file has no stable identity to crash only once, so a redelivery may crash again; the
        // count of calls still moves on, and every batch gets through.
        insertAvro: async (t: string, select: Record<string, string>, file: Buffer) => {
          await b.history.insertAvro!(t, select, file);
          if (++avroInserts % 3 === 1) {
            crashes++;
            throw new Error('crash after write');
          }
        },
      }),
      store: Object.assign(Object.create(b.store), {
        putMany: async (docs: { key: string; value: unknown; version: number }[]) => {
          const written = await origPut(docs);
          const id = `doc:${docs[0]?.key}:${docs[0]?.version}`;
          if (!seen.has(id)) {
            seen.add(id);
            crashes++;
            throw new Error('crash after write');
          }
          return written;
        },
      }),
    };
    const stages = [passThroughStage, rawHistorySink, canonicalHistorySink, canonicalStoreSink];
    const runners = stages.map((s) => new StageRunner(s, faulty));
    for (const r of runners) await r.start();
    for (let i = 0; i < 2; i++) for (const r of runners) await r.caughtUp(30_000);
    for (const r of runners) await r.stop();
    expect(crashes).toBeGreaterThan(0);
    expect(avroInserts).toBeGreaterThan(1);

    const q = (sql: string) => b.history.query<{ c: number; u: number }>(sql);
    const [raw] = await q(`SELECT count() AS c, uniqExact(native_id) AS u FROM raw_records FINAL WHERE venue = 'venue_5' AND topic = '${p3}raw.venue_5'`);
    expect(raw).toEqual({ c: n, u: n });
    const [canon] = await q(`SELECT count() AS c, uniqExact(market_id) AS u FROM canonical_markets FINAL WHERE provider = 'venue_5'`);
    expect(canon).toEqual({ c: n, u: n });
    const docs = await b.store.scan('market:venue_5:');
    expect(docs.length).toBe(n);
    // The canonical topic itself may hold a redelivered output twice (at-least-once); readers see one.
    const errors = parseMetrics(await metrics.text()).filter((s) => s.name === 'pm_stage_errors_total');
    expect(errors.reduce((a, s) => a + s.value, 0)).toBe(crashes);
  });

  it('lingers after a small batch only when nothing waits after it, and stops without waiting out a linger', async () => {
    const log = await EmbeddedLog.open({ dir: path.join(dir, `linger-${randomPrefix()}`), maxBatchRecords: 10, compactIntervalMs: 0 });
    const bl = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, partitions: 1, log, history: b.history, store: b.store });
    const p = await log.producer();
    await produceRaw(bl, p, Array.from({ length: 35 }, (_, i) => rawMarket('venue_6', `l${i}`, `Linger ${i}`)));
    await p.close();
    let handled = 0;
    // Ten minutes after every batch smaller than a billion records: any linger here outlasts the test.
    const stage: StageDef = { name: 'test.linger', inputs: ['raw.venue_6'], linger: { ms: 600_000, minRecords: 1e9 }, handle: (r) => ((handled += r.length), {}) };
    const runner = new StageRunner(stage, bl);
    const topic = bl.topics['raw.venue_6'].name;
    const committed = async () => Number((await log.groupOffsets(runner.groupId, topic)).get(0) ?? 0);
    await runner.start();
    // Batches of 10 with records waiting after them go straight through...
    while ((await committed()) < 30 || handled < 35) await new Promise((r) => setTimeout(r, 20));
    // ...the last one, with nothing after it, lingers before its commit...
    expect(await committed()).toBe(30);
    // ...until the runner stops, which ends the linger, and the batch is committed.
    await runner.stop();
    expect(await committed()).toBe(35);
    await log.close();
  });

  it('a stop past its deadline abandons the batch in flight uncommitted, and the next runner of the group handles it again', async () => {
    const log = await EmbeddedLog.open({ dir: path.join(dir, `abandon-${randomPrefix()}`), compactIntervalMs: 0 });
    const ba = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, partitions: 1, log, history: b.history, store: b.store });
    const p = await log.producer();
    await produceRaw(ba, p, Array.from({ length: 5 }, (_, i) => rawMarket('venue_3', `a${i}`, `Abandon ${i}`)));
    await p.close();
    // The first runner's handler never returns on its own (a chdb insert of minutes, as far as the stop can tell).
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: string[] = [];
    const blocked: StageDef = {
      name: 'test.abandon',
      inputs: ['raw.venue_3'],
      handle: async (r) => {
        entered();
        await gate;
        seen.push(...r.map((x) => `first:${x.offset}`));
        return {};
      },
    };
    const first = new StageRunner(blocked, ba);
    const topic = ba.topics['raw.venue_3'].name;
    await first.start();
    await inHandler;
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stopped = first.stop();
    expect(abandonInFlight(new BatchAbandoned('stop deadline'))).toBeGreaterThan(0);
    // Returns although the handler is still blocked, and commits nothing for the batch.
    await stopped;
    // Said in one line for the stage's consumer, not as a failure with its stack.
    const lines = printed.mock.calls.map((c) => c.join(' '));
    printed.mockRestore();
    expect(lines).toEqual([`embedded log: group ${first.groupId}: batch on ${ba.topics['raw.venue_3'].name}[0] given up at the stop: stop deadline`]);
    expect(await log.groupOffsets(first.groupId, topic)).toEqual(new Map());
    // The abandoned work ends late: still nothing committed.
    release();
    await gate;
    await new Promise((r) => setImmediate(r));
    expect(await log.groupOffsets(first.groupId, topic)).toEqual(new Map());
    // The restart (a new runner of the same group) is given the whole batch and commits it.
    const again = new StageRunner({ ...blocked, handle: (r) => (seen.push(...r.map((x) => `again:${x.offset}`)), {}) }, ba);
    await again.start();
    await again.caughtUp(10_000);
    await again.stop();
    expect(seen.filter((s) => s.startsWith('again:'))).toEqual(['again:0', 'again:1', 'again:2', 'again:3', 'again:4']);
    expect(Number((await log.groupOffsets(again.groupId, topic)).get(0))).toBe(5);
    await log.close();
  });

  it('gives every batch of one runner the same claim, another runner of the stage (a restart) another, and batches of the stage maxBatch', async () => {
    const log = await EmbeddedLog.open({ dir: path.join(dir, `claim-${randomPrefix()}`), maxBatchRecords: 10, compactIntervalMs: 0 });
    const bl = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, partitions: 1, log, history: b.history, store: b.store });
    const p = await log.producer();
    const claims: (string | undefined)[] = [];
    const stage: StageDef = { name: 'test.claim', inputs: ['raw.venue_6'], handle: (_r, ctx) => (claims.push(ctx.claim), {}) };
    const runTo = async (n: number) => {
      const runner = new StageRunner(stage, bl);
      await runner.start();
      await runner.caughtUp(30_000);
      await runner.stop();
      expect(claims.length).toBe(n);
    };
    await produceRaw(bl, p, Array.from({ length: 25 }, (_, i) => rawMarket('venue_6', `c${i}`, `Claim ${i}`)));
    await runTo(3);
    await produceRaw(bl, p, [rawMarket('venue_6', 'c-late', 'Claim late')]);
    await runTo(4);
    await p.close();
    expect(new Set(claims.slice(0, 3)).size).toBe(1);
    expect(claims[0]).toMatch(/./);
    expect(claims[3]).not.toBe(claims[0]);
    // A stage that asks for larger batches than the log's 10 gets them (ConsumerOptions.maxBatch).
    const sizes: number[] = [];
    const big = new StageRunner({ name: 'test.max-batch', inputs: ['raw.venue_6'], maxBatch: { records: 20, bytes: 1 << 20 }, handle: (r) => (sizes.push(r.length), {}) }, bl);
    await big.start();
    await big.caughtUp(30_000);
    await big.stop();
    expect(sizes).toEqual([20, 6]);
    await log.close();
  });

  it('sends a record that does not decode to dead.letters with the reason, counts it, and reads on past it', async () => {
    const bl = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, partitions: 1, log: b.log, history: b.history, store: b.store });
    const p = await bl.log.producer();
    const topic = bl.topics['raw.venue_7'];
    await produceRaw(bl, p, [rawMarket('venue_7', 'good-1', 'One')]);
    // Bytes with no registry wire format (no magic byte), then a good record after them.
    await p.send(topic.name, [{ key: Buffer.from('bad'), value: Buffer.from('not avro at all') }]);
    await produceRaw(bl, p, [rawMarket('venue_7', 'good-2', 'Two')]);
    await p.close();
    const seen: string[] = [];
    const metrics = new PipelineMetrics();
    const stage: StageDef = { name: 'test.dead-letters', inputs: ['raw.venue_7'], handle: (rs) => (seen.push(...rs.map((r) => r.key!)), {}) };
    const runner = await startStage(stage, { ...bl, metrics });
    await runner.caughtUp(20_000);
    await runner.stop();
    expect(seen).toEqual(['good-1', 'good-2']);
    const dead: { key: string | null; value: unknown }[] = [];
    await restoreContext(bl, 'test.read-dead').readCompacted('dead.letters', (key, value) => dead.push({ key, value }));
    expect(dead).toHaveLength(1);
    expect(dead[0]!.key).toBe(`${runner.groupId}|${topic.name}|0|1`);
    const v = dead[0]!.value as { stage: string; offset: string; reason: string; value: Buffer };
    expect(v.stage).toBe(runner.groupId);
    expect(v.offset).toBe('1');
    expect(v.reason.length).toBeGreaterThan(0);
    expect(Buffer.from(v.value).toString()).toBe('not avro at all');
    const counted = parseMetrics(await metrics.text()).filter((x) => x.name === 'pm_stage_dead_letters_total');
    expect(counted.reduce((a, x) => a + x.value, 0)).toBe(1);
    expect(await deadLetterCount(bl.log, bl.topics)).toBe(1);
  });

  it('runs a tick between batches, never during one, and writes what it returns', async () => {
    const bl = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, partitions: 1, log: b.log, history: b.history, store: b.store });
    const p = await bl.log.producer();
    await produceRaw(bl, p, Array.from({ length: 20 }, (_, i) => rawMarket('venue_8', `t${i}`, `Tick ${i}`)));
    let inBatch = false;
    let overlapped = false;
    let seen = 0;
    const stage: StageDef = {
      name: 'test.tick',
      inputs: ['raw.venue_8'],
      async handle(rs) {
        inBatch = true;
        await new Promise((r) => setTimeout(r, 5));
        seen += rs.length;
        inBatch = false;
        return {};
      },
      tick: {
        ms: 1,
        run(now) {
          if (inBatch) overlapped = true;
          return { records: [{ topic: 'matching.state', key: 'tick|count', value: { venue: 'test', record_type: 'tick', native_id: 'count', read_started_at: now, payload: String(seen) } }] };
        },
      },
    };
    const runner = await startStage(stage, bl);
    await produceRaw(bl, p, Array.from({ length: 20 }, (_, i) => rawMarket('venue_8', `u${i}`, `Tock ${i}`)));
    await p.close();
    await runner.caughtUp(20_000);
    await runner.tickNow();
    await runner.stop();
    expect(overlapped).toBe(false);
    let last: string | null = null;
    await restoreContext(bl, 'test.read-ticks').readCompacted('matching.state', (_k, v) => (last = v?.payload ?? null));
    expect(last).toBe('40');
  });

  it('restore reads a compacted topic to its end before the consumer starts, and leaves no group behind', async () => {
    const bl = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, partitions: 2, log: b.log, history: b.history, store: b.store });
    const p = await bl.log.producer();
    const t = bl.topics['matching.state'];
    const rec = (id: string, payload: string) => ({ venue: 'venue_1', record_type: 'event', native_id: id, read_started_at: 1, payload });
    await p.send(t.name, await Promise.all([['a', '1'], ['b', '2'], ['a', '3']].map(([k, v]) => bl.serde.encode(t, `event|venue_1|${k}`, rec(k!, v!)))));
    await p.send(t.name, [await bl.serde.encode(t, 'event|venue_1|b', null)]);
    await p.close();
    const state = new Map<string, string>();
    let handledBeforeRestore = false;
    const stage: StageDef = {
      name: 'test.restore',
      inputs: ['raw.venue_9'],
      async restore(ctx) {
        await ctx.readCompacted('matching.state', (k, v) => (v ? state.set(k!, v.payload) : state.delete(k!)));
      },
      handle: () => ((handledBeforeRestore ||= state.size === 0), {}),
    };
    const runner = await startStage(stage, bl);
    await runner.stop();
    expect(Object.fromEntries(state)).toEqual({ 'event|venue_1|a': '3' });
    expect(handledBeforeRestore).toBe(false);
    const groups = await readdir(path.join(dir, 'log', 'groups')).catch(() => [] as string[]);
    expect(groups.filter((g) => decodeURIComponent(g).includes(`${runner.groupId}.restore`))).toEqual([]);
  });

  it('restores a stage that keeps state before it handles a batch again after a failed write, so the retry writes what the failed one did not', async () => {
    // The canonicalizer's shape: state in memory, an output only for what the state has not seen. A
    // batch whose write failed comes again; handled by state that already took it in, it would write
    // nothing (the canonicalizer skipped a crawl marker it took as applied, and its deletions were lost).
    const bl = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: b.serde, log: b.log, history: b.history, store: b.store });
    const seen = new Set<string>();
    let restores = 0;
    const stage: StageDef = {
      name: 'test.retry-state',
      inputs: ['raw.venue_9'],
      stateTopics: ['matching.state'],
      async restore(ctx) {
        restores++;
        seen.clear();
        await ctx.readCompacted('matching.state', (k, v) => (v ? seen.add(k!) : seen.delete(k!)));
      },
      handle(records) {
        const out = [];
        for (const r of records) {
          const k = `seen|${(r.value as { native_id: string }).native_id}`;
          if (seen.has(k)) continue;
          seen.add(k);
          out.push({ topic: 'matching.state' as const, key: k, value: { venue: 'venue_9', record_type: 'seen', native_id: k, read_started_at: 1, payload: '{}', read_id: null, source_url: null } });
        }
        return { records: out };
      },
    };
    const real = await bl.log.producer();
    let failures = 1;
    const flaky: Producer = {
      send: (topic, records) => (failures-- > 0 ? Promise.reject(new Error('broker unavailable')) : real.send(topic, records)),
      close: () => real.close(),
    };
    const p = await bl.log.producer();
    await produceRaw(bl, p, [rawMarket('venue_9', 'A', 'a'), rawMarket('venue_9', 'B', 'b')]);
    await p.close();
    const runner = await startStage(stage, { ...bl, producer: flaky });
    await runner.caughtUp(20_000);
    await runner.stop();
    await real.close();
    expect(failures).toBeLessThan(0);
    // Once at start, once before the retry.
    expect(restores).toBeGreaterThanOrEqual(2);
    const written = new Set<string>();
    await restoreContext(bl, `read.${randomPrefix()}`).readCompacted('matching.state', (k, v) => (v ? written.add(k!) : written.delete(k!)));
    expect([...written].sort()).toEqual(['seen|A', 'seen|B']);
  });

  it('exposes per-stage records, batches and lag as Prometheus metrics', async () => {
    const text = await metricsText();
    const samples = parseMetrics(text);
    const status = summarize([], samples, 1000);
    const raw = status.find((s) => s.stage === 'sink.raw-history');
    expect(raw).toBeDefined();
    expect(raw!.recordsIn).toBeGreaterThanOrEqual(6);
    expect(text).toContain('pm_stage_batch_duration_seconds_bucket');
  });
});
