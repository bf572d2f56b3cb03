// Operator command for API keys and accounts (spec: "Keys are created, revoked and rerolled ...;
// a key's value is shown once at creation"; "capped by the plan's max_keys").
// In: argv and the environment (REDIS_URL selects the Redis store, else DATA_DIR/keys.json, the
// same store the embedded server reads; with REDIS_URL also KEY_PEPPER, the API's). Out: text on
// stdout; exit 1 with a message on misuse, 2 on a bad configuration.
//
//   npm run keys -- create --account acme --plan pro [--permissions markets.read,events.read] [--name ci]
//   npm run keys -- list [--account acme]
//   npm run keys -- revoke <key_id>
//   npm run keys -- reroll <key_id>
//   npm run keys -- account acme [--plan starter] [--payment-state past_due] [--rate-limit 5000 --included 10000000 --max-keys 50]
//   npm run keys -- accounts
//   npm run keys -- usage acme [--period 2026-11]
import { pathToFileURL } from 'node:url';
import { loadConfigOrExit } from '../lib/config.ts';
import { createAuthDeps, type AuthDeps } from '../api/auth/index.ts';
import { KeyAdminError } from '../api/auth/keys.ts';
import { PLAN_KEYS, billingPeriod, isPlanKey, planByKey, type CustomLimits } from '../api/auth/plans.ts';
import { PERMISSIONS, type Permission } from '../api/routes/table.ts';

const USAGE = `usage: keys <command>
  create --account <id> [--plan ${PLAN_KEYS.join('|')}] [--permissions p1,p2] [--name <label>]
  list [--account <id>]
  revoke <key_id>
  reroll <key_id>
  account <id> [--plan <plan>] [--payment-state active|past_due|unpaid|paused|incomplete]
               [--rate-limit <n>] [--included <n>] [--max-keys <n>]   (custom terms, enterprise)
  accounts
  usage <account> [--period YYYY-MM]
permissions: ${PERMISSIONS.join(', ')} (default: all)`;

class UsageError extends Error {}

function parseArgs(argv: string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq !== -1) flags.set(a.slice(2, eq), a.slice(eq + 1));
      else {
        const v = argv[i + 1];
        if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value`);
        flags.set(a.slice(2), v);
        i++;
      }
    } else positional.push(a);
  }
  return { positional, flags };
}

const int = (flags: Map<string, string>, name: string, min = 0): number | undefined => {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a non-negative integer; got ${JSON.stringify(v)}`);
  if (Number(v) < min) throw new UsageError(`--${name} must be at least ${min}; got ${JSON.stringify(v)}`);
  return Number(v);
};

/** Runs one command; returns the lines to print. Exported for tests. */
export async function runKeys(argv: string[], auth: AuthDeps, now: () => number = Date.now): Promise<string[]> {
  // A flag without a value, so it is looked for before the flags are parsed.
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return [USAGE];
  const { positional, flags } = parseArgs(argv);
  const [cmd, arg] = positional;
  const admin = auth.admin;
  switch (cmd) {
    case 'create': {
      const account = flags.get('account');
      if (!account) throw new UsageError('create needs --account <id>');
      const plan = flags.get('plan');
      if (plan !== undefined && !isPlanKey(plan)) throw new UsageError(`unknown plan ${JSON.stringify(plan)} (${PLAN_KEYS.join(', ')})`);
      const permissions = flags.get('permissions')?.split(',').map((p) => p.trim()).filter(Boolean) as Permission[] | undefined;
      const { key, record } = await admin.create({ accountId: account, plan: plan as never, permissions, name: flags.get('name') });
      return [
        `key id:      ${record.id}`,
        `account:     ${record.accountId}`,
        `permissions: ${record.permissions.join(', ')}`,
        `key:         ${key}`,
        'The key is shown once; store it now (only its hash is kept).',
      ];
    }
    case 'list': {
      const keys = await admin.list(flags.get('account'));
      if (keys.length === 0) return ['no keys'];
      return keys.map(
        (k) =>
          `${k.id}  ${k.prefix}…  account=${k.accountId}  ${k.revokedAt !== undefined ? `revoked ${new Date(k.revokedAt).toISOString()}` : 'active'}  ` +
          `created=${new Date(k.createdAt).toISOString()}${k.name ? `  name=${k.name}` : ''}  permissions=${k.permissions.join(',')}`,
      );
    }
    case 'revoke': {
      if (!arg) throw new UsageError('revoke needs <key_id>');
      await admin.revoke(arg);
      return [`revoked ${arg}; requests with it now get 401 invalid_api_key`];
    }
    case 'reroll': {
      if (!arg) throw new UsageError('reroll needs <key_id>');
      const key = await admin.reroll(arg);
      return [`key id: ${arg}`, `key:    ${key}`, 'The old value stopped working; the new one is shown once.'];
    }
    case 'account': {
      if (!arg) throw new UsageError('account needs <id>');
      const custom: CustomLimits = {};
      // A limit of 0 would refuse every request with no instant at which a retry could succeed.
      const rl = int(flags, 'rate-limit', 1);
      const inc = int(flags, 'included');
      const mk = int(flags, 'max-keys');
      if (rl !== undefined) custom.rate_limit_per_min = rl;
      if (inc !== undefined) custom.included_requests_per_month = inc;
      if (mk !== undefined) custom.max_keys = mk;
      const plan = flags.get('plan');
      const existing = await auth.store.getAccount(arg);
      // Custom terms only apply to enterprise (its catalog zeros mean "custom"); on any other plan
      // they would be stored and never served, so they are refused rather than silently ignored.
      const terms = ['rate-limit', 'included', 'max-keys'].filter((f) => flags.has(f));
      const planAfter = plan ?? existing?.plan ?? 'free';
      if (terms.length > 0 && planAfter !== 'enterprise') {
        throw new UsageError(
          `${terms.map((f) => `--${f}`).join(', ')}: custom terms apply to the enterprise plan only; account ${JSON.stringify(arg)} ${plan !== undefined ? 'would be' : 'is'} on ${JSON.stringify(planAfter)} (add --plan enterprise)`,
        );
      }
      if (existing === undefined) await admin.ensureAccount(arg, plan !== undefined && isPlanKey(plan) ? plan : 'free');
      const a = await admin.updateAccount(arg, { plan, paymentState: flags.get('payment-state'), custom });
      return [describeAccount(a)];
    }
    case 'accounts': {
      const all = await auth.store.listAccounts();
      return all.length === 0 ? ['no accounts'] : all.map(describeAccount);
    }
    case 'usage': {
      if (!arg) throw new UsageError('usage needs <account>');
      const a = await auth.store.getAccount(arg);
      if (!a) throw new KeyAdminError(`unknown account ${JSON.stringify(arg)}`);
      const period = flags.get('period') ?? billingPeriod(now());
      const used = await auth.store.usage(arg, period);
      const included = a.limits.includedPerMonth;
      const over = Math.max(0, used - included);
      const rate = a.plan === 'enterprise' ? 0 : planByKey(a.plan).overage_cents_per_1k;
      const lines = [`account ${arg} period ${period}: ${used} requests, ${included} included`];
      // "paid plans have overage_cents_per_1k beyond the allowance": billed per started thousand.
      if (!a.limits.hardCap) lines.push(`overage: ${over} requests = ${Math.ceil(over / 1000) * rate} cents at ${rate} cents per 1k`);
      return lines;
    }
    default:
      throw new UsageError(cmd ? `unknown command ${JSON.stringify(cmd)}` : 'no command');
  }
}

function describeAccount(a: { id: string; plan: string; paymentState: string; limits: { servedPlan: string; rateLimitPerMin: number; includedPerMonth: number; maxKeys: number } }): string {
  return `${a.id}  plan=${a.plan}  payment_state=${a.paymentState}  served_as=${a.limits.servedPlan}  rate_limit_per_min=${a.limits.rateLimitPerMin}  included_per_month=${a.limits.includedPerMonth}  max_keys=${a.limits.maxKeys}`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(USAGE + '\n'); // before the configuration: help needs no store
    return;
  }
  const auth = createAuthDeps(loadConfigOrExit());
  try {
    const lines = await runKeys(argv, auth);
    process.stdout.write(lines.join('\n') + '\n');
  } catch (e) {
    if (e instanceof UsageError) process.stderr.write(`${e.message}\n${USAGE}\n`);
    else if (e instanceof KeyAdminError) process.stderr.write(`${e.message}\n`);
    else process.stderr.write(`keys: ${(e as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await auth.store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
