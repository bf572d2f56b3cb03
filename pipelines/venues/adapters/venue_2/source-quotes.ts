// The top of book and taker fee of one canonical market, from the sports listing record it was read
// from (the `include_prices` view of the sports routes). Pure.
// venue_2: the record quotes its first outcome (the second is the complement); fees on the record.
import { round6 } from '../../../../lib/quotes.ts';
import type { MarketQuotes } from '../../../matching/prices.ts';
import { num, str, arr, unit, feesOf, type J } from '../../../matching/source-quotes.ts';
import type { CanonicalMarket } from '../../../matching/types.ts';
import { venue2Fees } from './fees.ts';

export function venue2SourceQuotes(rec: J, m: CanonicalMarket): MarketQuotes | undefined {
  const market = str(rec.id) === m.source.market_id ? rec : arr(rec.markets).find((x) => str(x.id) === m.source.market_id);
  if (!market) return undefined;
  const bid = unit(num(market.bestBid));
  const ask = unit(num(market.bestAsk));
  const [o0, o1] = m.source.outcomes;
  if (!o0 || !o1) return undefined;
  return {
    // The record quotes the first outcome; the second is its complement.
    outcomes: [
      { outcome_id: o0.outcome_id, bid, ask },
      { outcome_id: o1.outcome_id, bid: ask === null ? null : round6(1 - ask), ask: bid === null ? null : round6(1 - bid) },
    ],
    as_of: null,
    as_of_kind: 'unknown',
    fees: feesOf(venue2Fees(market, '')),
  };
}
