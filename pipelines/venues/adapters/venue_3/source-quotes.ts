// The top of book and taker fee of one canonical market, from the sports listing record it was read
// from (the `include_prices` view of the sports routes). Pure.
// venue_3: best bid and ask per outcome; fees per account.
import type { MarketQuotes } from '../../../matching/prices.ts';
import { isRec, num, str, arr, unit, feesOf, type J } from '../../../matching/source-quotes.ts';
import type { CanonicalMarket } from '../../../matching/types.ts';
import { feesPerAccount, feesUnavailable } from '../../fees.ts';

export function venue3SourceQuotes(rec: J, m: CanonicalMarket): MarketQuotes | undefined {
  const market = isRec(rec.data) ? rec.data : rec;
  if (str(market.id) !== m.source.market_id) return undefined;
  const updated = Date.parse(str(market.updated_at) ?? '');
  const fees = isRec(market.fees) && market.fees.schedule === 'account' ? feesPerAccount('', 'market_record') : feesUnavailable('', 'market_record');
  return {
    outcomes: arr(market.outcomes).map((o) => ({ outcome_id: str(o.token) ?? '', bid: unit(num(o.best_bid)), ask: unit(num(o.best_ask)) })),
    as_of: Number.isFinite(updated) ? updated : null,
    as_of_kind: Number.isFinite(updated) ? 'record_refresh' : 'unknown',
    fees: feesOf(fees),
  };
}
