// Picks the Log implementation from configuration, so the same stages run in both modes.
// In: Config (KAFKA_BROKERS, KAFKA_CLIENT, KAFKA_PARTITIONS, KAFKA_REPLICATION, DATA_DIR).
// Out: a Log. KAFKA_BROKERS set -> Kafka through the client KAFKA_CLIENT names (kafkajs by default);
// otherwise the embedded log persisted under <DATA_DIR>/log. The Kafka clients are imported lazily so
// the embedded default never loads them.
import { join } from 'node:path';
import type { Config } from '../../lib/config.ts';
import { EmbeddedLog, type EmbeddedLogOptions } from './embedded.ts';
import type { Log } from './types.ts';

export type { Log } from './types.ts';
export { partitionForKey } from './partitioner.ts';

export async function createLog(
  config: Pick<Config, 'KAFKA_BROKERS' | 'KAFKA_CLIENT' | 'KAFKA_REPLICATION' | 'DATA_DIR'>,
  embedded: Partial<EmbeddedLogOptions> = {},
): Promise<Log> {
  if (config.KAFKA_BROKERS) {
    const brokers = config.KAFKA_BROKERS.split(',').map((s) => s.trim()).filter(Boolean);
    if (config.KAFKA_CLIENT === 'platformatic') {
      const { PlatformaticKafkaLog } = await import('./kafka-platformatic.ts');
      return new PlatformaticKafkaLog({ brokers, replication: config.KAFKA_REPLICATION });
    }
    const { KafkaLog } = await import('./kafka.ts');
    return new KafkaLog({ brokers, replication: config.KAFKA_REPLICATION });
  }
  return EmbeddedLog.open({ dir: join(config.DATA_DIR, 'log'), ...embedded });
}
