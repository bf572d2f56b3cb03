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

/**
 * Shared memory a thread packs its batches into, taken back when the batch is done: a few
 * SharedArrayBuffers, reused. Why: a batch packed into fresh buffers allocated four ArrayBuffers a
 * batch (keys and values, lengths, timestamps, offsets) on the packing thread, which on the embedded
 * default is the API's: it packed each raw record four times during a crawl (three hosted stages and
 * the canonicalizer; bench/crawl-latency.md). The receiver copies a shared batch out before reading
 * it (unpackBatch), so a region is free to reuse once the receiver has answered.
 */
export class PackArena {
  private readonly free: SharedArrayBuffer[] = [];
  /** Regions kept for reuse at most; more are left to the collector. */
  constructor(private readonly keep = 8) {}

  /** A region of at least `bytes`: a free one large enough, else a new one (a power of two, 1 MB at least). */
  take(bytes: number): SharedArrayBuffer {
    for (let i = 0; i < this.free.length; i++) if (this.free[i]!.byteLength >= bytes) return this.free.splice(i, 1)[0]!;
    let size = 1 << 20;
    while (size < bytes) size *= 2;
    return new SharedArrayBuffer(size);
  }

  /** Back for reuse: only once the receiver is known to be done with it (it answered). */
  give(region: SharedArrayBuffer): void {
    if (this.free.length < this.keep) this.free.push(region);
  }

  /**
   * Packs a batch here, hands it to `post` (which sends it to the receiving thread and resolves with
   * the answer) and takes its region back once the receiver answered. A failed call, or one given up
   * at a stop's deadline, leaves the region to the collector: the receiver may not be done with it.
   * Not an async function, nor is `post` meant to be: an async frame would keep `records` alive until
   * the answer comes, and a scavenge in between would copy and promote them.
   */
  lend<T>(records: LogRecord[], post: (packed: PackedBatch, transfer: ArrayBuffer[]) => Promise<T>): Promise<T> {
    const packed = packBatch(records, this);
    const region = packedRegion(packed);
    return post(packed, packedTransfer(packed)).then((answer) => {
      if (region) this.give(region);
      return answer;
    });
  }
}

/** The shared region a batch was packed into (packBatch with an arena); undefined when packed into its own buffers. */
export function packedRegion(p: PackedBatch): SharedArrayBuffer | undefined {
  return p.bytes.buffer instanceof SharedArrayBuffer ? p.bytes.buffer : undefined;
}

export function packBatch(records: LogRecord[], arena?: PackArena): PackedBatch {
  const n = records.length;
  let bytesNeeded = 0;
  for (let i = 0; i < n; i++) bytesNeeded += (records[i]!.key?.length ?? 0) + (records[i]!.value?.length ?? 0);
  // Offsets, timestamps, then lengths (8-byte aligned as laid out), then keys and values.
  const region = arena?.take(16 * n + 8 * n + bytesNeeded);
  const lengths = region ? new Int32Array(region, 16 * n, 2 * n) : new Int32Array(2 * n);
  const timestamps = region ? new Float64Array(region, 8 * n, n) : new Float64Array(n);
  let offsets: Float64Array | string[] = region ? new Float64Array(region, 0, n) : new Float64Array(n);
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
  const bytes = region ? new Uint8Array(region, 24 * n, size) : Buffer.allocUnsafeSlow(size);
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

/** What postMessage should transfer rather than copy (nothing of a batch in shared memory: it is not copied either). */
export function packedTransfer(p: PackedBatch): ArrayBuffer[] {
  if (packedRegion(p)) return [];
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

/**
 * The records of a packed batch. One in shared memory (packBatch with an arena) is copied out first:
 * the records may outlive the batch's handling here, and the sender reuses the region once answered.
 */
export function unpackBatch(p: PackedBatch): LogRecord[] {
  if (packedRegion(p)) {
    p = {
      ...p,
      offsets: p.offsets instanceof Float64Array ? p.offsets.slice() : p.offsets,
      timestamps: p.timestamps.slice(),
      lengths: p.lengths.slice(),
      bytes: p.bytes.slice(),
    };
  }
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
