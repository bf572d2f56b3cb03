// JSON Schema of GET /v1/markets/{market_id}/history's 200 body, for the OpenAPI document
// (api/openapi.ts). Objects allow additional properties ("new response fields may appear").
const ohlc = {
  type: ['object', 'null'],
  description: 'First, highest, lowest and last value of the bucket (probabilities 0..1); null when no change in the bucket had one.',
  required: ['open', 'high', 'low', 'close'],
  properties: {
    open: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    high: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    low: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    close: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  },
};

export const MarketHistorySchema = {
  type: 'object',
  required: ['market', 'interval', 'data', 'pagination'],
  properties: {
    market: {
      type: 'object',
      required: ['id', 'provider', 'provider_id'],
      properties: { id: { type: 'string', description: 'Composite id the history is stored under.' }, provider: { type: 'string' }, provider_id: { type: 'string' } },
    },
    interval: { type: 'string', enum: ['1m', '1h', '1d'] },
    data: {
      type: 'array',
      description: 'Buckets with at least one quote change, newest first.',
      items: {
        type: 'object',
        required: ['start_time', 'end_time', 'outcomes'],
        properties: {
          start_time: { type: 'integer', format: 'int64', description: 'Unix seconds, first second of the bucket (UTC).' },
          end_time: { type: 'integer', format: 'int64', description: 'Unix seconds, last second of the bucket.' },
          outcomes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['outcome_id', 'mid', 'last', 'price', 'changes'],
              properties: {
                outcome_id: { type: 'string', description: 'As in market detail outcomes[].outcome_id.' },
                mid: { ...ohlc, description: 'Midpoint of bid and ask (changes quoting both sides only).' },
                last: { ...ohlc, description: 'Last traded price as the venue reports it.' },
                price: { ...ohlc, description: "The implied probability as market detail's price: the midpoint, else the venue's mark or last (the one series of venues whose listings carry a mark only)." },
                changes: { type: 'integer', minimum: 1, description: 'Quote changes of this outcome stored in the bucket.' },
              },
            },
          },
        },
      },
    },
    pagination: {
      type: 'object',
      required: ['limit', 'total', 'has_more'],
      properties: {
        limit: { type: 'integer' },
        total: { type: 'null' },
        has_more: { type: 'boolean' },
        next_cursor: { type: 'string', description: 'Absent when has_more is false; send back as cursor.' },
      },
    },
  },
};
