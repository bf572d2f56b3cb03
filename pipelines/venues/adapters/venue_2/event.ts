// venue_2's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
import type { EventDetail, EventIO } from '../live-event.ts';
import { isRec, list, need, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

/** venue_2 `sportsMarketType` values of player props (not gathered into the event). */
const VENUE2_PROPS = new Set(['points', 'rebounds', 'assists', 'passing_yards', 'rushing_yards', 'receiving_yards', 'receptions', 'passing_touchdowns', 'anytime_touchdown', 'touchdowns']);

export function buildVenue2Event(id: string, raw: unknown): EventDetail {
  const e = rec(raw, 'venue_2 event');
  const markets = list(e.markets, 'venue_2 event.markets')
    .filter(isRec)
    .filter((m) => !VENUE2_PROPS.has(String(m.sportsMarketType ?? '')))
    .map((m) => ({ market_id: need(str(m.id), 'venue_2 market.id'), title: str(m.question) ?? String(m.id) }));
  return { event_id: id, provider: 'venue_2', title: str(e.title) ?? id, markets };
}

export async function readVenue2(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const path = /^[0-9]+$/.test(id) ? `/venue_2/events/${id}` : `/venue_2/events/slug/${encodeURIComponent(id)}`;
  const e = await io.get('venue_2', path);
  return e === NOT_FOUND ? NOT_FOUND : buildVenue2Event(id, e);
}
