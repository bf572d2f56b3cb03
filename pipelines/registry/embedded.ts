// The embedded schema registry: ids and subjects in one JSON file under `<DATA_DIR>/registry/`,
// the same wire format and the same BACKWARD check on register as a Confluent registry, so records
// written in the embedded default are byte-for-byte what the stack would write (ids aside).
// In: subjects and Avro schemas. Out: ids, wire-format bytes, decoded values.
// Ids are global: the same schema under two subjects has one id (as Confluent does); a subject's
// versions are kept in order and a new one is checked against the latest.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type avro from 'avsc';
import { backwardIncompatibility, canonical, parseSchema } from './compat.ts';
import { IncompatibleSchemaError, type AvroSchema, type SchemaRegistry } from './types.ts';
import { decodeWire, encodeWire } from './wire.ts';

interface Stored {
  /** id -> canonical schema JSON */
  schemas: Record<string, string>;
  /** subject -> ids of its versions, oldest first */
  subjects: Record<string, number[]>;
}

export class EmbeddedRegistry implements SchemaRegistry {
  readonly kind = 'embedded' as const;
  private readonly file: string;
  private state: Stored = { schemas: {}, subjects: {} };
  private readonly byCanonical = new Map<string, number>();
  private readonly types = new Map<number, avro.Type>();
  // encode() is on the hot path: (schema object or text) -> subject -> id, without re-parsing.
  private readonly objectIds = new WeakMap<object, Map<string, number>>();
  private readonly textIds = new Map<string, Map<string, number>>();

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'schemas.json');
    if (existsSync(this.file)) this.state = JSON.parse(readFileSync(this.file, 'utf8')) as Stored;
    for (const [id, text] of Object.entries(this.state.schemas)) this.byCanonical.set(text, Number(id));
  }

  private save(): void {
    writeFileSync(this.file + '.tmp', JSON.stringify(this.state, null, 1));
    renameSync(this.file + '.tmp', this.file);
  }

  async register(subject: string, schema: AvroSchema): Promise<number> {
    return this.registerSync(subject, schema);
  }

  private registerSync(subject: string, schema: AvroSchema): number {
    const text = canonical(schema);
    const versions = this.state.subjects[subject] ?? [];
    const existing = this.byCanonical.get(text);
    if (existing !== undefined && versions.includes(existing)) return existing;
    const latest = versions[versions.length - 1];
    if (latest !== undefined) {
      const reason = backwardIncompatibility(text, this.state.schemas[String(latest)]!);
      if (reason) throw new IncompatibleSchemaError(subject, reason);
    }
    let id = existing;
    if (id === undefined) {
      id = Math.max(0, ...Object.keys(this.state.schemas).map(Number)) + 1;
      this.state.schemas[String(id)] = text;
      this.byCanonical.set(text, id);
    }
    this.state.subjects[subject] = [...versions, id];
    this.save();
    return id;
  }

  async getSchema(id: number): Promise<object> {
    const text = this.state.schemas[String(id)];
    if (!text) throw new Error(`schema id ${id} is not registered`);
    return JSON.parse(text) as object;
  }

  private type(id: number): avro.Type {
    let t = this.types.get(id);
    if (!t) {
      const text = this.state.schemas[String(id)];
      if (!text) throw new Error(`schema id ${id} is not registered`);
      t = parseSchema(text);
      this.types.set(id, t);
    }
    return t;
  }

  private idFor(subject: string, schema: AvroSchema): number {
    let perSubject = typeof schema === 'string' ? this.textIds.get(schema) : this.objectIds.get(schema);
    if (!perSubject) {
      perSubject = new Map();
      if (typeof schema === 'string') this.textIds.set(schema, perSubject);
      else this.objectIds.set(schema, perSubject);
    }
    let id = perSubject.get(subject);
    if (id === undefined) {
      id = this.registerSync(subject, schema);
      perSubject.set(subject, id);
    }
    return id;
  }

  async encode(subject: string, schema: AvroSchema, value: unknown): Promise<Buffer> {
    return this.encodeSync(subject, schema, value);
  }

  /** Synchronous encode for hot loops (the async one is the seam's shape). */
  encodeSync(subject: string, schema: AvroSchema, value: unknown): Buffer {
    const id = this.idFor(subject, schema);
    return encodeWire(id, this.type(id).toBuffer(value));
  }

  async decode(buf: Buffer): Promise<unknown> {
    return this.decodeSync(buf);
  }

  decodeSync(buf: Buffer): unknown {
    const { id, body } = decodeWire(buf);
    return this.type(id).fromBuffer(body);
  }

  async close(): Promise<void> {}
}
