import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { keyStoreContract } from './store.contract.ts';
import { RedisKeyStore } from './redis-store.ts';
import { redisUrl } from '../../test/helper.ts';

const url = redisUrl();
const prefixes: string[] = [];

keyStoreContract('redis', async () => {
  const prefix = `test:auth:${randomBytes(6).toString('hex')}:`;
  prefixes.push(prefix);
  return new RedisKeyStore({ url, prefix });
});

afterAll(async () => {
  const r = new Redis(url);
  for (const p of prefixes) {
    const keys = await r.keys(`${p}*`);
    if (keys.length) await r.del(...keys);
  }
  r.disconnect();
});
