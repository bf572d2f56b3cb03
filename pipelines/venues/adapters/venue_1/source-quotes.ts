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

export function venue1SourceQuotes(record: J, m: CanonicalMarket): MarketQuotes | undefined {
  const rec = str(record.ticker) === m.source.market_id ? record : arr(record.markets).find((x) => str(x.ticker) === m.source.market_id);
  if (!rec) return undefined;
  // Cents 1..99; 0 means that side of the book is empty.
  const c = (k: string) => {
    const v = num(rec[k]);
    return v !== null && v >= 1 && v <= 99 ? round6(v / 100) : null;
  };
  return {
    outcomes: [
      { outcome_id: 'yes', bid: c('yes_bid'), ask: c('yes_ask') },
      { outcome_id: 'no', bid: c('no_bid'), ask: c('no_ask') },
    ],
    as_of: null,
    as_of_kind: 'unknown',
    fees: feesOf(feesUnavailable('', 'series_fee_schedule')),
  };
}
