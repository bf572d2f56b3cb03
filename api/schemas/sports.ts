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
    prices: { $ref: '#/components/schemas/SubmarketPrices' },
  },
} as const;

const PROB = { type: ['number', 'null'], minimum: 0 } as const;

/** include_prices: one venue outcome's quote (pipelines/matching/prices.ts VenueQuote). */
export const VenueQuoteSchema = {
  type: 'object',
  required: ['provider', 'market_id', 'outcome_id', 'bid', 'ask', 'as_of', 'as_of_kind', 'observed_at', 'stale', 'fee_availability', 'fee', 'effective_ask'],
  properties: {
    provider: PROVIDER,
    market_id: { type: 'string' },
    outcome_id: { type: 'string' },
    bid: { ...PROB, description: 'Best bid (probability 0..1) as last read from the venue; null on an empty side or when the venue lists no top of book.' },
    ask: { ...PROB, description: 'Best ask, as bid.' },
    as_of: { ...ISO_MS, type: ['string', 'null'], description: "The venue's own time of the quote when its record carries one (as market detail's pricing.as_of)." },
    as_of_kind: { type: ['string', 'null'], description: '`quote`, `record_refresh`, `record_static`, `unknown` (as market detail).' },
    observed_at: { ...ISO_MS, type: ['string', 'null'], description: 'When the service last read this quote (the newest complete crawl of the venue that still listed it unchanged); the field staleness is judged on.' },
    stale: { type: 'boolean', description: 'Read longer ago than the stale age (PRICES_STALE_MS, default 60 s): shown, never a best price.' },
    fee_availability: { type: ['string', 'null'], description: '`trading_fees.availability` of the fee used: `published`, `zero`, `per_account`, `not_published`, `unavailable`; an open set.' },
    fee: { ...PROB, description: "The venue's taker fee of buying one contract at `ask`, rounded as the venue rounds it, then up to 6 places; null when not known." },
    effective_ask: { ...PROB, description: '`ask` + `fee`: the cost of one contract (payout 1) after fees; null when either is unknown.' },
  },
} as const;

const LegSchema = {
  type: 'object',
  required: ['outcome_key', 'provider', 'market_id', 'outcome_id', 'ask', 'effective_ask'],
  properties: {
    outcome_key: { type: 'string' },
    provider: PROVIDER,
    market_id: { type: 'string' },
    outcome_id: { type: 'string' },
    ask: { type: 'number' },
    effective_ask: { type: 'number' },
  },
} as const;

/** include_prices: `prices` of a submarket (pipelines/matching/prices.ts SubmarketPrices). */
export const SubmarketPricesSchema = {
  type: 'object',
  required: ['outcomes', 'complete_set'],
  properties: {
    outcomes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['outcome_key', 'quotes', 'best'],
        properties: {
          outcome_key: { type: 'string', description: 'A canonical outcome key of the submarket, in its order.' },
          quotes: { type: 'array', items: { $ref: '#/components/schemas/VenueQuote' }, description: 'One per source market outcome mapped onto this outcome.' },
          best: { anyOf: [{ $ref: '#/components/schemas/PriceLeg' }, { type: 'null' }], description: 'The lowest effective ask among quotes that are not stale and whose fee is known; null when none.' },
        },
      },
    },
    complete_set: {
      anyOf: [
        {
          type: 'object',
          required: ['legs', 'cost', 'edge', 'settlement_safe'],
          properties: {
            legs: { type: 'array', items: { $ref: '#/components/schemas/PriceLeg' } },
            cost: { type: 'number', description: "Sum of the legs' effective asks: one contract of each outcome, each bought where it is cheapest after fees." },
            edge: { type: 'number', description: '1 - cost per set, whatever the result (negative is a loss). Never overstated: fees are rounded up and a commission on net winnings is counted as if the leg wins.' },
            settlement_safe: { type: 'boolean', description: "True only when the submarket's settlement_equivalence is `equivalent` (every venue settles the line by the same rules) and the agreed tie and push rules leave exactly one leg paying (a tie or push that cannot happen, or pays half each; not one that loses, is void or is an outcome of its own)." },
          },
        },
        { type: 'null' },
      ],
      description: 'Two-outcome submarkets with a best price on both outcomes; null otherwise.',
    },
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
  SubmarketPrices: SubmarketPricesSchema,
  VenueQuote: VenueQuoteSchema,
  PriceLeg: LegSchema,
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
