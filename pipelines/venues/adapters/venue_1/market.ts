// venue_1's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: market record.
import { EMPTY, iso, availabilityOf, assemble, outcome, recordQuote, type LiveIO, type MarketDetail } from '../live.ts';
import { isoTime, need, num, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { feesUnavailable, type TradingFees } from '../../fees.ts';
import { venue1ChangesOf, venue1Effective, venue1Fees, venue1ScheduleOf, venue1SeriesOf } from './fees.ts';
import { round6 } from '../../../../lib/quotes.ts';

const cents = (v: unknown): number | null => {
  const n = num(v);
  // 0 and 100 are the venue's "no order on this side".
  return n === null || n <= 0 || n >= 100 ? null : n / 100;
};

export function venue1Status(s: string, result: string): string {
  if (s === 'active') return 'open';
  if (s === 'settled' || (s === 'closed' && (result === 'yes' || result === 'no' || result === 'void'))) return 'settled';
  if (s === 'initialized') return 'unopened';
  return s === 'closed' ? 'closed' : s;
}

export function buildVenue1(marketRaw: unknown, fees: TradingFees, observedAt: string): MarketDetail {
  const m = rec(marketRaw, 'venue_1 market');
  const ticker = need(str(m.ticker), 'venue_1 market.ticker');
  const status = venue1Status(String(m.status ?? ''), String(m.result ?? ''));
  const last = cents(m.last_price);
  let yes = recordQuote(cents(m.yes_bid), cents(m.yes_ask), last);
  let no = recordQuote(cents(m.no_bid), cents(m.no_ask), last === null ? null : round6(1 - last));
  if (status === 'settled') {
    const r = String(m.result ?? '');
    const settle = r === 'yes' ? 1 : r === 'no' ? 0 : null;
    yes = { ...EMPTY, last: yes.last, price: settle };
    no = { ...EMPTY, last: no.last, price: settle === null ? null : 1 - settle };
  }
  const outcomes = [outcome('Yes', 'yes', yes), outcome('No', 'no', no)];
  return assemble(
    {
      provider: 'venue_1',
      providerId: ticker,
      title: str(m.title) ?? ticker,
      status,
      eventId: str(m.event_ticker),
      closeTime: isoTime(m.close_time),
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes),
        source: 'market_record',
        // The record carries no time of its quotes.
        as_of: null,
        as_of_kind: 'unknown',
        neg_risk: false,
      },
      fees,
      liquidityUsd: num(m.liquidity) === null ? null : num(m.liquidity)! / 100,
      volume24hContracts: num(m.volume_24h),
      volumeTotalContracts: num(m.volume),
      openInterest: num(m.open_interest),
    },
    observedAt,
  );
}

/** venue_1's extra fee hops: the series schedule and its scheduled changes. Failures degrade. */
async function venue1FeeRead(io: LiveIO, ticker: string): Promise<TradingFees> {
  const series = venue1SeriesOf(ticker);
  const at = iso(io.now());
  try {
    const [s, changes] = await Promise.all([
      io.get('venue_1', `/venue_1/series/${encodeURIComponent(series)}`),
      io.get('venue_1', '/venue_1/series/fee_changes', { series_ticker: series }),
    ]);
    const schedule = s === NOT_FOUND ? null : venue1ScheduleOf(s);
    if (!schedule) return feesUnavailable(at, 'series_fee_schedule');
    return venue1Fees(venue1Effective(schedule, changes === NOT_FOUND ? [] : venue1ChangesOf(changes), io.now()), at);
  } catch {
    // "failures degrade to unavailable rather than failing the request"
    return feesUnavailable(at, 'series_fee_schedule');
  }
}

export async function readVenue1(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const [m, fees] = await Promise.all([io.get('venue_1', `/venue_1/markets/${encodeURIComponent(id)}`), venue1FeeRead(io, id)]);
  if (m === NOT_FOUND) return NOT_FOUND;
  return buildVenue1(rec(m, 'venue_1 answer').market, fees, observedAt);
}
