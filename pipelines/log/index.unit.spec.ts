// createLog picks the implementation from configuration only.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLog } from './index.ts';

describe('createLog', () => {
  it('opens the embedded log under <DATA_DIR>/log when KAFKA_BROKERS is unset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'createlog-'));
    const log = await createLog({ DATA_DIR: dir, KAFKA_BROKERS: undefined, KAFKA_REPLICATION: 1 });
    expect(log.kind).toBe('embedded');
    await log.createTopics([{ name: 'x', partitions: 1, cleanupPolicy: 'delete' }]);
    await log.close();
    const again = await createLog({ DATA_DIR: dir, KAFKA_BROKERS: undefined, KAFKA_REPLICATION: 1 });
    expect((await again.topicOffsets('x')).length).toBe(1);
    await again.close();
  });

  it('picks Kafka through kafkajs when KAFKA_BROKERS is set (no connection until used)', async () => {
    const log = await createLog({ DATA_DIR: '.', KAFKA_BROKERS: '127.0.0.1:1', KAFKA_REPLICATION: 1 });
    expect(log.kind).toBe('kafka');
    expect(log.constructor.name).toBe('KafkaLog');
    await log.close();
  });
});
