// venue_7's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
import type { EventDetail, EventIO } from '../live-event.ts';
import { isRec, list, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

export function buildVenue7Event(id: string, raw: unknown): EventDetail {
  const e = rec(raw, 'venue_7 event');
  const eid = str(e.event_id) ?? id;
  const markets = list(e.markets, 'venue_7 event.markets')
    .filter(isRec)
    // Market type ids from 100 up are player props.
    .filter((m) => Number(m.type_id) < 100)
    .map((m) => ({ market_id: str(m.id) ?? `${eid}:${String(m.type_id)}`, title: str(m.name) ?? String(m.type_id) }));
  return { event_id: id, provider: 'venue_7', title: str(e.name) ?? id, markets };
}

export async function readVenue7(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const e = await io.get('venue_7', `/venue_7/events/${id}`);
  return e === NOT_FOUND ? NOT_FOUND : buildVenue7Event(id, e);
}
