// The serde the backbone tests share: Avro through the schema registry. A Confluent-compatible
// server when a URL is given (the stack), else the embedded registry persisted under dir, so the test
// process and its worker processes resolve the same schema ids.
import path from 'node:path';
import { ConfluentRegistry } from '../../registry/confluent.ts';
import { EmbeddedRegistry } from '../../registry/embedded.ts';
import { avroSerde, type Serde } from '../../serde/index.ts';

export async function workerSerde(dir: string, registryUrl?: string): Promise<Serde> {
  return avroSerde(registryUrl ? new ConfluentRegistry(registryUrl) : new EmbeddedRegistry(path.join(dir, 'registry')));
}
