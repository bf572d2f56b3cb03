// The ONE contract suite of the KeyStore seam, run against the in-process store
// (memory-store.unit.spec.ts) and the Redis store (redis-store.int.spec.ts). In: a factory giving
// a fresh, empty store per test (random key prefix). Out: vitest cases.
import { describe, it, expect } from 'vitest';
import { KeyAdmin, KeyAdminError, hashKey } from './keys.ts';
import { billingPeriod } from './plans.ts';
import type { AuthorizeResult, KeyStore } from './store.ts';

const PEPPER = 'contract-pepper';
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

export function keyStoreContract(name: string, make: () => Promise<KeyStore>): void {
  describe(`KeyStore contract: ${name}`, () => {
    const setup = async () => {
      const store = await make();
      let now = T0;
      const admin = new KeyAdmin(store, PEPPER, () => now);
      const authorize = (key: string, permission: Parameters<KeyStore['authorize']>[0]['permission'] = 'markets.read', at = now): Promise<AuthorizeResult> =>
        store.authorize({ hash: hashKey(PEPPER, key), permission, now: at, period: billingPeriod(at) });
      return { store, admin, authorize, setNow: (t: number) => (now = t), close: () => store.close() };
    };

    it('creates a key that authorizes, stores only its hash, and lists it', async () => {
      const s = await setup();
      try {
        const { key, record } = await s.admin.create({ accountId: 'a1', plan: 'pro', permissions: ['markets.read'], name: 'ci' });
        expect(key).toMatch(/^pmk_[A-Za-z0-9_-]{43}$/);
        const r = await s.authorize(key);
        expect(r.kind).toBe('ok');
        if (r.kind === 'ok') {
          expect(r.key).toEqual({ keyId: record.id, accountId: 'a1', servedPlan: 'pro' });
          expect(r.window.limit).toBe(300);
          expect(r.window.remaining).toBe(299);
        }
        const listed = await s.store.listKeys('a1');
        expect(listed).toHaveLength(1);
        expect(JSON.stringify(listed)).not.toContain(key);
        expect(listed[0].hash).toBe(hashKey(PEPPER, key));
        expect(listed[0].prefix).toBe(key.slice(0, 10));
        expect((await s.authorize(key + 'x')).kind).toBe('invalid');
      } finally {
        await s.close();
      }
    });

    it('refuses a key without the permission and charges nothing for it', async () => {
      const s = await setup();
      try {
        const { key } = await s.admin.create({ accountId: 'a2', plan: 'free', permissions: ['events.read'] });
        expect((await s.authorize(key, 'markets.read')).kind).toBe('forbidden');
        const ok = await s.authorize(key, 'events.read');
        expect(ok.kind === 'ok' && ok.window.remaining).toBe(9);
        expect(await s.store.usage('a2', billingPeriod(T0))).toBe(1);
      } finally {
        await s.close();
      }
    });

    it('a forbidden request reports the window as it stands (for the 403\'s X-RateLimit-* headers) without charging it', async () => {
      const s = await setup();
      try {
        const { key } = await s.admin.create({ accountId: 'b5', plan: 'free', permissions: ['events.read'] });
        const empty = await s.authorize(key, 'markets.read', T0);
        expect(empty.kind).toBe('forbidden');
        if (empty.kind === 'forbidden') expect(empty.window).toEqual({ limit: 10, remaining: 10, resetAt: T0 });
        for (let i = 0; i < 3; i++) expect((await s.authorize(key, 'events.read', T0 + 1000 * i)).kind).toBe('ok');
        const some = await s.authorize(key, 'markets.read', T0 + 5000);
        if (some.kind !== 'forbidden') throw new Error(some.kind);
        expect(some.window).toEqual({ limit: 10, remaining: 7, resetAt: T0 + 60_000 });
        // Nothing was charged: seven more fit, and the allowance counts the three.
        for (let i = 0; i < 7; i++) expect((await s.authorize(key, 'events.read', T0 + 6000)).kind).toBe('ok');
        expect((await s.authorize(key, 'events.read', T0 + 6000)).kind).toBe('rate_limited');
        const full = await s.authorize(key, 'markets.read', T0 + 6000);
        expect(full.kind === 'forbidden' && full.window).toEqual({ limit: 10, remaining: 0, resetAt: T0 + 60_000 });
        // Aged out: the window a forbidden request reports empties as the charged one would.
        const later = await s.authorize(key, 'markets.read', T0 + 70_000);
        expect(later.kind === 'forbidden' && later.window).toEqual({ limit: 10, remaining: 10, resetAt: T0 + 70_000 });
        expect(await s.store.usage('b5', billingPeriod(T0))).toBe(10);
      } finally {
        await s.close();
      }
    });

    it('revoke stops the key at once; reroll swaps the value and keeps id and permissions', async () => {
      const s = await setup();
      try {
        const a = await s.admin.create({ accountId: 'a3', plan: 'starter' });
        const b = await s.admin.create({ accountId: 'a3' });
        await s.admin.revoke(a.record.id);
        expect((await s.authorize(a.key)).kind).toBe('invalid');
        await expect(s.admin.revoke(a.record.id)).rejects.toBeInstanceOf(KeyAdminError);
        const fresh = await s.admin.reroll(b.record.id);
        expect((await s.authorize(b.key)).kind).toBe('invalid');
        const r = await s.authorize(fresh);
        expect(r.kind === 'ok' && r.key.keyId).toBe(b.record.id);
        const rec = await s.store.getKey(b.record.id);
        expect(rec?.permissions).toEqual(b.record.permissions);
        expect(rec?.rerolledAt).toBe(T0);
        expect((await s.store.getKey(a.record.id))?.revokedAt).toBe(T0);
        await expect(s.admin.reroll(a.record.id)).rejects.toBeInstanceOf(KeyAdminError);
      } finally {
        await s.close();
      }
    });

    it("enforces the plan's max_keys per account, counting only active keys", async () => {
      const s = await setup();
      try {
        const first = await s.admin.create({ accountId: 'a4', plan: 'free' });
        await expect(s.admin.create({ accountId: 'a4' })).rejects.toThrow(/max_keys/);
        await s.admin.revoke(first.record.id);
        await s.admin.create({ accountId: 'a4' });
        await s.admin.updateAccount('a4', { plan: 'starter' });
        await s.admin.create({ accountId: 'a4' });
        await s.admin.create({ accountId: 'a4' });
        await expect(s.admin.create({ accountId: 'a4' })).rejects.toThrow(/3 active keys/);
        expect((await s.store.listKeys('a4')).length).toBe(4);
      } finally {
        await s.close();
      }
    });

    it('limits each key over a rolling 60 s: the budget returns exactly as requests age out', async () => {
      const s = await setup();
      try {
        const { key } = await s.admin.create({ accountId: 'a5', plan: 'free' });
        for (let i = 0; i < 10; i++) expect((await s.authorize(key, 'markets.read', T0 + i * 1000)).kind).toBe('ok');
        const limited = await s.authorize(key, 'markets.read', T0 + 59_999);
        expect(limited.kind).toBe('rate_limited');
        if (limited.kind === 'rate_limited') {
          expect(limited.window.resetAt).toBe(T0 + 60_000);
          expect(limited.now).toBe(T0 + 59_999);
        }
        // At T0 + 60 s the first request (T0) is out of (now - 60 s, now]: one slot back, not more.
        expect((await s.authorize(key, 'markets.read', T0 + 60_000)).kind).toBe('ok');
        expect((await s.authorize(key, 'markets.read', T0 + 60_000)).kind).toBe('rate_limited');
        expect((await s.authorize(key, 'markets.read', T0 + 60_999)).kind).toBe('rate_limited');
        const r = await s.authorize(key, 'markets.read', T0 + 61_000);
        expect(r.kind === 'ok' && r.window.remaining).toBe(0);
        // Refused requests were not counted toward the allowance.
        expect(await s.store.usage('a5', billingPeriod(T0))).toBe(12);
      } finally {
        await s.close();
      }
    });

    it('two keys of one account and plan each have their own rolling window (the monthly allowance is the account\'s)', async () => {
      const s = await setup();
      try {
        const a = await s.admin.create({ accountId: 'b1', plan: 'starter' });
        const b = await s.admin.create({ accountId: 'b1' });
        const other = await s.admin.create({ accountId: 'b2', plan: 'starter' });
        for (let i = 0; i < 60; i++) expect((await s.authorize(a.key, 'markets.read', T0 + i)).kind).toBe('ok');
        expect((await s.authorize(a.key, 'markets.read', T0 + 100)).kind).toBe('rate_limited');
        // The other key of the same account, and a key of another account on the same plan, are untouched.
        const rb = await s.authorize(b.key, 'markets.read', T0 + 100);
        expect(rb.kind === 'ok' && rb.window.remaining).toBe(59);
        const ro = await s.authorize(other.key, 'markets.read', T0 + 100);
        expect(ro.kind === 'ok' && ro.window.remaining).toBe(59);
        expect(await s.store.usage('b1', billingPeriod(T0))).toBe(61);
        expect(await s.store.usage('b2', billingPeriod(T0))).toBe(1);
      } finally {
        await s.close();
      }
    });

    it('concurrent requests racing for the last slots: exactly the limit is admitted, the rest refused and not charged', async () => {
      const s = await setup();
      try {
        const { key } = await s.admin.create({ accountId: 'b3', plan: 'free' });
        for (let i = 0; i < 7; i++) expect((await s.authorize(key, 'markets.read', T0)).kind).toBe('ok');
        // Three slots left; twenty requests of the same instant race for them.
        const verdicts = await Promise.all(Array.from({ length: 20 }, () => s.authorize(key, 'markets.read', T0 + 1)));
        expect(verdicts.filter((v) => v.kind === 'ok')).toHaveLength(3);
        expect(verdicts.filter((v) => v.kind === 'rate_limited')).toHaveLength(17);
        expect(await s.store.usage('b3', billingPeriod(T0))).toBe(10);
        // The refused ones left no trace: at T0 + 60 s exactly the seven of T0 have aged out.
        const later = await Promise.all(Array.from({ length: 10 }, () => s.authorize(key, 'markets.read', T0 + 60_000)));
        expect(later.filter((v) => v.kind === 'ok')).toHaveLength(7);
      } finally {
        await s.close();
      }
    });

    it('a plan change applies from the next request, and the requests already in the window still count', async () => {
      const s = await setup();
      try {
        const { key } = await s.admin.create({ accountId: 'b4', plan: 'starter' });
        for (let i = 0; i < 30; i++) expect((await s.authorize(key, 'markets.read', T0 + i)).kind).toBe('ok');
        await s.admin.updateAccount('b4', { plan: 'pro' });
        const up = await s.authorize(key, 'markets.read', T0 + 100);
        expect(up.kind === 'ok' && [up.key.servedPlan, up.window.limit, up.window.remaining]).toEqual(['pro', 300, 269]);
        // Down to free with 31 requests in the last minute: refused until they age out.
        await s.admin.updateAccount('b4', { plan: 'free' });
        const down = await s.authorize(key, 'markets.read', T0 + 200);
        expect(down.kind).toBe('rate_limited');
        if (down.kind === 'rate_limited') expect([down.key.servedPlan, down.window.limit, down.window.remaining, down.window.resetAt]).toEqual(['free', 10, 0, T0 + 60_000]);
        const back = await s.authorize(key, 'markets.read', T0 + 60_100);
        expect(back.kind === 'ok' && [back.window.limit, back.window.remaining]).toEqual([10, 9]);
      } finally {
        await s.close();
      }
    });

    it('an account stored with a rate limit of 0 (written before the admin refused it) is refused with a finite reset, not an error', async () => {
      const s = await setup();
      try {
        const { key } = await s.admin.create({ accountId: 'b6', plan: 'enterprise' });
        const acct = (await s.store.getAccount('b6'))!;
        await s.store.putAccount({ ...acct, custom: { rate_limit_per_min: 0 }, limits: { ...acct.limits, rateLimitPerMin: 0 } });
        const r = await s.authorize(key, 'markets.read', T0);
        expect(r.kind).toBe('rate_limited');
        if (r.kind === 'rate_limited') expect(r.window).toEqual({ limit: 0, remaining: 0, resetAt: T0 + 60_000 });
        expect(await s.store.usage('b6', billingPeriod(T0))).toBe(0);
      } finally {
        await s.close();
      }
    });

    it('refuses a Free account past its allowance with upgrade_plan; payment recovery is served as Free with resolve_payment', async () => {
      const s = await setup();
      try {
        const free = await s.admin.create({ accountId: 'a6', plan: 'free' });
        let t = T0;
        for (let i = 0; i < 1000; i++) {
          t += 6000; // 10 per minute: never rate limited
          const r = await s.authorize(free.key, 'markets.read', t);
          if (r.kind !== 'ok') throw new Error(`request ${i} was ${r.kind}`);
        }
        const r = await s.authorize(free.key, 'markets.read', t + 6000);
        expect(r.kind).toBe('payment_required');
        if (r.kind === 'payment_required') {
          expect(r).toMatchObject({ action: 'upgrade_plan', plan: 'free', included: 1000, used: 1000 });
        }
        const paid = await s.admin.create({ accountId: 'a7', plan: 'pro' });
        await s.admin.updateAccount('a7', { paymentState: 'past_due' });
        const served = await s.authorize(paid.key, 'markets.read', T0);
        expect(served.kind === 'ok' && served.key.servedPlan).toBe('free');
        expect(served.kind === 'ok' && served.window.limit).toBe(10);
        // Exhaust the Free allowance in a later month of the same account.
        const june = Date.UTC(2027, 5, 1);
        for (let i = 0; i < 1000; i++) await s.authorize(paid.key, 'markets.read', june + i * 6000);
        const refused = await s.authorize(paid.key, 'markets.read', june + 1000 * 6000);
        expect(refused.kind === 'payment_required' && refused.action).toBe('resolve_payment');
        expect(refused.kind === 'payment_required' && refused.plan).toBe('pro');
        await s.admin.updateAccount('a7', { paymentState: 'active' });
        const back = await s.authorize(paid.key, 'markets.read', june + 1001 * 6000);
        expect(back.kind === 'ok' && back.key.servedPlan).toBe('pro');
      } finally {
        await s.close();
      }
    }, 60_000);

    it('counts paid usage past the allowance (overage) without refusing', async () => {
      const s = await setup();
      try {
        const paid = await s.admin.create({ accountId: 'a8', plan: 'enterprise' });
        await s.admin.updateAccount('a8', { custom: { included_requests_per_month: 3, rate_limit_per_min: 100 } });
        for (let i = 0; i < 5; i++) expect((await s.authorize(paid.key, 'markets.read', T0 + i)).kind).toBe('ok');
        expect(await s.store.usage('a8', billingPeriod(T0))).toBe(5);
      } finally {
        await s.close();
      }
    });

    it('holds an account to its concurrent streams across the processes sharing the store, freeing slots at release or expiry', async () => {
      const s = await setup();
      try {
        const acct = `acct-${Math.random().toString(36).slice(2)}`;
        const other = `${acct}-other`;
        const lease = 60_000;
        // Two slots: a third connection is refused, another account is not affected.
        expect(await s.store.acquireStreamSlot(acct, 'c1', 2, T0, T0 + lease)).toBe(true);
        expect(await s.store.acquireStreamSlot(acct, 'c2', 2, T0, T0 + lease)).toBe(true);
        expect(await s.store.acquireStreamSlot(acct, 'c3', 2, T0, T0 + lease)).toBe(false);
        expect(await s.store.acquireStreamSlot(other, 'c1', 2, T0, T0 + lease)).toBe(true);
        // Taking a slot it holds again is not a second one.
        expect(await s.store.acquireStreamSlot(acct, 'c1', 2, T0, T0 + lease)).toBe(true);
        // Released: the next one fits.
        await s.store.releaseStreamSlot(acct, 'c2');
        expect(await s.store.acquireStreamSlot(acct, 'c3', 2, T0 + 1, T0 + 1 + lease)).toBe(true);
        // c1 renewed, c3 not: past c3's expiry (a process that died holding it) a new one fits, c1 still counts.
        expect(await s.store.renewStreamSlot(acct, 'c1', T0 + 2, T0 + 10 * lease)).toBe(true);
        const later = T0 + 2 * lease;
        expect(await s.store.acquireStreamSlot(acct, 'c4', 2, later, later + lease)).toBe(true);
        expect(await s.store.acquireStreamSlot(acct, 'c5', 2, later, later + lease)).toBe(false);
        // An expired slot cannot be renewed (its stream must reconnect and take a slot again).
        expect(await s.store.renewStreamSlot(acct, 'c3', later, later + lease)).toBe(false);
      } finally {
        await s.close();
      }
    });
  });
}
