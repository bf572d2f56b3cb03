// Composition of the key seam. In: Config (REDIS_URL, DATA_DIR, KEY_PEPPER). Out: AuthDeps for
// buildApp (deps.auth) and the operator command: the Redis store when REDIS_URL is set (the
// stack), else the in-process store persisted at DATA_DIR/keys.json (the embedded default).
import { join } from 'node:path';
import type { Config } from '../../lib/config.ts';
import { KeyAdmin } from './keys.ts';
import { MemoryKeyStore } from './memory-store.ts';
import { RedisKeyStore } from './redis-store.ts';
import type { KeyStore } from './store.ts';

export interface AuthDeps {
  store: KeyStore;
  pepper: string;
  admin: KeyAdmin;
  /**
   * true: the rate window uses the app clock (deps.clock; tests control it). false: the store's
   * own clock (Redis TIME), so API processes with skewed clocks still share one timeline.
   */
  useAppClock: boolean;
}

export function authDepsFor(store: KeyStore, pepper: string, clock: () => number = Date.now, useAppClock = store.kind === 'memory'): AuthDeps {
  return { store, pepper, admin: new KeyAdmin(store, pepper, clock), useAppClock };
}

export function createAuthDeps(config: Config, opts: { prefix?: string } = {}): AuthDeps {
  const store: KeyStore = config.REDIS_URL
    ? new RedisKeyStore({ url: config.REDIS_URL, prefix: opts.prefix ?? 'pm:auth:' })
    : new MemoryKeyStore({ file: join(config.DATA_DIR, 'keys.json') });
  return authDepsFor(store, config.KEY_PEPPER);
}

/**
 * The embedded default's demo key: account `demo` on the pro plan with every permission. A new
 * value is printed at each start (values are never stored), and the previous demo keys are revoked
 * so restarts never hit max_keys.
 */
export async function createDemoKey(auth: AuthDeps): Promise<string> {
  for (const k of await auth.admin.list('demo')) if (k.revokedAt === undefined && k.name === 'demo') await auth.admin.revoke(k.id);
  await auth.admin.ensureAccount('demo', 'pro');
  const { key } = await auth.admin.create({ accountId: 'demo', name: 'demo' });
  return key;
}
