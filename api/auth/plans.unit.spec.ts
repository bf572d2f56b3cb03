import { describe, it, expect } from 'vitest';
import { billingPeriod, servedLimits } from './plans.ts';

describe('servedLimits (spec: "Account payment state")', () => {
  it('Free is capped with upgrade_plan; a paid plan in payment recovery is served as Free with resolve_payment', () => {
    expect(servedLimits('free', 'active')).toMatchObject({ servedPlan: 'free', rateLimitPerMin: 10, includedPerMonth: 1000, hardCap: true, action: 'upgrade_plan', maxKeys: 1 });
    for (const s of ['past_due', 'unpaid', 'paused', 'incomplete'] as const) {
      expect(servedLimits('pro', s)).toMatchObject({ servedPlan: 'free', rateLimitPerMin: 10, hardCap: true, action: 'resolve_payment', maxKeys: 10 });
    }
    expect(servedLimits('business', 'active')).toMatchObject({ servedPlan: 'business', rateLimitPerMin: 1000, includedPerMonth: 2000000, hardCap: false });
  });

  it('enterprise zeros mean custom: custom terms apply, business limits otherwise', () => {
    expect(servedLimits('enterprise', 'active')).toMatchObject({ rateLimitPerMin: 1000, maxKeys: 25, hardCap: false });
    expect(servedLimits('enterprise', 'active', { rate_limit_per_min: 5000, max_keys: 100 })).toMatchObject({ rateLimitPerMin: 5000, maxKeys: 100 });
  });
});

describe('billingPeriod', () => {
  it('is the UTC calendar month, across month and year boundaries', () => {
    expect(billingPeriod(Date.UTC(2026, 10, 30, 23, 59, 59, 999))).toBe('2026-11');
    expect(billingPeriod(Date.UTC(2026, 11, 1))).toBe('2026-12');
    expect(billingPeriod(Date.UTC(2027, 0, 1))).toBe('2027-01');
    expect(billingPeriod(Date.UTC(2026, 11, 31, 12))).toBe('2026-12');
    expect(billingPeriod(Date.UTC(2026, 8, 15))).toBe('2026-09');
  });
});
