// One contract for every Lease: in-process (lease.memory.unit.spec.ts) and Redis
// (lease.redis.int.spec.ts) must answer the same way. `open` gives a new client of one shared store
// (two clients: two processes); `pass(ms)` lets that much of the store's time go by (a fake clock
// in-process, real time on Redis). Each test leases its own random name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Lease } from './lease.ts';

const rnd = () => `t${randomBytes(4).toString('hex')}`;

export interface LeaseHarness {
  open(): Promise<Lease>;
  pass(ms: number): Promise<void>;
  /** A TTL long enough that it does not run out during a test's few calls, short enough to wait out. */
  shortTtlMs: number;
}

export function leaseContract(name: string, harness: () => Promise<LeaseHarness>): void {
  describe(`Lease contract: ${name}`, () => {
    let h: LeaseHarness;
    let a: Lease;
    let b: Lease;
    beforeAll(async () => {
      h = await harness();
      a = await h.open();
      b = await h.open();
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('one holder at a time: a second acquire, from this client or another, gets nothing while it is held', async () => {
      const n = rnd();
      const g = await a.acquire(n, 60_000);
      expect(g).not.toBeNull();
      expect(g!.name).toBe(n);
      expect(await a.acquire(n, 60_000)).toBeNull();
      expect(await b.acquire(n, 60_000)).toBeNull();
      // Another name is another lease.
      expect(await b.acquire(rnd(), 60_000)).not.toBeNull();
    });

    it('many clients acquiring at once: exactly one gets it', async () => {
      const n = rnd();
      const grants = await Promise.all([a, b, a, b, a, b].map((l) => l.acquire(n, 60_000)));
      expect(grants.filter((g) => g !== null)).toHaveLength(1);
    });

    it('release frees it for the next holder, whose fence is higher; only the holder renews or releases', async () => {
      const n = rnd();
      const g = (await a.acquire(n, 60_000))!;
      const forged = { ...g, token: 'not-the-token' };
      expect(await b.renew(forged, 60_000)).toBe(false);
      expect(await b.release(forged)).toBe(false);
      expect(await b.acquire(n, 60_000)).toBeNull();
      expect(await a.renew(g, 60_000)).toBe(true);
      expect(await a.release(g)).toBe(true);
      expect(await a.release(g)).toBe(false);
      const next = (await b.acquire(n, 60_000))!;
      expect(next.fence).toBeGreaterThan(g.fence);
      expect(await a.renew(g, 60_000)).toBe(false);
    });

    it('a grant not renewed expires: another acquires it with a higher fence, and the old one can neither renew nor release it', async () => {
      const n = rnd();
      const g = (await a.acquire(n, h.shortTtlMs))!;
      expect(await b.acquire(n, h.shortTtlMs)).toBeNull();
      await h.pass(h.shortTtlMs * 2);
      const next = await b.acquire(n, 60_000);
      expect(next).not.toBeNull();
      expect(next!.fence).toBeGreaterThan(g.fence);
      expect(await a.renew(g, 60_000)).toBe(false);
      expect(await a.release(g)).toBe(false);
      expect(await a.acquire(n, 60_000)).toBeNull();
    });

    it('a renewed grant outlives its first TTL', async () => {
      const n = rnd();
      const g = (await a.acquire(n, h.shortTtlMs))!;
      await h.pass(h.shortTtlMs / 2);
      expect(await a.renew(g, 60_000)).toBe(true);
      await h.pass(h.shortTtlMs * 2);
      expect(await b.acquire(n, 60_000)).toBeNull();
      expect(await a.release(g)).toBe(true);
    });

    it('fences only grow, across names and holders, and are at least the clock in ms', async () => {
      const n = rnd();
      const before = Date.now();
      const fences: number[] = [];
      for (let i = 0; i < 4; i++) {
        const l = i % 2 ? a : b;
        const g = (await l.acquire(n, 60_000))!;
        fences.push(g.fence);
        expect(await l.release(g)).toBe(true);
      }
      expect(fences).toEqual([...fences].sort((x, y) => x - y));
      expect(new Set(fences).size).toBe(4);
      // Floored at the store's clock: a store that lost its counter still fences above the old ones.
      expect(fences[0]).toBeGreaterThanOrEqual(before - 5_000);
    });
  });
}
