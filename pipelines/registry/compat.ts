// BACKWARD compatibility, as a Confluent registry checks it on register: the new schema (reader) must
// be able to read data written with the latest registered one (writer). avsc's resolver decides:
// Type(new).createResolver(Type(old)) throws when it cannot. Pure: schemas in, a reason or null out.
import avro from 'avsc';
import type { AvroSchema } from './types.ts';

export function parseSchema(schema: AvroSchema): avro.Type {
  return avro.Type.forSchema((typeof schema === 'string' ? JSON.parse(schema) : schema) as avro.Schema);
}

/** The schema's normalized JSON (defaults, docs and other attributes kept): equal for schemas that differ only in spacing or key order. */
export function canonical(schema: AvroSchema): string {
  return JSON.stringify(parseSchema(schema).schema({ exportAttrs: true }));
}

/** Why `reader` cannot read data written with `writer`, or null when it can. */
export function backwardIncompatibility(reader: AvroSchema, writer: AvroSchema): string | null {
  try {
    parseSchema(reader).createResolver(parseSchema(writer));
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
