// venue_6's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
// Its events: multi-choice or binary.
import type { EventDetail, EventIO } from '../live-event.ts';
import { isRec, list, need, rec, str, type Rec } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

const isProp = (m: Rec): boolean => /prop/i.test(String(m.kind ?? '')) || /prop/i.test(String(m.line_type ?? ''));

export function buildVenue6Event(id: string, ev: unknown | NotFound, market: unknown | NotFound): EventDetail | NotFound {
  if (ev !== NOT_FOUND) {
    const e = rec(ev, 'venue_6 event');
    const markets = list(e.markets, 'venue_6 event.markets')
      .filter(isRec)
      .filter((m) => !isProp(m))
      .map((m) => ({ market_id: need(str(m.id), 'venue_6 market.id'), title: str(m.question) ?? str(m.title) ?? String(m.id) }));
    return { event_id: id, provider: 'venue_6', title: str(e.title) ?? id, markets };
  }
  if (market !== NOT_FOUND) {
    const m = rec(market, 'venue_6 market');
    const title = str(m.question) ?? str(m.title) ?? id;
    return { event_id: id, provider: 'venue_6', title, markets: [{ market_id: need(str(m.id), 'venue_6 market.id'), title }] };
  }
  return NOT_FOUND;
}

export async function readVenue6(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const [e, m] = await Promise.all([io.get('venue_6', `/venue_6/api/events/${id}`), io.get('venue_6', `/venue_6/api/markets/${id}`)]);
  return buildVenue6Event(id, e, m);
}
