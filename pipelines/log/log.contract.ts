// The Log contract: the behaviour every stage relies on, run against each implementation
// (embedded.int.spec.ts, kafka.int.spec.ts). In: a harness that opens a Log (again after close(), to
// model a restart). Out: vitest suites. Every test uses its own random topic and group names, so
// suites run side by side against one broker and leave nothing that another test reads.
import { afterEach, describe, expect, it } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import { partitionForKey } from './partitioner.ts';
import type { Batch, ConsumerOptions, Log, LogRecord, OutgoingRecord } from './types.ts';

export interface LogHarness {
  /** Opens a log; called again after the previous one is closed to model a process restart. */
  open(opts?: { maxBatchRecords?: number }): Promise<Log>;
  /** Whether its batches say how many records wait after them (Batch.waiting); a log may not know. */
  knowsWaiting?: boolean;
  /** Runs the cleaner now where the implementation can be told to (embedded); Kafka cleans on its own schedule. */
  compact?(log: Log, topic: string): Promise<void>;
  /** Extra time a consumer needs to join its group (Kafka rebalances take seconds). */
  joinMs?: number;
}

const b = (s: string) => Buffer.from(s);
const str = (x: Buffer | null) => (x === null ? null : x.toString());

async function until<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  let last: T = await fn();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}; last: ${JSON.stringify(last, replacer)}`);
    await new Promise((r) => setTimeout(r, 50));
    last = await fn();
  }
  return last;
}
function replacer(_k: string, v: unknown) {
  return v instanceof Map ? Object.fromEntries(v) : v;
}

/** Runs a consumer until `done(records)` holds, then stops it; returns every record delivered. */
async function consumeUntil(
  log: Log,
  options: ConsumerOptions,
  done: (all: LogRecord[]) => boolean,
  opts: { ms?: number; handler?: (batch: Batch, all: LogRecord[]) => Promise<void> } = {},
): Promise<LogRecord[]> {
  const all: LogRecord[] = [];
  const consumer = log.consumer(options);
  await consumer.run(async (batch) => {
    if (opts.handler) await opts.handler(batch, all);
    all.push(...batch.records);
  });
  try {
    await until(() => all.length, () => done(all), opts.ms ?? 30_000, `records (options ${JSON.stringify(options)})`);
  } finally {
    await consumer.stop();
  }
  return all;
}

function keyed(n: number, keys: number, prefix = 'v'): OutgoingRecord[] {
  return Array.from({ length: n }, (_, i) => ({ key: b(`k${i % keys}`), value: b(`${prefix}${i}`) }));
}

async function sumCommitted(log: Log, group: string, topic: string): Promise<number> {
  const m = await log.groupOffsets(group, topic);
  let s = 0;
  for (const v of m.values()) s += Number(v);
  return s;
}

export function logContract(name: string, makeHarness: () => LogHarness | Promise<LogHarness>): void {
  describe(`Log contract: ${name}`, () => {
    const opened: Log[] = [];
    async function open(opts?: { maxBatchRecords?: number }): Promise<{ log: Log; harness: LogHarness }> {
      const harness = await makeHarness();
      const log = await harness.open(opts);
      opened.push(log);
      return { log, harness };
    }
    afterEach(async () => {
      for (const l of opened.splice(0)) await l.close().catch(() => {});
    });

    it('creates topics idempotently and starts them empty at offset "0"', async () => {
      const { log } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 3, cleanupPolicy: 'delete' }]);
      await log.createTopics([{ name: topic, partitions: 3, cleanupPolicy: 'delete' }]);
      const offsets = await log.topicOffsets(topic);
      expect(offsets.map((o) => o.partition).sort()).toEqual([0, 1, 2]);
      for (const o of offsets) expect(o).toMatchObject({ high: '0', low: '0' });
    });

    it('partitions by key (murmur2) and delivers in offset order per partition', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 3, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      const sent = keyed(600, 17);
      // Several sends, to cross batch boundaries.
      for (let i = 0; i < sent.length; i += 150) await producer.send(topic, sent.slice(i, i + 150));
      await producer.close();

      const offsets = await log.topicOffsets(topic);
      expect(offsets.reduce((s, o) => s + Number(o.high), 0)).toBe(600);

      const got = await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 600);
      expect(got).toHaveLength(600);
      for (const r of got) {
        expect(r.topic).toBe(topic);
        expect(r.partition).toBe(partitionForKey(r.key!, 3));
        expect(r.offset).toMatch(/^\d+$/);
      }
      // Per partition: offsets strictly increasing; per key: values in send order.
      const lastOffset = new Map<number, bigint>();
      const lastSeq = new Map<string, number>();
      for (const r of got) {
        const o = BigInt(r.offset);
        const prev = lastOffset.get(r.partition);
        if (prev !== undefined) expect(o > prev).toBe(true);
        lastOffset.set(r.partition, o);
        const seq = Number(str(r.value)!.slice(1));
        const k = str(r.key)!;
        if (lastSeq.has(k)) expect(seq).toBeGreaterThan(lastSeq.get(k)!);
        lastSeq.set(k, seq);
      }
      expect(lastSeq.size).toBe(17);
    });

    it('takes concurrent sends from one producer: all land, each call in order per key', async () => {
      // Stages send from several batches at once (a Kafka client's idempotent producer once failed
      // such sends with OUT_OF_ORDER_SEQUENCE_NUMBER).
      const { log } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 3, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      // 3 rounds of 8 concurrent sends of 500 (smaller loads did not reproduce it).
      for (let round = 0; round < 3; round++)
        await Promise.all(Array.from({ length: 8 }, (_, c) => producer.send(topic, keyed(500, 10, `r${round}c${c}-`))));
      await producer.close();
      const got = await consumeUntil(log, { groupId: randomName('g'), topics: [topic], fromBeginning: true }, (a) => a.length >= 12_000);
      expect(got).toHaveLength(12_000);
      const last = new Map<string, number>();
      for (const r of got) {
        const [call, seq] = str(r.value)!.split('-') as [string, string];
        const k = `${call}/${str(r.key)}`;
        expect(Number(seq)).toBeGreaterThan(last.get(k) ?? -1);
        last.set(k, Number(seq));
      }
    });

    it('takes one send larger than the broker accepts in one request (about 3 MB), in order', async () => {
      // Regression: a whole slate sent at once made kafkajs send one record batch over Kafka's 1 MB
      // message.max.bytes; the broker refused it with MESSAGE_TOO_LARGE (not retriable).
      const { log } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      const pad = 'x'.repeat(1000);
      await producer.send(topic, Array.from({ length: 3000 }, (_, i) => ({ key: b(`k${i % 7}`), value: b(`${i}-${pad}`) })));
      await producer.close();
      const got = await consumeUntil(log, { groupId: randomName('g'), topics: [topic], fromBeginning: true }, (a) => a.length >= 3000);
      expect(got.map((r) => Number(str(r.value)!.split('-')[0]))).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    });

    it('keeps timestamps, headers, null keys and null values', async () => {
      const { log } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      const ts = Date.now() - 60_000;
      await producer.send(topic, [
        { key: null, value: b('no-key'), timestamp: ts, headers: { source: 'kalshi', 'content-type': 'avro' } },
        { key: b('k'), value: null, timestamp: ts + 1 },
      ]);
      const got = await consumeUntil(log, { groupId: randomName('g'), topics: [topic], fromBeginning: true }, (a) => a.length >= 2);
      expect(got.map((r) => [str(r.key), str(r.value), r.timestamp, r.offset])).toEqual([
        [null, 'no-key', ts, '0'],
        ['k', null, ts + 1, '1'],
      ]);
      expect(got[0]!.headers).toEqual({ source: 'kalshi', 'content-type': 'avro' });
      expect(got[1]!.headers).toEqual({});
    });

    it('commits a batch only after its handler resolves', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(20, 3));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let entered = false;
      const seen: LogRecord[] = [];
      const consumer = log.consumer({ groupId: group, topics: [topic], fromBeginning: true });
      await consumer.run(async (batch) => {
        entered = true;
        await gate;
        seen.push(...batch.records);
      });
      await until(() => entered, (v) => v, 30_000, 'the handler to be called');
      // The handler has not resolved: nothing of this batch may be committed.
      await new Promise((r) => setTimeout(r, 300));
      expect(await sumCommitted(log, group, topic)).toBe(0);
      release();
      await until(() => sumCommitted(log, group, topic), (n) => n === 20, 30_000, 'the commit after the handler');
      await consumer.stop();
      expect(seen.map((r) => str(r.value))).toEqual(keyed(20, 3).map((r) => str(r.value)));
    });

    it('a batch that says how many records wait after it says it exactly', async () => {
      const { log, harness } = await open({ maxBatchRecords: 7 });
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(30, 1));
      const said: Array<[number, number | undefined]> = [];
      await consumeUntil(log, { groupId: randomName('g'), topics: [topic], fromBeginning: true }, (all) => all.length >= 30, {
        handler: async (batch) => void said.push([Number(batch.records.at(-1)!.offset), batch.waiting]),
      });
      // Everything was produced before the first read: what waits after a batch is the rest of the 30.
      for (const [last, waiting] of said) if (waiting !== undefined) expect(waiting, `after offset ${last}`).toBe(30 - (last + 1));
      if (harness.knowsWaiting) {
        expect(said.every(([, w]) => w !== undefined)).toBe(true);
        expect(said.some(([, w]) => w! > 0)).toBe(true);
      }
    });

    it('redelivers a batch whose handler throws, and commits nothing for it', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(10, 2));
      let failures = 0;
      const processed: string[] = [];
      const all = await consumeUntil(
        log,
        { groupId: group, topics: [topic], fromBeginning: true },
        () => processed.length >= 10,
        {
          handler: async (batch) => {
            if (failures < 2) {
              failures++;
              throw new Error('stage output not written');
            }
            processed.push(...batch.records.map((r) => str(r.value)!));
          },
        },
      );
      expect(failures).toBe(2);
      // Everything arrives once processing succeeds, in order, starting again from offset 0.
      expect(processed).toEqual(keyed(10, 2).map((r) => str(r.value)));
      expect(all.length).toBe(10);
      expect(await sumCommitted(log, group, topic)).toBe(10);
    });

    it('resumes a group where it stopped after a restart', async () => {
      const { log, harness } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
      let producer = await log.producer();
      await producer.send(topic, keyed(40, 5, 'first'));
      await producer.close();
      const first = await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 40);
      expect(first).toHaveLength(40);
      await until(() => sumCommitted(log, group, topic), (n) => n === 40, 30_000, 'commits before restart');
      await log.close();

      const log2 = await harness.open();
      opened.push(log2);
      expect(await sumCommitted(log2, group, topic)).toBe(40);
      producer = await log2.producer();
      await producer.send(topic, keyed(30, 5, 'second'));
      await producer.close();
      const second = await consumeUntil(log2, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 30);
      await new Promise((r) => setTimeout(r, 200));
      expect(second.map((r) => str(r.value)).sort()).toEqual(keyed(30, 5, 'second').map((r) => str(r.value)).sort());
      expect((await log2.topicOffsets(topic)).reduce((s, o) => s + Number(o.high), 0)).toBe(70);
    });

    it('compacted topics: the latest value per key wins and tombstones delete', async () => {
      const { log, harness } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'compact' }]);
      const producer = await log.producer();
      await producer.send(topic, [
        { key: b('market-1'), value: b('open') },
        { key: b('market-2'), value: b('open') },
        { key: b('market-1'), value: b('halted') },
        { key: b('market-3'), value: b('open') },
        { key: b('market-2'), value: null },
        { key: b('market-1'), value: b('closed') },
      ]);
      if (harness.compact) await harness.compact(log, topic);
      const highs = await log.topicOffsets(topic);
      const total = highs.reduce((s, o) => s + Number(o.high), 0);
      expect(total).toBe(6); // cleaning never rewinds offsets
      const got = await consumeUntil(log, { groupId: randomName('g'), topics: [topic], fromBeginning: true }, (a) => {
        // read to the end of every partition
        const max = new Map<number, number>();
        for (const r of a) max.set(r.partition, Math.max(max.get(r.partition) ?? -1, Number(r.offset)));
        return highs.every((h) => h.high === '0' || max.get(h.partition) === Number(h.high) - 1);
      });
      const state = new Map<string, string>();
      for (const r of got) {
        if (r.value === null) state.delete(str(r.key)!);
        else state.set(str(r.key)!, str(r.value)!);
      }
      expect(Object.fromEntries(state)).toEqual({ 'market-1': 'closed', 'market-3': 'open' });
      if (harness.compact) {
        // After cleaning, superseded values are gone from the log itself.
        expect(got.map((r) => `${str(r.key)}=${str(r.value)}`)).not.toContain('market-1=open');
        expect(got.map((r) => `${str(r.key)}=${str(r.value)}`)).not.toContain('market-1=halted');
      }
    });

    it('resetGroup earliest replays the whole topic', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(25, 4));
      await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 25);
      await until(() => sumCommitted(log, group, topic), (n) => n === 25, 30_000, 'commits');
      await log.resetGroup(group, topic, 'earliest');
      const after = await log.groupOffsets(group, topic);
      expect([...after.values()]).toEqual(['0', '0']);
      const replay = await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: false }, (a) => a.length >= 25);
      expect(replay.map((r) => str(r.value)).sort()).toEqual(keyed(25, 4).map((r) => str(r.value)).sort());
    });

    it('writes a record with an explicit partition there, whatever its key', async () => {
      const { log } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 3, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, [0, 1, 2].map((partition) => ({ key: b('same-key'), value: b(`copy-${partition}`), partition })));
      const offsets = await log.topicOffsets(topic);
      expect(offsets.map((o) => [o.partition, o.high])).toEqual([[0, '1'], [1, '1'], [2, '1']]);
      const got = await consumeUntil(log, { groupId: randomName('g'), topics: [topic], fromBeginning: true }, (a) => a.length >= 3);
      expect(got.map((r) => [r.partition, str(r.value)]).sort()).toEqual([[0, 'copy-0'], [1, 'copy-1'], [2, 'copy-2']]);
    });

    it('setGroupOffsets starts a group where it is told', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(10, 1));
      await log.setGroupOffsets(group, topic, new Map([[0, '6']]));
      expect(await log.groupOffsets(group, topic)).toEqual(new Map([[0, '6']]));
      const got = await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 4);
      expect(got.map((r) => r.offset)).toEqual(['6', '7', '8', '9']);
    });

    it('startAt starts a new group where it is told, without the group committing first', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, [...keyed(10, 1)].map((r) => ({ ...r, partition: 0 })));
      await producer.send(topic, [...keyed(5, 2)].map((r) => ({ ...r, partition: 1 })));
      const got = await consumeUntil(
        log,
        { groupId: group, topics: [topic], fromBeginning: true, startAt: new Map([[topic, new Map([[0, '6'], [1, '3']])]]) },
        (a) => a.filter((r) => r.partition === 0 && Number(r.offset) >= 6).length >= 4 && a.filter((r) => r.partition === 1 && Number(r.offset) >= 3).length >= 2,
      );
      // Records below startAt may come first on some clients (a fetch before the seek); from it on, each in order.
      const from = (p: number, o: number) => got.filter((r) => r.partition === p && Number(r.offset) >= o).map((r) => r.offset);
      expect(from(0, 6)).toEqual(['6', '7', '8', '9']);
      expect(from(1, 3)).toEqual(['3', '4']);
    });

    it('deleteGroup forgets a stopped group and its offsets; deleting a missing group is no error', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(10, 4));
      await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 10);
      await until(() => sumCommitted(log, group, topic), (n) => n === 10, 30_000, 'commits');
      await log.deleteGroup(group);
      expect((await log.groupOffsets(group, topic)).size).toBe(0);
      await log.deleteGroup(randomName('never'));
      // A new consumer of the deleted group starts where a new group starts.
      const again = await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 10);
      expect(again.length).toBeGreaterThanOrEqual(10);
    });

    it('resetGroup to a timestamp starts at the first record at or after it', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      const t0 = Date.now() - 3_600_000;
      await producer.send(
        topic,
        Array.from({ length: 10 }, (_, i) => ({ key: b(`k${i}`), value: b(`v${i}`), timestamp: t0 + i * 1000 })),
      );
      await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 10);
      await until(() => sumCommitted(log, group, topic), (n) => n === 10, 30_000, 'commits');
      await log.resetGroup(group, topic, { timestamp: t0 + 6500 });
      expect(Object.fromEntries(await log.groupOffsets(group, topic))).toEqual({ 0: '7' });
      const replay = await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 3);
      expect(replay.map((r) => str(r.value))).toEqual(['v7', 'v8', 'v9']);
      // A time after the last record: the group waits at the end.
      await log.resetGroup(group, topic, { timestamp: Date.now() + 60_000 });
      expect(Object.fromEntries(await log.groupOffsets(group, topic))).toEqual({ 0: '10' });
    });

    it('offsetsForTime: the first offset at or after a time per partition, the high watermark where none', async () => {
      const { log } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      const t0 = Date.now() - 3_600_000;
      // Partition 0: ten records a second apart; partition 1: two old ones.
      await producer.send(topic, [
        ...Array.from({ length: 10 }, (_, i) => ({ key: b(`k${i}`), value: b(`v${i}`), timestamp: t0 + i * 1000, partition: 0 })),
        ...[0, 1].map((i) => ({ key: b(`o${i}`), value: b(`o${i}`), timestamp: t0 - 60_000 + i, partition: 1 })),
      ]);
      expect(Object.fromEntries(await log.offsetsForTime(topic, t0 + 6500))).toEqual({ 0: '7', 1: '2' });
      expect(Object.fromEntries(await log.offsetsForTime(topic, t0 - 120_000))).toEqual({ 0: '0', 1: '0' });
      expect(Object.fromEntries(await log.offsetsForTime(topic, Date.now() + 60_000))).toEqual({ 0: '10', 1: '2' });
      // A tail from there reads the last stretch only.
      const got: Array<string | null> = [];
      const tail = log.tail({ topics: [topic], from: new Map([[topic, await log.offsetsForTime(topic, t0 + 8000)]]) });
      await tail.run(async (batch) => void got.push(...batch.records.map((r) => str(r.value))));
      await until(async () => got.length, (n) => n >= 2, 30_000, 'the last two records');
      await tail.stop();
      expect(got).toEqual(['v8', 'v9']);
    });

    it('tail: reads from the earliest offset, then live records, in offset order per partition, beside a group', async () => {
      const { log, harness } = await open();
      const topic = randomName('t');
      const group = randomName('g');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(20, 5, 'a'));
      const [t1, t2] = [log.tail({ topics: [topic] }), log.tail({ topics: [topic] })];
      const [got1, got2]: LogRecord[][] = [[], []];
      await t1.run(async (batch) => void got1.push(...batch.records));
      await t2.run(async (batch) => void got2.push(...batch.records));
      try {
        await until(() => got1.length + got2.length, (n) => n >= 40, 30_000 + (harness.joinMs ?? 0), 'both tails to read what was there');
        // Live records after the tails caught up; a group reading the same topic takes nothing from them.
        await producer.send(topic, keyed(10, 5, 'b'));
        const byGroup = await consumeUntil(log, { groupId: group, topics: [topic], fromBeginning: true }, (a) => a.length >= 30);
        await until(() => Math.min(got1.length, got2.length), (n) => n >= 30, 30_000, 'both tails to read the live records');
        for (const got of [got1, got2, byGroup]) {
          expect(got).toHaveLength(30);
          for (const p of [0, 1]) {
            const offs = got.filter((r) => r.partition === p).map((r) => Number(r.offset));
            expect(offs).toEqual([...offs].sort((x, y) => x - y));
            expect(new Set(offs).size).toBe(offs.length);
          }
          expect(got.map((r) => str(r.value)).sort()).toEqual([...keyed(20, 5, 'a'), ...keyed(10, 5, 'b')].map((r) => str(r.value)).sort());
        }
      } finally {
        await t1.stop();
        await t2.stop();
        await producer.close();
      }
    });

    it('tail: starts at the positions it is given, a partition not named at its earliest offset', async () => {
      const { log, harness } = await open();
      const topic = randomName('t');
      await log.createTopics([{ name: topic, partitions: 2, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, Array.from({ length: 12 }, (_, i) => ({ key: b(`k${i}`), value: b(`v${i}`), partition: i % 2 })));
      await producer.close();
      // Partition 0 from offset 4 (records v8, v10); partition 1 from its start (six records).
      const tail = log.tail({ topics: [topic], from: new Map([[topic, new Map([[0, '4']])]]) });
      const got: LogRecord[] = [];
      await tail.run(async (batch) => void got.push(...batch.records));
      try {
        await until(() => got.length, (n) => n >= 8, 30_000 + (harness.joinMs ?? 0), 'the tail to read from its positions');
        // Nothing beyond what was asked for arrives later.
        await new Promise((r) => setTimeout(r, 300));
      } finally {
        await tail.stop();
      }
      expect(got.filter((r) => r.partition === 0).map((r) => [r.offset, str(r.value)])).toEqual([['4', 'v8'], ['5', 'v10']]);
      expect(got.filter((r) => r.partition === 1).map((r) => str(r.value))).toEqual(['v1', 'v3', 'v5', 'v7', 'v9', 'v11']);
    });

    it('tail: starts each of several topics at its own positions', async () => {
      const { log, harness } = await open();
      const topics = [randomName('t'), randomName('t'), randomName('t')];
      await log.createTopics(topics.map((name) => ({ name, partitions: 2, cleanupPolicy: 'delete' as const })));
      const producer = await log.producer();
      for (const t of topics) await producer.send(t, Array.from({ length: 8 }, (_, i) => ({ key: b(`k${i}`), value: b(`${t}:${i}`), partition: i % 2 })));
      await producer.close();
      // Topic i from offset i+1 on partition 0 and offset 2 on partition 1; the last topic not named.
      const from = new Map(topics.slice(0, 2).map((t, i) => [t, new Map([[0, String(i + 1)], [1, '2']])]));
      const tail = log.tail({ topics, from });
      const got: LogRecord[] = [];
      await tail.run(async (batch) => void got.push(...batch.records));
      try {
        // 3 + 2 records from the first topic, 2 + 2 from the second, all 8 of the third.
        await until(() => got.length, (n) => n >= 17, 30_000 + (harness.joinMs ?? 0), 'the tail to read every topic from its positions');
        await new Promise((r) => setTimeout(r, 300));
      } finally {
        await tail.stop();
      }
      const offs = (t: string, p: number) => got.filter((r) => r.topic === t && r.partition === p).map((r) => r.offset);
      expect([offs(topics[0]!, 0), offs(topics[0]!, 1)]).toEqual([['1', '2', '3'], ['2', '3']]);
      expect([offs(topics[1]!, 0), offs(topics[1]!, 1)]).toEqual([['2', '3'], ['2', '3']]);
      expect([offs(topics[2]!, 0), offs(topics[2]!, 1)]).toEqual([['0', '1', '2', '3'], ['0', '1', '2', '3']]);
    });

    it('gives each group its own offsets on the same topic', async () => {
      const { log } = await open();
      const topic = randomName('t');
      const [g1, g2] = [randomName('g'), randomName('g')];
      await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
      const producer = await log.producer();
      await producer.send(topic, keyed(5, 1));
      const a = await consumeUntil(log, { groupId: g1, topics: [topic], fromBeginning: true }, (x) => x.length >= 5);
      const c = await consumeUntil(log, { groupId: g2, topics: [topic], fromBeginning: true }, (x) => x.length >= 5);
      expect(a.map((r) => r.offset)).toEqual(['0', '1', '2', '3', '4']);
      expect(c.map((r) => r.offset)).toEqual(['0', '1', '2', '3', '4']);
      expect((await log.groupOffsets(randomName('g'), topic)).size).toBe(0);
    });
  });
}
