// Picks the Log implementation from configuration, so the same stages run in both modes.
// In: Config (KAFKA_BROKERS, KAFKA_PARTITIONS, KAFKA_REPLICATION, DATA_DIR).
// Out: a Log. KAFKA_BROKERS set -> Kafka through kafkajs; otherwise the embedded log persisted under
// <DATA_DIR>/log. The Kafka client is imported lazily so the embedded default never loads it.
// (A second client, @platformatic/kafka, was selectable here until its dependencies required Node
// 22.19 while this project runs on Node 20.)
import { join } from 'node:path';
import type { Config } from '../../lib/config.ts';
import { EmbeddedLog, type EmbeddedLogOptions } from './embedded.ts';
import type { Log } from './types.ts';

export type { Log } from './types.ts';
export { partitionForKey } from './partitioner.ts';

export async function createLog(
  config: Pick<Config, 'KAFKA_BROKERS' | 'KAFKA_REPLICATION' | 'DATA_DIR'>,
  embedded: Partial<EmbeddedLogOptions> = {},
): Promise<Log> {
  if (config.KAFKA_BROKERS) {
    const brokers = config.KAFKA_BROKERS.split(',').map((s) => s.trim()).filter(Boolean);
    const { KafkaLog } = await import('./kafka.ts');
    return new KafkaLog({ brokers, replication: config.KAFKA_REPLICATION });
  }
  return EmbeddedLog.open({ dir: join(config.DATA_DIR, 'log'), ...embedded });
}
