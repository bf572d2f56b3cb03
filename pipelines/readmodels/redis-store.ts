// Redis SnapshotStore (ioredis) for the scale-out stack. In: versioned documents and published
// snapshots. Out: the same reads as the in-process store (snapshots.contract.ts).
//
// Key layout under a namespace (default 'pm:', random per test):
//   <ns>d:<key>                    document, stored as '<version>|<json>' so the version check runs in
//                                  Lua without parsing JSON
//   <ns>s:<name>:cur               id of the current snapshot
//   <ns>s:<name>:ids               zset of snapshot ids, scored by the time each stopped being current
//                                  (+inf while current); used to evict after retainMs
//   <ns>s:<name>:<id>:i            snapshot info (JSON)
//   <ns>s:<name>:<id>:h            hash key -> JSON of the snapshot's entries
//   <ns>s:<name>:<id>:o            list of keys in publish order
// A publish writes the new snapshot's keys aside, then one Lua script swaps 'cur' (readers see
// either the whole old or the whole new snapshot, never a mix), then evicts expired snapshots.
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
local prev = redis.call('GET', KEYS[1])
if prev and prev ~= ARGV[1] then redis.call('ZADD', KEYS[2], ARGV[2], prev) end
redis.call('ZADD', KEYS[2], '+inf', ARGV[1])
redis.call('SET', KEYS[1], ARGV[1])
return prev`;

interface Scripts {
  pmPut(...args: (string | number)[]): Promise<number>;
  pmDel(k: string, version: string): Promise<number>;
  pmSwap(cur: string, ids: string, id: string, now: string): Promise<string | null>;
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
}

export class RedisSnapshotStore implements SnapshotStore {
  readonly kind = 'redis' as const;
  readonly durable = true;
  readonly redis: Redis & Scripts;
  private readonly ns: string;

  constructor(options: RedisStoreOptions) {
    this.ns = options.namespace ?? 'pm:';
    const r = new Redis(options.url, { lazyConnect: false, maxRetriesPerRequest: 3, retryStrategy: (times) => Math.min(times * 50, 500), ...options.redis });
    // Without a listener ioredis reports every failed reconnection during a Redis outage as an
    // "Unhandled error event"; the failures reach callers as rejected commands.
    r.on('error', () => {});
    r.defineCommand('pmPut', { lua: PUT });
    r.defineCommand('pmDel', { numberOfKeys: 1, lua: DEL });
    r.defineCommand('pmSwap', { numberOfKeys: 2, lua: SWAP });
    this.redis = r as Redis & Scripts;
  }

  private d(key: string): string {
    return `${this.ns}d:${key}`;
  }
  private s(name: string, part: string): string {
    return `${this.ns}s:${name}:${part}`;
  }

  async get<T>(key: string): Promise<Versioned<T> | null> {
    return parseDoc<T>(key, await this.redis.get(this.d(key)));
  }

  async mget<T>(keys: string[]): Promise<(Versioned<T> | null)[]> {
    if (keys.length === 0) return [];
    const out: (Versioned<T> | null)[] = [];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const part = keys.slice(i, i + CHUNK);
      const raws = await this.redis.mget(...part.map((k) => this.d(k)));
      raws.forEach((raw, j) => out.push(parseDoc<T>(part[j]!, raw)));
    }
    return out;
  }

  async put(key: string, value: unknown, version: number): Promise<boolean> {
    return (await this.putMany([{ key, value, version }])) === 1;
  }

  async putMany(docs: Versioned[]): Promise<number> {
    let n = 0;
    for (let i = 0; i < docs.length; i += CHUNK) {
      const part = docs.slice(i, i + CHUNK);
      const args: (string | number)[] = [part.length];
      for (const d of part) args.push(this.d(d.key));
      for (const d of part) args.push(String(d.version), serializeDoc(d.value));
      n += await this.redis.pmPut(...args);
    }
    return n;
  }

  async delete(key: string, version?: number): Promise<boolean> {
    return (await this.redis.pmDel(this.d(key), version === undefined ? '' : String(version))) === 1;
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
    const base = this.d('');
    const keys = await this.scanKeys(`${escapeGlob(this.d(prefix))}*`);
    return [...new Set(keys.map((k) => k.slice(base.length)))].sort();
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = [...new Set(await this.scanKeys(`${escapeGlob(this.d(prefix))}*`))];
    let n = 0;
    for (let i = 0; i < keys.length; i += CHUNK) n += await this.redis.unlink(...keys.slice(i, i + CHUNK));
    return n;
  }

  async publish(name: string, entries: SnapshotEntry[], options: PublishOptions): Promise<SnapshotInfo> {
    const now = options.now ?? Date.now();
    const id = options.id ?? nextSnapshotId(now);
    const retainMs = options.retainMs ?? DEFAULT_RETAIN_MS;
    const h = this.s(name, `${id}:h`);
    const o = this.s(name, `${id}:o`);
    await this.redis.unlink(h, o);
    const seen = new Set<string>();
    for (let i = 0; i < entries.length; i += CHUNK) {
      const part = entries.slice(i, i + CHUNK);
      const fresh = part.filter((e) => !seen.has(e.key) && seen.add(e.key));
      const p = this.redis.pipeline();
      p.hset(h, ...part.flatMap((e) => [e.key, JSON.stringify(e.value)]));
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
    await this.redis.set(this.s(name, `${id}:i`), JSON.stringify(info));
    await this.redis.pmSwap(this.s(name, 'cur'), this.s(name, 'ids'), id, String(now));
    const expired = await this.redis.zrangebyscore(this.s(name, 'ids'), '-inf', `(${now - retainMs}`);
    for (const old of expired) {
      if (old === id) continue;
      await this.redis.unlink(this.s(name, `${old}:i`), this.s(name, `${old}:h`), this.s(name, `${old}:o`));
      await this.redis.zrem(this.s(name, 'ids'), old);
    }
    return info;
  }

  async current(name: string): Promise<SnapshotInfo | null> {
    const id = await this.redis.get(this.s(name, 'cur'));
    return id === null ? null : this.snapshot(name, id);
  }

  async currentId(name: string): Promise<string | null> {
    return this.redis.get(this.s(name, 'cur'));
  }

  async retiredAt(name: string, id: string): Promise<number | null> {
    // The ids zset scores each snapshot by when it stopped being current, +inf while current.
    const score = await this.redis.zscore(this.s(name, 'ids'), id);
    if (score === null) return null;
    const n = Number(score);
    return Number.isFinite(n) ? n : null;
  }

  async snapshot(name: string, id: string): Promise<SnapshotInfo | null> {
    const raw = await this.redis.get(this.s(name, `${id}:i`));
    return raw === null ? null : (JSON.parse(raw) as SnapshotInfo);
  }

  async entries<T>(name: string, id: string, keys: string[]): Promise<(T | null)[]> {
    if (keys.length === 0) return [];
    const raws = await this.redis.hmget(this.s(name, `${id}:h`), ...keys);
    return raws.map((r) => (r === null ? null : (JSON.parse(r) as T)));
  }

  async range<T>(name: string, id: string, start: number, end: number): Promise<SnapshotEntry<T>[]> {
    const from = Math.max(0, start);
    if (end <= from) return [];
    const keys = await this.redis.lrange(this.s(name, `${id}:o`), from, end - 1);
    const values = await this.entries<T>(name, id, keys);
    return keys.map((key, i) => ({ key, value: values[i] as T }));
  }

  async dropSnapshots(name: string): Promise<void> {
    const keys = await this.scanKeys(`${escapeGlob(this.s(name, ''))}*`);
    for (let i = 0; i < keys.length; i += CHUNK) await this.redis.unlink(...keys.slice(i, i + CHUNK));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
