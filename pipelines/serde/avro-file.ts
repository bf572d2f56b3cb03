// Avro object container files ("OCF", Avro spec 1.11 "Object Container Files") built straight from
// records' Avro bodies, without decoding them. In: a record schema and, per record, a few leading
// fields plus the record's Avro body as it sits in the log (after the wire header). Out: one file
// (header, one block, sync marker) that ClickHouse reads with FORMAT Avro.
//
// Why: a history sink used to decode every record in JavaScript, build a row object, serialize the
// rows as JSON and have ClickHouse parse that JSON again: about two thirds of a history table's cost
// per record (bench/backbone.md, 2026-11-22, "history sinks from Avro"). An Avro record's binary encoding is the concatenation
// of its fields' encodings, so a record schema made of a few extra fields followed by the writer's
// fields encodes as (the extra fields' bytes) + (the body the producer wrote): the file is built by
// copying bytes, and ClickHouse's C++ Avro reader does the decoding.
import { randomBytes } from 'node:crypto';

/** A leading field of every record in the file, written from the log record's metadata. */
export interface LeadingField {
  name: string;
  type: 'int' | 'long' | 'string' | { type: 'long'; logicalType: 'timestamp-millis' };
}

export interface AvroFileSchema {
  type: 'record';
  name: string;
  namespace?: string;
  fields: Array<{ name: string; type: unknown }>;
}

const isAvroFileSchema = (s: unknown): s is AvroFileSchema =>
  typeof s === 'object' && s !== null && (s as AvroFileSchema).type === 'record' && Array.isArray((s as AvroFileSchema).fields);

/**
 * The file's schema: the leading fields, then the writer's fields in the writer's order (so each
 * record's body can follow its leading fields unchanged). Named types inside the writer's fields
 * resolve as before because the file's record keeps the writer's namespace. Null when the writer
 * schema is not a record or already has a field of a leading field's name.
 */
export function fileSchema(writer: unknown, leading: LeadingField[]): AvroFileSchema | null {
  const w: unknown = typeof writer === 'string' ? safeParse(writer) : writer;
  if (!isAvroFileSchema(w)) return null;
  const names = new Set(w.fields.map((f) => f.name));
  if (leading.some((f) => names.has(f.name))) return null;
  const dot = w.name.lastIndexOf('.');
  const namespace = dot >= 0 ? w.name.slice(0, dot) : w.namespace;
  return {
    type: 'record',
    name: `${dot >= 0 ? w.name.slice(dot + 1) : w.name}HistoryFileRow`,
    ...(namespace ? { namespace } : {}),
    fields: [...leading.map((f) => ({ name: f.name, type: f.type })), ...w.fields],
  };
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/**
 * Longs this file writes: integers within ±2^52, as avsc's own long type (beyond that the zig-zag
 * value, twice n, is no longer exact in a double). Offsets and Unix milliseconds are far inside.
 */
const MAX_LONG = 2 ** 52;

/** Bytes a zig-zag varint of n takes. */
function longSize(n: number): number {
  let z = n >= 0 ? n * 2 : -n * 2 - 1;
  let size = 1;
  while (z >= 0x80) {
    z = Math.floor(z / 0x80);
    size++;
  }
  return size;
}

/**
 * Writes n as Avro writes int and long: zig-zag, then base-128 varint, low group first. Arithmetic
 * rather than bit operations, which would truncate to 32 bits (offsets and milliseconds do not fit).
 */
export function writeLong(buf: Buffer, pos: number, n: number): number {
  if (!Number.isInteger(n) || n > MAX_LONG || n < -MAX_LONG) throw new RangeError(`Avro long out of range: ${n}`);
  let z = n >= 0 ? n * 2 : -n * 2 - 1;
  while (z >= 0x80) {
    buf[pos++] = (z % 0x80) | 0x80;
    z = Math.floor(z / 0x80);
  }
  buf[pos++] = z;
  return pos;
}

/** An Avro string or bytes: its length as a long, then the bytes. */
function encodeBytes(b: Buffer): Buffer {
  const out = Buffer.allocUnsafe(longSize(b.length) + b.length);
  b.copy(out, writeLong(out, 0, b.length));
  return out;
}

export type LeadingValue = number | Buffer;

/**
 * One record of the file: its leading values, in the order of the leading fields (numbers for
 * int/long, UTF-8 bytes for strings), and the Avro body written with the writer's schema.
 */
export interface FileRecord {
  leading: LeadingValue[];
  body: Buffer;
  /** Where the body starts in `body` (the wire header is skipped without a view per record). */
  bodyStart: number;
}

/** Builds the whole file: header (schema, codec null, sync marker) and one block of every record. */
export function avroObjectFile(schema: AvroFileSchema, records: FileRecord[]): Buffer {
  const sync = randomBytes(16);
  // Header: magic, then the metadata map<bytes> as one block of 2 entries and the 0 that ends it.
  const meta = [Buffer.from('avro.schema'), Buffer.from(JSON.stringify(schema)), Buffer.from('avro.codec'), Buffer.from('null')].map(encodeBytes);
  let size = 0;
  for (const r of records) {
    for (const v of r.leading) size += typeof v === 'number' ? longSize(v) : longSize(v.length) + v.length;
    size += r.body.length - r.bodyStart;
  }
  const head = 4 + 1 + meta.reduce((a, b) => a + b.length, 0) + 1 + 16;
  const out = Buffer.allocUnsafe(head + longSize(records.length) + longSize(size) + size + 16);
  let pos = out.write('Obj\x01', 0, 'latin1');
  pos = writeLong(out, pos, 2);
  for (const m of meta) pos += m.copy(out, pos);
  pos = writeLong(out, pos, 0);
  pos += sync.copy(out, pos);
  pos = writeLong(out, pos, records.length);
  pos = writeLong(out, pos, size);
  for (const r of records) {
    for (const v of r.leading) {
      if (typeof v === 'number') pos = writeLong(out, pos, v);
      else {
        pos = writeLong(out, pos, v.length);
        pos += v.copy(out, pos);
      }
    }
    pos += r.body.copy(out, pos, r.bodyStart);
  }
  pos += sync.copy(out, pos);
  if (pos !== out.length) throw new Error(`Avro file size mismatch: wrote ${pos} of ${out.length} bytes`);
  return out;
}
