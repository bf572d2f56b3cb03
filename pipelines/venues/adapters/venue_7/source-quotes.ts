// The top of book and taker fee of one canonical market, from the sports listing record it was read
// from (the `include_prices` view of the sports routes). Pure.
// venue_7: odds offers per selection on the event record; commission on the event record.
import { quotesFromOdds } from '../../../../lib/quotes.ts';
import type { MarketQuotes } from '../../../matching/prices.ts';
import { num, str, arr, feesOf, type J } from '../../../matching/source-quotes.ts';
import type { CanonicalMarket } from '../../../matching/types.ts';
import { venue7Fees } from './fees.ts';

export function venue7SourceQuotes(rec: J, m: CanonicalMarket): MarketQuotes | undefined {
  // `<event_id>:<market_type_id>` names the line the venue flags favourite (or the only line);
  // `<event_id>:<market_type_id>:<line>` names one line (spec: venue_7 identifier rules).
  const [, typeId, line] = m.source.market_id.split(':');
  const market = arr(rec.markets).find((x) => str(x.type_id) === typeId);
  if (!market) return undefined;
  const lines = arr(market.lines);
  // A line is named as printed: a number (`24.5`) or a threshold printed as text (`25+`).
  const ln = line !== undefined ? lines.find((l) => str(l.line) === line || (num(l.line) !== null && num(l.line) === Number(line))) : (lines.find((l) => l.favourite === true) ?? (lines.length === 1 ? lines[0] : undefined));
  if (!ln) return undefined;
  const sels = arr(ln.selections);
  const backs = sels.map((s) => arr(s.back).flatMap((o) => (num(o.odds) !== null && num(o.stake) !== null ? [{ odds: num(o.odds)!, stake: num(o.stake)! }] : [])));
  const quotes = quotesFromOdds(backs);
  return {
    outcomes: sels.map((s, i) => ({ outcome_id: str(s.id) ?? '', bid: quotes[i]!.bid, ask: quotes[i]!.ask })),
    as_of: null,
    as_of_kind: 'unknown',
    fees: feesOf(venue7Fees(rec.commission_pct, '')),
  };
}
