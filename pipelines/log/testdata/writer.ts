// Child process for the crash test in embedded.int.spec.ts: appends numbered records to the embedded
// log at argv[2] and a consumer group commits as it reads, printing "acked <n>" after each send
// resolves and "committed <n>" after each handler, until it is killed.
import { EmbeddedLog } from '../embedded.ts';

const log = await EmbeddedLog.open({ dir: process.argv[2]!, fsyncIntervalMs: 50 });
await log.createTopics([{ name: 'crash', partitions: 2, cleanupPolicy: 'delete' }]);
const producer = await log.producer();
let consumed = 0;
const consumer = log.consumer({ groupId: 'crash-group', topics: ['crash'], fromBeginning: true });
await consumer.run(async (batch) => {
  consumed += batch.records.length;
  process.stdout.write(`committed ${consumed}\n`);
});
for (let n = 0; ; n += 100) {
  await producer.send(
    'crash',
    Array.from({ length: 100 }, (_, i) => ({ key: Buffer.from(`k${(n + i) % 7}`), value: Buffer.from(String(n + i)) })),
  );
  process.stdout.write(`acked ${n + 100}\n`);
}
