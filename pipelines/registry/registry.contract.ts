// The schema-registry contract, run against each implementation (embedded.int.spec.ts,
// confluent.int.spec.ts). In: a harness that opens a registry (again, to model a restart). Out:
// vitest suites. Subjects are random per test so runs never collide on a shared server.
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import { IncompatibleSchemaError, type SchemaRegistry } from './types.ts';
import { canonical } from './compat.ts';

export interface RegistryHarness {
  open(): Promise<SchemaRegistry>;
}

const v1 = {
  type: 'record',
  name: 'Market',
  namespace: 'pm.test',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'price', type: ['null', 'double'], default: null },
  ],
};
// BACKWARD compatible: a new field with a default.
const v2 = { ...v1, fields: [...v1.fields, { name: 'venue', type: 'string', default: 'unknown' }] };
// Not BACKWARD compatible: a new field without a default cannot be filled from v1 data.
const v3bad = { ...v1, fields: [...v1.fields, { name: 'status', type: 'string' }] };

export function registryContract(name: string, makeHarness: () => RegistryHarness | Promise<RegistryHarness>): void {
  describe(`SchemaRegistry contract: ${name}`, () => {
    const open = async () => (await makeHarness()).open();

    it('registers a schema once: same subject and schema give the same id', async () => {
      const reg = await open();
      const subject = randomName('s') + '-value';
      const id = await reg.register(subject, v1);
      expect(Number.isInteger(id) && id > 0).toBe(true);
      expect(await reg.register(subject, JSON.stringify(v1))).toBe(id);
      expect(canonical(await reg.getSchema(id))).toBe(canonical(v1));
      await reg.close();
    });

    it('encodes in the Confluent wire format: magic byte 0, 4-byte big-endian id, Avro body', async () => {
      const reg = await open();
      const subject = randomName('s') + '-value';
      const value = { id: 'kalshi:KXBTC-25', price: 0.42 };
      const buf = await reg.encode(subject, v1, value);
      const id = await reg.register(subject, v1);
      expect(buf[0]).toBe(0);
      expect(buf.readUInt32BE(1)).toBe(id);
      expect(avro.Type.forSchema(v1 as avro.Schema).fromBuffer(buf.subarray(5))).toEqual(value);
      expect(await reg.decode(buf)).toEqual(value);
      await reg.close();
    });

    it('accepts a BACKWARD compatible evolution with a new id and still decodes old records', async () => {
      const reg = await open();
      const subject = randomName('s') + '-value';
      const old = await reg.encode(subject, v1, { id: 'a', price: null });
      const id1 = await reg.register(subject, v1);
      const id2 = await reg.register(subject, v2);
      expect(id2).not.toBe(id1);
      const fresh = await reg.encode(subject, v2, { id: 'b', price: 1, venue: 'polymarket' });
      expect(fresh.readUInt32BE(1)).toBe(id2);
      // Each record decodes with its writer's schema.
      expect(await reg.decode(old)).toEqual({ id: 'a', price: null });
      expect(await reg.decode(fresh)).toEqual({ id: 'b', price: 1, venue: 'polymarket' });
      await reg.close();
    });

    it('refuses a schema that is not BACKWARD compatible with the latest version', async () => {
      const reg = await open();
      const subject = randomName('s') + '-value';
      await reg.register(subject, v1);
      await expect(reg.register(subject, v3bad)).rejects.toBeInstanceOf(IncompatibleSchemaError);
      await expect(reg.encode(subject, v3bad, { id: 'x', price: null, status: 'open' })).rejects.toThrow(/BACKWARD/);
      // Another subject is unaffected.
      expect(await reg.register(randomName('s') + '-value', v3bad)).toBeGreaterThan(0);
      await reg.close();
    });

    it('registers and round-trips an unnamed schema, as every key schema is (a documented "string")', async () => {
      const reg = await open();
      const subject = randomName('s') + '-key';
      const key = { type: 'string', doc: 'a market key' };
      const buf = await reg.encode(subject, key, 'kalshi:KXBTC-25');
      const id = await reg.register(subject, JSON.stringify(key));
      expect(buf.readUInt32BE(1)).toBe(id);
      expect(await reg.decode(buf)).toBe('kalshi:KXBTC-25');
      // getSchema gives parsed JSON, here the JS string "string": back to JSON text to compare.
      expect(canonical(JSON.stringify(await reg.getSchema(id)))).toBe(canonical(key));
      await reg.close();
    });

    it('gives one id when two clients register a new subject at once (a stage and its worker)', async () => {
      const [a, b] = [await open(), await open()];
      const subject = randomName('s') + '-value';
      const [ida, idb] = await Promise.all([a.register(subject, v1), b.register(subject, v1)]);
      expect(ida).toBe(idb);
      await Promise.all([a.close(), b.close()]);
    });

    it('registers the key and value subjects of many topics at once, as the stages do on start', async () => {
      const [a, b] = [await open(), await open()];
      const prefix = randomName('t');
      const subjects = Array.from({ length: 8 }, (_, i) => [`${prefix}.raw.venue_${i}-key`, `${prefix}.raw.venue_${i}-value`]).flat();
      const ids = await Promise.all(subjects.flatMap((s) => [a, b].map((reg) => reg.register(s, s.endsWith('-key') ? '"string"' : v1))));
      // Both clients got the same id for each subject; one id per distinct schema.
      for (let i = 0; i < ids.length; i += 2) expect(ids[i]).toBe(ids[i + 1]);
      expect(new Set(ids).size).toBe(2);
      await Promise.all([a.close(), b.close()]);
    });

    it('refuses bytes that are not in the wire format, and unknown ids', async () => {
      const reg = await open();
      await expect(reg.decode(Buffer.from([1, 0, 0, 0, 1, 2]))).rejects.toThrow();
      await expect(reg.decode(Buffer.from([0, 0x7f, 0xff, 0xff, 0xf0, 2]))).rejects.toThrow();
      await expect(reg.encode(randomName('s'), v1, { id: 5 })).rejects.toThrow();
      await reg.close();
    });

    it('keeps ids across a restart', async () => {
      const subject = randomName('s') + '-value';
      const a = await open();
      const id = await a.register(subject, v1);
      const buf = await a.encode(subject, v1, { id: 'z', price: 2 });
      await a.close();
      const b = await open();
      expect(await b.register(subject, v1)).toBe(id);
      expect(await b.decode(buf)).toEqual({ id: 'z', price: 2 });
      await b.close();
    });
  });
}
