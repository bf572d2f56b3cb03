// serializerOf (api/live/schemas.ts): market detail's text from its schema is JSON.stringify's text
// for every shape an adapter builds (optional fields present or not, fee legs, book sizes) and for
// fields the schema does not name, which are kept.
import { describe, expect, it } from 'vitest';
import fastJson from 'fast-json-stringify';
import { MarketDetailSchema, serializerOf } from './schemas.ts';
import { assemble, outcome, stamped } from '../../pipelines/venues/adapters/live.ts';
import { feesNotPublished, proportional } from '../../pipelines/venues/fees.ts';

const serialize = serializerOf(MarketDetailSchema);
const at = '2026-11-28T07:00:00.000Z';

const full = assemble(
  {
    provider: 'venue_1',
    providerId: 'm-1 "quoted" \\ \u2028 é \u0001',
    title: 'Will "X" happen?\n<b>é</b> 𝄞',
    status: 'open',
    eventId: 'ev-1',
    closeTime: '2026-12-01T00:00:00.000Z',
    outcomes: [
      outcome('Yes', 'y', { price: 0.1 + 0.2, bid: 1e-7, ask: 0.999999, last: -0, bid_size: 1e21, ask_size: 12.5 }),
      outcome('No', 'n', { price: null, bid: null, ask: null, last: null }),
    ],
    pricing: { availability: 'live', source: 'orderbook', ...stamped(at, 'quote'), neg_risk: true },
    fees: { availability: 'published', observed_at: at, source: 'fee_schedule', charge_basis: 'notional', taker: proportional(0.02), maker: { model: 'quadratic', rate: 0.07, exponent: 2, rounding: { direction: 'up', increment: 0.01 } } },
    liquidityUsd: 123.45,
    volume24hUsd: 0,
    volumeTotalUsd: null,
    volume24hContracts: 10,
    volumeTotalContracts: 20,
    openInterest: 3526,
  },
  at,
);

const bare = assemble(
  {
    provider: 'venue_3',
    providerId: '9500420',
    title: 'T',
    status: 'settled',
    outcomes: [outcome('A', 'a', { price: 1, bid: null, ask: null, last: null })],
    pricing: { availability: 'indicative', source: 'market_record', ...stamped(null, 'record_refresh'), neg_risk: false },
    fees: feesNotPublished(at),
  },
  at,
);

describe('serializerOf(MarketDetailSchema): the text JSON.stringify writes', () => {
  it('every optional field present, escapes, float text, fee legs', () => {
    expect(serialize(full)).toBe(JSON.stringify(full));
  });

  it('optional fields absent (no event_id, close_time, contract counts, open interest), as_of null', () => {
    expect(serialize(bare)).toBe(JSON.stringify(bare));
    expect(Object.keys(JSON.parse(serialize(bare)))).toEqual(Object.keys(bare));
  });

  it('fields the schema does not name are kept, not dropped', () => {
    const extra = { ...full, outcomes: [{ ...full.outcomes[0], depth: 3 }], pricing: { ...full.pricing, note: 'n' }, later: [1, 'x'] };
    expect(JSON.parse(serialize(extra))).toEqual(JSON.parse(JSON.stringify(extra)));
  });

  it('the schema as the OpenAPI document has it would not do: required fields first moves close_time', () => {
    const plain = fastJson(MarketDetailSchema as never) as (b: unknown) => string;
    expect(plain(full)).not.toBe(JSON.stringify(full));
  });
});
