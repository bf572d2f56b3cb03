// The published plan catalog (spec: "Plan", "Published catalog values") and the pure rules that
// turn an account's plan and payment state into the limits a request is served under
// (spec: "Limits", "Account payment state"). In: plan key, payment state. Out: served limits.
// Payment-processor price ids and provisioning secrets never live here.

export type PlanKey = 'free' | 'starter' | 'pro' | 'business' | 'enterprise';
export const PLAN_KEYS: readonly PlanKey[] = ['free', 'starter', 'pro', 'business', 'enterprise'];

export type PaymentState = 'active' | 'past_due' | 'unpaid' | 'paused' | 'incomplete';
export const PAYMENT_STATES: readonly PaymentState[] = ['active', 'past_due', 'unpaid', 'paused', 'incomplete'];

export interface Plan {
  key: PlanKey;
  name: string;
  billing_tier: string;
  trial_days: number;
  tagline: string;
  monthly_price_cents: number;
  included_requests_per_month: number;
  overage_cents_per_1k: number;
  rate_limit_per_min: number;
  max_keys: number;
  features: string[];
  cta_label: string;
  highlighted: boolean;
  contact_sales: boolean;
}

export const PLANS: readonly Plan[] = [
  {
    key: 'free',
    name: 'Free',
    billing_tier: 'free',
    trial_days: 0,
    tagline: 'Explore matched markets and the catalog.',
    monthly_price_cents: 0,
    included_requests_per_month: 1000,
    overage_cents_per_1k: 0,
    rate_limit_per_min: 10,
    max_keys: 1,
    features: ['All nine venues', 'Matched sports events', 'Unified market catalog', 'Community support'],
    cta_label: 'Start free',
    highlighted: false,
    contact_sales: false,
  },
  {
    key: 'starter',
    name: 'Starter',
    billing_tier: 'starter',
    trial_days: 0,
    tagline: 'For side projects and prototypes.',
    monthly_price_cents: 2900,
    included_requests_per_month: 100000,
    overage_cents_per_1k: 25,
    rate_limit_per_min: 60,
    max_keys: 3,
    features: ['Everything in Free', 'Settlement-rule comparisons', 'Live market detail', 'Email support'],
    cta_label: 'Choose Starter',
    highlighted: false,
    contact_sales: false,
  },
  {
    key: 'pro',
    name: 'Pro',
    billing_tier: 'pro',
    trial_days: 0,
    tagline: 'For production trading tools.',
    monthly_price_cents: 7900,
    included_requests_per_month: 500000,
    overage_cents_per_1k: 12,
    rate_limit_per_min: 300,
    max_keys: 10,
    features: ['Everything in Starter', 'Player-prop matching', 'Spot crypto prices', 'Wallet lookups', 'Priority support'],
    cta_label: 'Choose Pro',
    highlighted: true,
    contact_sales: false,
  },
  {
    key: 'business',
    name: 'Business',
    billing_tier: 'enterprise',
    trial_days: 0,
    tagline: 'For teams running at volume.',
    monthly_price_cents: 19900,
    included_requests_per_month: 2000000,
    overage_cents_per_1k: 6,
    rate_limit_per_min: 1000,
    max_keys: 25,
    features: ['Everything in Pro', 'Higher rate limits', 'Usage reports', 'Shared team keys'],
    cta_label: 'Choose Business',
    highlighted: false,
    contact_sales: false,
  },
  {
    // "The enterprise row is bespoke: its zeros mean custom, not zero."
    key: 'enterprise',
    name: 'Enterprise',
    billing_tier: '',
    trial_days: 0,
    tagline: 'Custom limits, terms and support.',
    monthly_price_cents: 0,
    included_requests_per_month: 0,
    overage_cents_per_1k: 0,
    rate_limit_per_min: 0,
    max_keys: 0,
    features: ['Custom rate limits and allowance', 'Dedicated support', 'Custom terms'],
    cta_label: 'Contact sales',
    highlighted: false,
    contact_sales: true,
  },
];

/**
 * Concurrent push streams (GET /v1/stream) per account on one API replica. Not part of the
 * published plan object (the spec fixes its fields); documented with the route.
 */
export const STREAM_LIMITS: Readonly<Record<PlanKey, number>> = { free: 1, starter: 5, pro: 25, business: 100, enterprise: 100 };

const BY_KEY = new Map(PLANS.map((p) => [p.key, p] as const));
export const planByKey = (k: PlanKey): Plan => BY_KEY.get(k)!;
export const isPlanKey = (k: string): k is PlanKey => BY_KEY.has(k as PlanKey);
export const isPaymentState = (s: string): s is PaymentState => (PAYMENT_STATES as readonly string[]).includes(s);

/** Custom terms of an enterprise account (its catalog zeros mean "custom"). */
export interface CustomLimits {
  rate_limit_per_min?: number;
  included_requests_per_month?: number;
  max_keys?: number;
}

// Enterprise without custom terms recorded: served at the business limits, never at zero.
const ENTERPRISE_FALLBACK = planByKey('business');

/** What a request is served under; stored denormalized on the account so auth is one read. */
export interface ServedLimits {
  /** The plan the request is served under (`free` while a paid plan is in payment recovery). */
  servedPlan: PlanKey;
  rateLimitPerMin: number;
  includedPerMonth: number;
  /** True when exhausting the allowance refuses requests (Free) instead of counting overage. */
  hardCap: boolean;
  /** The 402 action when the hard cap is reached. */
  action: 'upgrade_plan' | 'resolve_payment';
  maxKeys: number;
}

/**
 * "A paid subscription in payment recovery (past_due, unpaid, paused, incomplete) is served as
 * Free and gets action resolve_payment"; a Free key past its allowance gets upgrade_plan; paid
 * plans in good standing count overage and are never refused for usage.
 */
export function servedLimits(plan: PlanKey, state: PaymentState, custom: CustomLimits = {}): ServedLimits {
  const own = planByKey(plan);
  const maxKeys = plan === 'enterprise' ? (custom.max_keys ?? ENTERPRISE_FALLBACK.max_keys) : own.max_keys;
  const free = planByKey('free');
  if (plan === 'free' || state !== 'active') {
    return {
      servedPlan: 'free',
      rateLimitPerMin: free.rate_limit_per_min,
      includedPerMonth: free.included_requests_per_month,
      hardCap: true,
      action: plan === 'free' ? 'upgrade_plan' : 'resolve_payment',
      maxKeys,
    };
  }
  if (plan === 'enterprise') {
    return {
      servedPlan: plan,
      rateLimitPerMin: custom.rate_limit_per_min ?? ENTERPRISE_FALLBACK.rate_limit_per_min,
      includedPerMonth: custom.included_requests_per_month ?? ENTERPRISE_FALLBACK.included_requests_per_month,
      hardCap: false,
      action: 'upgrade_plan',
      maxKeys,
    };
  }
  return {
    servedPlan: plan,
    rateLimitPerMin: own.rate_limit_per_min,
    includedPerMonth: own.included_requests_per_month,
    hardCap: false,
    action: 'upgrade_plan',
    maxKeys,
  };
}

/** The billing period a request counts toward: the UTC calendar month, `YYYY-MM`. */
export function billingPeriod(now: number): string {
  // Hot path: one Date per month, not per request.
  if (now >= cachedFrom && now < cachedUntil) return cachedPeriod;
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const period = `${y}-${m < 9 ? '0' : ''}${m + 1}`;
  cachedFrom = Date.UTC(y, m, 1);
  cachedUntil = Date.UTC(y, m + 1, 1);
  cachedPeriod = period;
  return period;
}
let cachedFrom = 0;
let cachedUntil = 0;
let cachedPeriod = '';
