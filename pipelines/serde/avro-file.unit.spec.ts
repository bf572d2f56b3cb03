// The Avro object file built from bodies: avsc reads it back as the records written (its own reader
// is the independent check), and longs are encoded as Avro encodes them.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import avro from 'avsc';
import { avroObjectFile, fileSchema, writeLong, type LeadingField } from './avro-file.ts';

const LEADING: LeadingField[] = [
  { name: '_topic', type: 'string' },
  { name: '_offset', type: 'long' },
  { name: '_at', type: { type: 'long', logicalType: 'timestamp-millis' } },
];
const writer = {
  type: 'record',
  name: 'pm.test.Thing',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['a', 'b'] } },
    { name: 'again', type: ['null', 'Kind'], default: null },
    { name: 'n', type: 'long' },
  ],
};

async function readBack(file: Buffer): Promise<{ schema: unknown; records: unknown[] }> {
  const records: unknown[] = [];
  let schema: unknown;
  await new Promise<void>((resolve, reject) => {
    Readable.from([file])
      .pipe(new avro.streams.BlockDecoder({ parseHook: (s) => ((schema = s), avro.Type.forSchema(s)) }))
      .on('data', (r: unknown) => records.push(r))
      .on('end', resolve)
      .on('error', reject);
  });
  return { schema, records };
}

describe('avroObjectFile', () => {
  it('reads back as the leading values followed by each body, with the writer namespace kept for named types', async () => {
    const type = avro.Type.forSchema(writer as avro.Schema);
    const values = [
      { id: 'x', kind: 'a', again: null, n: -3 },
      { id: 'é'.repeat(70), kind: 'b', again: 'a', n: 2 ** 40 + 5 },
    ];
    // Bodies framed as on the log: a 5-byte header the file must skip.
    const bodies = values.map((v) => Buffer.concat([Buffer.from([0, 0, 0, 0, 9]), type.toBuffer(v)]));
    const schema = fileSchema(writer, LEADING)!;
    const file = avroObjectFile(
      schema,
      bodies.map((body, i) => ({ leading: [Buffer.from(`raw.venue_${i}`), 1_000_000_000_000 + i, 1_767_225_600_000 + i], body, bodyStart: 5 })),
    );
    const { schema: written, records } = await readBack(file);
    expect(written).toMatchObject({ name: 'ThingHistoryFileRow', namespace: 'pm.test' });
    expect(records.map((r) => ({ ...(r as object) }))).toEqual(
      values.map((v, i) => ({ _topic: `raw.venue_${i}`, _offset: 1_000_000_000_000 + i, _at: 1_767_225_600_000 + i, ...v })),
    );
  });

  it('writes an empty block for no records, and refuses a writer that is not a record or clashes with a leading field', async () => {
    expect((await readBack(avroObjectFile(fileSchema(writer, LEADING)!, []))).records).toEqual([]);
    expect(fileSchema('"string"', LEADING)).toBeNull();
    expect(fileSchema({ ...writer, fields: [...writer.fields, { name: '_offset', type: 'int' }] }, LEADING)).toBeNull();
    expect(fileSchema(JSON.stringify(writer), LEADING)?.fields.map((f) => f.name)).toEqual(['_topic', '_offset', '_at', 'id', 'kind', 'again', 'n']);
  });
});

describe('writeLong', () => {
  it('encodes as avsc encodes a long, within ±2^52 (the range of the avsc long type), and refuses what is not one', () => {
    const long = avro.Type.forSchema('long');
    const samples = [0, 1, -1, 63, 64, -64, -65, 2 ** 31, -(2 ** 31) - 1, 2 ** 32 + 7, 1_767_225_600_123, 2 ** 52, -(2 ** 52)];
    for (let i = 0; i < 200; i++) samples.push((randomBytes(6).readUIntBE(0, 6) * 16 + (i % 16)) * (i % 2 ? 1 : -1));
    for (const n of samples) {
      const buf = Buffer.alloc(10);
      const end = writeLong(buf, 0, n);
      expect(buf.subarray(0, end), String(n)).toEqual(long.toBuffer(n));
    }
    expect(() => writeLong(Buffer.alloc(10), 0, 2 ** 52 + 2)).toThrow(/out of range/);
    expect(() => writeLong(Buffer.alloc(10), 0, 1.5)).toThrow(/out of range/);
  });
});
