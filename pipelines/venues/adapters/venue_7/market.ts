// venue_7's market detail, read live (spec: "Market detail", "GET /v1/markets/{market_id}"):
// the reader does the venue reads through the request's LiveIO; the pure `build*` functions turn
// the native records into the body (the shared shape and arithmetic are in ../live.ts).
// Its prices: odds offers on the record.
import { builtOnce, EMPTY, iso, availabilityOf, assemble, outcome, type LiveIO, type MarketDetail } from '../live.ts';
import { arr, isRec, num, rec, str, type Rec } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { venue7Fees } from './fees.ts';
import { quotesFromOdds } from '../../../../lib/quotes.ts';
import { parseVenue7MarketId } from './identifiers.ts';

export function buildVenue7(eventRaw: unknown, marketId: string, observedAt: string): MarketDetail | NotFound {
  const ref = parseVenue7MarketId(marketId)!;
  const ev = rec(eventRaw, 'venue_7 event');
  const market = arr(ev.markets).find((x) => isRec(x) && String(x.type_id) === ref.marketTypeId) as Rec | undefined;
  if (!market) return NOT_FOUND;
  const lines = arr(market.lines).filter(isRec);
  // "the pair resolves the line the venue currently flags favourite; the three-part form names one line"
  const line = ref.line !== undefined ? lines.find((l) => num(l.line) !== null && num(l.line) === Number(ref.line)) : (lines.find((l) => l.favourite === true) ?? (lines.length === 1 ? lines[0] : undefined));
  if (!line) return NOT_FOUND;
  const status = String(market.state ?? ev.state ?? '');
  const sels = arr(line.selections).filter(isRec);
  const backs = sels.map((s) => arr(s.back).flatMap((o) => (isRec(o) && num(o.odds) !== null && num(o.stake) !== null ? [{ odds: num(o.odds)!, stake: num(o.stake)! }] : [])));
  let quotes = quotesFromOdds(backs);
  if (status === 'settled' || status === 'closed') quotes = quotes.map((q) => ({ ...EMPTY, last: q.last }));
  const outcomes = sels.map((s, i) => outcome(str(s.name) ?? `Selection ${i + 1}`, str(s.id) ?? String(i + 1), quotes[i]));
  const lineText = num(line.line) === null ? '' : ` ${num(line.line)}`;
  return assemble(
    {
      provider: 'venue_7',
      providerId: marketId,
      title: `${str(ev.name) ?? ''}: ${str(market.name) ?? ''}${lineText}`.trim(),
      status,
      eventId: str(ev.event_id),
      outcomes,
      // Offers are on the record itself; the record carries no time of its offers.
      pricing: { availability: availabilityOf(status === 'open' ? 'open' : status, outcomes), source: 'orderbook', as_of: null, as_of_kind: 'unknown', neg_risk: false },
      fees: venue7Fees(ev.commission_pct, observedAt),
      volumeTotalUsd: num(market.matched_volume),
    },
    observedAt,
  );
}

export async function readVenue7(io: LiveIO, id: string): Promise<MarketDetail | NotFound> {
  const observedAt = iso(io.now());
  const ref = parseVenue7MarketId(id)!;
  // One read: the event record nests every market with its offers and carries the commission.
  const ev = await io.get('venue_7', `/venue_7/events/${ref.eventId}`);
  return ev === NOT_FOUND ? NOT_FOUND : builtOnce(ev, [id, observedAt], () => buildVenue7(ev, id, observedAt));
}
