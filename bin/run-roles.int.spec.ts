// Each role opens only what it uses (bin/run.ts): two API replicas with REDIS_URL on one DATA_DIR
// both start, open no chdb and no log there, and serve keys and snapshots from Redis; the catalog,
// which reads the history, answers 503 on them. Pollers and processors need Kafka: the stack's
// chaos suite (test/stack/) runs those roles as their own processes.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config.ts';
import { createAuthDeps } from '../api/auth/index.ts';
import { ownRedisAvailable, randomName, startOwnRedis, type OwnRedis } from '../test/services/index.ts';
import { runService, type RunningService } from './run.ts';

const redisServer = await ownRedisAvailable();

describe.skipIf(!redisServer.ok)(`ROLES=api replicas with REDIS_URL (${redisServer.reason})`, () => {
  let redis: OwnRedis;
  let dir: string;
  const running: RunningService[] = [];
  beforeAll(async () => {
    redis = await startOwnRedis();
    dir = mkdtempSync(join(tmpdir(), 'pm-roles-'));
  });
  afterAll(async () => {
    for (const s of running) await s.stop();
    await redis?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two replicas on one DATA_DIR both start, open no chdb or log, and serve keyed routes', async () => {
    const env = {
      ROLES: 'api',
      PORT: '0',
      DATA_DIR: dir,
      REDIS_URL: redis.url,
      KEY_PEPPER: randomBytes(24).toString('base64url'),
      CATALOG_CURSOR_SECRET: randomBytes(24).toString('base64url'),
      DEMO_KEY: 'false',
      LOG_LEVEL: 'silent',
      TOPIC_PREFIX: `${randomName('roles')}.`,
    };
    const config = loadConfig(env);
    for (let i = 0; i < 2; i++) running.push(await runService(config, { quiet: true }));
    expect(existsSync(join(dir, 'chdb'))).toBe(false);
    expect(existsSync(join(dir, 'log'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f !== 'registry')).toEqual([]);

    const auth = createAuthDeps(config);
    try {
      await auth.admin.ensureAccount('acme', 'pro');
      const { key } = await auth.admin.create({ accountId: 'acme' });
      for (const svc of running) {
        const get = (path: string) => fetch(`${svc.address}${path}`, { headers: { authorization: `Bearer ${key}` } });
        expect((await get('/v1/plans')).status).toBe(200);
        expect((await get('/v1/categories')).status).toBe(200);
        const markets = await get('/v1/markets');
        expect(markets.status).toBe(503);
        expect(((await markets.json()) as { code: string }).code).toBe('service_unavailable');
      }
    } finally {
      await auth.store.close();
    }
  });
});
