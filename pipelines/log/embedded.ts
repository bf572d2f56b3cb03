// The embedded log: the in-process, persisted implementation of the Log seam (types.ts) for the
// embedded default. In: records from producers. Out: batches to consumer groups, offsets to operators.
//
// On disk, under `<DATA_DIR>/log/`:
//   topics.json                              topic specs (partitions, cleanup policy, retention)
//   topics/<topic>/<partition>/<base>.log    append-only segment files, named by their first offset
//   groups/<group id, URI-encoded>.jsonl     committed offsets, a journal: one line per commit, each the
//                                            group's whole state { topic: { partition: next offset } };
//                                            the last whole line counts (a torn last line is ignored)
//   groups/<group id, URI-encoded>.json      the same state as one object: read when a group has no
//                                            journal (directories written before the journal existed)
//   lock                                     the pid of the process that has the directory open
//
// Segment record framing (little endian): u32 bodyLength, u32 crc32(body), then the body:
//   f64 offset, f64 timestamp, i32 keyLength (-1 null), key, i32 valueLength (-1 tombstone), value,
//   i32 headersLength (0 none), headers as JSON.
//
// Semantics (those the stages rely on, as on Kafka):
// - Partitioning by murmur2 of the key (partitioner.ts), round robin for null keys. Offsets are dense
//   per partition when written, never reused, and stay sparse after compaction; given as decimal strings.
// - send() resolves once the records are written to the segment file (the OS has them; fsync runs every
//   fsyncIntervalMs and on close, not per record, so a machine crash may lose the last interval, a
//   process crash loses nothing acknowledged). Consumers see a record only once it is written.
// - Reads of records written lately (EmbeddedLogOptions.recentBytes, 32 MB over all partitions) are
//   served from the bytes kept from their write, not read back from the file: the consumers that keep
//   up (every stage during a crawl) then cost no file-system call per batch.
// - Consumer groups: one active consumer per group in this process, owning every partition of its
//   topics (a second concurrent run() of the same group is refused, rather than silently splitting).
//   Batches are delivered in offset order per partition; a batch's offsets are committed (and
//   persisted) only after the handler resolves ("offsets committed only after the stage's output is
//   written"); a throwing handler gets the same batch again after a backoff. At-least-once.
// - 'compact' topics: records need a key (as on Kafka). The cleaner keeps the latest record per key in
//   closed segments, drops tombstones older than tombstoneRetentionMs, and never touches the active
//   segment; it runs every compactIntervalMs once enough has been written, or on compact().
// - 'delete' topics with retentionMs drop whole closed segments whose newest record is older; with
//   retentionBytes, the oldest closed segments while the partition is larger than that without them.
//   Both come from the topic's spec on every createTopics (the configured budget applies to topics
//   created before it changed).
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { partitionForKey } from './partitioner.ts';
import type {
  Batch,
  Consumer,
  ConsumerOptions,
  Log,
  LogRecord,
  OutgoingRecord,
  PartitionOffsets,
  Producer,
  TailOptions,
  TopicSpec,
} from './types.ts';
import { abandonedLine, isBatchAbandoned } from './types.ts';

export interface EmbeddedLogOptions {
  /** The log's directory, usually `<DATA_DIR>/log`. */
  dir: string;
  /** A segment is closed and a new one started past this size. */
  segmentBytes?: number;
  fsyncIntervalMs?: number;
  /** Upper bounds of one delivered batch. */
  maxBatchRecords?: number;
  maxBatchBytes?: number;
  /** How often the cleaner and the retention check run; 0 turns the timer off. */
  compactIntervalMs?: number;
  /** Bytes written to a compacted partition since its last cleaning before the timer cleans it. */
  compactMinBytes?: number;
  /** How long a tombstone survives compaction, so lagging consumers still see the delete. */
  tombstoneRetentionMs?: number;
  /** First redelivery delay after a handler throws; doubles up to 5 s. */
  retryBackoffMs?: number;
  /**
   * Bytes of the most recently written records kept in memory, over all partitions, so consumers
   * that keep up (every stage during a crawl) read them without a file read; 0 turns it off.
   */
  recentBytes?: number;
  /** Where handler failures are reported (they are retried, never dropped). */
  onError?: (err: unknown, where: { groupId: string; topic: string; partition: number }) => void;
}

/**
 * A group's journal is rewritten (its current state alone, into a new file renamed over it) once it
 * is past this size, and at its first write in a process (whatever a crash tore off its end goes).
 */
const JOURNAL_MAX_BYTES = 64 * 1024;

const HEADER = 8; // u32 length + u32 crc
const FIXED = 8 + 8 + 4 + 4 + 4; // offset, timestamp, key len, value len, headers len
const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

class Segment {
  readonly offsets: number[] = [];
  readonly positions: number[] = [];
  size = 0;
  maxTimestamp = 0;
  refs = 0;
  retired = false;
  constructor(
    readonly base: number,
    readonly path: string,
    readonly fd: FileHandle,
  ) {}
  get lastOffset(): number {
    return this.offsets.length ? this.offsets[this.offsets.length - 1]! : this.base - 1;
  }
  async release(): Promise<void> {
    this.refs--;
    if (this.retired && this.refs === 0) await this.fd.close().catch(() => {});
  }
}

interface PendingWrite {
  bufs: Buffer[];
  bytes: number;
  /** offset, relative position and timestamp of each record in the pending buffers */
  entries: Array<[number, number, number]>;
  waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }>;
}

/** Bytes of one write to a segment, kept after it (EmbeddedLogOptions.recentBytes). */
interface RecentWrite {
  seg: Segment;
  /** Where in the segment they start. */
  pos: number;
  data: Buffer;
}

class PartitionLog {
  segments: Segment[] = [];
  /** The latest writes, oldest first, each starting where the one before ended in its segment. */
  recent: RecentWrite[] = [];
  nextOffset = 0;
  /** Offset after the last record written to the file: what readers may see. */
  high = 0;
  pending: PendingWrite | null = null;
  /** Serializes file writes, rolls and cleaning of this partition. */
  chain: Promise<void> = Promise.resolve();
  dirty = false;
  bytesSinceClean = 0;
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly dir: string,
  ) {}
  get active(): Segment {
    return this.segments[this.segments.length - 1]!;
  }
  get low(): number {
    for (const s of this.segments) if (s.offsets.length) return s.offsets[0]!;
    return this.high;
  }
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.then(
      () => {},
      () => {},
    );
    return run;
  }
}

interface TopicState {
  spec: TopicSpec;
  partitions: PartitionLog[];
  roundRobin: number;
  /** Bumped on every write; consumers wait on it when idle. */
  version: number;
  waiters: Set<() => void>;
}

function segmentName(base: number): string {
  return String(base).padStart(20, '0') + '.log';
}

function encodeRecord(offset: number, r: OutgoingRecord, timestamp: number): Buffer {
  const key = r.key;
  const value = r.value;
  const headers = r.headers && Object.keys(r.headers).length ? Buffer.from(JSON.stringify(r.headers)) : null;
  const bodyLen = FIXED + (key?.length ?? 0) + (value?.length ?? 0) + (headers?.length ?? 0);
  const buf = Buffer.allocUnsafe(HEADER + bodyLen);
  buf.writeUInt32LE(bodyLen, 0);
  let p = HEADER;
  buf.writeDoubleLE(offset, p);
  p += 8;
  buf.writeDoubleLE(timestamp, p);
  p += 8;
  if (key) {
    buf.writeInt32LE(key.length, p);
    p += 4;
    key.copy(buf, p);
    p += key.length;
  } else {
    buf.writeInt32LE(-1, p);
    p += 4;
  }
  if (value) {
    buf.writeInt32LE(value.length, p);
    p += 4;
    value.copy(buf, p);
    p += value.length;
  } else {
    buf.writeInt32LE(-1, p);
    p += 4;
  }
  buf.writeInt32LE(headers?.length ?? 0, p);
  p += 4;
  if (headers) headers.copy(buf, p);
  buf.writeUInt32LE(crc32(buf.subarray(HEADER)), 4);
  return buf;
}

interface Decoded {
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
  /** bytes the framed record takes */
  size: number;
}

/** Decodes the record at `pos`; null when the bytes there are incomplete or corrupt (a torn write). */
function decodeAt(buf: Buffer, pos: number, verify: boolean): Decoded | null {
  if (pos + HEADER > buf.length) return null;
  const bodyLen = buf.readUInt32LE(pos);
  const end = pos + HEADER + bodyLen;
  if (bodyLen < FIXED || end > buf.length) return null;
  if (verify && crc32(buf.subarray(pos + HEADER, end)) !== buf.readUInt32LE(pos + 4)) return null;
  let p = pos + HEADER;
  const offset = buf.readDoubleLE(p);
  const timestamp = buf.readDoubleLE(p + 8);
  p += 16;
  const keyLen = buf.readInt32LE(p);
  p += 4;
  const key = keyLen < 0 ? null : buf.subarray(p, p + keyLen);
  if (keyLen > 0) p += keyLen;
  const valueLen = buf.readInt32LE(p);
  p += 4;
  const value = valueLen < 0 ? null : buf.subarray(p, p + valueLen);
  if (valueLen > 0) p += valueLen;
  const headersLen = buf.readInt32LE(p);
  p += 4;
  const headers = headersLen > 0 ? (JSON.parse(buf.toString('utf8', p, p + headersLen)) as Record<string, string>) : {};
  return { offset, timestamp, key, value, headers, size: HEADER + bodyLen };
}

/** The state on a journal's last whole line (a line a crash cut short does not parse); undefined when none. */
function lastWholeLine(text: string): Record<string, Record<string, number>> | undefined {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]) continue;
    try {
      return JSON.parse(lines[i]!) as Record<string, Record<string, number>>;
    } catch {
      // torn: the line before it
    }
  }
  return undefined;
}

/** Positional read of exactly `length` bytes (never moves the file position). */
async function readRange(fd: FileHandle, start: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fd.read(buf, got, length - got, start + got);
    if (bytesRead === 0) throw new Error(`short read: wanted ${length} bytes at ${start}, got ${got}`);
    got += bytesRead;
  }
  return buf;
}

/** Index of the first entry >= offset in a sorted array (length when none). */
function lowerBound(arr: number[], offset: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// One process may hold a directory at a time: two writers would interleave segment files.
const openDirs = new Set<string>();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class EmbeddedLog implements Log {
  readonly kind = 'embedded' as const;
  private readonly topics = new Map<string, TopicState>();
  /** groupId -> topic -> partition -> next offset */
  private readonly groups = new Map<string, Map<string, Map<number, number>>>();
  private readonly groupWrites = new Map<string, { running: Promise<void> | null; again: boolean }>();
  /** Open journals of the groups that committed in this process, and their sizes. */
  private readonly journals = new Map<string, { fh: FileHandle; size: number }>();
  private readonly activeGroups = new Map<string, EmbeddedConsumer>();
  /** Running tails, stopped by close() like the groups' consumers. */
  readonly tails = new Set<EmbeddedTail>();
  private flushScheduled = false;
  private readonly toFlush = new Set<PartitionLog>();
  private readonly toSync = new Set<Segment>();
  /**
   * Every partition's recent writes in the order written (the oldest goes first), and their bytes.
   * Slots before recentHead are dropped writes, emptied at once so they hold nothing until the
   * array is cut.
   */
  private readonly recent: Array<[PartitionLog, RecentWrite] | null> = [];
  private recentHead = 0;
  private recentSize = 0;
  private timers: NodeJS.Timeout[] = [];
  private closed = false;
  readonly opts: Required<Omit<EmbeddedLogOptions, 'onError'>> & Pick<EmbeddedLogOptions, 'onError'>;

  private constructor(options: EmbeddedLogOptions) {
    this.opts = {
      segmentBytes: 64 * 1024 * 1024,
      fsyncIntervalMs: 1000,
      maxBatchRecords: 5000,
      maxBatchBytes: 4 * 1024 * 1024,
      compactIntervalMs: 30_000,
      compactMinBytes: 1024 * 1024,
      tombstoneRetentionMs: 24 * 3600_000,
      retryBackoffMs: 100,
      recentBytes: 32 * 1024 * 1024,
      ...options,
      // Absolute, so two spellings of one directory cannot both open it.
      dir: resolve(options.dir),
    };
  }

  static async open(options: EmbeddedLogOptions): Promise<EmbeddedLog> {
    const log = new EmbeddedLog(options);
    await log.load();
    return log;
  }

  private get dir(): string {
    return this.opts.dir;
  }

  private lock(): void {
    mkdirSync(this.dir, { recursive: true });
    if (openDirs.has(this.dir)) throw new Error(`embedded log ${JSON.stringify(this.dir)} is already open in this process`);
    const lockPath = join(this.dir, 'lock');
    if (existsSync(lockPath)) {
      const pid = Number(readFileSync(lockPath, 'utf8').trim());
      if (pid && pid !== process.pid && pidAlive(pid))
        throw new Error(`embedded log ${JSON.stringify(this.dir)} is in use by process ${pid}`);
    }
    const fd = openSync(lockPath, 'w');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    openDirs.add(this.dir);
  }

  private async load(): Promise<void> {
    this.lock();
    await mkdir(join(this.dir, 'topics'), { recursive: true });
    await mkdir(join(this.dir, 'groups'), { recursive: true });
    const topicsFile = join(this.dir, 'topics.json');
    const specs: TopicSpec[] = existsSync(topicsFile) ? JSON.parse(await readFile(topicsFile, 'utf8')) : [];
    for (const spec of specs) await this.openTopic(spec);
    const groupFiles = await readdir(join(this.dir, 'groups'));
    const journals = new Set(groupFiles.filter((f) => f.endsWith('.jsonl')).map((f) => f.slice(0, -6)));
    for (const f of groupFiles) {
      let data: Record<string, Record<string, number>> | undefined;
      if (f.endsWith('.jsonl')) data = lastWholeLine(await readFile(join(this.dir, 'groups', f), 'utf8'));
      // A group with a journal has its state there; its .json is older.
      else if (f.endsWith('.json') && !journals.has(f.slice(0, -5))) data = JSON.parse(await readFile(join(this.dir, 'groups', f), 'utf8')) as Record<string, Record<string, number>>;
      if (!data) continue;
      const groupId = decodeURIComponent(f.slice(0, f.lastIndexOf('.')));
      const m = new Map<string, Map<number, number>>();
      for (const [topic, parts] of Object.entries(data))
        m.set(topic, new Map(Object.entries(parts).map(([p, o]) => [Number(p), o])));
      this.groups.set(groupId, m);
    }
    if (this.opts.fsyncIntervalMs > 0) this.timers.push(setInterval(() => void this.sync(), this.opts.fsyncIntervalMs).unref());
    if (this.opts.compactIntervalMs > 0)
      this.timers.push(setInterval(() => void this.maintain().catch(() => {}), this.opts.compactIntervalMs).unref());
  }

  private async openTopic(spec: TopicSpec): Promise<TopicState> {
    const state: TopicState = { spec, partitions: [], roundRobin: 0, version: 0, waiters: new Set() };
    for (let p = 0; p < spec.partitions; p++) {
      const dir = join(this.dir, 'topics', spec.name, String(p));
      await mkdir(dir, { recursive: true });
      state.partitions.push(await this.openPartition(spec.name, p, dir));
    }
    this.topics.set(spec.name, state);
    return state;
  }

  private async openPartition(topic: string, partition: number, dir: string): Promise<PartitionLog> {
    const pl = new PartitionLog(topic, partition, dir);
    let files = await readdir(dir);
    // Finish or undo a cleaning that a crash interrupted (see clean()).
    const cleaned = files.filter((f) => f.endsWith('.log.cleaned'));
    const deleted = files.filter((f) => f.endsWith('.log.deleted'));
    for (const c of cleaned) {
      if (deleted.length) await rename(join(dir, c), join(dir, c.slice(0, -'.cleaned'.length)));
      else await unlink(join(dir, c));
    }
    for (const d of deleted) await unlink(join(dir, d));
    files = (await readdir(dir)).filter((f) => /^\d{20}\.log$/.test(f)).sort();
    let lastOffset = -1;
    for (const f of files) {
      const base = Number(f.slice(0, 20));
      const path = join(dir, f);
      const fd = await open(path, 'r+');
      const seg = new Segment(base, path, fd);
      const { size } = await fd.stat();
      const buf = await readRange(fd, 0, size);
      let pos = 0;
      for (;;) {
        const r = decodeAt(buf, pos, true);
        if (!r) break;
        seg.offsets.push(r.offset);
        seg.positions.push(pos);
        if (r.timestamp > seg.maxTimestamp) seg.maxTimestamp = r.timestamp;
        pos += r.size;
      }
      if (pos < buf.length) await fd.truncate(pos); // a torn write at the tail: never acknowledged
      seg.size = pos;
      lastOffset = Math.max(lastOffset, seg.lastOffset);
      pl.segments.push(seg);
    }
    if (!pl.segments.length) {
      const fd = await open(join(dir, segmentName(0)), 'w+');
      pl.segments.push(new Segment(0, join(dir, segmentName(0)), fd));
    }
    // The newest segment's base keeps offsets monotonic even when cleaning emptied the partition.
    pl.nextOffset = Math.max(lastOffset + 1, pl.active.base);
    pl.high = pl.nextOffset;
    return pl;
  }

  private async saveTopics(): Promise<void> {
    const file = join(this.dir, 'topics.json');
    await writeFile(file + '.tmp', JSON.stringify([...this.topics.values()].map((t) => t.spec), null, 2));
    await rename(file + '.tmp', file);
  }

  private topic(name: string): TopicState {
    const t = this.topics.get(name);
    if (!t) throw new Error(`unknown topic ${JSON.stringify(name)}: create it first`);
    return t;
  }

  async createTopics(specs: TopicSpec[]): Promise<void> {
    this.assertOpen();
    let changed = false;
    for (const spec of specs) {
      if (!TOPIC_NAME.test(spec.name)) throw new Error(`invalid topic name ${JSON.stringify(spec.name)}`);
      if (!Number.isInteger(spec.partitions) || spec.partitions < 1)
        throw new Error(`invalid partition count ${JSON.stringify(spec.partitions)} for topic ${spec.name}`);
      // As on Kafka, creating an existing topic keeps it as it is, but for its retention: the
      // configured budget applies to topics made before it changed (Kafka: alterConfigs).
      const existing = this.topics.get(spec.name);
      if (existing) {
        if (existing.spec.cleanupPolicy === 'delete' && (existing.spec.retentionMs !== spec.retentionMs || existing.spec.retentionBytes !== spec.retentionBytes)) {
          existing.spec = { ...existing.spec, retentionMs: spec.retentionMs, retentionBytes: spec.retentionBytes };
          changed = true;
        }
        continue;
      }
      await this.openTopic({ ...spec });
      changed = true;
    }
    if (changed) await this.saveTopics();
  }

  async producer(): Promise<Producer> {
    this.assertOpen();
    return {
      send: (topic, records) => this.append(topic, records),
      close: async () => {},
    };
  }

  /** Assigns offsets now (so order per partition is the call order) and resolves once written. */
  append(topic: string, records: OutgoingRecord[]): Promise<void> {
    this.assertOpen();
    const t = this.topic(topic);
    const n = t.partitions.length;
    const now = Date.now();
    const promises: Promise<void>[] = [];
    const touched = new Set<PartitionLog>();
    for (const r of records) {
      if (t.spec.cleanupPolicy === 'compact' && r.key === null)
        return Promise.reject(new Error(`compacted topic ${JSON.stringify(topic)} cannot accept a record without a key`));
    }
    for (const r of records) {
      if (r.partition !== undefined && !(Number.isInteger(r.partition) && r.partition >= 0 && r.partition < n))
        return Promise.reject(new Error(`topic ${JSON.stringify(topic)} has no partition ${r.partition}`));
      const p = r.partition ?? (r.key ? partitionForKey(r.key, n) : t.roundRobin++ % n);
      const pl = t.partitions[p]!;
      const offset = pl.nextOffset++;
      const ts = r.timestamp ?? now;
      const buf = encodeRecord(offset, r, ts);
      let pw = pl.pending;
      if (!pw) pw = pl.pending = { bufs: [], bytes: 0, entries: [], waiters: [] };
      pw.entries.push([offset, pw.bytes, ts]);
      pw.bufs.push(buf);
      pw.bytes += buf.length;
      touched.add(pl);
    }
    for (const pl of touched) {
      promises.push(new Promise<void>((resolve, reject) => pl.pending!.waiters.push({ resolve, reject })));
      this.toFlush.add(pl);
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return promises.length === 1 ? promises[0]! : Promise.all(promises).then(() => {});
  }

  private flush(): void {
    this.flushScheduled = false;
    const parts = [...this.toFlush];
    this.toFlush.clear();
    for (const pl of parts) {
      // Group everything pending at the moment the write starts into one write call.
      void pl.serial(async () => {
        const pw = pl.pending;
        if (!pw) return;
        pl.pending = null;
        try {
          await this.writePending(pl, pw);
          for (const w of pw.waiters) w.resolve();
        } catch (e) {
          for (const w of pw.waiters) w.reject(e);
        }
      });
    }
  }

  private async writePending(pl: PartitionLog, pw: PendingWrite): Promise<void> {
    if (pl.active.size >= this.opts.segmentBytes) await this.roll(pl);
    const seg = pl.active;
    const data = pw.bufs.length === 1 ? pw.bufs[0]! : Buffer.concat(pw.bufs, pw.bytes);
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await seg.fd.write(data, written, data.length - written, seg.size + written);
      written += bytesWritten;
    }
    for (const [offset, rel, ts] of pw.entries) {
      seg.offsets.push(offset);
      seg.positions.push(seg.size + rel);
      if (ts > seg.maxTimestamp) seg.maxTimestamp = ts;
    }
    this.keepRecent(pl, { seg, pos: seg.size, data });
    seg.size += data.length;
    pl.bytesSinceClean += data.length;
    pl.dirty = true;
    pl.high = pw.entries[pw.entries.length - 1]![0] + 1;
    this.toSync.add(seg);
    const t = this.topics.get(pl.topic)!;
    t.version++;
    for (const w of t.waiters) w();
    t.waiters.clear();
  }

  /** Keeps a write's bytes for reads (readRecent), dropping the oldest writes of any partition past the budget. */
  private keepRecent(pl: PartitionLog, w: RecentWrite): void {
    const budget = this.opts.recentBytes;
    if (budget <= 0 || w.data.length > budget) return;
    // A write under 4 KB is a slice of Node's shared 8 KB pool (Buffer.allocUnsafe, Buffer.concat),
    // and a kept slice pins the whole slab with whatever else was cut from it: kept for hours, a
    // change-only service's small writes held 8 KB each against the few hundred bytes counted here,
    // and the process grew by tens of MB an hour. So such a write keeps a copy of its own.
    if (w.data.byteLength !== w.data.buffer.byteLength) {
      const own = Buffer.allocUnsafeSlow(w.data.length);
      w.data.copy(own);
      w = { ...w, data: own };
    }
    const last = pl.recent[pl.recent.length - 1];
    // Only an unbroken run of one segment: a roll starts the partition's run again.
    if (last && (last.seg !== w.seg || last.pos + last.data.length !== w.pos)) pl.recent = [];
    pl.recent.push(w);
    this.recent.push([pl, w]);
    this.recentSize += w.data.length;
    while (this.recentSize > budget) {
      const [opl, old] = this.recent[this.recentHead]!;
      this.recent[this.recentHead++] = null;
      this.recentSize -= old.data.length;
      if (opl.recent[0] === old) opl.recent.shift();
    }
    if (this.recentHead > 1024 && this.recentHead * 2 > this.recent.length) {
      this.recent.splice(0, this.recentHead);
      this.recentHead = 0;
    }
  }

  /**
   * Bytes of memory the kept recent writes hold alive (each distinct backing buffer once), dropped
   * slots included: what recentBytes bounds. For tests and diagnostics.
   */
  recentHeldBytes(): number {
    const buffers = new Set<ArrayBufferLike>();
    for (const slot of this.recent) if (slot) buffers.add(slot[1].data.buffer);
    for (const t of this.topics.values()) for (const pl of t.partitions) for (const w of pl.recent) buffers.add(w.data.buffer);
    let total = 0;
    for (const b of buffers) total += b.byteLength;
    return total;
  }

  /** The bytes [start, end) of a segment from the partition's recent writes; null when they are not all there. */
  private readRecent(pl: PartitionLog, seg: Segment, start: number, end: number): Buffer | null {
    const run = pl.recent;
    if (!run.length || run[0]!.seg !== seg || run[0]!.pos > start) return null;
    const lastW = run[run.length - 1]!;
    if (lastW.pos + lastW.data.length < end) return null;
    // The write holding `start` (writes are contiguous, so a binary search by position).
    let lo = 0;
    let hi = run.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (run[mid]!.pos <= start) lo = mid;
      else hi = mid - 1;
    }
    const first = run[lo]!;
    if (end <= first.pos + first.data.length) return first.data.subarray(start - first.pos, end - first.pos);
    const parts: Buffer[] = [];
    for (let i = lo; i < run.length && run[i]!.pos < end; i++) {
      const w = run[i]!;
      parts.push(w.data.subarray(Math.max(0, start - w.pos), Math.min(w.data.length, end - w.pos)));
    }
    return Buffer.concat(parts, end - start);
  }

  /** Closes the active segment and starts a new one at the next offset. Call inside pl.serial. */
  private async roll(pl: PartitionLog): Promise<void> {
    if (pl.active.size === 0) return;
    const base = pl.high;
    const path = join(pl.dir, segmentName(base));
    await pl.active.fd.datasync();
    const fd = await open(path, 'w+');
    pl.segments.push(new Segment(base, path, fd));
  }

  private async sync(): Promise<void> {
    const segs = [...this.toSync];
    this.toSync.clear();
    await Promise.all(segs.map((s) => (s.retired ? undefined : s.fd.datasync().catch(() => {}))));
  }

  /**
   * Reads up to maxRecords / maxBytes from the first record at or after `from`. Only written records
   * are visible. Returns [] at the end.
   */
  async read(topic: string, partition: number, from: number, maxRecords = this.opts.maxBatchRecords, maxBytes = this.opts.maxBatchBytes): Promise<LogRecord[]> {
    const pl = this.topic(topic).partitions[partition];
    if (!pl) throw new Error(`topic ${topic} has no partition ${partition}`);
    if (from >= pl.high) return [];
    for (const seg of pl.segments) {
      if (seg.lastOffset < from || !seg.offsets.length) continue;
      const i = lowerBound(seg.offsets, from);
      if (i >= seg.offsets.length) continue;
      // Stop at the high watermark, the record cap and the byte cap (at least one record).
      let j = i + 1;
      const startPos = seg.positions[i]!;
      const limit = Math.min(seg.offsets.length, i + maxRecords);
      while (j < limit && seg.positions[j]! - startPos < maxBytes && seg.offsets[j]! < pl.high) j++;
      const endPos = j < seg.offsets.length ? seg.positions[j]! : seg.size;
      const recent = this.readRecent(pl, seg, startPos, endPos);
      seg.refs++;
      try {
        const buf = recent ?? (await readRange(seg.fd, startPos, endPos - startPos));
        const out: LogRecord[] = [];
        let pos = 0;
        while (pos < buf.length) {
          const r = decodeAt(buf, pos, false);
          if (!r) throw new Error(`corrupt record in ${seg.path} at ${startPos + pos}`);
          out.push({ topic, partition, offset: String(r.offset), key: r.key, value: r.value, timestamp: r.timestamp, headers: r.headers });
          pos += r.size;
        }
        return out;
      } finally {
        await seg.release();
      }
    }
    return [];
  }

  consumer(options: ConsumerOptions): Consumer {
    this.assertOpen();
    return new EmbeddedConsumer(this, options);
  }

  tail(options: TailOptions): Consumer {
    this.assertOpen();
    return new EmbeddedTail(this, options);
  }

  async topicOffsets(topic: string): Promise<PartitionOffsets[]> {
    const t = this.topic(topic);
    return t.partitions.map((pl) => ({ partition: pl.partition, high: String(pl.high), low: String(pl.low) }));
  }

  async offsetsForTime(topic: string, timestamp: number): Promise<Map<number, string>> {
    const t = this.topic(topic);
    const out = new Map<number, string>();
    for (const pl of t.partitions) out.set(pl.partition, String(await this.offsetForTimestamp(pl, timestamp)));
    return out;
  }

  async groupOffsets(groupId: string, topic: string): Promise<Map<number, string>> {
    const m = this.groups.get(groupId)?.get(topic);
    return new Map([...(m ?? new Map<number, number>())].map(([p, o]) => [p, String(o)]));
  }

  async resetGroup(groupId: string, topic: string, to: 'earliest' | { timestamp: number }): Promise<void> {
    if (this.activeGroups.has(groupId))
      throw new Error(`group ${JSON.stringify(groupId)} has an active consumer: stop it before resetting its offsets`);
    const t = this.topic(topic);
    const offsets = new Map<number, number>();
    for (const pl of t.partitions) {
      if (to === 'earliest') offsets.set(pl.partition, pl.low);
      else offsets.set(pl.partition, await this.offsetForTimestamp(pl, to.timestamp));
    }
    await this.commit(groupId, topic, offsets);
  }

  async setGroupOffsets(groupId: string, topic: string, offsets: Map<number, string>): Promise<void> {
    if (this.activeGroups.has(groupId)) throw new Error(`group ${JSON.stringify(groupId)} has an active consumer: stop it before setting its offsets`);
    this.topic(topic);
    await this.commit(groupId, topic, new Map([...offsets].map(([p, o]) => [p, Number(o)])));
  }

  async deleteGroup(groupId: string): Promise<void> {
    if (this.activeGroups.has(groupId)) throw new Error(`group ${JSON.stringify(groupId)} has an active consumer: stop it before deleting the group`);
    await this.groupWrites.get(groupId)?.running;
    this.groups.delete(groupId);
    this.groupWrites.delete(groupId);
    const j = this.journals.get(groupId);
    this.journals.delete(groupId);
    await j?.fh.close().catch(() => {});
    await rm(join(this.dir, 'groups', encodeURIComponent(groupId) + '.jsonl'), { force: true });
    await rm(join(this.dir, 'groups', encodeURIComponent(groupId) + '.json'), { force: true });
  }

  /** The first offset whose timestamp is at or after `ts` (the high watermark when none), as Kafka's offsetsForTimes. */
  private async offsetForTimestamp(pl: PartitionLog, ts: number): Promise<number> {
    let from = pl.low;
    for (;;) {
      const recs = await this.read(pl.topic, pl.partition, from, 10_000);
      if (!recs.length) return pl.high;
      for (const r of recs) if (r.timestamp >= ts) return Number(r.offset);
      from = Number(recs[recs.length - 1]!.offset) + 1;
    }
  }

  /** @internal used by consumers: register the single active consumer of a group. */
  claimGroup(groupId: string, c: EmbeddedConsumer): void {
    if (this.activeGroups.has(groupId))
      throw new Error(
        `group ${JSON.stringify(groupId)} already has an active consumer: the embedded log gives each group one consumer that owns all partitions`,
      );
    this.activeGroups.set(groupId, c);
  }

  releaseGroup(groupId: string, c: EmbeddedConsumer): void {
    if (this.activeGroups.get(groupId) === c) this.activeGroups.delete(groupId);
  }

  committed(groupId: string, topic: string, partition: number): number | undefined {
    return this.groups.get(groupId)?.get(topic)?.get(partition);
  }

  partitionsOf(topic: string): PartitionLog[] {
    return this.topic(topic).partitions;
  }

  /** Resolves when one of `topics` is written to after the versions `seen`, or after `ms`. */
  waitForData(topics: string[], seen: number[], ms: number, signal: { wake?: () => void }): Promise<void> {
    const states = topics.map((t) => this.topic(t));
    if (states.some((t, i) => t.version !== seen[i])) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const t of states) t.waiters.delete(done);
        signal.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      for (const t of states) t.waiters.add(done);
      signal.wake = done;
    });
  }

  /** @internal The next offset to be written to a partition (consumers' Batch.waiting). */
  highWatermark(topic: string, partition: number): number {
    return this.topic(topic).partitions[partition]?.high ?? 0;
  }

  version(topic: string): number {
    return this.topic(topic).version;
  }

  /** Records committed offsets and persists the group's file (coalesced: one write in flight per group). */
  async commit(groupId: string, topic: string, offsets: Map<number, number>): Promise<void> {
    let g = this.groups.get(groupId);
    if (!g) this.groups.set(groupId, (g = new Map()));
    let tm = g.get(topic);
    if (!tm) g.set(topic, (tm = new Map()));
    for (const [p, o] of offsets) tm.set(p, o);
    await this.persistGroup(groupId);
  }

  private persistGroup(groupId: string): Promise<void> {
    let w = this.groupWrites.get(groupId);
    if (!w) this.groupWrites.set(groupId, (w = { running: null, again: false }));
    const state = w;
    if (state.running) {
      // A write is in flight: the next one (which will include this commit) follows it.
      state.again = true;
      return state.running.then(() => (state.running ? state.running : this.persistGroup(groupId)));
    }
    const doWrite = async (): Promise<void> => {
      do {
        state.again = false;
        const g = this.groups.get(groupId)!;
        const obj: Record<string, Record<string, number>> = {};
        for (const [topic, parts] of g) obj[topic] = Object.fromEntries(parts);
        await this.appendJournal(groupId, Buffer.from(JSON.stringify(obj) + '\n'));
      } while (state.again);
    };
    state.running = doWrite().finally(() => {
      state.running = null;
    });
    return state.running;
  }

  /**
   * Appends one state line to a group's journal: one write to a file kept open, where rewriting the
   * group's file (open, write, close, rename) took four file-system calls per commit, each a wake-up
   * of libuv's pool and about 100 us of the event loop's time (a commit follows every batch of every
   * group: bench/crawl-latency.md). A new journal (the first write in this process, or past
   * JOURNAL_MAX_BYTES) is the line alone, written aside and renamed into place.
   */
  private async appendJournal(groupId: string, line: Buffer): Promise<void> {
    const file = join(this.dir, 'groups', encodeURIComponent(groupId) + '.jsonl');
    const j = this.journals.get(groupId);
    if (j && j.size + line.length <= JOURNAL_MAX_BYTES) {
      try {
        await j.fh.write(line, 0, line.length);
        j.size += line.length;
        return;
      } catch (e) {
        // Started again from a new file at the next commit (what this write may have left is a torn line).
        this.journals.delete(groupId);
        await j.fh.close().catch(() => {});
        throw e;
      }
    }
    this.journals.delete(groupId);
    if (j) await j.fh.close().catch(() => {});
    await writeFile(file + '.tmp', line);
    await rename(file + '.tmp', file);
    // 'a': every write lands at the end, whatever the position.
    this.journals.set(groupId, { fh: await open(file, 'a'), size: line.length });
  }

  /** Cleans every partition of a compacted topic now (all of them when no topic is named). */
  async compact(topic?: string): Promise<void> {
    const names = topic ? [topic] : [...this.topics.keys()];
    for (const name of names) {
      const t = this.topic(name);
      if (t.spec.cleanupPolicy !== 'compact') continue;
      for (const pl of t.partitions) await pl.serial(() => this.clean(pl));
    }
  }

  /** Timer: clean compacted partitions that grew enough, drop expired segments of 'delete' topics. */
  private async maintain(): Promise<void> {
    const now = Date.now();
    for (const t of this.topics.values()) {
      for (const pl of t.partitions) {
        if (t.spec.cleanupPolicy === 'compact') {
          if (pl.bytesSinceClean >= this.opts.compactMinBytes) await pl.serial(() => this.clean(pl));
        } else if (t.spec.retentionMs !== undefined || t.spec.retentionBytes !== undefined) {
          const horizon = t.spec.retentionMs !== undefined ? now - t.spec.retentionMs : -Infinity;
          const maxBytes = t.spec.retentionBytes ?? Infinity;
          await pl.serial(async () => {
            if (pl.active.maxTimestamp < horizon && pl.active.size > 0) await this.roll(pl);
            let total = pl.segments.reduce((a, seg) => a + seg.size, 0);
            while (pl.segments.length > 1 && (pl.segments[0]!.maxTimestamp < horizon || total - pl.segments[0]!.size >= maxBytes)) {
              const seg = pl.segments.shift()!;
              total -= seg.size;
              this.retire(seg);
              await unlink(seg.path).catch(() => {});
            }
          });
        }
      }
    }
  }

  private retire(seg: Segment): void {
    seg.retired = true;
    this.toSync.delete(seg);
    if (seg.refs === 0) void seg.fd.close().catch(() => {});
  }

  /**
   * Kafka's log cleaner, for one partition: roll the active segment, then rewrite all closed segments
   * into one that keeps the latest record per key. Crash safety: the new segment is written as
   * `.cleaned` and synced, old ones renamed to `.deleted`, then `.cleaned` renamed into place;
   * openPartition() finishes or undoes an interrupted swap. Call inside pl.serial.
   */
  private async clean(pl: PartitionLog): Promise<void> {
    await this.roll(pl);
    const closed = pl.segments.slice(0, -1);
    if (!closed.length) return;
    const records: Decoded[] = [];
    for (const seg of closed) {
      const buf = await readRange(seg.fd, 0, seg.size);
      let pos = 0;
      while (pos < seg.size) {
        const r = decodeAt(buf, pos, false);
        if (!r) break;
        records.push(r);
        pos += r.size;
      }
    }
    const latest = new Map<string, number>();
    for (const r of records) latest.set(r.key!.toString('latin1'), r.offset);
    // A tombstone stays while younger than tombstoneRetentionMs (0: dropped at the first cleaning),
    // except the partition's last record, which always stays: Kafka never cleans its active segment,
    // so a reader that reads to the high watermark (a stage's restore) sees that offset and ends;
    // dropping it here left such a reader waiting for a record that was gone.
    const horizon = Date.now() - this.opts.tombstoneRetentionMs;
    const lastOffset = records.length ? records[records.length - 1]!.offset : -1;
    const kept = records.filter(
      (r) => latest.get(r.key!.toString('latin1')) === r.offset && (r.value !== null || r.timestamp > horizon || r.offset === lastOffset),
    );
    const base = closed[0]!.base;
    const finalPath = join(pl.dir, segmentName(base));
    const tmpPath = finalPath + '.cleaned';
    const bufs = kept.map((r) => encodeRecord(r.offset, { key: r.key, value: r.value, headers: r.headers }, r.timestamp));
    const fd = await open(tmpPath, 'w+');
    const data = Buffer.concat(bufs);
    await fd.write(data, 0, data.length, 0);
    await fd.datasync();
    for (const seg of closed) await rename(seg.path, seg.path + '.deleted');
    await rename(tmpPath, finalPath);
    const seg = new Segment(base, finalPath, fd);
    let pos = 0;
    for (let i = 0; i < kept.length; i++) {
      seg.offsets.push(kept[i]!.offset);
      seg.positions.push(pos);
      if (kept[i]!.timestamp > seg.maxTimestamp) seg.maxTimestamp = kept[i]!.timestamp;
      pos += bufs[i]!.length;
    }
    seg.size = pos;
    pl.segments = [seg, pl.active];
    for (const old of closed) {
      this.retire(old);
      await unlink(old.path + '.deleted').catch(() => {});
    }
    pl.bytesSinceClean = 0;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('embedded log is closed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const c of [...this.activeGroups.values()]) await c.stop();
    for (const t of [...this.tails]) await t.stop();
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    // Drain pending writes, then sync and close every segment.
    this.flush();
    for (const t of this.topics.values()) for (const pl of t.partitions) await pl.chain;
    for (const w of this.groupWrites.values()) await w.running?.catch(() => {});
    for (const j of this.journals.values()) {
      await j.fh.datasync().catch(() => {});
      await j.fh.close().catch(() => {});
    }
    this.journals.clear();
    for (const t of this.topics.values())
      for (const pl of t.partitions)
        for (const seg of pl.segments) {
          await seg.fd.datasync().catch(() => {});
          await seg.fd.close().catch(() => {});
        }
    openDirs.delete(this.dir);
    await rm(join(this.dir, 'lock'), { force: true });
  }
}

export class EmbeddedConsumer implements Consumer {
  private loop: Promise<void> | null = null;
  private readonly state: LoopState = { stopped: false, signal: {} };

  constructor(
    private readonly log: EmbeddedLog,
    private readonly options: ConsumerOptions,
  ) {}

  async run(handler: (batch: Batch) => Promise<void>): Promise<void> {
    if (this.loop) throw new Error('consumer is already running');
    const { groupId, topics, fromBeginning, startAt } = this.options;
    for (const [topic, offsets] of startAt ?? []) if (offsets.size) await this.log.setGroupOffsets(groupId, topic, offsets);
    this.log.claimGroup(groupId, this);
    // Positions: the committed offset, else the earliest or the high watermark at start.
    const positions: ReadPosition[] = [];
    try {
      for (const topic of topics)
        for (const pl of this.log.partitionsOf(topic)) {
          const c = this.log.committed(groupId, topic, pl.partition);
          positions.push({ topic, partition: pl.partition, pos: c ?? (fromBeginning ? pl.low : pl.high), failures: 0, retryAt: 0 });
        }
    } catch (e) {
      this.log.releaseGroup(groupId, this);
      throw e;
    }
    this.loop = this.consume(handler, positions).finally(() => this.log.releaseGroup(groupId, this));
  }

  private consume(handler: (batch: Batch) => Promise<void>, positions: ReadPosition[]): Promise<void> {
    const { groupId, topics } = this.options;
    return readLoop(this.log, topics, positions, handler, this.state, `group ${groupId}`, groupId, (p) => this.log.commit(groupId, p.topic, new Map([[p.partition, p.pos]])), this.options.maxBatch);
  }

  /** Stops fetching; an in-flight handler finishes and its batch is committed first, as on Kafka. */
  async stop(): Promise<void> {
    this.state.stopped = true;
    this.state.signal.wake?.();
    await this.loop?.catch(() => {});
  }
}

type ReadPosition = { topic: string; partition: number; pos: number; failures: number; retryAt: number };
type LoopState = { stopped: boolean; signal: { wake?: () => void }; /** The stop's abandonment was said (abandonedLine). */ abandonSaid?: boolean };

/**
 * The read loop of a group's consumer and of a tail: batches in offset order per partition; a
 * handler that throws gets the same batch again after a backoff; `done` runs once a handler resolves
 * (a group commits the position; a tail keeps it only here).
 */
async function readLoop(
  log: EmbeddedLog,
  topics: string[],
  positions: ReadPosition[],
  handler: (batch: Batch) => Promise<void>,
  state: LoopState,
  who: string,
  groupId: string,
  done: (p: ReadPosition) => Promise<void>,
  maxBatch?: { records: number; bytes: number },
): Promise<void> {
  const { retryBackoffMs, onError } = log.opts;
  while (!state.stopped) {
    const versions = topics.map((t) => log.version(t));
    let delivered = false;
    let nextRetry = Infinity;
    for (const p of positions) {
      if (state.stopped) break;
      const now = Date.now();
      if (p.retryAt > now) {
        nextRetry = Math.min(nextRetry, p.retryAt);
        continue;
      }
      let records: LogRecord[] | null = await log.read(p.topic, p.partition, p.pos, maxBatch?.records, maxBatch?.bytes);
      if (!records.length) continue;
      delivered = true;
      // What else could be read right now, had this batch been handled.
      const next = Number(records[records.length - 1]!.offset) + 1;
      let waiting = 0;
      for (const q of positions) waiting += Math.max(0, log.highWatermark(q.topic, q.partition) - (q === p ? next : q.pos));
      try {
        const handled = handler({ topic: p.topic, partition: p.partition, records, waiting });
        // The batch is the handler's now: a handler that hands its records to another thread lets
        // them go (runner.ts, releaseRecords) rather than keep them alive while it waits; a failed
        // batch is read again from the log.
        records = null;
        await handled;
      } catch (err) {
        // Not done: the same batch comes again after a backoff (at-least-once).
        p.failures++;
        p.retryAt = Date.now() + Math.min(5000, retryBackoffMs * 2 ** (p.failures - 1));
        if (onError) onError(err, { groupId, topic: p.topic, partition: p.partition });
        else if (isBatchAbandoned(err)) {
          // Said once: until its runner stops, every batch it is given fails the same way.
          if (!state.abandonSaid) console.error(abandonedLine('embedded log', who, p.topic, p.partition, err));
          state.abandonSaid = true;
        } else console.error(`embedded log: handler of ${who} failed on ${p.topic}[${p.partition}], will redeliver:`, err);
        continue;
      }
      p.failures = 0;
      p.retryAt = 0;
      p.pos = next;
      await done(p);
    }
    if (!delivered && !state.stopped) {
      const wait = Math.max(1, Math.min(500, nextRetry - Date.now()));
      await log.waitForData(topics, versions, wait, state.signal);
    }
  }
}

/**
 * Log.tail() on the embedded log: the consumer's read loop without a group (no claim, no commits).
 * Positions live in this object only; a handler that throws gets its batch again after a backoff.
 */
export class EmbeddedTail implements Consumer {
  private loop: Promise<void> | null = null;
  private readonly state: LoopState = { stopped: false, signal: {} };

  constructor(
    private readonly log: EmbeddedLog,
    private readonly options: TailOptions,
  ) {}

  async run(handler: (batch: Batch) => Promise<void>): Promise<void> {
    if (this.loop) throw new Error('tail is already running');
    const { topics, from } = this.options;
    const positions: ReadPosition[] = [];
    for (const topic of topics)
      for (const pl of this.log.partitionsOf(topic)) {
        const named = from?.get(topic)?.get(pl.partition);
        positions.push({ topic, partition: pl.partition, pos: Math.max(pl.low, named === undefined ? 0 : Number(named)), failures: 0, retryAt: 0 });
      }
    this.log.tails.add(this);
    this.loop = readLoop(this.log, topics, positions, handler, this.state, 'a tail', '(tail)', async () => {}).finally(() => this.log.tails.delete(this));
  }

  async stop(): Promise<void> {
    this.state.stopped = true;
    this.state.signal.wake?.();
    await this.loop?.catch(() => {});
  }
}
