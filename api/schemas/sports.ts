// JSON Schemas of the sports routes' and the catalog's 200 bodies (spec: "Matched sports event",
// "Submarket", "Source market", "Rule matrix", "Catalog market row", "Common envelopes"), used by
// the OpenAPI document so generated clients get typed models and schemathesis checks every body.
// Open sets stay open: `market_type`, rule values and outcome types are strings ("treat as an open
// set"); objects allow fields the spec may add.
import { CATEGORIES, LEAGUES, PROVIDERS } from '../routes/table.ts';

const ISO_MS = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' } as const;
const DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const PROVIDER = { type: 'string', enum: [...PROVIDERS] } as const;

export const PaginationSchema = {
  type: 'object',
  required: ['limit', 'total', 'has_more'],
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    total: { type: ['integer', 'null'], minimum: 0 },
    has_more: { type: 'boolean' },
    next_cursor: { type: 'string', description: 'Absent when has_more is false; sent back as cursor.' },
  },
} as const;

export const SnapshotSchema = {
  type: 'object',
  required: ['observed_at'],
  properties: { observed_at: { ...ISO_MS, type: ['string', 'null'], description: 'When the oldest underlying read began; null on the catalog when unknown.' } },
} as const;

export const SourceValueSchema = {
  type: 'object',
  required: ['provider', 'market_id', 'value', 'description'],
  properties: {
    provider: PROVIDER,
    market_id: { type: 'string' },
    value: { type: 'string', description: 'Extensible: display the description, never assume an unfamiliar value.' },
    description: { type: 'string' },
    evidence_url: { type: 'string', description: 'Present only for known values.' },
  },
} as const;

export const RuleRowSchema = {
  type: 'object',
  required: ['rule', 'label', 'comparison', 'source_values'],
  properties: {
    rule: { type: 'string' },
    label: { type: 'string' },
    comparison: { type: 'string', description: '`different`, `unverified`, or the agreeing value.' },
    source_values: { type: 'array', items: { $ref: '#/components/schemas/RuleSourceValue' } },
  },
} as const;

export const SourceMarketSchema = {
  type: 'object',
  required: ['provider', 'event_id', 'market_id', 'market_name', 'outcomes'],
  properties: {
    provider: PROVIDER,
    event_id: { type: 'string' },
    market_id: { type: 'string' },
    market_name: { type: 'string' },
    market_slug: { type: 'string', description: 'Present on venue_2.' },
    outcomes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['canonical_outcome_key', 'label', 'outcome_id'],
        properties: {
          canonical_outcome_key: { type: 'string' },
          label: { type: 'string' },
          outcome_id: { type: 'string' },
          side: { type: 'string', enum: ['yes', 'no'] },
        },
      },
    },
  },
} as const;

export const SubmarketSchema = {
  type: 'object',
  required: ['key', 'market_type', 'segment', 'display_name', 'metric', 'outcomes', 'source_markets'],
  properties: {
    key: { type: 'string' },
    market_type: { type: 'string', description: '`moneyline`, `spread`, `total`, `team_total`, `player_prop`; an open set.' },
    segment: { type: 'string', enum: ['full', 'half:1', 'half:2', 'quarter:1', 'quarter:2', 'quarter:3', 'quarter:4'] },
    display_name: { type: 'string' },
    metric: { type: 'string' },
    line: { type: 'number' },
    subject: {
      type: 'object',
      required: ['type', 'key', 'name'],
      properties: { type: { type: 'string' }, key: { type: 'string' }, name: { type: 'string' } },
    },
    rules: { type: 'object', properties: { settlement: { type: 'string' } } },
    outcomes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'label', 'type', 'side'],
        properties: { key: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' }, side: { type: 'string' } },
      },
    },
    source_markets: { type: 'array', minItems: 2, items: { $ref: '#/components/schemas/SourceMarket' } },
    settlement_equivalence: { type: 'string', enum: ['equivalent', 'different', 'unverified'] },
    rule_comparisons: { type: 'array', items: { $ref: '#/components/schemas/RuleRow' } },
  },
} as const;

export const EventSchema = {
  type: 'object',
  required: ['event_id', 'sport', 'league', 'title', 'scheduled_date', 'scheduled_start', 'participants', 'submarkets'],
  properties: {
    event_id: { type: 'string', pattern: '^(nba|wnba|nfl|mlb|nhl)-[a-z0-9-]+-\\d{4}-\\d{2}-\\d{2}$' },
    sport: { type: 'string' },
    league: { type: 'string', enum: [...LEAGUES] },
    title: { type: 'string' },
    scheduled_date: DATE,
    scheduled_start: { ...ISO_MS, type: ['string', 'null'] },
    participants: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'name', 'role'],
        properties: { key: { type: 'string' }, name: { type: 'string' }, role: { type: 'string', enum: ['away', 'home'] } },
      },
    },
    submarkets: { type: 'array', items: { $ref: '#/components/schemas/Submarket' } },
  },
} as const;

export const CatalogRowSchema = {
  type: 'object',
  required: ['id', 'provider', 'title', 'category'],
  properties: {
    id: { type: 'string', description: '`{provider}:{native_id}`' },
    provider: PROVIDER,
    title: { type: 'string' },
    category: { type: 'string', enum: [...CATEGORIES] },
  },
} as const;

const page = (item: string) => ({
  type: 'object',
  required: ['data', 'pagination', 'snapshot'],
  properties: {
    data: { type: 'array', items: { $ref: `#/components/schemas/${item}` } },
    pagination: { $ref: '#/components/schemas/Pagination' },
    snapshot: { $ref: '#/components/schemas/Snapshot' },
  },
});

/** Components the bodies below refer to. */
export const SPORTS_COMPONENTS = {
  Pagination: PaginationSchema,
  Snapshot: SnapshotSchema,
  RuleSourceValue: SourceValueSchema,
  RuleRow: RuleRowSchema,
  SourceMarket: SourceMarketSchema,
  Submarket: SubmarketSchema,
  Event: EventSchema,
  CatalogRow: CatalogRowSchema,
} as const;

export const SPORTS_OK_SCHEMAS = {
  sports_list: page('Event'),
  markets_list: page('CatalogRow'),
  sports_lookup: {
    type: 'object',
    required: ['data', 'lookups', 'snapshot'],
    properties: {
      data: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
      lookups: {
        type: 'object',
        description: 'Every identifier as sent, with the event ids it found (possibly none).',
        additionalProperties: { type: 'object', required: ['event_ids'], properties: { event_ids: { type: 'array', items: { type: 'string' } } } },
      },
      snapshot: { $ref: '#/components/schemas/Snapshot' },
    },
  },
} as const;
