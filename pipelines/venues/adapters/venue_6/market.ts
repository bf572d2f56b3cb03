// venue_6's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: four-sided book.
import { builtOnce, BOOK_FAILED, EMPTY, iso, availabilityOf, assemble, outcome, stamped, pairs, type LiveIO, type BookFailed, type Availability, type Pricing, type MarketDetail } from '../live.ts';
import { arr, isoTime, isRec, need, num, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { feesNotPublished, feesPerAccount } from '../../fees.ts';
import { binaryFromFourSided, round6, type Quote } from '../../../../lib/quotes.ts';

export function buildVenue6(raw: unknown, book: unknown | BookFailed, observedAt: string): MarketDetail {
  const m = rec(raw, 'venue_6 market');
  const id = need(str(m.id), 'venue_6 market.id');
  const status = String(m.status ?? '');
  const toks = arr(m.outcomes).map((o) => (isRec(o) ? (str(o.token) ?? '') : ''));
  const mark = num(m.mark);
  const b = book !== BOOK_FAILED && isRec(book) ? book : null;
  const side = (v: unknown) => ({ bids: pairs(isRec(v) ? v.bids : []), asks: pairs(isRec(v) ? v.asks : []) });
  let yes: Quote;
  let no: Quote;
  let availability: Availability;
  let stamp: Pick<Pricing, 'as_of' | 'as_of_kind'>;
  const bookMark = b ? (num(b.mark) ?? mark) : mark;
  const marks = { yes: bookMark, no: bookMark === null ? null : round6(1 - bookMark) };
  if (b) {
    [yes, no] = binaryFromFourSided(side(b.yes), side(b.no), marks);
    const empty = [yes, no].every((q) => q.bid === null && q.ask === null);
    availability = availabilityOf(status, [yes, no], empty); // "a price mark that outlives an empty book is indicative"
    stamp = stamped(isoTime(b.ts), 'quote');
  } else {
    // "If a book read fails ... venue_6 ... keep the record's marks."
    yes = { ...EMPTY, price: marks.yes };
    no = { ...EMPTY, price: marks.no };
    availability = availabilityOf(status, [yes, no], true);
    stamp = stamped(isoTime(m.mark_ts), 'record_refresh');
  }
  const outcomes = [outcome('Yes', toks[0] || 'yes', yes), outcome('No', toks[1] || 'no', no)];
  const feeInfo = isRec(m.fee_info) ? m.fee_info : null;
  return assemble(
    {
      provider: 'venue_6',
      providerId: id,
      title: str(m.question) ?? str(m.title) ?? id,
      status,
      eventId: str(m.event_id),
      outcomes,
      pricing: { availability, source: 'orderbook', ...stamp, neg_risk: false },
      fees: feeInfo?.type === 'per_account' ? feesPerAccount(observedAt, 'market_record') : feesNotPublished(observedAt),
      volumeTotalUsd: num(m.volume),
    },
    observedAt,
  );
}

export async function readVenue6(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const [m, book] = await Promise.all([io.get('venue_6', `/venue_6/api/markets/${id}`), io.book('venue_6', `/venue_6/api/markets/${id}/book`)]);
  if (m === NOT_FOUND) return NOT_FOUND;
  return builtOnce(m, [book, observedAt], () => buildVenue6(m, book === NOT_FOUND ? BOOK_FAILED : book, observedAt));
}
