// The kit of each venue's source quotes (the adapter's sourceQuotes, pipelines/venues/adapters/
// venue_N/source-quotes.ts; canonicalize.ts attaches them): the quotes and taker fee a venue's sports
// listing record carries, per canonical market (what the
// `include_prices` view of the sports routes prices from). In: the raw record as canonicalize()
// read it and one canonical market made from it. Out: MarketQuotes (per venue outcome best bid and
// ask, the venue's own time of them, the normalized trading_fees), or undefined when the record
// carries no top of book for the market. Pure; nothing here asks a venue.
//
// What each venue's listing carries (pipelines/venues/simulator/FORMATS.md):
//   venue_1  yes_bid / yes_ask / no_bid / no_ask in cents (0: that side is empty). Its fee schedule
//            is published per series, apart from the listing, so its fees are `unavailable` here;
//            the sports snapshot sink prices them from `reference.fee_schedules` at each publish.
//   venue_2  bestBid / bestAsk of the first outcome (the second is the complement), fees on the record.
//   venue_3  best_bid / best_ask per outcome; fees per account.
//   venue_7  odds offers per selection on the event record; commission on the event record.
//   venue_4, venue_5 publish prices only in their books, venue_6, venue_8, venue_9 only a mark on the
//   record: no top of book, so no quotes (market detail reads those books live).
import { round6 } from '../../lib/quotes.ts';
import type { TradingFees } from '../venues/fees.ts';
import type { SourceFees } from './prices.ts';

export type J = Record<string, unknown>;
export const isRec = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
export const arr = (v: unknown): J[] => (Array.isArray(v) ? v.filter(isRec) : []);
export const unit = (x: number | null): number | null => (x !== null && x > 0 && x < 1 ? round6(x) : null);

export function feesOf(t: TradingFees): SourceFees {
  return { availability: t.availability, source: t.source, charge_basis: t.charge_basis, taker: t.taker };
}
