// The schema registry on a Confluent-compatible server (SCHEMA_REGISTRY_URL), through
// @kafkajs/confluent-schema-registry, which owns the HTTP API, the id caches and the wire format.
// In: subjects and Avro schemas. Out: ids, wire-format bytes, decoded values. The BACKWARD check is
// the server's; on the first register of a subject this sets the subject's compatibility to BACKWARD
// explicitly, because some compatible servers (Apicurio's ccompat API) enforce no rule by default.
import { SchemaRegistry as ConfluentClient, SchemaType } from '@kafkajs/confluent-schema-registry';
import { canonical } from './compat.ts';
import { IncompatibleSchemaError, type AvroSchema, type SchemaRegistry } from './types.ts';

export class ConfluentRegistry implements SchemaRegistry {
  readonly kind = 'confluent' as const;
  private readonly client: ConfluentClient;
  private readonly ids = new Map<string, Promise<number>>();
  private readonly configured = new Set<string>();

  constructor(private readonly url: string) {
    this.client = new ConfluentClient({ host: url.replace(/\/+$/, '') });
  }

  private async ensureBackward(subject: string): Promise<void> {
    if (this.configured.has(subject)) return;
    const res = await fetch(`${this.url.replace(/\/+$/, '')}/config/${encodeURIComponent(subject)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ compatibility: 'BACKWARD' }),
    });
    if (!res.ok) throw new Error(`schema registry ${this.url}: setting BACKWARD on ${subject} answered ${res.status} ${await res.text()}`);
    this.configured.add(subject);
  }

  async register(subject: string, schema: AvroSchema): Promise<number> {
    await this.ensureBackward(subject);
    const text = typeof schema === 'string' ? schema : JSON.stringify(schema);
    try {
      const { id } = await this.client.register({ type: SchemaType.AVRO, schema: text }, { subject });
      return id;
    } catch (e) {
      const err = e as Error & { status?: number };
      if (err.status === 409 || /incompatible/i.test(err.message)) throw new IncompatibleSchemaError(subject, err.message);
      throw e;
    }
  }

  async getSchema(id: number): Promise<object | string> {
    const s = (await this.client.getSchema(id)) as unknown as { schema?: () => unknown };
    // The client hands back an avsc Type for Avro; give the schema JSON like the embedded registry.
    return typeof s.schema === 'function' ? (s.schema() as object) : (s as object);
  }

  async encode(subject: string, schema: AvroSchema, value: unknown): Promise<Buffer> {
    const key = `${subject}\u0000${canonical(schema)}`;
    let id = this.ids.get(key);
    if (!id) {
      id = this.register(subject, schema);
      this.ids.set(key, id);
      id.catch(() => this.ids.delete(key));
    }
    return this.client.encode(await id, value);
  }

  async decode(buf: Buffer): Promise<unknown> {
    return this.client.decode(buf);
  }

  async close(): Promise<void> {}
}
