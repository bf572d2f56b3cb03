import { describe, expect, it } from 'vitest';
import { binaryFromFourSided, binaryFromYesSide, quotesFromOdds } from './quotes.ts';

describe('YES-side books (venue_8, venue_9): NO is the complement', () => {
  it('derives the NO bid from the YES ask and the NO ask from the YES bid, sizes swapped', () => {
    const [yes, no] = binaryFromYesSide(
      [{ price: 0.44, size: 120 }, { price: 0.43, size: 10 }],
      [{ price: 0.46, size: 80 }, { price: 0.5, size: 5 }],
    );
    expect(yes).toEqual({ price: 0.45, bid: 0.44, ask: 0.46, last: null, bid_size: 120, ask_size: 80 });
    expect(no).toEqual({ price: 0.55, bid: 0.54, ask: 0.56, last: null, bid_size: 80, ask_size: 120 });
  });
  it('an empty or one-sided book yields null quotes on the empty side', () => {
    const [yes, no] = binaryFromYesSide([{ price: 0.3, size: 10 }], []);
    expect(yes).toMatchObject({ bid: 0.3, ask: null, price: null });
    expect(yes.ask_size).toBeUndefined();
    expect(no).toMatchObject({ bid: null, ask: 0.7, price: null });
    const [e1, e2] = binaryFromYesSide([], []);
    expect([e1.bid, e1.ask, e2.bid, e2.ask]).toEqual([null, null, null, null]);
  });
});

describe('four-sided books (venue_6)', () => {
  it('takes the better of the own side and the complement of the other side', () => {
    const [yes, no] = binaryFromFourSided(
      { bids: [{ price: 0.4, size: 10 }], asks: [{ price: 0.5, size: 10 }] },
      { bids: [{ price: 0.55, size: 7 }], asks: [{ price: 0.58, size: 3 }] },
    );
    // YES bid: max(0.40, 1-0.58=0.42) = 0.42 (size 3); YES ask: min(0.50, 1-0.55=0.45) = 0.45 (size 7)
    expect(yes).toMatchObject({ bid: 0.42, bid_size: 3, ask: 0.45, ask_size: 7, price: 0.435 });
    // NO bid: max(0.55, 1-0.50) = 0.55; NO ask: min(0.58, 1-0.40=0.60) = 0.58
    expect(no).toMatchObject({ bid: 0.55, ask: 0.58, price: 0.565 });
  });
  it('an empty book keeps the mark as price with null sides', () => {
    const [yes, no] = binaryFromFourSided({ bids: [], asks: [] }, { bids: [], asks: [] }, { yes: 0.45, no: 0.55 });
    expect(yes).toEqual({ price: 0.45, bid: null, ask: null, last: null });
    expect(no.price).toBe(0.55);
  });
});

describe('odds offers (venue_7)', () => {
  it('cheapest back offer is the ask; the opposite ask gives the complementary bid; price is the midpoint', () => {
    const [a, b] = quotesFromOdds([
      [{ odds: 1.91, stake: 500 }, { odds: 2.0, stake: 100 }],
      [{ odds: 1.8, stake: 200 }],
    ]);
    expect(a.ask).toBe(0.5); // 1/2.00 beats 1/1.91
    expect(a.ask_size).toBe(200);
    expect(b.ask).toBe(0.555556);
    expect(a.bid).toBe(0.444444); // 1 - b.ask
    expect(b.bid).toBe(0.5);
    expect(a.price).toBe(0.472222);
  });
  it('without an opposite offer the bid and price are null', () => {
    const [a, b] = quotesFromOdds([[{ odds: 2.5, stake: 10 }], []]);
    expect(a).toMatchObject({ ask: 0.4, bid: null, price: null });
    expect(b).toMatchObject({ ask: null, bid: 0.6, price: null });
  });
});
