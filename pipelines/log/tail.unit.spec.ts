// groupTail over a stand-in log: what it asks the log for, and what it hands on.
import { describe, expect, it, vi } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import { groupTail } from './tail.ts';
import type { Batch, Consumer, ConsumerOptions, LogRecord } from './types.ts';

const rec = (topic: string, partition: number, offset: number): LogRecord => ({ topic, partition, offset: String(offset), key: null, value: null, timestamp: 0, headers: {} });

/** A log whose one consumer delivers the given batches, in order, when run. */
function standIn(batches: (topics: string[]) => Batch[]) {
  const made: ConsumerOptions[] = [];
  const log = {
    consumer: vi.fn((options: ConsumerOptions): Consumer => {
      made.push(options);
      return {
        run: async (handler) => {
          for (const b of batches(options.topics)) await handler(b);
        },
        stop: async () => {},
      };
    }),
    deleteGroup: vi.fn(async () => {}),
    setGroupOffsets: vi.fn(async () => {}),
  };
  return { log, made };
}

describe('groupTail', () => {
  it('gives every topic its start in one consumer and sets nothing on the group per topic', async () => {
    const topics = Array.from({ length: 9 }, () => randomName('raw'));
    const from = new Map(topics.map((t, i) => [t, new Map([[0, String(i + 1)]])]));
    const { log, made } = standIn(() => []);
    const tail = groupTail(log, { topics, from }, randomName('client'));
    await tail.run(async () => {});
    await tail.stop();
    expect(log.setGroupOffsets).not.toHaveBeenCalled();
    expect(made).toHaveLength(1);
    expect(made[0]!.topics).toEqual(topics);
    expect(made[0]!.startAt).toEqual(from);
    expect(made[0]!.groupId).toMatch(/\.tail\./);
    expect(log.deleteGroup).toHaveBeenCalledWith(made[0]!.groupId);
  });

  it('skips records below a partition start that the consumer hands over anyway (a fetch before the seek)', async () => {
    const [a, b] = [randomName('raw'), randomName('raw')];
    const { log } = standIn(() => [
      { topic: a, partition: 0, records: [1, 2, 3].map((o) => rec(a, 0, o)) },
      { topic: a, partition: 0, records: [4, 5, 6].map((o) => rec(a, 0, o)) },
      { topic: a, partition: 1, records: [0, 1].map((o) => rec(a, 1, o)) },
      { topic: b, partition: 0, records: [0, 1].map((o) => rec(b, 0, o)) },
    ]);
    const got: string[] = [];
    const tail = groupTail(log, { topics: [a, b], from: new Map([[a, new Map([[0, '5']])]]) }, randomName('client'));
    await tail.run(async (batch) => void got.push(...batch.records.map((r) => `${r.topic === a ? 'a' : 'b'}${r.partition}@${r.offset}`)));
    expect(got).toEqual(['a0@5', 'a0@6', 'a1@0', 'a1@1', 'b0@0', 'b0@1']);
  });

  it('starts a tail with no positions at the earliest offsets (no startAt)', async () => {
    const { log, made } = standIn(() => []);
    await groupTail(log, { topics: [randomName('raw')], from: new Map([[randomName('raw'), new Map()]]) }, randomName('client')).run(async () => {});
    expect(made[0]!.startAt).toBeUndefined();
    expect(made[0]!.fromBeginning).toBe(true);
  });
});
