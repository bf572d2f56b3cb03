// The history sinks consumed on the worker (Kafka): the worker opens its own Kafka log and runs the
// hosted stages' whole runners there, in the groups the main thread would use. Against a real broker,
// with both clients: records flow without a batch crossing from this thread, a group commits only
// offsets whose rows chdb already has, a stop mid-stream commits what it wrote and a restart (on the
// worker, or the main-thread way) loses and duplicates nothing, a batch error reaches onError here, and
// the stage's metrics and lag are seen on this thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../lib/config.ts';
import { available, requireKafka } from '../../test/services/index.ts';
import { KafkaLog } from '../log/kafka.ts';
import type { Log, LogRecord, Producer } from '../log/types.ts';
import { migrate } from '../readmodels/migrate.ts';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { avroSerde } from '../serde/index.ts';
import { createAllTopics, defineTopics, type TopicId, type TopicMap } from '../topics.ts';
import { openBackbone } from './backbone.ts';
import { HistoryHost, type StageOffload, type WorkerLog } from './history-host.ts';
import { parseMetrics, PipelineMetrics } from './metrics.ts';
import { passThroughStage } from './passthrough.ts';
import { StageRunner, stageGroupId, type RuntimeDeps } from './runner.ts';
import { canonicalHistorySink, rawHistorySink } from './sinks.ts';
import { produceRaw, randomPrefix, rawMarket } from './testkit.ts';

// In CI (CI=true) a missing broker throws here: the suite fails rather than skips.
const availability = await available('kafka');

const dir = mkdtempSync(path.join(tmpdir(), 'pm-history-host-kafka-'));
const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
const serde = avroSerde(registry);
const VENUES = ['venue_3', 'venue_5', 'venue_7'] as const;

/** The host, but every relayed batch counted: a stage consumed on the worker relays none. */
function counting(host: HistoryHost, consume: boolean): StageOffload & { relayed: number } {
  const o = {
    relayed: 0,
    runs: (stage: string) => host.runs(stage),
    batch: (stage: string, topics: TopicMap, topic: TopicId, partition: number, records: LogRecord[]) => {
      o.relayed++;
      return host.batch(stage, topics, topic, partition, records);
    },
    consume: consume ? host.consume.bind(host) : undefined,
  };
  return o;
}

for (const client of ['kafkajs'] as const) {
  describe.skipIf(!availability.ok)(`history sinks consumed on the worker, ${client} (${availability.reason})`, () => {
    let log: Log;
    let host: HistoryHost;
    let producer: Producer;
    const database = `hk_${client}_${randomPrefix().replace(/\W/g, '')}`;

    beforeAll(async () => {
      const { brokers } = await requireKafka();
      // Small batches on both threads' logs, so a stream has a middle to stop in.
      const options = { brokers, retryBackoffMs: 20, maxBatchRecords: 50 };
      log = new KafkaLog(options);
      const spec: WorkerLog = { client, options };
      host = await HistoryHost.open({
        chdbPath: path.join(dir, 'chdb'),
        database,
        stages: [rawHistorySink.name, canonicalHistorySink.name],
        registry,
        workerLog: { log, spec },
      });
      await migrate(host);
      producer = await log.producer();
    });
    afterAll(async () => {
      await producer?.close();
      await host?.close();
      await log?.close();
    });

    async function freshTopics(): Promise<TopicMap> {
      const topics = defineTopics({ prefix: randomPrefix(), partitions: 3 });
      await createAllTopics(log, topics);
      return topics;
    }
    const deps = (topics: TopicMap, offload: StageOffload, extra: Partial<RuntimeDeps> = {}): RuntimeDeps => ({
      log,
      topics,
      serde,
      history: host,
      offload,
      ...extra,
    });

    it('records flow through the worker-hosted sinks, none relayed from here; metrics and lag are seen here', async () => {
      const topics = await freshTopics();
      const offload = counting(host, true);
      const metrics = new PipelineMetrics();
      const d = deps(topics, offload, { metrics });
      const n = 300;
      await produceRaw(d, producer, Array.from({ length: n }, (_, i) => rawMarket(VENUES[i % 3]!, `m${i}`, `Market ${i}`)));
      const runners = [passThroughStage, rawHistorySink, canonicalHistorySink].map((s) => new StageRunner(s, d));
      for (const r of runners) await r.start();
      for (let i = 0; i < 2; i++) for (const r of runners) await r.caughtUp(60_000);
      const text = await metrics.text();
      for (const r of runners) await r.stop();

      expect(offload.relayed).toBe(0);
      const prefix = topics['raw.venue_1'].name.slice(0, -'raw.venue_1'.length);
      const [raw] = await host.query<{ c: number }>(`SELECT count() AS c FROM raw_records WHERE topic LIKE {t:String}`, { t: `${prefix}%` });
      expect(raw!.c).toBe(n);
      const [canon] = await host.query<{ c: number; u: number }>(
        `SELECT count() AS c, uniqExact(market_id) AS u FROM canonical_markets FINAL WHERE market_id IN (SELECT native_id FROM raw_records WHERE topic LIKE {t:String})`,
        { t: `${prefix}%` },
      );
      expect(canon).toEqual({ c: n, u: n });
      // The worker's runners count into this thread's metrics; the lag is read here from their groups.
      const samples = parseMetrics(text);
      const sum = (name: string, stage: string) => samples.filter((s) => s.name === name && s.labels.stage === stage).reduce((a, s) => a + s.value, 0);
      expect(sum('pm_stage_records_in_total', rawHistorySink.name)).toBe(n);
      expect(sum('pm_stage_records_in_total', canonicalHistorySink.name)).toBe(n);
      expect(sum('pm_stage_batches_total', canonicalHistorySink.name)).toBeGreaterThan(0);
      const lag = samples.filter((s) => s.name === 'pm_stage_consumer_lag' && s.labels.stage === rawHistorySink.name);
      expect(lag.map((s) => s.labels.topic).sort()).toEqual(rawHistorySink.inputs.map((id) => topics[id].name).sort());
      expect(lag.every((s) => s.value === 0)).toBe(true);
    });

    it('commits only what chdb has; stopped mid-stream and restarted (the other way, then this way again) it loses and duplicates nothing', async () => {
      const topics = await freshTopics();
      const n = 3000;
      await produceRaw({ topics, serde }, producer, Array.from({ length: n }, (_, i) => rawMarket(VENUES[i % 3]!, `s${i}`, `Market ${i}`)));
      const names = VENUES.map((v) => topics[`raw.${v}`].name);
      const group = stageGroupId(rawHistorySink, topics);

      /** Committed offsets per topic-partition, and the rows chdb holds for each (count, distinct offsets, max offset). */
      async function observe() {
        const committed = new Map<string, number>();
        for (const t of names) for (const [p, o] of await log.groupOffsets(group, t)) committed.set(`${t}/${p}`, Number(o));
        const rows = await host.query<{ topic: string; partition: number; c: number; u: number; hi: number }>(
          `SELECT topic, partition, count() AS c, uniqExact(offset) AS u, max(offset) AS hi FROM raw_records WHERE topic IN ({t:Array(String)}) GROUP BY topic, partition`,
          { t: names },
        );
        return { committed, rows: new Map(rows.map((r) => [`${r.topic}/${r.partition}`, r])) };
      }
      const total = (c: Map<string, number>) => [...c.values()].reduce((a, b) => a + b, 0);

      // While it runs: every committed offset's rows are already in chdb (the group is read first, so
      // rows written after the read only add to them).
      let checks = 0;
      async function runUntil(offload: StageOffload, committedAtLeast: number): Promise<void> {
        const r = new StageRunner(rawHistorySink, deps(topics, offload));
        await r.start();
        for (;;) {
          const { committed, rows } = await observe();
          for (const [tp, o] of committed) expect(rows.get(tp)?.u ?? 0, `rows of ${tp} below committed offset ${o}`).toBeGreaterThanOrEqual(o);
          checks++;
          if (total(committed) >= committedAtLeast) break;
          await new Promise((res) => setTimeout(res, 20));
        }
        await r.stop();
        // After the stop: what was written was committed, so nothing comes again. The rows of each
        // partition are exactly offsets 0..committed-1, each once.
        const { committed, rows } = await observe();
        for (const [tp, row] of rows) expect({ tp, c: row.c, u: row.u, hi: row.hi }).toEqual({ tp, c: committed.get(tp), u: committed.get(tp), hi: committed.get(tp)! - 1 });
        expect(total(committed)).toBeLessThan(n); // stopped mid-stream
      }

      const onWorker = counting(host, true);
      const relayed = counting(host, false);
      await runUntil(onWorker, n / 3);
      expect(onWorker.relayed).toBe(0);
      // The main-thread way resumes where the worker stopped, in the same group.
      await runUntil(relayed, (2 * n) / 3);
      expect(relayed.relayed).toBeGreaterThan(0);
      // And the worker again, to the end.
      const last = new StageRunner(rawHistorySink, deps(topics, counting(host, true)));
      await last.start();
      await last.caughtUp(60_000);
      await last.stop();
      expect(checks).toBeGreaterThan(1);

      const [all] = await host.query<{ c: number; u: number; s: number }>(
        `SELECT count() AS c, uniqExact(native_id) AS u, uniqExact(topic, partition, offset) AS s FROM raw_records WHERE topic IN ({t:Array(String)})`,
        { t: names },
      );
      expect(all).toEqual({ c: n, u: n, s: n });
    });

    it('a batch the worker cannot decode reaches onError here, and is not committed', async () => {
      const topics = await freshTopics();
      const t = topics['raw.venue_7'];
      await producer.send(t.name, [{ key: Buffer.from('k'), value: Buffer.from([0, 0, 0, 0, 99, 1]) }]);
      const errors: { message: string; stage: string; topic: string }[] = [];
      const offload = counting(host, true);
      const r = new StageRunner(rawHistorySink, deps(topics, offload, { onError: (e, where) => errors.push({ message: (e as Error).message, ...where }) }));
      await r.start();
      await expect.poll(() => errors.length, { timeout: 30_000 }).toBeGreaterThan(0);
      await r.stop();
      expect(offload.relayed).toBe(0);
      expect(errors[0]).toMatchObject({ stage: rawHistorySink.name, topic: t.name });
      expect(errors[0]!.message).toMatch(/schema|wire format|magic/i);
      expect(r.failure).toBeNull();
      expect(await log.groupOffsets(r.groupId, t.name)).toEqual(new Map());
    });
  });
}

describe.skipIf(!availability.ok)(`history host on Kafka, worker gone (${availability.reason})`, () => {
  it('a hosted stage fails when the host closes under it, and stop() still returns', async () => {
    const { brokers } = await requireKafka();
    const log = new KafkaLog({ brokers, retryBackoffMs: 20 });
    try {
      const host = await HistoryHost.open({
        chdbPath: path.join(dir, 'chdb'),
        database: `hg_${randomPrefix().replace(/\W/g, '')}`,
        stages: [rawHistorySink.name],
        registry,
        workerLog: { log, spec: { client: 'kafkajs', options: { brokers } } },
      });
      await migrate(host);
      const topics = defineTopics({ prefix: randomPrefix(), partitions: 1 });
      await createAllTopics(log, topics);
      const errors: unknown[] = [];
      const r = new StageRunner(rawHistorySink, { log, topics, serde, history: host, offload: host, onError: (e) => errors.push(e) });
      await r.start();
      await host.close();
      await expect.poll(() => r.failure, { timeout: 30_000 }).toBeTruthy();
      expect(errors).toContain(r.failure);
      await r.stop();
    } finally {
      await log.close();
    }
  });
});

describe.skipIf(!availability.ok)(`the service's backbone on Kafka (${availability.reason})`, () => {
  it.each([
    ['true', true],
    ['false', false],
  ] as const)('HISTORY_WORKER_CONSUMES=%s: the history sinks consumed on the worker: %s', async (consumes, onWorker) => {
    const { brokers } = await requireKafka();
    const config = loadConfig({
      DATA_DIR: dir,
      KAFKA_BROKERS: brokers.join(','),
      HISTORY_WORKER_CONSUMES: consumes,
      TOPIC_PREFIX: randomPrefix(),
      CLICKHOUSE_DATABASE: `hb_${randomPrefix().replace(/\W/g, '')}`,
      LOG_LEVEL: 'silent',
    });
    const b = await openBackbone(config, { serde, registry });
    try {
      // The service's offload (the host openBackbone made from the configuration), its relayed
      // batches counted: a stage consumed on the worker relays none.
      expect(b.offload).toBe(b.history);
      const offload = counting(b.history as HistoryHost, true);
      const n = 30;
      const producer = await b.log.producer();
      // Read now: the service's history keeps HISTORY_TTL_DAYS, and older rows expire on insert.
      await produceRaw(b, producer, Array.from({ length: n }, (_, i) => rawMarket(VENUES[i % 3]!, `b${i}`, `Market ${i}`, {}, Date.now())));
      await producer.close();
      const r = new StageRunner(rawHistorySink, { ...b, offload });
      await r.start();
      await r.caughtUp(60_000);
      await r.stop();
      expect(offload.relayed === 0).toBe(onWorker);
      const [raw] = await b.history.query<{ c: number }>(`SELECT count() AS c FROM raw_records WHERE topic LIKE {t:String}`, { t: `${config.TOPIC_PREFIX}%` });
      expect(raw!.c).toBe(n);
    } finally {
      await b.close();
    }
  });
});
