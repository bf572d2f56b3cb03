// The SnapshotStore contract on Redis (REDIS_URL; test/services starts one where it can). Each run
// uses its own key namespace.
import { describe, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { snapshotStoreContract } from './snapshots.contract.ts';
import { RedisSnapshotStore } from './redis-store.ts';
import { redisUrlForTests } from "../runtime/test-services.ts";

const url = await redisUrlForTests();
if (url) {
  snapshotStoreContract('redis', async () => new RedisSnapshotStore({ url, namespace: `t${randomBytes(4).toString('hex')}:` }));
} else {
  describe.skip('SnapshotStore contract: redis (REDIS_URL not set)', () => it('skipped', () => {}));
}
