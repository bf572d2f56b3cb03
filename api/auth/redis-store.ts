// Redis key store for the stack (ioredis). In: key hashes, account records, request time. Out: the
// store.ts contract. authorize() is ONE Lua script (one round trip): key lookup, permission,
// the rolling 60 s sliding log over a sorted set, and the monthly usage counter, all atomic, so
// several API processes sharing Redis never admit more than the limit in any 60 s window. The
// requests asked in one turn of the event loop share one run of it (each decided as if alone, in
// the order asked): per request, a socket write and a command on each side cost more than the
// script's work (bench/routes.md, 2026-11-28). By default the script takes the time from Redis
// (TIME), one clock for every API process.
// Layout under the prefix: h:<hash> (hash: id, account, perms), key:<id> (JSON KeyRecord),
// acct:<id> (hash: json + denormalized served limits), active:<account> (set of active key ids),
// keys (set of all key ids), accts (set of account ids), rl:<keyId> (zset), u:<account>:<YYYY-MM>.
// Revocation deletes h:<hash>, so it takes effect on the very next request (no cache).
// Across a Redis restart the limiter keeps its promise because the windows are durable, not by
// failing closed: infra/scripts/start-redis.sh (and compose) run Redis with the append-only file,
// appendfsync everysec. Redis writes each command to the AOF before it sends the reply, so every
// admission a client was told about is replayed by a restart, clean or SIGKILL; rl:<keyId> keeps
// its absolute expiry and the script reads the time from Redis (TIME), so a window picks up where
// it stopped (redis-durability.int.spec.ts). Failing closed for 60 s after each restart (run_id
// changed) would refuse every key for a minute to cover a loss that the AOF already prevents; what
// stays uncovered is a crash of the host itself, which can lose the last second not yet fsynced.
import { Redis } from 'ioredis';
import type { AccountRecord, AuthorizeInput, AuthorizeResult, KeyRecord, KeyStore } from './store.ts';
import type { PlanKey } from './plans.ts';

/**
 * KEYS[1] the account's stream slots; ARGV conn, limit, now, expiresAt. Drops expired slots, then
 * takes one for conn unless limit are held; the key lives as long as its latest slot (a TTL from
 * the caller's clock, not Redis's). 1 taken, 0 full.
 */
const STREAM_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]) - tonumber(ARGV[3])))
return 1
`;
/** KEYS[1] the account's stream slots; ARGV conn, now, expiresAt. Extends a slot still held: 1, else 0. */
const STREAM_RENEW = `
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s == false or tonumber(s) <= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]) - tonumber(ARGV[2])))
return 1
`;

/**
 * The authorization of every request of one batch (the requests that asked in one turn of the event
 * loop), each as the one-request script did it, in order, in one atomic call: a batch of n costs one
 * round trip, one socket write and one script run instead of n. KEYS[i] request i's h:<hash>. ARGV
 * prefix, member suffix, then per request permission ('' none), now ('' Redis TIME, read once per
 * batch), period. Out: one reply per request, {kind, ...} as below, or {-1, message} when that
 * request's commands failed (the others stand).
 */
const AUTHORIZE = `
local p = ARGV[1]
local sfx = ARGV[2]
local clock
-- Keys and accounts read once per run (nothing in it writes them): the requests of one account, or
-- of one key, in a batch read its record once.
local keys, accts = {}, {}
local function authorize(i)
  local perm, at, period = ARGV[3 * i], ARGV[3 * i + 1], ARGV[3 * i + 2]
  local k = keys[KEYS[i]]
  if not k then
    k = redis.call('HMGET', KEYS[i], 'id', 'account', 'perms')
    keys[KEYS[i]] = k
  end
  if not k[1] then return {0} end
  local a = accts[k[2]]
  if not a then
    a = redis.call('HMGET', p .. 'acct:' .. k[2], 'served_plan', 'rate_limit', 'included', 'hard_cap', 'action', 'plan')
    accts[k[2]] = a
  end
  if not a[1] then return {0} end
  local now
  if at == '' then
    if not clock then
      local t = redis.call('TIME')
      clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    now = clock
  else
    now = tonumber(at)
  end
  local limit = tonumber(a[2])
  local rl = p .. 'rl:' .. k[1]
  redis.call('ZREMRANGEBYSCORE', rl, '-inf', now - 60000)
  local count = redis.call('ZCARD', rl)
  -- When the oldest request in the window ages out; with none in it, the caller's default.
  local function resetOr(default)
    if count == 0 then return default end
    return tonumber(redis.call('ZRANGE', rl, 0, 0, 'WITHSCORES')[2]) + 60000
  end
  if perm ~= '' and not string.find(k[3], ',' .. perm .. ',', 1, true) then
    return {1, k[1], k[2], a[1], limit, limit - count, resetOr(now), now}
  end
  if count >= limit then
    return {2, k[1], k[2], a[1], limit, 0, resetOr(now + 60000), now}
  end
  redis.call('ZADD', rl, now, now .. sfx .. i)
  redis.call('PEXPIRE', rl, 61000)
  count = count + 1
  local oldest = now
  if count > 1 then oldest = tonumber(redis.call('ZRANGE', rl, 0, 0, 'WITHSCORES')[2]) end
  local uk = p .. 'u:' .. k[2] .. ':' .. period
  if a[4] == '1' then
    local used = tonumber(redis.call('GET', uk) or '0')
    if used >= tonumber(a[3]) then
      return {3, k[1], k[2], a[1], limit, limit - count, oldest + 60000, now, a[5], a[6], tonumber(a[3]), used}
    end
  end
  local used = redis.call('INCR', uk)
  if used == 1 then redis.call('EXPIRE', uk, 34560000) end
  return {4, k[1], k[2], a[1], limit, limit - count, oldest + 60000, now}
end
local out = {}
for i = 1, #KEYS do
  local ok, r = pcall(authorize, i)
  if ok then
    out[i] = r
  else
    out[i] = {-1, type(r) == 'table' and (r.err or 'error') or tostring(r)}
  end
end
return out
`;

// KEYS: active set, key json, hash record. ARGV: max keys, id, json, hash fields...
const INSERT_KEY = `
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
redis.call('HSET', KEYS[3], 'id', ARGV[2], 'account', ARGV[4], 'perms', ARGV[5])
return 1
`;

// Compare-and-set of a key's JSON record (the JSON is built in TS, so Lua never re-encodes it).
// KEYS: key json. ARGV: prefix, expected json, new json, old hash, new hash ('' = revoke), account, id, perms.
const REVOKE_OR_REROLL = `
if redis.call('GET', KEYS[1]) ~= ARGV[2] then return -1 end
redis.call('DEL', ARGV[1] .. 'h:' .. ARGV[4])
if ARGV[5] == '' then
  redis.call('SREM', ARGV[1] .. 'active:' .. ARGV[6], ARGV[7])
else
  redis.call('HSET', ARGV[1] .. 'h:' .. ARGV[5], 'id', ARGV[7], 'account', ARGV[6], 'perms', ARGV[8])
end
redis.call('SET', KEYS[1], ARGV[3])
return 1
`;

/** The key store's connection is down: authorize() refuses without waiting for it. */
export class KeyStoreUnreachable extends Error {
  constructor(status: string) {
    super(`the Redis key store is unreachable (connection ${status})`);
  }
}

export interface RedisStoreOptions {
  url?: string;
  client?: Redis;
  /** Namespace of every key (random per test). */
  prefix: string;
  commandTimeoutMs?: number;
}

type AuthorizeReply = [number, string?, string?, string?, number?, number?, number?, number?, string?, string?, number?, number?];

// Sorted-set members must be unique per request: time + a per-process tag + the batch's number + the
// request's place in it.
const MEMBER_TAG = Math.random().toString(36).slice(2, 8);
let batchSeq = 0;

/** Requests per script run at most (a longer batch is cut into several runs, sent together). */
export const AUTHORIZE_BATCH_MAX = 256;

interface Pending {
  hash: string;
  permission: string;
  now: string;
  period: string;
  resolve(r: AuthorizeResult): void;
  reject(err: unknown): void;
}

/** A request's verdict from its part of the script's reply. */
function verdict(r: AuthorizeReply): AuthorizeResult {
  const kind = r[0];
  if (kind === 0) return { kind: 'invalid' };
  const key = { keyId: r[1]!, accountId: r[2]!, servedPlan: r[3] as PlanKey };
  const limit = Number(r[4]);
  const window = { limit, remaining: Math.max(0, Number(r[5])), resetAt: Number(r[6]) };
  if (kind === 1) return { kind: 'forbidden', key, window };
  if (kind === 2) return { kind: 'rate_limited', key, window, now: Number(r[7]) };
  if (kind === 3) {
    return { kind: 'payment_required', key, window, action: r[8] as 'upgrade_plan' | 'resolve_payment', plan: r[9] as PlanKey, included: Number(r[10]), used: Number(r[11]) };
  }
  return { kind: 'ok', key, window };
}

const permsField = (perms: readonly string[]): string => `,${perms.join(',')},`;

export class RedisKeyStore implements KeyStore {
  readonly kind = 'redis' as const;
  readonly redis: Redis;
  private readonly p: string;
  private readonly owned: boolean;
  /** Connected once: a connection lost since then fails requests at once (see authorize). */
  private wasReady = false;

  constructor(opts: RedisStoreOptions) {
    this.p = opts.prefix;
    this.owned = opts.client === undefined;
    this.redis =
      opts.client ??
      new Redis(opts.url ?? 'redis://127.0.0.1:6379', {
        // Bounded: a store that stops answering is a 502 within this, not a hung request.
        commandTimeout: opts.commandTimeoutMs ?? 2000,
        connectTimeout: opts.commandTimeoutMs ?? 2000,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
        // Reconnect at least every 500 ms, so requests succeed again soon after Redis is back.
        retryStrategy: (times) => Math.min(times * 50, 500),
        // Auto-pipelining off: A/B runs showed no reliable gain under HTTP load (bench/api.md).
      });
    // A client passed in may be connected already, and then emits no 'ready' for us.
    this.wasReady = this.redis.status === 'ready';
    this.redis.on('ready', () => {
      this.wasReady = true;
    });
    // Without a listener ioredis reports every failed reconnection as an "Unhandled error event".
    // The failures reach callers as rejected commands (authorize: 502, keys.ts: its error message).
    this.redis.on('error', () => {});
    // Its number of keys is each call's first argument (one key per request of the batch).
    this.redis.defineCommand('pmAuthorize', { lua: AUTHORIZE });
    this.redis.defineCommand('pmInsertKey', { numberOfKeys: 4, lua: INSERT_KEY });
    this.redis.defineCommand('pmRevokeOrReroll', { numberOfKeys: 1, lua: REVOKE_OR_REROLL });
    this.redis.defineCommand('pmStreamSlot', { numberOfKeys: 1, lua: STREAM_SLOT });
    this.redis.defineCommand('pmStreamRenew', { numberOfKeys: 1, lua: STREAM_RENEW });
  }

  private cmd(): Record<string, (...args: unknown[]) => Promise<unknown>> {
    return this.redis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  }

  /** The requests asked since the last flush, sent together at the end of this turn of the event loop. */
  private pending: Pending[] = [];

  authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    // Redis went away after we had it: answer now rather than queue the request behind the
    // reconnection for commandTimeout (an outage would hold every request for 2 s). Before the
    // first connection, requests wait (bounded) so a process that just started does not refuse.
    if (this.wasReady && this.redis.status !== 'ready') return Promise.reject(new KeyStoreUnreachable(this.redis.status));
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(this.flush);
      this.pending.push({ hash: input.hash, permission: input.permission ?? '', now: input.now === undefined ? '' : String(input.now), period: input.period, resolve, reject });
    });
  }

  /**
   * Sends the pending requests as one script run (several past AUTHORIZE_BATCH_MAX). setImmediate
   * runs it after the loop's poll phase, so every request parsed from the sockets read in that
   * phase goes in one write; one request alone waits no more than that turn.
   */
  private readonly flush = (): void => {
    const all = this.pending;
    this.pending = [];
    if (this.wasReady && this.redis.status !== 'ready') {
      const err = new KeyStoreUnreachable(this.redis.status);
      for (const q of all) q.reject(err);
      return;
    }
    for (let from = 0; from < all.length; from += AUTHORIZE_BATCH_MAX) {
      const batch = all.length <= AUTHORIZE_BATCH_MAX ? all : all.slice(from, from + AUTHORIZE_BATCH_MAX);
      const args: (string | number)[] = [batch.length];
      for (const q of batch) args.push(this.p + 'h:' + q.hash);
      args.push(this.p, `-${MEMBER_TAG}-${(batchSeq++).toString(36)}-`);
      for (const q of batch) args.push(q.permission, q.now, q.period);
      (this.cmd().pmAuthorize(...args) as Promise<AuthorizeReply[]>).then(
        (replies) => {
          for (let i = 0; i < batch.length; i++) {
            const r = replies[i];
            // A reply short of a request's (never seen) must not leave that request unanswered.
            if (r === undefined || r[0] === -1) batch[i].reject(new Error(`the key store's authorize script failed: ${r === undefined ? 'no reply for this request' : String(r[1])}`));
            else batch[i].resolve(verdict(r));
          }
        },
        (err: unknown) => {
          for (const q of batch) q.reject(err);
        },
      );
    }
  };

  async getAccount(id: string): Promise<AccountRecord | undefined> {
    const raw = await this.redis.hget(this.p + 'acct:' + id, 'json');
    return raw ? (JSON.parse(raw) as AccountRecord) : undefined;
  }

  async putAccount(a: AccountRecord): Promise<void> {
    await this.redis
      .multi()
      .hset(this.p + 'acct:' + a.id, {
        json: JSON.stringify(a),
        served_plan: a.limits.servedPlan,
        rate_limit: a.limits.rateLimitPerMin,
        included: a.limits.includedPerMonth,
        hard_cap: a.limits.hardCap ? '1' : '0',
        action: a.limits.action,
        plan: a.plan,
      })
      .sadd(this.p + 'accts', a.id)
      .exec();
  }

  async listAccounts(): Promise<AccountRecord[]> {
    const ids = await this.redis.smembers(this.p + 'accts');
    const out: AccountRecord[] = [];
    for (const id of ids.sort()) {
      const a = await this.getAccount(id);
      if (a) out.push(a);
    }
    return out;
  }

  async insertKey(key: KeyRecord, maxKeys: number): Promise<boolean> {
    const r = await this.cmd().pmInsertKey(
      this.p + 'active:' + key.accountId,
      this.p + 'key:' + key.id,
      this.p + 'h:' + key.hash,
      this.p + 'keys',
      maxKeys,
      key.id,
      JSON.stringify(key),
      key.accountId,
      permsField(key.permissions),
    );
    return r === 1;
  }

  async getKey(id: string): Promise<KeyRecord | undefined> {
    const raw = await this.redis.get(this.p + 'key:' + id);
    return raw ? (JSON.parse(raw) as KeyRecord) : undefined;
  }

  async listKeys(accountId?: string): Promise<KeyRecord[]> {
    const ids = await this.redis.smembers(this.p + 'keys');
    if (ids.length === 0) return [];
    const raws = await this.redis.mget(ids.map((id) => this.p + 'key:' + id));
    return raws
      .filter((r): r is string => r !== null)
      .map((r) => JSON.parse(r) as KeyRecord)
      .filter((k) => accountId === undefined || k.accountId === accountId)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  private async casKey(id: string, change: (k: KeyRecord) => KeyRecord, newHash: string): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const raw = await this.redis.get(this.p + 'key:' + id);
      if (!raw) return false;
      const k = JSON.parse(raw) as KeyRecord;
      if (k.revokedAt !== undefined) return false;
      const next = change(k);
      const r = await this.cmd().pmRevokeOrReroll(this.p + 'key:' + id, this.p, raw, JSON.stringify(next), k.hash, newHash, k.accountId, k.id, permsField(k.permissions));
      if (r === 1) return true;
    }
    return false;
  }

  revokeKey(id: string, now: number): Promise<boolean> {
    return this.casKey(id, (k) => ({ ...k, revokedAt: now }), '');
  }

  rerollKey(id: string, hash: string, prefix: string, now: number): Promise<boolean> {
    return this.casKey(id, (k) => ({ ...k, hash, prefix, rerolledAt: now }), hash);
  }

  async usage(accountId: string, period: string): Promise<number> {
    return Number((await this.redis.get(this.p + 'u:' + accountId + ':' + period)) ?? 0);
  }

  // An account's open streams: a sorted set, member = connection, score = when its slot expires.
  async acquireStreamSlot(accountId: string, conn: string, limit: number, now: number, expiresAt: number): Promise<boolean> {
    const cmd = this.redis as unknown as { pmStreamSlot(key: string, conn: string, limit: number, now: number, until: number): Promise<number> };
    return (await cmd.pmStreamSlot(this.p + 'st:' + accountId, conn, limit, now, expiresAt)) === 1;
  }

  async renewStreamSlot(accountId: string, conn: string, now: number, expiresAt: number): Promise<boolean> {
    const cmd = this.redis as unknown as { pmStreamRenew(key: string, conn: string, now: number, until: number): Promise<number> };
    return (await cmd.pmStreamRenew(this.p + 'st:' + accountId, conn, now, expiresAt)) === 1;
  }

  async releaseStreamSlot(accountId: string, conn: string): Promise<void> {
    await this.redis.zrem(this.p + 'st:' + accountId, conn);
  }

  async close(): Promise<void> {
    if (this.owned) this.redis.disconnect();
  }
}
