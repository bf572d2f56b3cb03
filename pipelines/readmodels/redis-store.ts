// Redis SnapshotStore (ioredis) for the scale-out stack. In: versioned documents and published
// snapshots. Out: the same reads as the in-process store (snapshots.contract.ts).
//
// Key layout under a namespace (default 'pm:', random per test):
//   <ns>d:<key>                    document, stored as '<version>|<json>' so the version check runs in
//                                  Lua without parsing JSON
//   <ns>s:<name>:cur               id of the current snapshot
//   <ns>s:<name>:ids               zset of snapshot ids, scored by the time each stopped being current
//                                  (+inf while current; one retainMs after its publish began while it
//                                  is being written); used to evict after retainMs
//   <ns>s:<name>:<id>:i            snapshot info (JSON)
//   <ns>s:<name>:<id>:h            hash key -> JSON of the snapshot's entries
//   <ns>s:<name>:<id>:o            list of keys in publish order
// A publish registers its id in 'ids', writes the new snapshot's keys aside, then one Lua script
// swaps 'cur' (readers see either the whole old or the whole new snapshot, never a mix; a snapshot
// evicted meanwhile is refused), then evicts expired snapshots, a publish that died half way included.
//
// Generations (replay without downtime): with `generations` on, the keys above live under
// <ns>g:<generation>: when the pointer key <ns>gen names one (under <ns> itself while it is unset).
// bin/replay.ts --side-by-side rebuilds the read models into a new generation while every process
// keeps reading and writing the current one, then switches the pointer in one command and drops the
// old generation. Each store re-reads the pointer at most every GENERATION_REFRESH_MS, so a process
// follows a switch within that time; the old generation is dropped only after a multiple of it.
import { Redis, type RedisOptions } from 'ioredis';
import { DEFAULT_RETAIN_MS, nextSnapshotId } from './memory-store.ts';
import {
  serializeDoc,
  type PublishOptions,
  type SnapshotEntry,
  type SnapshotInfo,
  type SnapshotStore,
  type Versioned,
} from './snapshots.ts';

const PUT = `
local n = 0
for i = 1, #KEYS do
  local cur = redis.call('GET', KEYS[i])
  local ok = true
  if cur then
    local sep = string.find(cur, '|', 1, true)
    if sep and tonumber(string.sub(cur, 1, sep - 1)) >= tonumber(ARGV[2 * i - 1]) then ok = false end
  end
  if ok then
    redis.call('SET', KEYS[i], ARGV[2 * i - 1] .. '|' .. ARGV[2 * i])
    n = n + 1
  end
end
return n`;

const DEL = `
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
if ARGV[1] ~= '' then
  local sep = string.find(cur, '|', 1, true)
  if sep and tonumber(string.sub(cur, 1, sep - 1)) > tonumber(ARGV[1]) then return 0 end
end
redis.call('DEL', KEYS[1])
return 1`;

const SWAP = `
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return redis.error_reply('EVICTED snapshot ' .. ARGV[1] .. ' was evicted while it was written') end
local prev = redis.call('GET', KEYS[1])
if prev and prev ~= ARGV[1] then redis.call('ZADD', KEYS[2], ARGV[2], prev) end
redis.call('ZADD', KEYS[2], '+inf', ARGV[1])
redis.call('SET', KEYS[1], ARGV[1])
return prev`;

interface Scripts {
  pmPut(...args: (string | number)[]): Promise<number>;
  pmDel(k: string, version: string): Promise<number>;
  pmSwap(cur: string, ids: string, id: string, now: string): Promise<string | null>;
  pmSwitchGen(pointer: string, from: string, to: string): Promise<number>;
}

const CHUNK = 500;

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

function parseDoc<T>(key: string, raw: string | null): Versioned<T> | null {
  if (raw === null) return null;
  const sep = raw.indexOf('|');
  return { key, version: Number(raw.slice(0, sep)), value: JSON.parse(raw.slice(sep + 1)) as T };
}

export interface RedisStoreOptions {
  url: string;
  /** Key namespace; default 'pm:'. */
  namespace?: string;
  redis?: RedisOptions;
  /**
   * How long a read may wait for its replies, queued while reconnecting included (default
   * SNAPSHOT_READ_TIMEOUT_MS). Without it a stalled Redis held a request until Redis answered, past
   * the 9 s request deadline; with it the read fails and the route answers 503. Writes (publishes,
   * documents, a replay's copies) are not bounded: a slow one is waited for, as before.
   */
  readTimeoutMs?: number;
  /** Follow the generation pointer <namespace>gen (the service's stores); off: keys under namespace itself. */
  generations?: boolean;
}

/**
 * A snapshot read that gets no reply within this fails (spec "Limits": per-request deadline 9
 * seconds; an API key check before it waits at most 2 s).
 */
export const SNAPSHOT_READ_TIMEOUT_MS = 5000;

/** p, or a rejection once ms passed first (the command is not cancelled: its late reply is dropped). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the Redis snapshot store gave no answer to ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** How often a store re-reads the generation pointer: how long a process takes to follow a switch. */
export const GENERATION_REFRESH_MS = 1000;

/** The key namespace of one generation under a base namespace ('' is the base itself). */
export function generationNamespace(base: string, generation: string): string {
  return generation === '' ? base : `${base}g:${generation}:`;
}

const SWITCH_GEN = `
local cur = redis.call('GET', KEYS[1]) or ''
if cur ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1`;

/**
 * An ioredis client as the pipeline's Redis read models use it (the snapshot store, the roll-up's
 * lease): a few retries per command and a short reconnection backoff, so a Redis outage reaches
 * callers as rejected commands. Without an error listener ioredis reports every failed
 * reconnection during an outage as an "Unhandled error event".
 */
export function redisClient(url: string, extra?: RedisOptions): Redis {
  const r = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3, retryStrategy: (times) => Math.min(times * 50, 500), ...extra });
  r.on('error', () => {});
  return r;
}

export class RedisSnapshotStore implements SnapshotStore {
  readonly kind = 'redis' as const;
  readonly durable = true;
  readonly redis: Redis & Scripts;
  /** The base namespace; the keys live under the current generation's (generationNamespace). */
  readonly base: string;
  private readonly follows: boolean;
  private ns: string;
  private nsReadAt = -Infinity;
  private nsReading: Promise<string> | null = null;
  private readonly readTimeoutMs: number;

  constructor(options: RedisStoreOptions) {
    this.base = options.namespace ?? 'pm:';
    this.ns = this.base;
    this.follows = options.generations ?? false;
    this.readTimeoutMs = options.readTimeoutMs ?? SNAPSHOT_READ_TIMEOUT_MS;
    const r = redisClient(options.url, options.redis);
    r.defineCommand('pmPut', { lua: PUT });
    r.defineCommand('pmDel', { numberOfKeys: 1, lua: DEL });
    r.defineCommand('pmSwap', { numberOfKeys: 2, lua: SWAP });
    r.defineCommand('pmSwitchGen', { numberOfKeys: 1, lua: SWITCH_GEN });
    this.redis = r as Redis & Scripts;
  }

  private get pointer(): string {
    return `${this.base}gen`;
  }

  /** The current generation ('' while the pointer is unset), read from Redis now. */
  async generation(): Promise<string> {
    return (await this.redis.get(this.pointer)) ?? '';
  }

  /**
   * Moves the pointer from one generation to another in one command; false (nothing changed) when
   * the pointer no longer names `from` (another replay switched first).
   */
  async switchGeneration(from: string, to: string): Promise<boolean> {
    const ok = (await this.redis.pmSwitchGen(this.pointer, from, to)) === 1;
    if (ok) this.nsReadAt = -Infinity;
    return ok;
  }

  /** Deletes every document and snapshot of a generation (never the keys beside them: auth, the pointer). */
  async dropGeneration(generation: string): Promise<number> {
    const ns = generationNamespace(this.base, generation);
    let n = 0;
    for (const part of ['d:', 's:']) {
      const keys = [...new Set(await this.scanKeys(`${escapeGlob(ns + part)}*`))];
      for (let i = 0; i < keys.length; i += CHUNK) n += await this.redis.unlink(...keys.slice(i, i + CHUNK));
    }
    return n;
  }

  /** Copies one name's snapshots (current and retained) from a generation into another, as they are. */
  async copySnapshots(name: string, from: string, to: string): Promise<number> {
    const src = generationNamespace(this.base, from);
    const dst = generationNamespace(this.base, to);
    const keys = [...new Set(await this.scanKeys(`${escapeGlob(`${src}s:${name}:`)}*`))];
    for (const k of keys) await this.redis.copy(k, dst + k.slice(src.length), 'REPLACE');
    return keys.length;
  }

  /** The namespace of the current generation (the pointer re-read at most every GENERATION_REFRESH_MS). */
  private async space(): Promise<string> {
    if (!this.follows || Date.now() - this.nsReadAt < GENERATION_REFRESH_MS) return this.ns;
    this.nsReading ??= this.generation()
      .then((g) => {
        this.ns = generationNamespace(this.base, g);
        this.nsReadAt = Date.now();
        return this.ns;
      })
      .finally(() => {
        this.nsReading = null;
      });
    return this.nsReading;
  }

  /** A read of the request path (a point read or a snapshot's), bounded by readTimeoutMs; scans and mget are not. */
  private read<T>(what: string, f: () => Promise<T>): Promise<T> {
    return within(f(), this.readTimeoutMs, what);
  }

  private d(ns: string, key: string): string {
    return `${ns}d:${key}`;
  }
  private s(ns: string, name: string, part: string): string {
    return `${ns}s:${name}:${part}`;
  }

  async get<T>(key: string): Promise<Versioned<T> | null> {
    return this.read('get', async () => {
      const ns = await this.space();
      return parseDoc<T>(key, await this.redis.get(this.d(ns, key)));
    });
  }

  async mget<T>(keys: string[]): Promise<(Versioned<T> | null)[]> {
    const ns = await this.space();
    if (keys.length === 0) return [];
    const out: (Versioned<T> | null)[] = [];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const part = keys.slice(i, i + CHUNK);
      const raws = await this.redis.mget(...part.map((k) => this.d(ns, k)));
      raws.forEach((raw, j) => out.push(parseDoc<T>(part[j]!, raw)));
    }
    return out;
  }

  async put(key: string, value: unknown, version: number): Promise<boolean> {
    return (await this.putMany([{ key, value, version }])) === 1;
  }

  async putMany(docs: Versioned[]): Promise<number> {
    const ns = await this.space();
    let n = 0;
    for (let i = 0; i < docs.length; i += CHUNK) {
      const part = docs.slice(i, i + CHUNK);
      const args: (string | number)[] = [part.length];
      for (const d of part) args.push(this.d(ns, d.key));
      for (const d of part) args.push(String(d.version), serializeDoc(d.value));
      n += await this.redis.pmPut(...args);
    }
    return n;
  }

  async delete(key: string, version?: number): Promise<boolean> {
    const ns = await this.space();
    return (await this.redis.pmDel(this.d(ns, key), version === undefined ? '' : String(version))) === 1;
  }

  private async scanKeys(match: string): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  }

  async scan(prefix: string): Promise<string[]> {
    const ns = await this.space();
    const base = this.d(ns, '');
    const keys = await this.scanKeys(`${escapeGlob(this.d(ns, prefix))}*`);
    return [...new Set(keys.map((k) => k.slice(base.length)))].sort();
  }

  async deletePrefix(prefix: string): Promise<number> {
    const ns = await this.space();
    const keys = [...new Set(await this.scanKeys(`${escapeGlob(this.d(ns, prefix))}*`))];
    let n = 0;
    for (let i = 0; i < keys.length; i += CHUNK) n += await this.redis.unlink(...keys.slice(i, i + CHUNK));
    return n;
  }

  async publish(name: string, entries: SnapshotEntry[], options: PublishOptions): Promise<SnapshotInfo> {
    const ns = await this.space();
    const now = options.now ?? Date.now();
    const id = options.id ?? nextSnapshotId(now);
    const retainMs = options.retainMs ?? DEFAULT_RETAIN_MS;
    const h = this.s(ns, name, `${id}:h`);
    const o = this.s(ns, name, `${id}:o`);
    const ids = this.s(ns, name, 'ids');
    // Registered before its pages are written, scored as if it stopped being current one retention
    // after this publish began: a publisher killed before the swap leaves pages that a later publish
    // evicts like any retired snapshot's (they stayed in Redis for good). NX: a snapshot already
    // known keeps its score (+inf while current). Should another publisher evict it all the same
    // (this publish outlasting twice the retention), the swap refuses it and its keys go.
    await this.redis.zadd(ids, 'NX', String(now + retainMs), id);
    await this.redis.unlink(h, o);
    const seen = new Set<string>();
    for (let i = 0; i < entries.length; i += CHUNK) {
      const part = entries.slice(i, i + CHUNK);
      const fresh = part.filter((e) => !seen.has(e.key) && seen.add(e.key));
      const p = this.redis.pipeline();
      p.hset(h, ...part.flatMap((e) => [e.key, serializeDoc(e.value)]));
      if (fresh.length > 0) p.rpush(o, ...fresh.map((e) => e.key));
      await p.exec();
    }
    const info: SnapshotInfo = {
      name,
      id,
      publishedAt: now,
      observedAt: options.observedAt,
      count: seen.size,
      meta: options.meta ?? {},
    };
    await this.redis.set(this.s(ns, name, `${id}:i`), JSON.stringify(info));
    try {
      await this.redis.pmSwap(this.s(ns, name, 'cur'), ids, id, String(now));
    } catch (e) {
      if (String(e).includes('EVICTED')) await this.redis.unlink(this.s(ns, name, `${id}:i`), h, o);
      throw e;
    }
    const expired = await this.redis.zrangebyscore(ids, '-inf', `(${now - retainMs}`);
    for (const old of expired) {
      if (old === id) continue;
      await this.redis.unlink(this.s(ns, name, `${old}:i`), this.s(ns, name, `${old}:h`), this.s(ns, name, `${old}:o`));
      await this.redis.zrem(ids, old);
    }
    return info;
  }

  async current(name: string): Promise<SnapshotInfo | null> {
    return this.read('current', async () => {
      const ns = await this.space();
      const id = await this.redis.get(this.s(ns, name, 'cur'));
      return id === null ? null : this.snapshot(name, id);
    });
  }

  async currentId(name: string): Promise<string | null> {
    return this.read('currentId', async () => {
      const ns = await this.space();
      return this.redis.get(this.s(ns, name, 'cur'));
    });
  }

  async retiredAt(name: string, id: string): Promise<number | null> {
    return this.read('retiredAt', async () => {
      const ns = await this.space();
      // The ids zset scores each snapshot by when it stopped being current, +inf while current.
      const score = await this.redis.zscore(this.s(ns, name, 'ids'), id);
      if (score === null) return null;
      const n = Number(score);
      return Number.isFinite(n) ? n : null;
    });
  }

  async snapshot(name: string, id: string): Promise<SnapshotInfo | null> {
    return this.read('snapshot', async () => {
      const ns = await this.space();
      const raw = await this.redis.get(this.s(ns, name, `${id}:i`));
      return raw === null ? null : (JSON.parse(raw) as SnapshotInfo);
    });
  }

  async entries<T>(name: string, id: string, keys: string[]): Promise<(T | null)[]> {
    return this.read('entries', async () => {
      const ns = await this.space();
      if (keys.length === 0) return [];
      const raws = await this.redis.hmget(this.s(ns, name, `${id}:h`), ...keys);
      return raws.map((r) => (r === null ? null : (JSON.parse(r) as T)));
    });
  }

  async range<T>(name: string, id: string, start: number, end: number): Promise<SnapshotEntry<T>[]> {
    return this.read('range', async () => {
      const ns = await this.space();
      const from = Math.max(0, start);
      if (end <= from) return [];
      const keys = await this.redis.lrange(this.s(ns, name, `${id}:o`), from, end - 1);
      if (keys.length === 0) return [];
      const raws = await this.redis.hmget(this.s(ns, name, `${id}:h`), ...keys);
      // Evicted between the two reads: [] as when evicted before them, never entries without values.
      if (raws.some((r) => r === null)) return [];
      return keys.map((key, i) => ({ key, value: JSON.parse(raws[i]!) as T }));
    });
  }

  async dropSnapshots(name: string): Promise<void> {
    const ns = await this.space();
    const base = this.s(ns, name, '');
    // Only this name's keys: the scan of '<name>:*' also matches every name that begins with
    // '<name>:' ('cat' and 'cat:eu'), so what it finds is kept to 'cur', 'ids' and '<id>:i|h|o'
    // (generated ids hold no colon), with the ids the zset names (an id given with a colon).
    const own = /^(?:cur|ids|[^:]*:[iho])$/;
    const listed = await this.redis.zrange(this.s(ns, name, 'ids'), '0', '-1');
    const found = (await this.scanKeys(`${escapeGlob(base)}*`)).filter((k) => own.test(k.slice(base.length)));
    const keys = [...new Set([...found, ...listed.flatMap((id) => ['i', 'h', 'o'].map((p) => this.s(ns, name, `${id}:${p}`)))])];
    for (let i = 0; i < keys.length; i += CHUNK) await this.redis.unlink(...keys.slice(i, i + CHUNK));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
