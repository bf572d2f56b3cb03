import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { loadConfig } from '../lib/config.ts';
import { startApi } from './server.ts';
import { createAuthDeps, createDemoKey } from './auth/index.ts';

describe('startApi', () => {
  it('listens on HOST:PORT with the embedded key store and a printed demo key that works over HTTP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-'));
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dir });
    const auth = createAuthDeps(config);
    const demo = await createDemoKey(auth);
    const api = await startApi(config, { config, clock: Date.now, auth });
    try {
      expect(api.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const plans = await fetch(`${api.address}/v1/plans`);
      expect(plans.status).toBe(200);
      expect(plans.headers.get('x-request-id')).toBeTruthy();
      const cats = await fetch(`${api.address}/v1/categories`, { headers: { authorization: `Bearer ${demo}` } });
      expect(cats.status).toBe(200);
      expect(cats.headers.get('x-ratelimit-limit')).toBe('300');
      // A second start revokes the previous demo key instead of piling up to max_keys.
      const again = await createDemoKey(auth);
      expect((await fetch(`${api.address}/v1/categories`, { headers: { authorization: `Bearer ${demo}` } })).status).toBe(401);
      expect((await fetch(`${api.address}/v1/categories`, { headers: { authorization: `Bearer ${again}` } })).status).toBe(200);
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
