import { describe, expect, it } from 'vitest';
import { MarketDetailSchema, WalletProfileSchema } from './schemas.ts';
import { schemaProblems } from './testkit.ts';

describe('the schema check used by the live route tests can fail', () => {
  it('reports missing fields, wrong types, enum and range violations', () => {
    expect(schemaProblems(WalletProfileSchema, { address: '0x1', signer: 3, profile_image: '' })).toEqual(['$.display_name: missing', '$.signer: integer is not string|null']);
    const bad = schemaProblems(MarketDetailSchema, {
      id: 'x', provider: 'venue_1', provider_id: 'x', title: 't', status: 'open',
      outcomes: [{ name: 'Yes', outcome_id: 'yes', price: 1.5, bid: null, ask: null, last: null }],
      pricing: { availability: 'maybe', scale: 'probability_0_1', source: 'orderbook', as_of: null, as_of_kind: 'quote', observed_at: 'now', neg_risk: false },
      trading_fees: { availability: 'zero', observed_at: 'now', source: null, charge_basis: null, taker: null, maker: null },
      liquidity_usd: null, volume_24h_usd: null, volume_total_usd: null,
    });
    expect(bad).toEqual(['$.outcomes[0].price: above maximum', '$.pricing.availability: "maybe" not in enum']);
  });
});
