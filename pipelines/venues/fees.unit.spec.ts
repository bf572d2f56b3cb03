import { describe, expect, it } from 'vitest';
import { venue1Effective, venue1Fees } from './adapters/venue_1/fees.ts';
import { venue2Fees } from './adapters/venue_2/fees.ts';
import { venue7Fees } from './adapters/venue_7/fees.ts';
import { venue8Fees } from './adapters/venue_8/fees.ts';
import { venue9Fees } from './adapters/venue_9/fees.ts';

const at = '2026-11-21T00:00:00.000Z';

describe('trading_fees availability cases', () => {
  it('venue_1: quadratic taker rounded up to the cent; maker fees only on that fee type; fee_free is a genuine zero', () => {
    const q = venue1Fees({ fee_type: 'quadratic', fee_multiplier: 0.07 }, at);
    expect(q).toMatchObject({ availability: 'published', charge_basis: 'contracts' });
    expect(q.taker).toEqual({ model: 'quadratic', rate: 0.07, exponent: 1, rounding: { direction: 'up', increment: 0.01 } });
    expect(q.maker?.model).toBe('none');
    expect(venue1Fees({ fee_type: 'quadratic_with_maker_fees', fee_multiplier: 0.07, maker_fee_multiplier: 0.0175 }, at).maker?.rate).toBe(0.0175);
    expect(venue1Fees({ fee_type: 'fee_free', fee_multiplier: 0 }, at).availability).toBe('zero');
  });
  it('venue_1: a scheduled change applies from its time on', () => {
    const s = { fee_type: 'quadratic', fee_multiplier: 0.07 };
    const ch = [{ fee_type: 'quadratic', fee_multiplier: 0.05, scheduled_ts: '2027-01-01T00:00:00Z' }];
    expect(venue1Effective(s, ch, Date.parse('2026-12-31T00:00:00Z')).fee_multiplier).toBe(0.07);
    expect(venue1Effective(s, ch, Date.parse('2027-01-02T00:00:00Z')).fee_multiplier).toBe(0.05);
  });
  it('published, zero and per-venue shapes', () => {
    expect(venue2Fees({ feesEnabled: false, takerBaseFee: 0, makerBaseFee: 0 }, at).availability).toBe('zero');
    expect(venue2Fees({ feesEnabled: true, takerBaseFee: 200, makerBaseFee: 0 }, at).taker?.rate).toBe(0.02);
    expect(venue7Fees(2, at)).toMatchObject({ availability: 'published', charge_basis: 'net_winnings' });
    expect(venue7Fees(undefined, at).availability).toBe('unavailable');
    expect(venue8Fees({ platformFee: 0, creatorFee: 0, liquidityFee: 0 }, at).availability).toBe('zero');
    expect(venue9Fees(100, at).taker?.rate).toBe(0.01);
  });
});
