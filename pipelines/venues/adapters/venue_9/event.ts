// venue_9's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
// Its events: parent.
import type { EventDetail, EventIO } from '../live-event.ts';
import { isRec, list, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

export function buildVenue9Event(id: string, raw: unknown): EventDetail {
  const p = rec(raw, 'venue_9 parent');
  const pid = (str(p.id) ?? id).toLowerCase();
  const markets = list(p.children, 'venue_9 parent.children')
    .filter(isRec)
    .map((c) => ({ market_id: (str(c.pair) ?? `${pid}:${String(c.id)}`).toLowerCase(), title: str(c.title) ?? String(c.id) }));
  return { event_id: id, provider: 'venue_9', title: str(p.title) ?? id, markets };
}

export async function readVenue9(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const p = await io.get('venue_9', `/venue_9/parents/${id}`);
  return p === NOT_FOUND ? NOT_FOUND : buildVenue9Event(id, p);
}
