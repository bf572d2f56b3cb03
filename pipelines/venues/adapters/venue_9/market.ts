// venue_9's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: YES-side book; parent group.
import { builtOnce, BOOK_FAILED, EMPTY, iso, availabilityOf, assemble, outcome, stamped, yesSideBinary, type LiveIO, type BookFailed, type MarketDetail } from '../live.ts';
import { arr, isoTime, isRec, need, num, rec, str, type Rec } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { feesUnavailable } from '../../fees.ts';
import { venue9Fees } from './fees.ts';
import { parseVenue9Id } from './identifiers.ts';

export function venue9Status(s: string): string {
  return s === 'trading' ? 'open' : s === 'paused' ? 'suspended' : s === 'resolved' ? 'settled' : s;
}

const resolvedPrice = (c: Rec): number | null => {
  const r = c.resolved_to;
  if (r === null || r === undefined) return null;
  if (r === 'yes' || r === true || r === c.id) return 1;
  if (r === 'no' || r === false) return 0;
  return typeof r === 'string' && r.startsWith('0x') ? 0 : null;
};

export function buildVenue9Child(raw: unknown, book: unknown | BookFailed, observedAt: string): MarketDetail {
  const c = rec(raw, 'venue_9 child');
  const pair = need(str(c.pair), 'venue_9 child.pair').toLowerCase();
  const status = venue9Status(String(c.status ?? ''));
  // "the pair gives one binary child quoted from its book while trading"
  const b = status === 'open' && book !== BOOK_FAILED && isRec(book) ? book : null;
  const q = yesSideBinary(status, {
    settlement: resolvedPrice(c),
    mark: num(c.yes_price),
    recordTime: isoTime(c.updated_at),
    book: b ? { bids: b.bids, asks: b.asks, time: isoTime(b.timestamp) } : null,
  });
  const parent = isRec(c.parent) ? c.parent : null;
  return assemble(
    {
      provider: 'venue_9',
      providerId: pair,
      title: parent && str(parent.title) ? `${str(parent.title)}: ${str(c.title) ?? ''}` : (str(c.title) ?? pair),
      status,
      eventId: pair.split(':')[0],
      outcomes: [outcome('Yes', 'yes', q.yes), outcome('No', 'no', q.no)],
      pricing: { availability: q.availability, source: 'orderbook', ...q.stamp, neg_risk: false },
      fees: venue9Fees(c.fee_rate_bps, observedAt),
      volumeTotalUsd: num(c.volume),
    },
    observedAt,
  );
}

/** "bare parent gives a group view (one outcome per child selection, marked from its record, no price unless settled)" */
export function buildVenue9Parent(raw: unknown, observedAt: string): MarketDetail {
  const p = rec(raw, 'venue_9 parent');
  const id = need(str(p.id), 'venue_9 parent.id').toLowerCase();
  const children = arr(p.children).filter(isRec);
  const statuses = children.map((c) => venue9Status(String(c.status ?? '')));
  const status = statuses.includes('open') ? 'open' : statuses.length > 0 && statuses.every((s) => s === 'settled') ? 'settled' : statuses.includes('suspended') ? 'suspended' : 'closed';
  const outcomes = children.map((c) => {
    const settled = venue9Status(String(c.status ?? '')) === 'settled';
    return outcome(str(c.title) ?? String(c.id), str(c.pair) ?? `${id}:${String(c.id)}`, { ...EMPTY, price: settled ? resolvedPrice(c) : null });
  });
  const updated = children.map((c) => isoTime(c.updated_at)).filter((x): x is string => x !== null).sort();
  const rates = [...new Set(children.map((c) => num(c.fee_rate_bps)))];
  const vol = children.reduce<number | null>((s, c) => (num(c.volume) === null ? s : (s ?? 0) + num(c.volume)!), null);
  return assemble(
    {
      provider: 'venue_9',
      providerId: id,
      title: str(p.title) ?? id,
      status,
      outcomes,
      pricing: {
        availability: availabilityOf(status, outcomes, true),
        source: 'market_record',
        ...stamped(updated.length ? updated[updated.length - 1] : null, 'record_refresh'),
        neg_risk: false,
      },
      // One rate shared by every child is the group's; differing rates are read per child.
      fees: rates.length === 1 ? venue9Fees(rates[0], observedAt) : feesUnavailable(observedAt, 'market_record'),
      volumeTotalUsd: vol,
    },
    observedAt,
  );
}

export async function readVenue9(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const ref = parseVenue9Id(id)!;
  if (!ref.child) {
    const p = await io.get('venue_9', `/venue_9/parents/${ref.parent}`);
    return p === NOT_FOUND ? NOT_FOUND : builtOnce(p, [observedAt], () => buildVenue9Parent(p, observedAt));
  }
  const [c, book] = await Promise.all([io.get('venue_9', `/venue_9/markets/${id}`), io.book('venue_9', `/venue_9/book/${id}`)]);
  if (c === NOT_FOUND) return NOT_FOUND;
  return builtOnce(c, [book, observedAt], () => buildVenue9Child(c, book === NOT_FOUND ? BOOK_FAILED : book, observedAt));
}
