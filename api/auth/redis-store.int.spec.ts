import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe } from 'vitest';
import { keyStoreContract } from './store.contract.ts';
import { RedisKeyStore } from './redis-store.ts';
import { available, requireRedis } from '../../test/services/index.ts';

const redis = await available('redis');
let url = '';
const prefixes: string[] = [];

describe.skipIf(!redis.ok)(`RedisKeyStore (${redis.reason})`, () => {
  beforeAll(async () => {
    ({ url } = await requireRedis());
  });
  afterAll(async () => {
    const r = new Redis(url);
    for (const p of prefixes) {
      const keys = await r.keys(`${p}*`);
      if (keys.length) await r.del(...keys);
    }
    r.disconnect();
  });

  keyStoreContract('redis', async () => {
    const prefix = `test:auth:${randomBytes(6).toString('hex')}:`;
    prefixes.push(prefix);
    return new RedisKeyStore({ url, prefix });
  });
});
