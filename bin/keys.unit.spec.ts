// The operator command: key lifecycle end to end (create -> list -> reroll -> revoke), max_keys,
// payment state and usage; once through the real CLI process on the embedded file store.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { runKeys } from './keys.ts';
import { authDepsFor } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { build } from '../test/helper.ts';

const keyOf = (lines: string[]) => lines.find((l) => l.startsWith('key:'))!.split(/\s+/)[1];
const idOf = (lines: string[]) => lines.find((l) => l.startsWith('key id:'))!.split(/\s+/).pop()!;

describe('bin/keys.ts', () => {
  it('creates (value shown once), lists, rerolls, revokes; the API follows each step', async () => {
    const store = new MemoryKeyStore();
    const t = await build({ store });
    const run = (...argv: string[]) => runKeys(argv, t.authDeps);
    const created = await run('create', '--account', 'acme', '--plan', 'starter', '--permissions', 'markets.read,events.read', '--name', 'ci');
    const key = keyOf(created);
    const id = idOf(created);
    expect(key).toMatch(/^pmk_/);
    const listed = (await run('list', '--account', 'acme')).join('\n');
    expect(listed).toContain(id);
    expect(listed).toContain(key.slice(0, 10));
    expect(listed).not.toContain(key);
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).headers['x-ratelimit-limit']).toBe('60');

    const rerolled = keyOf(await run('reroll', id));
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(rerolled) })).statusCode).toBe(200);

    await run('revoke', id);
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(rerolled) })).statusCode).toBe(401);
    expect((await run('list')).join('\n')).toMatch(/revoked/);
    await expect(run('revoke', id)).rejects.toThrow(/no active key/);
  });

  it("enforces max_keys, sets payment state and reports usage and overage", async () => {
    const store = new MemoryKeyStore();
    const auth = authDepsFor(store, 'p');
    const run = (...argv: string[]) => runKeys(argv, auth, () => Date.UTC(2026, 10, 2));
    await run('create', '--account', 'solo');
    await expect(run('create', '--account', 'solo')).rejects.toThrow(/max_keys/);
    await expect(run('create', '--account', 'solo', '--plan', 'pro')).rejects.toThrow(/account command/);
    const acct = (await run('account', 'solo', '--plan', 'pro', '--payment-state', 'past_due'))[0];
    expect(acct).toContain('plan=pro');
    expect(acct).toContain('served_as=free');
    await expect(run('account', 'solo', '--payment-state', 'late')).rejects.toThrow(/unknown payment state/);
    expect((await run('accounts'))[0]).toContain('solo');
    expect((await run('usage', 'solo'))[0]).toContain('0 requests, 1000 included');
    await run('account', 'solo', '--payment-state', 'active');
    expect((await run('usage', 'solo')).join('\n')).toContain('overage: 0 requests');
    await expect(run('bogus')).rejects.toThrow(/unknown command/);
  });

  it('refuses custom terms (--rate-limit, --included, --max-keys) on a plan other than enterprise instead of ignoring them', async () => {
    const auth = authDepsFor(new MemoryKeyStore(), 'p');
    const run = (...argv: string[]) => runKeys(argv, auth);
    await run('account', 'terms', '--plan', 'pro');
    await expect(run('account', 'terms', '--included', '5000000')).rejects.toThrow(/--included: custom terms apply to the enterprise plan only; account "terms" is on "pro"/);
    await expect(run('account', 'terms', '--rate-limit', '5000', '--max-keys', '50')).rejects.toThrow(/--rate-limit, --max-keys: .*enterprise/);
    await expect(run('account', 'fresh', '--plan', 'business', '--rate-limit', '5000')).rejects.toThrow(/would be on "business"/);
    expect(await auth.store.getAccount('fresh')).toBeUndefined();
    const ent = (await run('account', 'terms', '--plan', 'enterprise', '--rate-limit', '5000', '--included', '10000000'))[0];
    expect(ent).toContain('rate_limit_per_min=5000');
    expect(ent).toContain('included_per_month=10000000');
  });

  it('refuses a custom rate limit under 1 (a limit of 0 answered every request 429 with Retry-After and X-RateLimit-Reset "NaN")', async () => {
    const t = await build();
    const run = (...argv: string[]) => runKeys(argv, t.authDeps);
    await expect(run('account', 'zero', '--plan', 'enterprise', '--rate-limit', '0')).rejects.toThrow(/--rate-limit must be at least 1; got "0"/);
    expect(await t.authDeps.store.getAccount('zero')).toBeUndefined();
    // The admin API refuses what the command refuses, and a custom term that is not a whole number.
    await t.authDeps.admin.ensureAccount('zero', 'enterprise');
    await expect(t.authDeps.admin.updateAccount('zero', { custom: { rate_limit_per_min: 0 } })).rejects.toThrow(/rate_limit_per_min must be an integer of at least 1/);
    await expect(t.authDeps.admin.updateAccount('zero', { custom: { included_requests_per_month: -1 } })).rejects.toThrow(/included_requests_per_month must be an integer of at least 0/);
    await expect(t.authDeps.admin.updateAccount('zero', { custom: { max_keys: 2.5 } })).rejects.toThrow(/max_keys must be an integer of at least 0/);
    expect((await t.authDeps.store.getAccount('zero'))?.limits.rateLimitPerMin).toBe(1000);
    // A limit of 1 works, and its 429 says when to retry.
    await run('account', 'zero', '--rate-limit', '1');
    const key = keyOf(await run('create', '--account', 'zero'));
    expect((await t.app.inject({ url: '/v1/categories', headers: t.auth(key) })).statusCode).toBe(200);
    const limited = await t.app.inject({ url: '/v1/categories', headers: t.auth(key) });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  });

  it('--help prints the usage (exit 0), also as a process with no store configured', async () => {
    const auth = authDepsFor(new MemoryKeyStore(), 'p');
    expect((await runKeys(['--help'], auth))[0]).toMatch(/^usage: keys <command>/);
    expect((await runKeys(['create', '--help'], auth))[0]).toMatch(/^usage: keys/);
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', '--help'], { env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', KEY_PEPPER: '' }, encoding: 'utf8' });
    expect(out).toMatch(/^usage: keys <command>/);
  }, 60_000);

  it('runs as a process against the embedded store under DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-cli-'));
    try {
      const env = { ...process.env, DATA_DIR: dir, REDIS_URL: '', LOG_LEVEL: 'silent' };
      const out = execFileSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', 'create', '--account', 'cli', '--plan', 'pro'], { env, encoding: 'utf8' });
      const key = out.match(/key:\s+(pmk_\S+)/)![1];
      const file = readFileSync(join(dir, 'keys.json'), 'utf8');
      expect(file).not.toContain(key);
      const listed = execFileSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', 'list'], { env, encoding: 'utf8' });
      expect(listed).toContain('account=cli');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
