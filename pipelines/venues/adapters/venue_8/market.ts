// venue_8's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: YES-side book; group view.
import { builtOnce, BOOK_FAILED, EMPTY, iso, availabilityOf, assemble, outcome, stamped, yesSideBinary, type LiveIO, type BookFailed, type MarketDetail } from '../live.ts';
import { arr, isoTime, isRec, need, num, rec, str, type Rec } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { feesNotPublished } from '../../fees.ts';
import { venue8Fees } from './fees.ts';
import { round6 } from '../../../../lib/quotes.ts';

export function venue8Status(m: Rec, now: number): string {
  if (m.isResolved === true) return 'settled';
  const close = num(m.closeTime);
  return close !== null && close <= now ? 'closed' : 'open';
}

export function buildVenue8(raw: unknown, book: unknown | BookFailed, observedAt: string, now: number): MarketDetail {
  const m = rec(raw, 'venue_8 market');
  const slug = need(str(m.slug), 'venue_8 market.slug');
  const status = venue8Status(m, now);
  const b = book !== BOOK_FAILED && isRec(book) && isRec(book.yes) ? book : null;
  const resolution = String(m.resolution ?? '').toUpperCase();
  const q = yesSideBinary(status, {
    settlement: resolution === 'YES' ? 1 : resolution === 'NO' ? 0 : null,
    mark: num(m.probability),
    recordTime: isoTime(m.lastUpdatedTime, 'ms'),
    book: b ? { bids: (b.yes as Rec).bids, asks: (b.yes as Rec).asks, time: isoTime(b.ts, 'ms') } : null,
  });
  return assemble(
    {
      provider: 'venue_8',
      providerId: slug,
      title: str(m.question) ?? slug,
      status,
      eventId: slug, // "a market's slug is also its event id"
      closeTime: isoTime(m.closeTime, 'ms'),
      outcomes: [outcome('Yes', 'yes', q.yes), outcome('No', 'no', q.no)],
      pricing: { availability: q.availability, source: 'orderbook', ...q.stamp, neg_risk: false },
      fees: venue8Fees(m.fees, observedAt),
      liquidityUsd: num(m.totalLiquidity),
      volume24hUsd: num(m.volume24Hours),
      volumeTotalUsd: num(m.volume),
    },
    observedAt,
  );
}

/** A group slug: one outcome per member market, marked from the records (no book read). */
export function buildVenue8Group(raw: unknown, observedAt: string, now: number): MarketDetail {
  const g = rec(raw, 'venue_8 group');
  const slug = need(str(g.slug), 'venue_8 group.slug');
  const members = arr(g.markets).filter(isRec);
  const statuses = members.map((m) => venue8Status(m, now));
  const status = statuses.includes('open') ? 'open' : statuses.every((s) => s === 'settled') && statuses.length > 0 ? 'settled' : 'closed';
  const outcomes = members.map((m) => {
    const p = num(m.probability);
    return outcome(str(m.question) ?? String(m.slug), str(m.slug) ?? String(m.id), { ...EMPTY, price: p === null ? null : round6(p) });
  });
  const updated = members.map((m) => num(m.lastUpdatedTime)).filter((x): x is number => x !== null);
  const asOf = updated.length ? isoTime(Math.max(...updated), 'ms') : null;
  const sum = (k: string) => members.reduce<number | null>((s, m) => (num(m[k]) === null ? s : (s ?? 0) + num(m[k])!), null);
  const allZero = members.every((m) => venue8Fees(m.fees, observedAt).availability === 'zero');
  return assemble(
    {
      provider: 'venue_8',
      providerId: slug,
      title: str(g.name) ?? slug,
      status,
      outcomes,
      // Group views read no book: marks only.
      pricing: { availability: availabilityOf(status, outcomes, true), source: 'market_record', ...stamped(asOf, 'record_refresh'), neg_risk: false },
      fees: members.length > 0 && allZero ? venue8Fees(members[0].fees, observedAt) : members.length > 0 ? venue8Fees(members[0].fees, observedAt) : feesNotPublished(observedAt),
      liquidityUsd: sum('totalLiquidity'),
      volume24hUsd: sum('volume24Hours'),
      volumeTotalUsd: sum('volume'),
    },
    observedAt,
  );
}

export async function readVenue8(io: LiveIO, slug: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const [m, g] = await Promise.all([io.get('venue_8', `/venue_8/v0/slug/${slug}`), io.get('venue_8', `/venue_8/v0/group/${slug}`)]);
  if (m !== NOT_FOUND) {
    const mid = need(str(rec(m, 'venue_8 market').id), 'venue_8 market.id');
    // The one bounded second fetch: the book needs the market's own id from the record.
    const book = await io.book('venue_8', `/venue_8/v0/market/${encodeURIComponent(mid)}/book`);
    const now = io.now();
    return builtOnce(m, [book, observedAt, now], () => buildVenue8(m, book === NOT_FOUND ? BOOK_FAILED : book, observedAt, now));
  }
  if (g !== NOT_FOUND) {
    const now = io.now();
    return builtOnce(g, [observedAt, now], () => buildVenue8Group(g, observedAt, now));
  }
  return NOT_FOUND;
}
