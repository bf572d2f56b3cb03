// Log.tail() for the Kafka clients: a reader without a shared group, built on the seam's own
// consumer. Kafka's fetch needs a group (or manual assignment, which the two clients expose
// differently), so a tail joins a group of its own: a random id that no other process uses, its start
// positions set with setGroupOffsets before it joins (partitions not named start at the earliest
// retained offset), and the group deleted on stop(). Its commits only ever move its own group.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Batch, Consumer, Log, TailOptions } from './types.ts';

export function groupTail(log: Pick<Log, 'consumer' | 'setGroupOffsets' | 'deleteGroup'>, options: TailOptions, clientId: string): Consumer {
  const groupId = `${clientId}.tail.${hostname()}.${process.pid}.${randomBytes(6).toString('hex')}`;
  let consumer: Consumer | null = null;
  let stopped = false;
  return {
    async run(handler: (batch: Batch) => Promise<void>): Promise<void> {
      if (consumer) throw new Error('tail is already running');
      for (const [topic, parts] of options.from ?? new Map<string, Map<number, string>>()) {
        if (parts.size) await log.setGroupOffsets(groupId, topic, parts);
      }
      if (stopped) return;
      consumer = log.consumer({ groupId, topics: options.topics, fromBeginning: true });
      await consumer.run(handler);
    },
    async stop(): Promise<void> {
      stopped = true;
      await consumer?.stop();
      await log.deleteGroup(groupId).catch(() => {});
    },
  };
}
