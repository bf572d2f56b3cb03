// Typed encode/decode of topic keys and values through the schema registry. In: a topic definition
// from the topic map and a typed key/value (or a LogRecord read from the log). Out: bytes in the
// Confluent wire format (magic byte 0, 4-byte schema id, Avro body) and back. Subjects follow
// Confluent's TopicNameStrategy: '<topic>-key' and '<topic>-value'. The registry seam
// (pipelines/registry) owns ids and the wire format; this layer owns which schema goes with which
// topic, and caches avsc types so a stage decodes thousands of records per batch cheaply.
import avro from 'avsc';
import type { LogRecord, OutgoingRecord } from '../log/types.ts';
import { decodeWire } from '../registry/wire.ts';
import {
  loadSchema,
  keySubject,
  valueSubject,
  type TopicDef,
  type TopicId,
  type TopicValues,
} from '../topics.ts';

/** What serde needs from the registry seam (pipelines/registry implements it). */
export interface RegistryCodec {
  encode(subject: string, schema: object | string, value: unknown): Promise<Buffer>;
  decode(buf: Buffer): Promise<unknown>;
}

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
  decode<Id extends TopicId>(topic: TopicDef<Id>, record: LogRecord): Promise<Decoded<Id>>;
}

/** Optional registry ability: the writer's schema by id, for reader/writer schema resolution. */
export interface SchemaLookup {
  getSchema(id: number): Promise<object | string>;
}

/**
 * Avro through the registry: the format on every topic. Values are decoded with the topic's
 * current schema (the reader) resolved from the writer's schema named by the record's id, as Avro
 * consumers do: a record written before a field was added reads with the field's default.
 */
export function avroSerde(registry: RegistryCodec & Partial<SchemaLookup>): Serde {
  const readers = new Map<string, avro.Type>();
  const resolvers = new Map<string, { reader: avro.Type; resolver: avro.Resolver }>();
  const readerType = (file: string): avro.Type => {
    let t = readers.get(file);
    if (!t) readers.set(file, (t = avro.Type.forSchema(loadSchema(file) as avro.Schema)));
    return t;
  };
  const resolve = async (file: string, buf: Buffer): Promise<unknown> => {
    if (!registry.getSchema) return registry.decode(buf);
    const { id, body } = decodeWire(buf);
    const k = `${id}|${file}`;
    let r = resolvers.get(k);
    if (!r) {
      const reader = readerType(file);
      const writer = avro.Type.forSchema((await registry.getSchema(id)) as avro.Schema);
      r = { reader, resolver: reader.createResolver(writer) };
      resolvers.set(k, r);
    }
    return r.reader.fromBuffer(body, r.resolver);
  };
  const serde: Serde = {
    async encodeKey(topic, key) {
      if (key === null) return null;
      return registry.encode(keySubject(topic), loadSchema(topic.keySchemaFile), key);
    },
    async encodeValue(topic, value) {
      if (value === null) return null;
      return registry.encode(valueSubject(topic), loadSchema(topic.valueSchemaFile), value);
    },
    async encode(topic, key, value, extra) {
      const [k, v] = await Promise.all([serde.encodeKey(topic, key), serde.encodeValue(topic, value)]);
      return {
        key: k,
        value: v,
        ...(extra?.timestamp !== undefined ? { timestamp: extra.timestamp } : {}),
        ...(extra?.headers ? { headers: extra.headers } : {}),
      };
    },
    async decode(topic, record) {
      const key = record.key === null ? null : ((await resolve(topic.keySchemaFile, record.key)) as string);
      const value = record.value === null ? null : ((await resolve(topic.valueSchemaFile, record.value)) as TopicValues[typeof topic.id]);
      return { key, value };
    },
  };
  return serde;
}

/** Plain JSON, no registry: the baseline the benchmark compares Avro against. */
export function jsonSerde(): Serde {
  const serde: Serde = {
    async encodeKey(_topic, key) {
      return key === null ? null : Buffer.from(key, 'utf8');
    },
    async encodeValue(_topic, value) {
      return value === null ? null : Buffer.from(JSON.stringify(value), 'utf8');
    },
    async encode(topic, key, value, extra) {
      return {
        key: await serde.encodeKey(topic, key),
        value: await serde.encodeValue(topic, value),
        ...(extra?.timestamp !== undefined ? { timestamp: extra.timestamp } : {}),
        ...(extra?.headers ? { headers: extra.headers } : {}),
      };
    },
    async decode(_topic, record) {
      return {
        key: record.key === null ? null : record.key.toString('utf8'),
        value: record.value === null ? null : JSON.parse(record.value.toString('utf8')),
      };
    },
  };
  return serde;
}
