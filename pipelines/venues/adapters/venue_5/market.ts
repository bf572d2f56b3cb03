// venue_5's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: book; question group.
import { builtOnce, BOOK_FAILED, EMPTY, iso, availabilityOf, assemble, outcome, stamped, settledBinary, pairs, type LiveIO, type BookFailed, type MarketDetail } from '../live.ts';
import { arr, isoTime, isRec, need, num, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { feesNotPublished } from '../../fees.ts';
import { binaryFromYesSide, type Quote } from '../../../../lib/quotes.ts';

export function venue5Status(s: string): string {
  if (s === 'resolved_yes' || s === 'resolved_no' || s === 'void') return 'settled';
  return s;
}


export function buildVenue5Outcome(raw: unknown, book: unknown | BookFailed, observedAt: string): MarketDetail {
  const r = rec(raw, 'venue_5 answer');
  const o = rec(r.outcome, 'venue_5 outcome');
  const id = need(str(o.outcome_id), 'venue_5 outcome.outcome_id');
  const state = String(o.state ?? '');
  const status = venue5Status(state);
  const b = book !== BOOK_FAILED && isRec(book) ? book : null;
  let yes: Quote;
  let no: Quote;
  if (status === 'settled') [yes, no] = settledBinary(state === 'resolved_yes' ? 1 : state === 'resolved_no' ? 0 : null);
  else if (b) [yes, no] = binaryFromYesSide(pairs(b.bids), pairs(b.asks));
  else [yes, no] = [{ ...EMPTY }, { ...EMPTY }];
  const outcomes = [outcome('Yes', 'yes', yes), outcome('No', 'no', no)];
  return assemble(
    {
      provider: 'venue_5',
      providerId: id,
      title: str(o.label) ?? id,
      status,
      eventId: str(r.question_id),
      outcomes,
      pricing: {
        availability: b || status === 'settled' ? availabilityOf(status, outcomes) : 'unavailable',
        source: 'orderbook',
        ...stamped(b ? isoTime(b.ts) : null, 'quote'),
        neg_risk: false,
      },
      fees: feesNotPublished(observedAt),
      volumeTotalUsd: num(o.volume),
    },
    observedAt,
  );
}

/** At most this many outcome books are read for one question (a game has two). */
export const VENUE5_MAX_BOOKS = 20;

/**
 * A question id: a grouped market, one outcome per option ("a grouped market has one outcome per
 * option"), keyed by the venue's `#` token (the outcome id the sports routes publish for venue_5).
 * Prices live only in the books, so each option is quoted from its own outcome market's YES book,
 * read in parallel as the one bounded second fetch; a failed book leaves that option unquoted.
 */
export function buildVenue5Question(raw: unknown, books: readonly (unknown | BookFailed)[], observedAt: string): MarketDetail {
  const q = rec(rec(raw, 'venue_5 answer').question, 'venue_5 question');
  const id = need(str(q.question_id), 'venue_5 question.question_id');
  const opts = arr(q.outcomes).map((x) => rec(x, 'venue_5 outcome'));
  const states = opts.map((o) => venue5Status(String(o.state ?? '')));
  const status = states.length > 0 && states.every((s) => s === 'settled') ? 'settled' : q.state === 'open' ? 'open' : String(q.state ?? '');
  let read = 0;
  const stamps: string[] = [];
  const outcomes = opts.map((o, i) => {
    const st = String(o.state ?? '');
    const name = str(o.label) ?? String(o.outcome_id);
    const oid = str(o.token) ?? need(str(o.outcome_id), 'outcome_id');
    if (venue5Status(st) === 'settled') return outcome(name, oid, { ...EMPTY, price: st === 'resolved_yes' ? 1 : st === 'resolved_no' ? 0 : null });
    const b = books[i];
    if (b === undefined || b === BOOK_FAILED || !isRec(b)) return outcome(name, oid, { ...EMPTY });
    read++;
    const t = isoTime(b.ts);
    if (t) stamps.push(t);
    return outcome(name, oid, binaryFromYesSide(pairs(b.bids), pairs(b.asks))[0]);
  });
  stamps.sort();
  const vol = opts.reduce<number>((sum, o) => sum + (num(o.volume) ?? 0), 0);
  return assemble(
    {
      provider: 'venue_5',
      providerId: id,
      title: str(q.title) ?? id,
      status,
      outcomes,
      pricing: {
        availability: read === 0 && status !== 'settled' ? 'unavailable' : availabilityOf(status, outcomes, read < opts.filter((_, i) => states[i] !== 'settled').length),
        source: 'orderbook',
        ...stamped(stamps.length ? stamps[0] : null, 'quote'), // the oldest book read
        neg_risk: false,
      },
      fees: feesNotPublished(observedAt),
      volumeTotalUsd: vol,
    },
    observedAt,
  );
}

export async function readVenue5(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  // An integer is an outcome id or a question id: ask both, and the outcome's book, at once.
  const [o, q, book] = await Promise.all([
    io.get('venue_5', `/venue_5/outcomes/${id}`),
    io.get('venue_5', `/venue_5/questions/${id}`),
    io.book('venue_5', `/venue_5/outcomes/${id}/book`),
  ]);
  if (o !== NOT_FOUND) return builtOnce(o, [book, observedAt], () => buildVenue5Outcome(o, book === NOT_FOUND ? BOOK_FAILED : book, observedAt));
  if (q === NOT_FOUND) return NOT_FOUND;
  const opts = arr(rec(rec(q, 'venue_5 answer').question, 'venue_5 question').outcomes).filter(isRec);
  const books =
    opts.length <= VENUE5_MAX_BOOKS
      ? await Promise.all(opts.map((x) => io.book('venue_5', `/venue_5/outcomes/${String(x.outcome_id)}/book`).then((b) => (b === NOT_FOUND ? BOOK_FAILED : b))))
      : [];
  return buildVenue5Question(q, books, observedAt);
}
