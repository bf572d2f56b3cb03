// Typed encode/decode of topic keys and values through the schema registry. In: a topic definition
// from the topic map and a typed key/value (or a LogRecord read from the log). Out: bytes in the
// Confluent wire format (magic byte 0, 4-byte schema id, Avro body) and back. Subjects follow
// Confluent's TopicNameStrategy: '<topic>-key' and '<topic>-value'. The registry seam
// (pipelines/registry) owns ids and the wire format; this layer owns which schema goes with which
// topic, and caches avsc types so a stage decodes thousands of records per batch cheaply.
import avro from 'avsc';
import type { LogRecord, OutgoingRecord } from '../log/types.ts';
import { decodeWire, encodeWire, WIRE_HEADER_BYTES, wireId, writeWireHeader } from '../registry/wire.ts';
import {
  loadSchema,
  keySubject,
  valueSubject,
  type TopicDef,
  type TopicId,
  type TopicValues,
} from '../topics.ts';

// What serde needs from the registry seam is declared by the seam (registry/types.ts imports
// nothing, so serde -> registry/wire -> registry/types has no way back).
export type { RegistryCodec } from '../registry/types.ts';
import type { RegistryCodec } from '../registry/types.ts';

export interface Decoded<Id extends TopicId> {
  key: string | null;
  value: TopicValues[Id] | null;
}

export interface Serde {
  encodeKey(topic: TopicDef, key: string | null): Promise<Buffer | null>;
  encodeValue<Id extends TopicId>(topic: TopicDef<Id>, value: TopicValues[Id] | null): Promise<Buffer | null>;
  /** A whole record, ready for Producer.send. */
  encode<Id extends TopicId>(
    topic: TopicDef<Id>,
    key: string | null,
    value: TopicValues[Id] | null,
    extra?: { timestamp?: number; headers?: Record<string, string> },
  ): Promise<OutgoingRecord>;
  /** Many records of one topic at once (what the stage runner uses: one await per batch). */
  encodeMany<Id extends TopicId>(topic: TopicDef<Id>, records: OutgoingTyped<Id>[]): Promise<OutgoingRecord[]>;
  decode<Id extends TopicId>(topic: TopicDef<Id>, record: LogRecord): Promise<Decoded<Id>>;
  decodeMany<Id extends TopicId>(topic: TopicDef<Id>, records: LogRecord[]): Promise<Decoded<Id>[]>;
  /**
   * What decodeMany does, one record at a time: the batch's writer schemas resolved first (the one
   * await), then a synchronous decode of a record's key or value, each time it is called (nothing
   * kept). For a reader that holds one decoded record at a time.
   */
  decoder?<Id extends TopicId>(topic: TopicDef<Id>, records: LogRecord[]): Promise<RecordDecoder<Id>>;
  /**
   * decoder(), reading only the named fields of each value: Avro resolves the writer's schema against
   * a reader of those fields alone, so the others are skipped in the bytes, never built (the push
   * stream's hub reads an archive reason per record and keeps the rest as bytes until asked).
   */
  projector?<Id extends TopicId, F extends keyof TopicValues[Id] & string>(
    topic: TopicDef<Id>,
    records: LogRecord[],
    fields: readonly F[],
  ): Promise<(record: Pick<LogRecord, 'value'>) => Pick<TopicValues[Id], F> | null>;
  /** Avro only: the writer's schema of a schema id (what the records' bodies were written with). */
  writerSchema?(id: number): Promise<object | string>;
  /**
   * Avro through a registry with ids by subject: that registry, so a serde on another thread (the
   * pollers' worker) resolves the same ids through this one.
   */
  schemas?: SchemaLookup;
}

/** Decodes the key or the value of any record of the batch it was made for (Serde.decoder). */
export interface RecordDecoder<Id extends TopicId> {
  key(record: Pick<LogRecord, 'key'>): string | null;
  value(record: Pick<LogRecord, 'value'>): TopicValues[Id] | null;
}

export interface OutgoingTyped<Id extends TopicId> {
  key: string | null;
  value: TopicValues[Id] | null;
  timestamp?: number;
  headers?: Record<string, string>;
}

/** Optional registry abilities: ids by subject and the writer's schema by id. */
export interface SchemaLookup {
  register(subject: string, schema: object | string): Promise<number>;
  getSchema(id: number): Promise<object | string>;
}

function outgoing(key: Buffer | null, value: Buffer | null, extra?: { timestamp?: number; headers?: Record<string, string> }): OutgoingRecord {
  return {
    key,
    value,
    ...(extra?.timestamp !== undefined ? { timestamp: extra.timestamp } : {}),
    ...(extra?.headers ? { headers: extra.headers } : {}),
  };
}

/**
 * Frames many records in the wire format into shared chunks: each frame is a view of a chunk. A
 * record that does not fit the rest of the chunk is encoded again into a new one (avsc tells how
 * many bytes were missing), so a chunk is never copied.
 */
class FramePool {
  private buf = Buffer.allocUnsafe(0);
  private pos = 0;
  frame(id: number, type: avro.Type, value: unknown): Buffer {
    for (;;) {
      const start = this.pos;
      if (this.buf.length - start > WIRE_HEADER_BYTES) {
        const end = type.encode(value, this.buf, start + WIRE_HEADER_BYTES);
        if (end > 0 && end >= start + WIRE_HEADER_BYTES) {
          writeWireHeader(this.buf, start, id);
          this.pos = end;
          return this.buf.subarray(start, end);
        }
        // end <= 0: -end bytes were missing
        this.buf = Buffer.allocUnsafe(Math.max(FRAME_CHUNK, WIRE_HEADER_BYTES + (this.buf.length - start - WIRE_HEADER_BYTES) - end));
      } else this.buf = Buffer.allocUnsafe(FRAME_CHUNK);
      this.pos = 0;
    }
  }
}
const FRAME_CHUNK = 64 * 1024;

/**
 * Avro through the registry: the format on every topic. Values are decoded with the topic's
 * current schema (the reader) resolved from the writer's schema named by the record's id, as Avro
 * consumers do: a record written before a field was added reads with the field's default. Like
 * Confluent's serializers, the id of a subject's schema is looked up once and cached, and the Avro
 * work itself is synchronous, so a batch costs one await, not one per record.
 */
export function avroSerde(registry: RegistryCodec & Partial<SchemaLookup>): Serde {
  const readers = new Map<string, avro.Type>();
  const resolvers = new Map<string, { reader: avro.Type; resolver: avro.Resolver }>();
  const ids = new Map<string, Promise<number>>();
  const writers = new Map<number, Promise<object | string>>();
  const writerSchema = (id: number): Promise<object | string> => {
    let w = writers.get(id);
    if (!w) {
      w = registry.getSchema!(id);
      writers.set(id, w);
      w.catch(() => writers.delete(id));
    }
    return w;
  };
  const readerType = (file: string): avro.Type => {
    let t = readers.get(file);
    if (!t) readers.set(file, (t = avro.Type.forSchema(loadSchema(file) as avro.Schema)));
    return t;
  };
  /** The topic's schema with only `fields` (a projection: same name, so it resolves against the writer's). */
  const projectedType = (file: string, fields: readonly string[]): avro.Type => {
    const k = `${file}|${fields.join(',')}`;
    let t = readers.get(k);
    if (!t) {
      const s = loadSchema(file) as { fields: Array<{ name: string }> };
      readers.set(k, (t = avro.Type.forSchema({ ...s, fields: s.fields.filter((f) => fields.includes(f.name)) } as avro.Schema)));
    }
    return t;
  };
  /** A resolver's key past its writer id: the reader's file, and its fields when a projection. */
  const readerSuffix = (file: string, fields?: readonly string[]) => (fields ? `|${file}|${fields.join(',')}` : `|${file}`);
  const resolverFor = async (file: string, id: number, fields?: readonly string[]) => {
    const k = `${id}${readerSuffix(file, fields)}`;
    let r = resolvers.get(k);
    if (!r) {
      const reader = fields ? projectedType(file, fields) : readerType(file);
      const writer = avro.Type.forSchema((await writerSchema(id)) as avro.Schema);
      r = { reader, resolver: reader.createResolver(writer) };
      resolvers.set(k, r);
    }
    return r;
  };
  const fast = typeof registry.getSchema === 'function' && typeof registry.register === 'function';

  const idFor = (subject: string, file: string): Promise<number> => {
    let p = ids.get(subject);
    if (!p) {
      p = registry.register!(subject, loadSchema(file));
      ids.set(subject, p);
      p.catch(() => ids.delete(subject));
    }
    return p;
  };
  const encodeWith = async (subject: string, file: string, value: unknown): Promise<Buffer> => {
    if (!fast) return registry.encode(subject, loadSchema(file), value);
    return encodeWire(await idFor(subject, file), readerType(file).toBuffer(value));
  };
  const decodeWith = async (file: string, buf: Buffer): Promise<unknown> => {
    if (!fast) return registry.decode(buf);
    const { id, body } = decodeWire(buf);
    const r = await resolverFor(file, id);
    return r.reader.fromBuffer(body, r.resolver);
  };

  /** Resolves the writer ids of a batch's keys and/or values against their readers (see decoder). */
  const resolveBatch = async (records: LogRecord[], ...which: Array<[file: string, part: 'key' | 'value', fields?: readonly string[]]>) => {
    const need = new Map<string, Promise<unknown>>();
    for (const r of records) {
      for (const [file, part, fields] of which) {
        const buf = r[part];
        if (!buf) continue;
        const id = wireId(buf);
        const k = `${id}${readerSuffix(file, fields)}`;
        if (!need.has(k)) need.set(k, resolverFor(file, id, fields));
      }
    }
    await Promise.all(need.values());
  };
  /** One wire-format body read with a resolver resolveBatch made (`suffix`: its readerSuffix). */
  const readSync = (buf: Buffer, suffix: string): unknown => {
    const x = resolvers.get(`${buf.readUInt32BE(1)}${suffix}`);
    if (!x) throw new Error(`schema id ${buf.readUInt32BE(1)} was not among the batch's when its decoder was made`);
    const { value, offset } = x.reader.decode(buf, WIRE_HEADER_BYTES, x.resolver);
    // As fromBuffer: a truncated body or trailing bytes mean the record is not what its id says.
    if (offset !== buf.length) throw new Error(`Avro body of ${buf.length} bytes does not match schema id ${buf.readUInt32BE(1)} (${offset < 0 ? 'truncated' : 'trailing data'})`);
    return value;
  };

  const serde: Serde = {
    ...(fast && { writerSchema, schemas: { register: (subject, schema) => registry.register!(subject, schema), getSchema: (id) => registry.getSchema!(id) } }),
    async encodeKey(topic, key) {
      return key === null ? null : encodeWith(keySubject(topic), topic.keySchemaFile, key);
    },
    async encodeValue(topic, value) {
      return value === null ? null : encodeWith(valueSubject(topic), topic.valueSchemaFile, value);
    },
    async encode(topic, key, value, extra) {
      const [k, v] = await Promise.all([serde.encodeKey(topic, key), serde.encodeValue(topic, value)]);
      return outgoing(k, v, extra);
    },
    async encodeMany(topic, records) {
      if (!fast) return Promise.all(records.map((r) => serde.encode(topic, r.key, r.value, r)));
      const [kid, vid] = await Promise.all([idFor(keySubject(topic), topic.keySchemaFile), idFor(valueSubject(topic), topic.valueSchemaFile)]);
      const kt = readerType(topic.keySchemaFile);
      const vt = readerType(topic.valueSchemaFile);
      // Every record of the batch is framed into one pooled buffer (a view each), not two
      // allocations and a copy per record: the encode is on the pipeline's hot path.
      const pool = new FramePool();
      return records.map((r) =>
        outgoing(r.key === null ? null : pool.frame(kid, kt, r.key), r.value === null ? null : pool.frame(vid, vt, r.value), r),
      );
    },
    async decode(topic, record) {
      const key = record.key === null ? null : ((await decodeWith(topic.keySchemaFile, record.key)) as string);
      const value = record.value === null ? null : ((await decodeWith(topic.valueSchemaFile, record.value)) as TopicValues[typeof topic.id]);
      return { key, value };
    },
    async decodeMany(topic, records) {
      if (!fast) return Promise.all(records.map((r) => serde.decode(topic, r)));
      const d = await serde.decoder!(topic, records);
      return records.map((r) => ({ key: d.key(r), value: d.value(r) }));
    },
    ...(fast && {
      async decoder<Id extends TopicId>(topic: TopicDef<Id>, records: LogRecord[]) {
        const kf = topic.keySchemaFile;
        const vf = topic.valueSchemaFile;
        // Resolve every writer id of the batch first (usually one or two), then decode synchronously
        // in place (no per-record view or copy of the body).
        await resolveBatch(records, [kf, 'key'], [vf, 'value']);
        const [ks, vs] = [readerSuffix(kf), readerSuffix(vf)];
        return {
          key: (r: Pick<LogRecord, 'key'>) => (r.key ? (readSync(r.key, ks) as string) : null),
          value: (r: Pick<LogRecord, 'value'>) => (r.value ? (readSync(r.value, vs) as TopicValues[Id]) : null),
        };
      },
      async projector<Id extends TopicId, F extends keyof TopicValues[Id] & string>(topic: TopicDef<Id>, records: LogRecord[], fields: readonly F[]) {
        const vf = topic.valueSchemaFile;
        await resolveBatch(records, [vf, 'value', fields]);
        const suffix = readerSuffix(vf, fields);
        return (r: Pick<LogRecord, 'value'>) => (r.value ? (readSync(r.value, suffix) as Pick<TopicValues[Id], F>) : null);
      },
    }),
  };
  return serde;
}

/** Plain JSON, no registry: the baseline the benchmark compares Avro against. */
export function jsonSerde(): Serde {
  const enc = (key: string | null, value: unknown, extra?: { timestamp?: number; headers?: Record<string, string> }) =>
    outgoing(key === null ? null : Buffer.from(key, 'utf8'), value === null ? null : Buffer.from(JSON.stringify(value), 'utf8'), extra);
  const key = (r: Pick<LogRecord, 'key'>) => (r.key === null ? null : r.key.toString('utf8'));
  const value = (r: Pick<LogRecord, 'value'>) => (r.value === null ? null : JSON.parse(r.value.toString('utf8')));
  const dec = (r: LogRecord) => ({ key: key(r), value: value(r) });
  return {
    async encodeKey(_topic, key) {
      return key === null ? null : Buffer.from(key, 'utf8');
    },
    async encodeValue(_topic, value) {
      return value === null ? null : Buffer.from(JSON.stringify(value), 'utf8');
    },
    async encode(_topic, key, value, extra) {
      return enc(key, value, extra);
    },
    async encodeMany(_topic, records) {
      return records.map((r) => enc(r.key, r.value, r));
    },
    async decode(_topic, record) {
      return dec(record);
    },
    async decodeMany(_topic, records) {
      return records.map(dec);
    },
    async decoder() {
      return { key, value };
    },
    async projector(_topic, _records, fields) {
      return (r) => {
        const v = value(r) as Record<string, unknown> | null;
        return v && (Object.fromEntries(fields.map((f) => [f, v[f]])) as never);
      };
    },
  };
}
