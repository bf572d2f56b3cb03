// JSON Schemas of the live routes' 200 bodies (spec: "Market detail", "Event detail", "Spot price
// row", "Wallet profile", "Wallet position"), for the OpenAPI document (api/openapi.ts) so that
// generated clients get typed models. In: nothing. Out: one inline schema per route id. Every
// object allows additional properties: "new response fields may appear" (spec: "Versioning").
const num01 = { type: ['number', 'null'], minimum: 0, maximum: 1 };
const nullableNum = { type: ['number', 'null'] };
const iso = { type: 'string', format: 'date-time' };

const pagination = (cursorless = false) => ({
  type: 'object',
  required: ['limit', 'total', 'has_more'],
  properties: {
    limit: { type: 'integer' },
    total: cursorless ? { type: 'null' } : { type: ['integer', 'null'] },
    has_more: { type: 'boolean' },
    next_cursor: { type: 'string', description: 'Absent when has_more is false; send back as cursor.' },
  },
});

const feeLeg = {
  type: ['object', 'null'],
  required: ['model', 'rate', 'exponent', 'rounding'],
  properties: {
    model: { type: 'string', description: 'quadratic, proportional, none (open set).' },
    rate: { type: 'number' },
    exponent: { type: ['number', 'null'] },
    rounding: {
      type: 'object',
      required: ['direction', 'increment'],
      properties: { direction: { type: 'string' }, increment: { type: ['number', 'null'] } },
    },
  },
};

export const MarketDetailSchema = {
  type: 'object',
  required: ['id', 'provider', 'provider_id', 'title', 'status', 'outcomes', 'pricing', 'trading_fees', 'liquidity_usd', 'volume_24h_usd', 'volume_total_usd'],
  properties: {
    id: { type: 'string', description: 'Composite {provider}:{native_id}.' },
    provider: { type: 'string' },
    provider_id: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'string', description: 'open, closed, settled, ... (open set).' },
    event_id: { type: 'string', description: 'Parent event id; omitted when the venue has none.' },
    close_time: { ...iso, description: 'Omitted when the venue publishes none.' },
    outcomes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'outcome_id', 'price', 'bid', 'ask', 'last'],
        properties: {
          name: { type: 'string' },
          outcome_id: { type: 'string' },
          price: num01,
          bid: num01,
          ask: num01,
          last: num01,
          bid_size: { type: 'number' },
          ask_size: { type: 'number' },
        },
      },
    },
    pricing: {
      type: 'object',
      required: ['availability', 'scale', 'source', 'as_of', 'as_of_kind', 'observed_at', 'neg_risk'],
      properties: {
        availability: { type: 'string', enum: ['live', 'indicative', 'unavailable'] },
        scale: { type: 'string', enum: ['probability_0_1'] },
        source: { type: 'string', enum: ['market_record', 'orderbook'] },
        as_of: { type: ['string', 'null'], format: 'date-time' },
        as_of_kind: { type: 'string', enum: ['quote', 'record_refresh', 'record_static', 'unknown'] },
        observed_at: iso,
        neg_risk: { type: 'boolean' },
      },
    },
    trading_fees: {
      type: 'object',
      required: ['availability', 'observed_at', 'source', 'charge_basis', 'taker', 'maker'],
      properties: {
        availability: { type: 'string', description: 'published, zero, per_account, not_published, unavailable (open set).' },
        observed_at: iso,
        source: { type: ['string', 'null'] },
        charge_basis: { type: ['string', 'null'] },
        taker: feeLeg,
        maker: feeLeg,
      },
    },
    liquidity_usd: nullableNum,
    volume_24h_usd: nullableNum,
    volume_total_usd: nullableNum,
    volume_24h_contracts: { type: 'number' },
    volume_total_contracts: { type: 'number' },
    open_interest: { type: 'number' },
  },
};

export const EventDetailSchema = {
  type: 'object',
  required: ['event_id', 'provider', 'title', 'markets'],
  properties: {
    event_id: { type: 'string' },
    provider: { type: 'string' },
    title: { type: 'string' },
    markets: {
      type: 'array',
      items: { type: 'object', required: ['market_id', 'title'], properties: { market_id: { type: 'string' }, title: { type: 'string' } } },
    },
    fanout: {
      type: 'object',
      required: ['siblings_attempted', 'siblings_returned', 'siblings_missing'],
      properties: {
        siblings_attempted: { type: 'array', items: { type: 'string' } },
        siblings_returned: { type: 'array', items: { type: 'string' } },
        siblings_missing: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

export const SpotPageSchema = {
  type: 'object',
  required: ['data', 'pagination'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['symbol', 'value', 'timestamp'],
        properties: { symbol: { type: 'string' }, value: { type: 'number' }, timestamp: { type: 'integer', format: 'int64' } },
      },
    },
    pagination: pagination(true),
  },
};

export const WalletProfileSchema = {
  type: 'object',
  required: ['address', 'signer', 'profile_image', 'display_name'],
  properties: {
    address: { type: 'string' },
    signer: { type: ['string', 'null'] },
    profile_image: { type: 'string' },
    display_name: { type: 'string' },
  },
};

export const PositionsPageSchema = {
  type: 'object',
  required: ['address', 'data', 'pagination'],
  properties: {
    address: { type: 'string' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['condition_id', 'outcome', 'shares'],
        properties: { condition_id: { type: 'string' }, outcome: { type: 'string' }, shares: { type: 'number' } },
      },
    },
    pagination: pagination(true),
  },
};

export const LIVE_OK_SCHEMAS = {
  market_detail: MarketDetailSchema,
  event_detail: EventDetailSchema,
  spot_prices: SpotPageSchema,
  wallet_profile: WalletProfileSchema,
  wallet_positions: PositionsPageSchema,
} as const;
