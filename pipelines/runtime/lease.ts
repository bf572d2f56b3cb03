// The Lease seam: at most one holder of a named lease at any time, among every process that asks the
// same store. What keeps the candles' roll-up (readmodels/price-rollup.ts) to one roller per history
// database whatever the number of processors processes (runtime/price-rollup.ts). Two
// implementations, one contract (lease.contract.ts): in-process (MemoryLease, the embedded default:
// one process per chdb database, since chdb holds its data directory exclusively) and Redis
// (RedisLease, runtime/redis-lease.ts: the stack's store, shared by every processors process).
//
// A grant carries a fence: a number above every fence given before for that name, so a holder that
// lost its lease while paused (a GC pause, a stopped machine) and goes on writing can be told from
// the holder after it by whoever it writes to: the write names its fence, and one that finds a newer
// fence written does nothing. Fences are floored at the store's clock in milliseconds, so a store that
// lost its counter (a new process here, a flushed Redis) still gives fences above the ones written
// before (the history keeps them across restarts).
import { randomBytes } from 'node:crypto';

export interface LeaseGrant {
  readonly name: string;
  /** Who holds it: renewal and release compare it, so only the holder extends or frees the lease. */
  readonly token: string;
  /** Above every fence given before for this name. */
  readonly fence: number;
}

export interface Lease {
  /** The lease `name` for ttlMs when no one holds it (or the last grant expired); null while someone does. */
  acquire(name: string, ttlMs: number): Promise<LeaseGrant | null>;
  /** Extends a grant still held to ttlMs from now; false when it expired (and may be another's now). */
  renew(grant: LeaseGrant, ttlMs: number): Promise<boolean>;
  /** Frees the lease if this grant still holds it; false when it did not. */
  release(grant: LeaseGrant): Promise<boolean>;
  close(): Promise<void>;
}

export const newLeaseToken = (): string => randomBytes(12).toString('hex');

/** The leases of one process: every MemoryLease of it shares one unless given its own (tests). */
export class MemoryLeaseRegistry {
  readonly held = new Map<string, { token: string; until: number }>();
  readonly fences = new Map<string, number>();
  constructor(readonly now: () => number = Date.now) {}
}

const processRegistry = new MemoryLeaseRegistry();

/** The in-process lease (the embedded default): the process is the only one with its chdb database. */
export class MemoryLease implements Lease {
  constructor(private readonly registry: MemoryLeaseRegistry = processRegistry) {}

  acquire(name: string, ttlMs: number): Promise<LeaseGrant | null> {
    const now = this.registry.now();
    const cur = this.registry.held.get(name);
    if (cur && cur.until > now) return Promise.resolve(null);
    const fence = Math.max((this.registry.fences.get(name) ?? 0) + 1, Math.floor(now));
    this.registry.fences.set(name, fence);
    const token = newLeaseToken();
    this.registry.held.set(name, { token, until: now + ttlMs });
    return Promise.resolve({ name, token, fence });
  }

  renew(grant: LeaseGrant, ttlMs: number): Promise<boolean> {
    const now = this.registry.now();
    const cur = this.registry.held.get(grant.name);
    if (!cur || cur.token !== grant.token || cur.until <= now) return Promise.resolve(false);
    cur.until = now + ttlMs;
    return Promise.resolve(true);
  }

  release(grant: LeaseGrant): Promise<boolean> {
    const cur = this.registry.held.get(grant.name);
    if (!cur || cur.token !== grant.token || cur.until <= this.registry.now()) return Promise.resolve(false);
    this.registry.held.delete(grant.name);
    return Promise.resolve(true);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
