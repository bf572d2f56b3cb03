import { beforeAll, describe } from 'vitest';
import { keyStoreContract } from './store.contract.ts';
import { available, requireRedis } from '../../test/services/index.ts';
import { redisKeyStores } from '../../test/helper.ts';

const redis = await available('redis');
let url = '';

describe.skipIf(!redis.ok)(`RedisKeyStore (${redis.reason})`, () => {
  beforeAll(async () => {
    ({ url } = await requireRedis());
  });

  // A fresh prefix per test, deleted when it finishes.
  keyStoreContract('redis', async () => redisKeyStores(url, 'auth').open());
});
