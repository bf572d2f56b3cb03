// The schema registry on a Confluent-compatible server (SCHEMA_REGISTRY_URL), through
// @kafkajs/confluent-schema-registry, which owns the ids-to-schema cache and the wire format.
// In: subjects and Avro schemas. Out: ids, wire-format bytes, decoded values. The BACKWARD check is
// the server's; on the first register of a subject this sets the subject's compatibility to BACKWARD
// explicitly, because some compatible servers (Apicurio's ccompat API) enforce no rule by default.
// Registering is a plain POST /subjects/{subject}/versions: the client's register() refuses a schema
// whose top level is not a named type ("Invalid name: undefined"), and every key schema here is a
// bare "string".
import { SchemaRegistry as ConfluentClient } from '@kafkajs/confluent-schema-registry';
import { canonical } from './compat.ts';
import { IncompatibleSchemaError, type AvroSchema, type SchemaRegistry } from './types.ts';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

let registrations: Promise<unknown> = Promise.resolve();

export class ConfluentRegistry implements SchemaRegistry {
  readonly kind = 'confluent' as const;
  private readonly client: ConfluentClient;
  private readonly ids = new Map<string, Promise<number>>();
  private readonly configured = new Set<string>();
  private readonly base: string;

  constructor(url: string) {
    this.base = url.replace(/\/+$/, '');
    this.client = new ConfluentClient({ host: this.base });
  }

  /**
   * One request to the registry's REST API, retried (at most 6 times, backing off with jitter) where the same
   * request again is the fix:
   * - 5xx, as the client library retries its own requests. Apicurio on H2 answers 500 "Timeout
   *   trying to lock table" when first registrations of several subjects at once deadlock on its
   *   id sequence; H2 rolls one back, and that one succeeds when sent again.
   * - 409 "... already exists": Apicurio's answer to the loser of two first writes of one subject at
   *   once (a stage and its worker process both register it); again, it finds what the winner made.
   */
  private async send(method: 'POST' | 'PUT', path: string, body: unknown): Promise<{ status: number; json: unknown; text: string }> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(this.base + path, {
        method,
        headers: { 'content-type': CONTENT_TYPE, accept: CONTENT_TYPE },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      const again = res.status >= 500 || (res.status === 409 && /already exists/i.test(text));
      if (again && attempt < 6) {
        // Jittered: two clients that collided once must not retry in step and collide again.
        await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** attempt) * (0.5 + Math.random())));
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, json, text };
    }
  }

  private async ensureBackward(subject: string): Promise<void> {
    if (this.configured.has(subject)) return;
    const res = await this.send('PUT', `/config/${encodeURIComponent(subject)}`, { compatibility: 'BACKWARD' });
    if (res.status >= 300) throw new Error(`schema registry ${this.base}: setting BACKWARD on ${subject} answered ${res.status} ${res.text}`);
    this.configured.add(subject);
  }

  async register(subject: string, schema: AvroSchema): Promise<number> {
    await this.ensureBackward(subject);
    const text = typeof schema === 'string' ? schema : JSON.stringify(schema);
    // One registration in flight per process: Apicurio's H2 store deadlocks on concurrent first
    // registrations (lock timeouts, then 500s); across processes the retries in send() remain.
    const run = registrations.then(() => this.send('POST', `/subjects/${encodeURIComponent(subject)}/versions`, { schema: text }));
    registrations = run.catch(() => undefined);
    const res = await run;
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (res.status < 300 && typeof id === 'number') return id;
    // 409 is the answer for an incompatible schema (Confluent and Apicurio alike).
    if (res.status === 409) throw new IncompatibleSchemaError(subject, res.text);
    throw new Error(`schema registry ${this.base}: registering under ${subject} answered ${res.status} ${res.text}`);
  }

  async getSchema(id: number): Promise<object | string> {
    const s = (await this.client.getSchema(id)) as unknown as { schema?: (opts?: { exportAttrs?: boolean }) => unknown };
    // The client hands back an avsc Type for Avro; give the schema JSON like the embedded registry.
    // exportAttrs keeps field defaults, which avsc's schema() drops otherwise (and with them the
    // defaults BACKWARD evolution relies on).
    return typeof s.schema === 'function' ? (s.schema({ exportAttrs: true }) as object) : (s as object);
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
