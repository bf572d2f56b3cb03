// The schema-registry seam: Avro schemas get ids per subject, records carry the id in Confluent's wire
// format (magic byte 0, 4-byte big-endian schema id, Avro binary body). Two implementations: the
// embedded registry (ids persisted under DATA_DIR) and a Confluent-compatible server
// (SCHEMA_REGISTRY_URL) through @kafkajs/confluent-schema-registry. One contract suite for both
// (registry.contract.ts). This module imports nothing: serde and the wire format build on it.

/** What serde needs from the registry seam: encode to and decode from the wire format. */
export interface RegistryCodec {
  encode(subject: string, schema: object | string, value: unknown): Promise<Buffer>;
  decode(buf: Buffer): Promise<unknown>;
}

/** An Avro schema as JSON text or as parsed JSON. */
export type AvroSchema = string | object;

export interface SchemaRegistry extends RegistryCodec {
  readonly kind: 'embedded' | 'confluent';
  /**
   * Registers `schema` under `subject` and returns its id; the same schema again returns the same id.
   * A schema that cannot read data written with the subject's latest version (BACKWARD, Confluent's
   * default) is refused with an IncompatibleSchemaError.
   */
  register(subject: string, schema: AvroSchema): Promise<number>;
  /** The schema (parsed JSON) registered with this id. */
  getSchema(id: number): Promise<object | string>;
  /** Registers (cached) and encodes `value` with `schema` in the wire format. */
  encode(subject: string, schema: AvroSchema, value: unknown): Promise<Buffer>;
  /** Decodes a wire-format buffer with the schema its id names (the writer's schema). */
  decode(buf: Buffer): Promise<unknown>;
  close(): Promise<void>;
}

export class IncompatibleSchemaError extends Error {
  constructor(
    readonly subject: string,
    reason: string,
  ) {
    super(`schema for subject ${JSON.stringify(subject)} is not BACKWARD compatible with its latest version: ${reason}`);
  }
}

export class WireFormatError extends Error {}
