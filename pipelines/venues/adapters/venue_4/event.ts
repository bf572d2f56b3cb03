// venue_4's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
// Its events: fixtures while trading.
import type { EventDetail, EventIO } from '../live-event.ts';
import { arr, isRec, list, rec, str, type Rec } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

export function buildVenue4Event(id: string, fixture: unknown, found: unknown): EventDetail {
  const f = rec(rec(fixture, 'venue_4 answer').data, 'venue_4 fixture');
  const hashes = list(f.markets, 'venue_4 fixture.markets').map((h) => String(h).toLowerCase());
  const byHash = new Map<string, Rec>();
  if (found !== NOT_FOUND && isRec(found)) for (const m of arr(found.data)) if (isRec(m)) byHash.set(String(m.marketHash).toLowerCase(), m);
  const markets = hashes.map((h) => {
    const m = byHash.get(h);
    const title = m ? `${str(m.outcomeOneName) ?? ''} vs ${str(m.outcomeTwoName) ?? ''}` : h;
    return { market_id: h, title };
  });
  const one = str(f.teamOne);
  const two = str(f.teamTwo);
  return { event_id: id, provider: 'venue_4', title: one && two ? `${one} vs ${two}` : id, markets };
}

export async function readVenue4(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  // "a fixture of a finished game is 404": the venue drops fixtures once trading ends.
  const f = await io.get('venue_4', `/venue_4/fixture/${id}`);
  if (f === NOT_FOUND) return NOT_FOUND;
  const hashes = list(rec(rec(f, 'venue_4 answer').data, 'venue_4 fixture').markets, 'venue_4 fixture.markets').map(String);
  const found = hashes.length ? await io.get('venue_4', '/venue_4/markets/find', { marketHashes: hashes.join(',') }) : NOT_FOUND;
  return buildVenue4Event(id, f, found);
}
