// The top of book and taker fee of one canonical market, from the sports listing record it was read
// from (the `include_prices` view of the sports routes). Pure.
// venue_1: cents on the market record; its fee schedule is published per series, apart from the
// listing, so its fees are `unavailable` here: the sports snapshot sink replaces them at each publish
// with the schedule in effect then, from `reference.fee_schedules` (fee-book.ts).
import { round6 } from '../../../../lib/quotes.ts';
import type { MarketQuotes } from '../../../matching/prices.ts';
import { num, str, arr, feesOf, type J } from '../../../matching/source-quotes.ts';
import type { CanonicalMarket } from '../../../matching/types.ts';
import { feesUnavailable } from '../../fees.ts';

/** A price in cents 1..99 as a probability; 0 means that side of the book is empty. A function of
 * its own, not a closure per record: under tsx every closure made is also named (esbuild keepNames),
 * which cost more than the reading itself. */
function cents(rec: J, k: string): number | null {
  const v = num(rec[k]);
  return v !== null && v >= 1 && v <= 99 ? round6(v / 100) : null;
}

export function venue1SourceQuotes(record: J, m: CanonicalMarket): MarketQuotes | undefined {
  const rec = str(record.ticker) === m.source.market_id ? record : arr(record.markets).find((x) => str(x.ticker) === m.source.market_id);
  if (!rec) return undefined;
  return {
    outcomes: [
      { outcome_id: 'yes', bid: cents(rec, 'yes_bid'), ask: cents(rec, 'yes_ask') },
      { outcome_id: 'no', bid: cents(rec, 'no_bid'), ask: cents(rec, 'no_ask') },
    ],
    as_of: null,
    as_of_kind: 'unknown',
    fees: feesOf(feesUnavailable('', 'series_fee_schedule')),
  };
}
