// A worker thread's serde: Avro encoded and decoded on the worker, while the schema registry stays
// with the thread that owns it (the main thread's runner, its log and registry clients). The worker
// asks that thread for a schema id when it registers and for a schema when it meets an unknown id,
// then avsc keeps both (serde/index.ts caches by id), so a batch costs no message after the first.
import { avroSerde, type Serde } from '../serde/index.ts';

export interface RegistryQuestions {
  register(registry: number, subject: string, schema: object | string): Promise<number>;
  getSchema(registry: number, schemaId: number): Promise<object | string>;
}

/**
 * One serde per registry the owning thread numbered (`of`), dropped when that thread is done with it
 * (`forget`); `who` names the thread in the refusal of a raw encode/decode.
 */
export function workerSerdes(who: string, ask: RegistryQuestions): { of(registry: number): Serde; forget(registry: number): void } {
  const unsupported = () => Promise.reject(new Error(`${who} encodes through register/getSchema only`));
  const serdes = new Map<number, Serde>();
  const of = (registry: number): Serde => {
    let s = serdes.get(registry);
    if (!s)
      serdes.set(
        registry,
        (s = avroSerde({
          register: (subject, schema) => ask.register(registry, subject, schema),
          getSchema: (schemaId) => ask.getSchema(registry, schemaId),
          encode: unsupported,
          decode: unsupported,
        })),
      );
    return s;
  };
  return { of, forget: (registry) => void serdes.delete(registry) };
}
