// The registry contract against the embedded registry, one temporary directory per test; a restart
// reopens the same directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmbeddedRegistry } from './embedded.ts';
import { registryContract } from './registry.contract.ts';
import { decodeWire, encodeWire } from './wire.ts';

registryContract('embedded', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-contract-'));
  return { open: async () => new EmbeddedRegistry(dir) };
});

describe('embedded registry specifics', () => {
  it('gives one id to the same schema under two subjects, as Confluent does', async () => {
    const reg = new EmbeddedRegistry(mkdtempSync(join(tmpdir(), 'registry-')));
    const schema = { type: 'record', name: 'K', fields: [{ name: 'id', type: 'string' }] };
    expect(await reg.register('a-key', schema)).toBe(await reg.register('b-key', schema));
    // Spacing and key order do not make a new schema.
    expect(await reg.register('a-key', JSON.stringify(schema, null, 4))).toBe(1);
  });

  it('round-trips the wire framing of ids above 2^24', () => {
    const framed = encodeWire(0x01020304, Buffer.from('body'));
    expect([...framed.subarray(0, 5)]).toEqual([0, 1, 2, 3, 4]);
    expect(decodeWire(framed)).toEqual({ id: 0x01020304, body: Buffer.from('body') });
  });
});
