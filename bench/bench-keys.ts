// API keys for the benchmarks, made through the key admin as an operator makes them (hashed in the
// key store; the plaintext only returned here). One place for what every bench needs: an account on
// a plan, optionally on custom terms that no load can exhaust (a bench at thousands of requests a
// second for minutes is far past any plan's rate limit, and a 429 would be measured as an answer).
import type { KeyAdmin } from '../api/auth/keys.ts';
import type { PlanKey } from '../api/auth/plans.ts';
import type { Permission } from '../api/routes/table.ts';

export interface BenchKeysOptions {
  /** The account's id; made on `plan` when missing. */
  account?: string;
  plan?: PlanKey;
  permissions: readonly Permission[];
  /** How many keys (each a `Bearer` line for autocannon's rotation, or one key for a client). */
  count?: number;
  /** Custom terms no bench exhausts: rate limit, monthly allowance and key cap far past any plan's. */
  unlimited?: boolean;
}

/** `count` keys of one account (plaintext, in the order made). */
export async function benchKeys(admin: KeyAdmin, opts: BenchKeysOptions): Promise<string[]> {
  const account = opts.account ?? 'bench';
  const count = opts.count ?? 1;
  await admin.ensureAccount(account, opts.plan ?? 'enterprise');
  if (opts.unlimited) await admin.updateAccount(account, { custom: { rate_limit_per_min: 1e9, included_requests_per_month: 1e12, max_keys: Math.max(5, count) } });
  const keys: string[] = [];
  for (let i = 0; i < count; i++) keys.push((await admin.create({ accountId: account, permissions: [...opts.permissions] })).key);
  return keys;
}

/** One key (see benchKeys). */
export async function benchKey(admin: KeyAdmin, opts: Omit<BenchKeysOptions, 'count'>): Promise<string> {
  return (await benchKeys(admin, { ...opts, count: 1 }))[0]!;
}
