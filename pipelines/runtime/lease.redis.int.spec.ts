// The Lease contract on Redis (REDIS_URL; test/services starts one where it can): two clients, two
// connections, one server. Each run uses its own key namespace.
import { describe, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { leaseContract } from './lease.contract.ts';
import { RedisLease } from './redis-lease.ts';
import { redisUrlForTests } from './test-services.ts';

const url = await redisUrlForTests();
if (url) {
  const namespace = `t${randomBytes(4).toString('hex')}:`;
  leaseContract('redis', () => Promise.resolve({ open: () => Promise.resolve(new RedisLease({ url, namespace })), pass: (ms: number) => sleep(ms), shortTtlMs: 300 }));
} else {
  describe.skip('Lease contract: redis (REDIS_URL not set)', () => it('skipped', () => {}));
}
