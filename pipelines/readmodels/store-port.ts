// The SnapshotStore over a MessagePort: the in-process store stays on the thread that serves the API
// (requests read it without a hop), and the pipeline thread (pipelines/runtime/pipeline-thread.ts)
// writes and publishes through PortSnapshotStore. In: the SnapshotStore calls. Out: the same
// answers (snapshots.contract.ts runs on it, snapshots.port.unit.spec.ts).
//
// Volume: a putMany of canonical documents and a catalog publish of 1,000,000 entries cross as
// bytes, not as a message or a structured clone per document: the documents' keys and JSON texts are
// encoded into one buffer that is moved (transferred), with their lengths and versions beside it. A
// publish crosses in chunks (PUBLISH_CHUNK entries or PUBLISH_CHUNK_CHARS of JSON), each added to the staged snapshot on arrival
// (its own task on the serving thread, so requests are served between chunks) and made current by
// the last message. Reads travel back as JSON text, parsed by the caller, so the serving thread does
// not parse what it only hands on.
import type { MessagePort } from 'node:worker_threads';
import { PortCaller, replyTo, type WithoutId } from '../runtime/port-calls.ts';
import type { MemorySnapshotStore } from './memory-store.ts';
import { JsonText, serializeDoc, type PublishOptions, type SnapshotEntry, type SnapshotInfo, type SnapshotStore, type Versioned } from './snapshots.ts';

/** Entries of a publish per message, at most. */
export const PUBLISH_CHUNK = 20_000;
/**
 * And at most about this many characters of JSON per message: a catalog entry is a chunk of 100
 * rows (pipelines/catalog/pages.ts), so a 1,000,000-market snapshot is some 20,000 entries of
 * 200-400 MB; each message's decoding and adding is one task on the serving thread, kept to a few ms.
 */
export const PUBLISH_CHUNK_CHARS = 4 * 1024 * 1024;

/** Texts packed into one moved buffer: piece i is bytes [ends[i-1], ends[i]). */
interface Packed {
  bytes: Uint8Array;
  ends: Uint32Array;
}

const encoder = new TextEncoder();

function pack(pieces: string[]): { packed: Packed; transfer: ArrayBuffer[] } {
  const ends = new Uint32Array(pieces.length);
  let at = 0;
  for (let i = 0; i < pieces.length; i++) ends[i] = at += Buffer.byteLength(pieces[i]!);
  // Its own ArrayBuffer (not Node's shared pool), so it can be moved.
  const bytes = new Uint8Array(at);
  let off = 0;
  for (const p of pieces) off += encoder.encodeInto(p, bytes.subarray(off)).written;
  return { packed: { bytes, ends }, transfer: [bytes.buffer as ArrayBuffer, ends.buffer as ArrayBuffer] };
}

function unpack(p: Packed): string[] {
  const buf = Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength);
  const out = new Array<string>(p.ends.length);
  let start = 0;
  for (let i = 0; i < p.ends.length; i++) {
    out[i] = buf.toString('utf8', start, p.ends[i]);
    start = p.ends[i]!;
  }
  return out;
}

type Call =
  | { id: number; op: 'get'; key: string }
  | { id: number; op: 'mget'; keys: string[] }
  | { id: number; op: 'putMany'; docs: Packed; versions: Float64Array }
  | { id: number; op: 'delete'; key: string; version?: number }
  | { id: number; op: 'scan' | 'deletePrefix'; prefix: string }
  | { op: 'publish-chunk'; pid: number; name: string; entries: Packed }
  | { id: number; op: 'publish-end'; pid: number; name: string; options: PublishOptions }
  | { id: number; op: 'current' | 'currentId' | 'dropSnapshots'; name: string }
  | { id: number; op: 'snapshot' | 'retiredAt'; name: string; sid: string }
  | { id: number; op: 'entries'; name: string; sid: string; keys: string[] }
  | { id: number; op: 'range'; name: string; sid: string; start: number; end: number };

/**
 * Answers PortSnapshotStore's calls on `port` from `store` until the port closes. The store is the
 * in-process one: its unparsed reads (getText, entriesText, rangeText) are what crosses.
 */
export function serveSnapshotStore(store: MemorySnapshotStore, port: MessagePort): void {
  // Publishes being received, by the client's publish number.
  const staged = new Map<number, ReturnType<MemorySnapshotStore['beginPublish']>>();
  const answer = async (m: Exclude<Call, { op: 'publish-chunk' }>): Promise<unknown> => {
    switch (m.op) {
      case 'get':
        return store.getText(m.key);
      case 'mget':
        return m.keys.map((k) => store.getText(k));
      case 'putMany': {
        const texts = unpack(m.docs);
        let n = 0;
        for (let i = 0; i < m.versions.length; i++) if (await store.put(texts[2 * i]!, new JsonText(texts[2 * i + 1]!), m.versions[i]!)) n++;
        return n;
      }
      case 'delete':
        return store.delete(m.key, m.version);
      case 'scan':
        return store.scan(m.prefix);
      case 'deletePrefix':
        return store.deletePrefix(m.prefix);
      case 'publish-end': {
        const s = staged.get(m.pid) ?? store.beginPublish(m.name);
        staged.delete(m.pid);
        return s.finish(m.options);
      }
      case 'current':
        return store.current(m.name);
      case 'currentId':
        return store.currentId(m.name);
      case 'dropSnapshots':
        return store.dropSnapshots(m.name);
      case 'snapshot':
        return store.snapshot(m.name, m.sid);
      case 'retiredAt':
        return store.retiredAt(m.name, m.sid);
      case 'entries':
        return store.entriesText(m.name, m.sid, m.keys);
      case 'range':
        return store.rangeText(m.name, m.sid, m.start, m.end);
    }
  };
  port.on('message', (m: Call) => {
    if (m.op === 'publish-chunk') {
      let s = staged.get(m.pid);
      if (!s) staged.set(m.pid, (s = store.beginPublish(m.name)));
      const texts = unpack(m.entries);
      const entries: SnapshotEntry[] = new Array(texts.length / 2);
      for (let i = 0; i < entries.length; i++) entries[i] = { key: texts[2 * i]!, value: new JsonText(texts[2 * i + 1]!) };
      s.add(entries);
      return;
    }
    replyTo(port, m.id, answer(m));
  });
}

/** A SnapshotStore whose store is on another thread, served there by serveSnapshotStore(). */
export class PortSnapshotStore implements SnapshotStore {
  readonly kind = 'memory' as const;
  readonly durable = false;
  private nextPublish = 1;
  private readonly calls: PortCaller<Call & { id: number }>;

  constructor(private readonly port: MessagePort) {
    this.calls = new PortCaller(port, 'the snapshot store port', 'the snapshot store thread');
  }

  private call<T>(msg: WithoutId<Call>, transfer: ArrayBuffer[] = []): Promise<T> {
    return this.calls.call<T>(msg, transfer);
  }

  async get<T = unknown>(key: string): Promise<Versioned<T> | null> {
    const d = await this.call<{ version: number; json: string } | null>({ op: 'get', key });
    return d ? { key, version: d.version, value: JSON.parse(d.json) as T } : null;
  }

  async mget<T = unknown>(keys: string[]): Promise<(Versioned<T> | null)[]> {
    if (keys.length === 0) return [];
    const ds = await this.call<({ version: number; json: string } | null)[]>({ op: 'mget', keys });
    return ds.map((d, i) => (d ? { key: keys[i]!, version: d.version, value: JSON.parse(d.json) as T } : null));
  }

  async put(key: string, value: unknown, version: number): Promise<boolean> {
    return (await this.putMany([{ key, value, version }])) === 1;
  }

  async putMany(docs: Versioned[]): Promise<number> {
    if (docs.length === 0) return 0;
    const pieces: string[] = new Array(docs.length * 2);
    const versions = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      pieces[2 * i] = docs[i]!.key;
      pieces[2 * i + 1] = serializeDoc(docs[i]!.value);
      versions[i] = docs[i]!.version;
    }
    const { packed, transfer } = pack(pieces);
    return this.call<number>({ op: 'putMany', docs: packed, versions }, [...transfer, versions.buffer as ArrayBuffer]);
  }

  delete(key: string, version?: number): Promise<boolean> {
    return this.call({ op: 'delete', key, ...(version !== undefined && { version }) });
  }

  scan(prefix: string): Promise<string[]> {
    return this.call({ op: 'scan', prefix });
  }

  deletePrefix(prefix: string): Promise<number> {
    return this.call({ op: 'deletePrefix', prefix });
  }

  async publish(name: string, entries: SnapshotEntry[], options: PublishOptions): Promise<SnapshotInfo> {
    if (this.calls.closed) throw this.calls.closedError();
    const pid = this.nextPublish++;
    let pieces: string[] = [];
    let chars = 0;
    const flush = () => {
      const { packed, transfer } = pack(pieces);
      this.port.postMessage({ op: 'publish-chunk', pid, name, entries: packed } satisfies Call, transfer);
      pieces = [];
      chars = 0;
    };
    for (const e of entries) {
      const json = serializeDoc(e.value);
      pieces.push(e.key, json);
      chars += json.length;
      if (pieces.length >= 2 * PUBLISH_CHUNK || chars >= PUBLISH_CHUNK_CHARS) flush();
    }
    if (pieces.length) flush();
    return this.call({ op: 'publish-end', pid, name, options });
  }

  current(name: string): Promise<SnapshotInfo | null> {
    return this.call({ op: 'current', name });
  }

  currentId(name: string): Promise<string | null> {
    return this.call({ op: 'currentId', name });
  }

  snapshot(name: string, id: string): Promise<SnapshotInfo | null> {
    return this.call({ op: 'snapshot', name, sid: id });
  }

  retiredAt(name: string, id: string): Promise<number | null> {
    return this.call({ op: 'retiredAt', name, sid: id });
  }

  async entries<T = unknown>(name: string, id: string, keys: string[]): Promise<(T | null)[]> {
    const texts = await this.call<(string | null)[]>({ op: 'entries', name, sid: id, keys });
    return texts.map((j) => (j === null ? null : (JSON.parse(j) as T)));
  }

  async range<T = unknown>(name: string, id: string, start: number, end: number): Promise<SnapshotEntry<T>[]> {
    const r = await this.call<{ keys: string[]; json: string[] }>({ op: 'range', name, sid: id, start, end });
    return r.keys.map((key, i) => ({ key, value: JSON.parse(r.json[i]!) as T }));
  }

  dropSnapshots(name: string): Promise<void> {
    return this.call({ op: 'dropSnapshots', name });
  }

  /** Closes this end of the port (the store itself belongs to the serving thread). */
  async close(): Promise<void> {
    this.calls.close();
  }
}
