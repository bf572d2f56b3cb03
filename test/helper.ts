// Route tests through app.inject (STYLE 8): build() gives a fresh app with an in-memory key store
// (or the store you pass), a controllable clock, and a createKey() for a key with the plan and
// permissions a test needs. Call build() inside a test: the app (and a store it created) is closed
// when that test finishes.
//
//   const t = await build({ handlers: { markets_list: myHandler }, deps: { catalog } });
//   const key = await t.createKey({ plan: 'pro', permissions: ['markets.read'] });
//   const res = await t.app.inject({ url: '/v1/markets', headers: t.auth(key) });
import { onTestFinished } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../lib/config.ts';
import { buildApp } from '../api/app.ts';
import { handlers as defaultHandlers, type HandlerRegistry } from '../api/routes/index.ts';
import { authDepsFor, type AuthDeps } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
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

