// The quote arithmetic the adapters' listing quotes share: market detail's, for a record with no
// book (lib/quotes.ts), so a stored quote means what the route shows. Pure.
import { quoteOf, round6, type Quote } from '../../../lib/quotes.ts';

/** A quote from a record's best bid and ask (no sizes on a record); market detail uses it too (live.ts). */
export function recordQuote(bid: number | null, ask: number | null, last: number | null, mark: number | null = null): Quote {
  const q = quoteOf(bid === null ? null : { price: bid, size: 0 }, ask === null ? null : { price: ask, size: 0 }, last, mark);
  // A new object without the sizes rather than `delete`: an object that lost properties is slow to
  // read ever after, and market detail and the price-history sink read these on every live read and poll.
  return { price: q.price, bid: q.bid, ask: q.ask, last: q.last };
}
export const markOnly = (mark: number | null): Quote => ({ price: mark === null ? null : round6(mark), bid: null, ask: null, last: null });
export const complement = (x: number | null): number | null => (x === null ? null : round6(1 - x));
