// The quotes and taker fee a venue's sports listing record carries, per canonical market (what the
// `include_prices` view of the sports routes prices from). In: the raw record as canonicalize()
// read it and one canonical market made from it. Out: MarketQuotes (per venue outcome best bid and
// ask, the venue's own time of them, the normalized trading_fees), or undefined when the record
// carries no top of book for the market. Pure; nothing here asks a venue.
//
// What each venue's listing carries (pipelines/venues/simulator/FORMATS.md):
//   venue_1  yes_bid / yes_ask / no_bid / no_ask in cents (0: that side is empty). Its fee schedule
//            is published per series, apart from the listing, so its fees are `unavailable` here.
//   venue_2  bestBid / bestAsk of the first outcome (the second is the complement), fees on the record.
//   venue_3  best_bid / best_ask per outcome; fees per account.
//   venue_7  odds offers per selection on the event record; commission on the event record.
//   venue_4, venue_5 publish prices only in their books, venue_6, venue_8, venue_9 only a mark on the
//   record: no top of book, so no quotes (market detail reads those books live).
import { quotesFromOdds, round6 } from '../../lib/quotes.ts';
import { feesPerAccount, feesUnavailable, venue2Fees, venue7Fees, type TradingFees } from '../venues/fees.ts';
import type { MarketQuotes, SourceFees } from './prices.ts';
import type { CanonicalMarket, Provider } from './types.ts';

type J = Record<string, unknown>;
const isRec = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const arr = (v: unknown): J[] => (Array.isArray(v) ? v.filter(isRec) : []);
const unit = (x: number | null): number | null => (x !== null && x > 0 && x < 1 ? round6(x) : null);

function feesOf(t: TradingFees): SourceFees {
  return { availability: t.availability, source: t.source, charge_basis: t.charge_basis, taker: t.taker };
}

function venue1(record: J, m: CanonicalMarket): MarketQuotes | undefined {
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

function venue2(rec: J, m: CanonicalMarket): MarketQuotes | undefined {
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

function venue3(rec: J, m: CanonicalMarket): MarketQuotes | undefined {
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

function venue7(rec: J, m: CanonicalMarket): MarketQuotes | undefined {
  // `<event_id>:<market_type_id>` names the line the venue flags favourite (or the only line);
  // `<event_id>:<market_type_id>:<line>` names one line (spec: venue_7 identifier rules).
  const [, typeId, line] = m.source.market_id.split(':');
  const market = arr(rec.markets).find((x) => str(x.type_id) === typeId);
  if (!market) return undefined;
  const lines = arr(market.lines);
  const ln = line !== undefined ? lines.find((l) => num(l.line) !== null && num(l.line) === Number(line)) : (lines.find((l) => l.favourite === true) ?? (lines.length === 1 ? lines[0] : undefined));
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

const BY_VENUE: Partial<Record<Provider, (rec: J, m: CanonicalMarket) => MarketQuotes | undefined>> = { venue_1: venue1, venue_2: venue2, venue_3: venue3, venue_7: venue7 };

/** The market's quotes from the record it was read from; undefined for a market not open or a venue without a top of book. */
export function sourceQuotesOf(provider: Provider, record: unknown, m: CanonicalMarket): MarketQuotes | undefined {
  if (m.status !== 'open' || !isRec(record)) return undefined;
  const q = BY_VENUE[provider]?.(record, m);
  if (!q || !q.outcomes.some((o) => o.bid !== null || o.ask !== null)) return undefined;
  return q;
}
