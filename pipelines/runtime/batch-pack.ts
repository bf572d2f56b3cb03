// A batch of log records packed for another thread. In: LogRecords of one topic-partition. Out: a few
// typed arrays and one byte buffer, which postMessage moves without copying (transfer), and the same
// LogRecords again on the other side (keys and values are views of the one buffer).
//
// Why: relaying a batch to the history worker as record objects made the main thread's structured
// clone serialize thousands of objects and buffers per batch: postMessage was the largest single
// JavaScript cost left on the main thread after the history sinks moved to Avro (bench/backbone.md,
// 2026-11-22, "history sinks from Avro"). Copying keys and values into one buffer is a memcpy each.
import type { LogRecord, OutgoingRecord } from '../log/types.ts';

export interface PackedBatch {
  topic: string;
  partition: number;
  /** Offsets as numbers when every one is a safe integer (always, in practice), else as the strings. */
  offsets: Float64Array | string[];
  timestamps: Float64Array;
  /** Per record, key length then value length; -1 for null. */
  lengths: Int32Array;
  bytes: Uint8Array;
  /** Headers of the records that have any, by index; null when none has. */
  headers: Record<number, Record<string, string>> | null;
}

export function packBatch(records: LogRecord[]): PackedBatch {
  const n = records.length;
  const lengths = new Int32Array(2 * n);
  const timestamps = new Float64Array(n);
  let offsets: Float64Array | string[] = new Float64Array(n);
  let headers: Record<number, Record<string, string>> | null = null;
  let size = 0;
  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    if (r.topic !== records[0]!.topic || r.partition !== records[0]!.partition)
      throw new Error(`a packed batch is of one topic-partition: ${records[0]!.topic}/${records[0]!.partition} and ${r.topic}/${r.partition}`);
    const o = Number(r.offset);
    if (offsets instanceof Float64Array) {
      if (Number.isSafeInteger(o)) offsets[i] = o;
      else offsets = records.map((x) => x.offset);
    }
    timestamps[i] = r.timestamp;
    lengths[2 * i] = r.key === null ? -1 : r.key.length;
    lengths[2 * i + 1] = r.value === null ? -1 : r.value.length;
    size += (r.key?.length ?? 0) + (r.value?.length ?? 0);
    for (const _ in r.headers) {
      (headers ??= {})[i] = r.headers;
      break;
    }
  }
  const bytes = Buffer.allocUnsafeSlow(size);
  copyKeysAndValues(records, bytes);
  return { topic: n ? records[0]!.topic : '', partition: n ? records[0]!.partition : 0, offsets, timestamps, lengths, bytes, headers };
}

/**
 * Each record's key then value, back to back. TypedArray set() rather than Buffer.copy(): for
 * records of a few hundred bytes the copy's own cost is the call, and set() is a V8 builtin where
 * copy() crosses into C++ (5,000 records of 650 bytes: 2.8 ms with copy(), 1.4 ms with set()).
 */
function copyKeysAndValues(records: readonly { key: Buffer | null; value: Buffer | null }[], bytes: Uint8Array): void {
  let pos = 0;
  for (const r of records) {
    if (r.key) {
      bytes.set(r.key, pos);
      pos += r.key.length;
    }
    if (r.value) {
      bytes.set(r.value, pos);
      pos += r.value.length;
    }
  }
}

/** What postMessage should transfer rather than copy. */
export function packedTransfer(p: PackedBatch): ArrayBuffer[] {
  const out = [p.lengths.buffer, p.timestamps.buffer, p.bytes.buffer] as ArrayBuffer[];
  if (p.offsets instanceof Float64Array) out.push(p.offsets.buffer as ArrayBuffer);
  return out;
}

/** Reads consecutive slices of packed bytes by their lengths (a negative length: null). */
function lengthReader(packed: Uint8Array): (len: number) => Buffer | null {
  const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  let pos = 0;
  return (len) => {
    if (len < 0) return null;
    const b = bytes.subarray(pos, pos + len);
    pos += len;
    return b;
  };
}

export function unpackBatch(p: PackedBatch): LogRecord[] {
  const view = lengthReader(p.bytes);
  const out: LogRecord[] = new Array(p.timestamps.length);
  for (let i = 0; i < out.length; i++) {
    const key = view(p.lengths[2 * i]!);
    const value = view(p.lengths[2 * i + 1]!);
    out[i] = {
      topic: p.topic,
      partition: p.partition,
      offset: String(p.offsets[i]),
      key,
      value,
      timestamp: p.timestamps[i]!,
      headers: p.headers?.[i] ?? {},
    };
  }
  return out;
}

/** Records to append (a producer's send), packed for another thread like a batch read. */
export interface PackedOutgoing {
  /** Per record, key length then value length; -1 for null. */
  lengths: Int32Array;
  /** Timestamps; NaN where the record has none (the time of the send). */
  timestamps: Float64Array;
  /** Explicit partitions; -1 where the key picks it. */
  partitions: Int32Array;
  bytes: Uint8Array;
  headers: Record<number, Record<string, string>> | null;
}

/**
 * Why: the serde frames a batch's records as views of shared chunks, and a page's records are
 * encoded one by one; a structured clone of those views would copy each chunk they sit in, and
 * thousands of record objects. Copying keys and values into one transferred buffer is a memcpy each.
 */
export function packOutgoing(records: readonly OutgoingRecord[]): PackedOutgoing {
  const n = records.length;
  const lengths = new Int32Array(2 * n);
  const timestamps = new Float64Array(n);
  const partitions = new Int32Array(n);
  let headers: Record<number, Record<string, string>> | null = null;
  let size = 0;
  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    lengths[2 * i] = r.key === null ? -1 : r.key.length;
    lengths[2 * i + 1] = r.value === null ? -1 : r.value.length;
    timestamps[i] = r.timestamp ?? NaN;
    partitions[i] = r.partition ?? -1;
    size += (r.key?.length ?? 0) + (r.value?.length ?? 0);
    if (r.headers) (headers ??= {})[i] = r.headers;
  }
  const bytes = Buffer.allocUnsafeSlow(size);
  copyKeysAndValues(records, bytes);
  return { lengths, timestamps, partitions, bytes, headers };
}

export function packedOutgoingTransfer(p: PackedOutgoing): ArrayBuffer[] {
  return [p.lengths.buffer, p.timestamps.buffer, p.partitions.buffer, p.bytes.buffer] as ArrayBuffer[];
}

export function unpackOutgoing(p: PackedOutgoing): OutgoingRecord[] {
  const view = lengthReader(p.bytes);
  const out: OutgoingRecord[] = new Array(p.timestamps.length);
  for (let i = 0; i < out.length; i++) {
    const r: OutgoingRecord = { key: view(p.lengths[2 * i]!), value: view(p.lengths[2 * i + 1]!) };
    if (!Number.isNaN(p.timestamps[i]!)) r.timestamp = p.timestamps[i]!;
    if (p.partitions[i]! >= 0) r.partition = p.partitions[i]!;
    const h = p.headers?.[i];
    if (h) r.headers = h;
    out[i] = r;
  }
  return out;
}
