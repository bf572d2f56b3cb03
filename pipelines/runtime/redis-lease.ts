// The Lease on Redis (ioredis): the stack's store, shared by every processors process, so one of
// them at a time holds a name (lease.ts). Keys under a namespace (default 'pm:'):
//   <ns>lease:<name>   the holder's token, with the lease's TTL (SET NX PX)
//   <ns>fence:<name>   the last fence given (no TTL: fences only grow)
// Each operation is one Lua script, so taking the lease and its fence, or comparing the token and
// extending or deleting, is one step on the server: no holder can slip in between.
import type { Redis } from 'ioredis';
import { redisClient } from '../readmodels/redis-store.ts';
import { newLeaseToken, type Lease, type LeaseGrant } from './lease.ts';

// The fence: one more than the last, and at least the server's clock in ms (TIME), so a Redis that
// lost the counter (flushed, restarted without persistence) still gives fences above those the
// history holds. Redis 7 replicates a script's effects, so TIME is allowed here.
const ACQUIRE = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local f = tonumber(redis.call('GET', KEYS[2]) or '0') + 1
if f < now then f = now end
redis.call('SET', KEYS[2], string.format('%d', f))
return string.format('%d', f)`;

const RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

interface Scripts {
  pmLeaseAcquire(lease: string, fence: string, token: string, ttlMs: number): Promise<string | null>;
  pmLeaseRenew(lease: string, token: string, ttlMs: number): Promise<number>;
  pmLeaseRelease(lease: string, token: string): Promise<number>;
}

export class RedisLease implements Lease {
  private readonly redis: Redis & Scripts;
  private readonly ns: string;

  constructor(options: { url: string; namespace?: string }) {
    this.ns = options.namespace ?? 'pm:';
    const r = redisClient(options.url);
    r.defineCommand('pmLeaseAcquire', { numberOfKeys: 2, lua: ACQUIRE });
    r.defineCommand('pmLeaseRenew', { numberOfKeys: 1, lua: RENEW });
    r.defineCommand('pmLeaseRelease', { numberOfKeys: 1, lua: RELEASE });
    this.redis = r as Redis & Scripts;
  }

  private key(name: string): string {
    return `${this.ns}lease:${name}`;
  }

  async acquire(name: string, ttlMs: number): Promise<LeaseGrant | null> {
    const token = newLeaseToken();
    const fence = await this.redis.pmLeaseAcquire(this.key(name), `${this.ns}fence:${name}`, token, Math.max(1, Math.ceil(ttlMs)));
    return fence === null ? null : { name, token, fence: Number(fence) };
  }

  async renew(grant: LeaseGrant, ttlMs: number): Promise<boolean> {
    return (await this.redis.pmLeaseRenew(this.key(grant.name), grant.token, Math.max(1, Math.ceil(ttlMs)))) === 1;
  }

  async release(grant: LeaseGrant): Promise<boolean> {
    return (await this.redis.pmLeaseRelease(this.key(grant.name), grant.token)) === 1;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
