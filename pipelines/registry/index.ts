// Picks the schema registry from configuration: SCHEMA_REGISTRY_URL set -> the Confluent-compatible
// server, else the embedded registry under <DATA_DIR>/registry.
import { join } from 'node:path';
import type { Config } from '../../lib/config.ts';
import { ConfluentRegistry } from './confluent.ts';
import { EmbeddedRegistry } from './embedded.ts';
import type { SchemaRegistry } from './types.ts';

export type { SchemaRegistry, AvroSchema } from './types.ts';
export { IncompatibleSchemaError, WireFormatError } from './types.ts';
export { encodeWire, decodeWire, MAGIC_BYTE } from './wire.ts';
export { EmbeddedRegistry } from './embedded.ts';
export { ConfluentRegistry } from './confluent.ts';

export function createRegistry(config: Pick<Config, 'SCHEMA_REGISTRY_URL' | 'DATA_DIR'>): SchemaRegistry {
  if (config.SCHEMA_REGISTRY_URL) return new ConfluentRegistry(config.SCHEMA_REGISTRY_URL);
  return new EmbeddedRegistry(join(config.DATA_DIR, 'registry'));
}
