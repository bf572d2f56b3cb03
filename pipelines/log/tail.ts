// Log.tail() for the Kafka log: a reader without a shared group, built on the seam's own consumer.
// Kafka's fetch needs a group (or manual assignment, which kafkajs does not expose), so a tail joins
// a group of its own: a random id that no other process uses, deleted on stop(). Its commits only
// ever move its own group.
//
// Its start positions go to that one consumer as startAt, every topic together: it seeks them all
// once it has joined. Setting them on the group first (setGroupOffsets, topic by topic) cost a
// throwaway join and a fetch poll per topic, about 5 s each: the quotes hub's nine raw topics kept
// it from being ready for about 45 s after a start. Partitions not named (or named below their
// earliest retained offset) start at the earliest retained offset.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Batch, Consumer, Log, TailOptions } from './types.ts';

export function groupTail(log: Pick<Log, 'consumer' | 'deleteGroup'>, options: TailOptions, clientId: string): Consumer {
  const groupId = `${clientId}.tail.${hostname()}.${process.pid}.${randomBytes(6).toString('hex')}`;
  let consumer: Consumer | null = null;
  let stopped = false;
  const from = new Map([...(options.from ?? [])].filter(([, parts]) => parts.size > 0));
  return {
    async run(handler: (batch: Batch) => Promise<void>): Promise<void> {
      if (consumer) throw new Error('tail is already running');
      if (stopped) return;
      consumer = log.consumer({ groupId, topics: options.topics, fromBeginning: true, ...(from.size && { startAt: from }) });
      await consumer.run(async (batch) => {
        // A fetch before the seek, or a rejoin before the partition's first commit, reads from the
        // earliest offset: what lies below the start was not asked for.
        const start = from.get(batch.topic)?.get(batch.partition);
        if (start === undefined) return handler(batch);
        const records = batch.records.filter((r) => BigInt(r.offset) >= BigInt(start));
        if (records.length === batch.records.length) return handler(batch);
        if (records.length) return handler({ ...batch, records });
      });
    },
    async stop(): Promise<void> {
      stopped = true;
      await consumer?.stop();
      await log.deleteGroup(groupId).catch(() => {});
    },
  };
}
