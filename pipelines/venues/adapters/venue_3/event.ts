// venue_3's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
// Its events: market wrapped as an event.
import type { EventDetail, EventIO } from '../live-event.ts';
import { need, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';
import { venue3Get } from './market.ts';

export function buildVenue3Event(id: string, raw: unknown): EventDetail {
  const m = rec(rec(raw, 'venue_3 answer').data, 'venue_3 market');
  const title = str(m.title) ?? id;
  return { event_id: id, provider: 'venue_3', title, markets: [{ market_id: need(str(m.id), 'venue_3 market.id'), title }] };
}

export async function readVenue3(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const r = await venue3Get(io, id);
  return r === NOT_FOUND ? NOT_FOUND : buildVenue3Event(id, r);
}
