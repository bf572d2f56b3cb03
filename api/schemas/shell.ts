// JSON Schemas of the shell's own response bodies (spec: "Plan", "Category", "Error body"), used
// by the OpenAPI document so generated clients get typed models. In: nothing. Out: schemas.
import { CATEGORIES } from '../routes/table.ts';
import { PLAN_KEYS } from '../auth/plans.ts';

export const PlanSchema = {
  type: 'object',
  required: [
    'key',
    'name',
    'billing_tier',
    'trial_days',
    'tagline',
    'monthly_price_cents',
    'included_requests_per_month',
    'overage_cents_per_1k',
    'rate_limit_per_min',
    'max_keys',
    'features',
    'cta_label',
    'highlighted',
    'contact_sales',
  ],
  properties: {
    key: { type: 'string', enum: [...PLAN_KEYS] },
    name: { type: 'string' },
    billing_tier: { type: 'string', description: 'Empty for enterprise.' },
    trial_days: { type: 'integer', minimum: 0 },
    tagline: { type: 'string' },
    monthly_price_cents: { type: 'integer', minimum: 0 },
    included_requests_per_month: { type: 'integer', minimum: 0 },
    overage_cents_per_1k: { type: 'integer', minimum: 0 },
    rate_limit_per_min: { type: 'integer', minimum: 0 },
    max_keys: { type: 'integer', minimum: 0 },
    features: { type: 'array', items: { type: 'string' } },
    cta_label: { type: 'string' },
    highlighted: { type: 'boolean' },
    contact_sales: { type: 'boolean' },
  },
} as const;

export const CategorySchema = {
  type: 'object',
  required: ['id', 'name', 'description'],
  properties: {
    id: { type: 'string', enum: [...CATEGORIES], description: 'Treat unknown values as possible (spec: "Versioning").' },
    name: { type: 'string' },
    description: { type: 'string' },
  },
} as const;

export const dataOf = (ref: string) => ({
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: { $ref: ref } } },
});
