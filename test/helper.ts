// Route tests through app.inject (STYLE 8): build() gives a fresh app with an in-memory key store
// (or the store you pass), a controllable clock, and a createKey() for a key with the plan and
// permissions a test needs. Call build() inside a test: the app (and a store it created) is closed
// when that test finishes.
//
//   const t = await build({ handlers: { markets_list: myHandler }, deps: { catalog } });
//   const key = await t.createKey({ plan: 'pro', permissions: ['markets.read'] });
//   const res = await t.app.inject({ url: '/v1/markets', headers: t.auth(key) });
//
// Also: redisKeyStores() for key stores on a random Redis prefix of the running test (STYLE 9),
// removed when it finishes, and apiErrorCode() for the catalog code a pure function throws.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { onTestFinished } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../lib/config.ts';
import { buildApp } from '../api/app.ts';
import { handlers as defaultHandlers, type HandlerRegistry } from '../api/routes/index.ts';
import { authDepsFor, type AuthDeps } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { RedisKeyStore, type RedisStoreOptions } from '../api/auth/redis-store.ts';
import { isApiError } from '../api/errors.ts';
import type { KeyStore } from '../api/auth/store.ts';
import type { PaymentState, PlanKey } from '../api/auth/plans.ts';
import type { Permission } from '../api/routes/table.ts';
import type { AppDeps } from '../api/types.ts';

export interface BuildOptions {
  /** Handlers to register; merged over the default registry (api/routes/index.ts). */
  handlers?: HandlerRegistry;
  /** Replace the registry entirely (e.g. {} to see every route's 503). */
  onlyHandlers?: HandlerRegistry;
  /** Extra dependencies, under each area's name. */
  deps?: Record<string, unknown>;
  /** Environment overrides for loadConfig (LOG_LEVEL defaults to silent). */
  env?: Record<string, string>;
  /** A key store to use (e.g. a RedisKeyStore); default: a fresh in-memory store. */
  store?: KeyStore;
  /** Rate windows on the app clock (default true, so tests can move time). */
  useAppClock?: boolean;
  /** Initial time (epoch ms) of the controllable clock; default Date.now(). */
  now?: number;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  authDeps: AuthDeps;
  /** The app clock; move it with advance()/set(). */
  clock: { now: number; advance(ms: number): void; set(ms: number): void };
  createKey(opts?: { plan?: PlanKey; permissions?: Permission[]; account?: string; paymentState?: PaymentState }): Promise<string>;
  auth(key: string): { authorization: string };
}

let accountSeq = 0;

export async function build(opts: BuildOptions = {}): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...opts.env });
  const clock = {
    now: opts.now ?? Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
    set(ms: number) {
      this.now = ms;
    },
  };
  const ownsStore = opts.store === undefined;
  const store = opts.store ?? new MemoryKeyStore();
  const authDeps = authDepsFor(store, config.KEY_PEPPER, () => clock.now, opts.useAppClock ?? true);
  const deps: AppDeps = { config, clock: () => clock.now, auth: authDeps, ...opts.deps };
  const app = await buildApp(deps, opts.onlyHandlers ?? { ...defaultHandlers, ...opts.handlers }, { logger: false });
  onTestFinished(async () => {
    await app.close();
    if (ownsStore) await store.close();
  });
  return {
    app,
    config,
    authDeps,
    clock,
    async createKey(o = {}) {
      const account = o.account ?? `acct_test_${process.pid}_${++accountSeq}_${Math.random().toString(36).slice(2, 8)}`;
      await authDeps.admin.ensureAccount(account, o.plan ?? 'pro');
      if (o.paymentState) await authDeps.admin.updateAccount(account, { paymentState: o.paymentState });
      const { key } = await authDeps.admin.create({ accountId: account, permissions: o.permissions });
      return key;
    },
    auth: (key: string) => ({ authorization: `Bearer ${key}` }),
  };
}

/**
 * Key stores in Redis under a random prefix of the running test: every store open() gives shares
 * it, as API processes share one Redis. When the test finishes the stores are closed and every key
 * under the prefix is deleted. Call it inside a test.
 */
export function redisKeyStores(url: string, scope: string): { prefix: string; open(o?: Pick<RedisStoreOptions, 'url' | 'commandTimeoutMs'>): RedisKeyStore } {
  const prefix = `test:${scope}:${randomBytes(6).toString('hex')}:`;
  const opened: RedisKeyStore[] = [];
  onTestFinished(async () => {
    await Promise.all(opened.map((s) => s.close()));
    const r = new Redis(url);
    try {
      const keys = await r.keys(`${prefix}*`);
      if (keys.length) await r.del(...keys);
    } finally {
      r.disconnect();
    }
  });
  return {
    prefix,
    open(o = {}) {
      const store = new RedisKeyStore({ url, prefix, ...o });
      opened.push(store);
      return store;
    },
  };
}

/** The catalog code (api/errors.ts) that f throws, or 'ok' when it returns; other errors propagate. */
export function apiErrorCode(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isApiError(e)) return e.code;
    throw e;
  }
  return 'ok';
}
