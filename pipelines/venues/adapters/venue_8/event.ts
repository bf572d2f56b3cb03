// venue_8's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
// Its events: market slug or group slug.
import type { EventDetail, EventIO } from '../live-event.ts';
import { isRec, list, need, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

export function buildVenue8Event(id: string, market: unknown | NotFound, group: unknown | NotFound): EventDetail | NotFound {
  if (market !== NOT_FOUND) {
    const m = rec(market, 'venue_8 market');
    const title = str(m.question) ?? id;
    return { event_id: id, provider: 'venue_8', title, markets: [{ market_id: need(str(m.slug), 'venue_8 market.slug'), title }] };
  }
  if (group !== NOT_FOUND) {
    const g = rec(group, 'venue_8 group');
    const markets = list(g.markets, 'venue_8 group.markets')
      .filter(isRec)
      .map((m) => ({ market_id: need(str(m.slug), 'venue_8 market.slug'), title: str(m.question) ?? String(m.slug) }));
    return { event_id: id, provider: 'venue_8', title: str(g.name) ?? id, markets };
  }
  return NOT_FOUND;
}

export async function readVenue8(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const [m, g] = await Promise.all([io.get('venue_8', `/venue_8/v0/slug/${id}`), io.get('venue_8', `/venue_8/v0/group/${id}`)]);
  return buildVenue8Event(id, m, g);
}
