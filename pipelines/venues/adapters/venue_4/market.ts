// venue_4's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: book.
import { builtOnce, BOOK_FAILED, EMPTY, iso, availabilityOf, assemble, outcome, stamped, type LiveIO, type BookFailed, type MarketDetail } from '../live.ts';
import { arr, isoTime, isRec, need, num, rec, str, type Rec } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { feesUnavailable, type TradingFees } from '../../fees.ts';
import { venue4Fees } from './fees.ts';
import { quoteOf, type Quote } from '../../../../lib/quotes.ts';

export function venue4Status(s: string): string {
  return s === 'ACTIVE' ? 'open' : s === 'INACTIVE' ? 'closed' : s === 'SETTLED' ? 'settled' : s.toLowerCase();
}

export function buildVenue4(raw: unknown, book: unknown | BookFailed, fees: TradingFees, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_4 market');
  const hash = need(str(m.marketHash), 'venue_4 market.marketHash').toLowerCase();
  const status = venue4Status(String(m.status ?? ''));
  const one = str(m.outcomeOneName) ?? 'Outcome one';
  const two = str(m.outcomeTwoName) ?? 'Outcome two';
  const data = book !== BOOK_FAILED && isRec(book) && isRec(book.data) ? book.data : null;
  const side = (k: string): Quote => {
    if (status === 'settled') {
      const o = num(m.outcome);
      return { ...EMPTY, price: o === 1 ? (k === 'outcomeOne' ? 1 : 0) : o === 2 ? (k === 'outcomeTwo' ? 1 : 0) : null };
    }
    if (!data || !isRec(data[k])) return { ...EMPTY };
    const s = data[k] as Rec;
    const bid = num(s.bestBid);
    const ask = num(s.bestAsk);
    return quoteOf(bid === null ? null : { price: bid, size: num(s.bidSize) ?? 0 }, ask === null ? null : { price: ask, size: num(s.askSize) ?? 0 });
  };
  const outcomes = [outcome(one, 'outcomeOne', side('outcomeOne')), outcome(two, 'outcomeTwo', side('outcomeTwo'))];
  return assemble(
    {
      provider: 'venue_4',
      providerId: hash,
      // "A venue_4 market is named by its two outcome labels" (as the sports routes name it).
      title: `${one} vs ${two}`,
      status,
      eventId: str(m.sportXeventId),
      outcomes,
      pricing: {
        // Prices only in the book: a failed book read is unavailable.
        availability: data || status === 'settled' ? availabilityOf(status, outcomes) : 'unavailable',
        source: 'orderbook',
        ...stamped(data ? isoTime(data.updatedAt, 's') : null, 'quote'),
        neg_risk: false,
      },
      fees,
      volumeTotalUsd: num(m.volume),
    },
    observedAt,
  );
}

export async function readVenue4(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  // The book and the venue-wide fee metadata do not depend on the record: read all three at once.
  const [found, book, meta] = await Promise.all([
    io.get('venue_4', '/venue_4/markets/find', { marketHashes: id }),
    io.book('venue_4', '/venue_4/orders/book', { marketHash: id }),
    io.book('venue_4', '/venue_4/metadata'),
  ]);
  if (found === NOT_FOUND) return NOT_FOUND;
  const list = arr(rec(found, 'venue_4 answer').data);
  const m = list.find((x) => isRec(x) && String(x.marketHash).toLowerCase() === id);
  if (!m) return NOT_FOUND;
  return builtOnce(m, [book, meta, observedAt], () => {
    const fees = meta !== BOOK_FAILED && meta !== NOT_FOUND && isRec(meta) && isRec(meta.data) ? venue4Fees(meta.data, observedAt) : feesUnavailable(observedAt, 'venue_metadata');
    return buildVenue4(m, book === NOT_FOUND ? BOOK_FAILED : book, fees, observedAt);
  });
}
