// Packing a batch for the history worker: what comes out is the batch that went in, keys and values
// byte for byte (nulls and empty buffers kept apart), offsets exact beyond 32 bits, headers where any.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { LogRecord, OutgoingRecord } from '../log/types.ts';
import { PackArena, packBatch, packedOutgoingTransfer, packedRegion, packedTransfer, packOutgoing, unpackBatch, unpackOutgoing } from './batch-pack.ts';

const rec = (i: number, extra: Partial<LogRecord> = {}): LogRecord => ({
  topic: 't.raw.venue_1',
  partition: 2,
  offset: String(2 ** 40 + i),
  key: Buffer.from(`k${i}`),
  value: randomBytes(i * 7),
  timestamp: 1_767_225_600_000 + i,
  headers: {},
  ...extra,
});

/** Through a real structured clone with transfer, as postMessage does. */
const across = <T>(v: T, transfer: ArrayBuffer[]): T => structuredClone(v, { transfer });

describe('packBatch / unpackBatch', () => {
  it('gives back the same records after a transfer', () => {
    const records = [
      rec(0),
      rec(1, { key: null }),
      rec(2, { value: null }),
      rec(3, { key: Buffer.alloc(0), value: Buffer.alloc(0) }),
      rec(4, { headers: { trace: 'abc', 'x-y': 'é' } }),
      rec(5),
    ];
    const packed = packBatch(records);
    const back = unpackBatch(across(packed, packedTransfer(packed)));
    expect(back).toEqual(records);
    expect(packed.bytes.byteLength).toBe(0); // moved, not copied
  });

  it('keeps offsets that are not safe integers as their strings', () => {
    const records = [rec(0), rec(1, { offset: '9223372036854775807' })];
    const packed = packBatch(records);
    expect(Array.isArray(packed.offsets)).toBe(true);
    expect(unpackBatch(across(packed, packedTransfer(packed))).map((r) => r.offset)).toEqual([records[0]!.offset, '9223372036854775807']);
  });

  it('packs an empty batch, and refuses records of two partitions', () => {
    expect(unpackBatch(packBatch([]))).toEqual([]);
    expect(() => packBatch([rec(0), rec(1, { partition: 3 })])).toThrow(/one topic-partition/);
  });
});

describe('packBatch into a PackArena (shared memory, reused)', () => {
  it('gives back the same records across threads, copied out of the region, which is reused once given back', () => {
    const arena = new PackArena();
    const records = [rec(0), rec(1, { key: null }), rec(2, { value: null }), rec(3, { headers: { trace: 'x' } }), rec(40), rec(1, { offset: '9223372036854775807' })];
    const packed = packBatch(records, arena);
    const region = packedRegion(packed)!;
    expect(region).toBeInstanceOf(SharedArrayBuffer);
    expect(packedTransfer(packed)).toEqual([]); // shared, neither moved nor copied
    const back = unpackBatch(structuredClone(packed));
    expect(back).toEqual(records);
    // The region is the sender's again: what the receiver unpacked does not change with it.
    new Uint8Array(region).fill(0xee);
    expect(back).toEqual(records);
    arena.give(region);
    const seven = rec(7);
    const again = packBatch([seven], arena);
    expect(packedRegion(again)).toBe(region);
    expect(unpackBatch(again)).toEqual([seven]);
  });

  it('takes a larger region for a batch the free ones cannot hold', () => {
    const arena = new PackArena();
    const small = packedRegion(packBatch([rec(1)], arena))!;
    arena.give(small);
    const big = [rec(0, { value: randomBytes(3 << 20) })];
    const packed = packBatch(big, arena);
    expect(packedRegion(packed)).not.toBe(small);
    expect(packedRegion(packed)!.byteLength).toBeGreaterThanOrEqual(3 << 20);
    const [back] = unpackBatch(packed);
    expect(back!.value!.equals(big[0]!.value!)).toBe(true);
    expect({ ...back, value: null }).toEqual({ ...big[0], value: null });
  });

  it('lends a region for one call: back once the receiver answered, left to the collector when the call fails', async () => {
    const arena = new PackArena();
    const records = [rec(3), rec(4)];
    let lent: SharedArrayBuffer | undefined;
    const answer = await arena.lend(records, (packed, transfer) => {
      lent = packedRegion(packed);
      expect(transfer).toEqual([]);
      return Promise.resolve(unpackBatch(structuredClone(packed)));
    });
    expect(answer).toEqual(records);
    expect(packedRegion(packBatch([rec(5)], arena))).toBe(lent); // given back, so taken again

    let failed: SharedArrayBuffer | undefined;
    await expect(
      arena.lend([rec(6)], (packed) => {
        failed = packedRegion(packed);
        return Promise.reject(new Error('the worker failed'));
      }),
    ).rejects.toThrow('the worker failed');
    expect(failed).toBeInstanceOf(SharedArrayBuffer);
    expect(packedRegion(packBatch([rec(7)], arena))).not.toBe(failed); // the receiver may still read it
  });
});

describe('packOutgoing / unpackOutgoing (records to append, from the pollers\' thread)', () => {
  it('gives back the same records after a transfer: nulls, empty buffers, timestamps, explicit partitions and headers where set', () => {
    // Views of one shared chunk, as the serde frames them.
    const chunk = randomBytes(256);
    const records: OutgoingRecord[] = [
      { key: chunk.subarray(0, 5), value: chunk.subarray(5, 60), timestamp: 1_767_225_600_123 },
      { key: Buffer.from('k'), value: null },
      { key: null, value: Buffer.alloc(0), partition: 0 },
      { key: Buffer.alloc(0), value: chunk.subarray(60, 61), partition: 5, headers: { barrier: '6' }, timestamp: 0 },
    ];
    const packed = packOutgoing(records);
    expect(packed.bytes.byteLength).toBe(5 + 55 + 1 + 0 + 1);
    const back = unpackOutgoing(across(packed, packedOutgoingTransfer(packed)));
    expect(back).toEqual(records);
    expect(packed.bytes.byteLength).toBe(0); // moved, not copied
  });

  it('packs nothing', () => {
    expect(unpackOutgoing(packOutgoing([]))).toEqual([]);
  });
});
