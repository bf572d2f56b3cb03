import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { keyStoreContract } from './store.contract.ts';
import { MemoryKeyStore } from './memory-store.ts';
import { KeyAdmin, hashKey } from './keys.ts';
import { billingPeriod } from './plans.ts';

keyStoreContract('memory', async () => new MemoryKeyStore());

/** A server store polling a keys file in a temp directory and an operator command's store on the same file. */
async function withFileStores(f: (s: { file: string; server: MemoryKeyStore; cli: MemoryKeyStore }) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keys-'));
  const file = join(dir, 'keys.json');
  const server = new MemoryKeyStore({ file, watchIntervalMs: 20 });
  const cli = new MemoryKeyStore({ file });
  try {
    await f({ file, server, cli });
  } finally {
    await server.close();
    await cli.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('MemoryKeyStore persisted under DATA_DIR', () => {
  it('shares keys between processes through the file: a revocation by the operator command reaches the server', async () => {
    await withFileStores(async ({ file, server, cli }) => {
      const admin = new KeyAdmin(cli, 'p');
      const { key, record } = await admin.create({ accountId: 'x', plan: 'pro' });
      const ask = () => server.authorize({ hash: hashKey('p', key), permission: 'markets.read', now: Date.now(), period: billingPeriod(Date.now()) });
      await expect.poll(async () => (await ask()).kind, { timeout: 3000, interval: 25 }).toBe('ok');
      await admin.revoke(record.id);
      await expect.poll(async () => (await ask()).kind, { timeout: 3000, interval: 25 }).toBe('invalid');
      // Usage survives a restart of the server store.
      await server.close();
      const again = new MemoryKeyStore({ file });
      expect(await again.usage('x', billingPeriod(Date.now()))).toBeGreaterThan(0);
      await again.close();
    });
  });

  it('a plan or payment-state change made by the operator command reaches the running server within its poll', async () => {
    await withFileStores(async ({ server, cli }) => {
      const admin = new KeyAdmin(cli, 'p');
      const { key } = await admin.create({ accountId: 'up', plan: 'starter' });
      const limitNow = async () => {
        const v = await server.authorize({ hash: hashKey('p', key), permission: 'markets.read', now: Date.now(), period: billingPeriod(Date.now()) });
        return v.kind === 'ok' ? `${v.key.servedPlan}:${v.window.limit}` : v.kind;
      };
      await expect.poll(limitNow, { timeout: 3000, interval: 25 }).toBe('starter:60');
      await admin.updateAccount('up', { plan: 'business' });
      await expect.poll(limitNow, { timeout: 3000, interval: 25 }).toBe('business:1000');
      await admin.updateAccount('up', { paymentState: 'unpaid' });
      await expect.poll(limitNow, { timeout: 3000, interval: 25 }).toBe('free:10');
    });
  });
});
