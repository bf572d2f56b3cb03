// venue_5's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
// Its events: question or standalone outcome.
import type { EventDetail, EventIO } from '../live-event.ts';
import { isRec, list, need, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

export function buildVenue5Question(id: string, raw: unknown): EventDetail {
  const q = rec(rec(raw, 'venue_5 answer').question, 'venue_5 question');
  const markets = list(q.outcomes, 'venue_5 question.outcomes')
    .filter(isRec)
    .map((o) => ({ market_id: need(str(o.outcome_id), 'venue_5 outcome_id'), title: str(o.label) ?? String(o.outcome_id) }));
  return { event_id: id, provider: 'venue_5', title: str(q.title) ?? id, markets };
}

export function buildVenue5Outcome(id: string, raw: unknown): EventDetail {
  const o = rec(rec(raw, 'venue_5 answer').outcome, 'venue_5 outcome');
  const title = str(o.label) ?? id;
  return { event_id: id, provider: 'venue_5', title, markets: [{ market_id: need(str(o.outcome_id), 'venue_5 outcome_id'), title }] };
}

export async function readVenue5(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const [q, o] = await Promise.all([io.get('venue_5', `/venue_5/questions/${id}`), io.get('venue_5', `/venue_5/outcomes/${id}`)]);
  if (q !== NOT_FOUND) return buildVenue5Question(id, q);
  if (o !== NOT_FOUND) return buildVenue5Outcome(id, o);
  return NOT_FOUND;
}
