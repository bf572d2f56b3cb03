// venue_1's event detail, read live (spec: "Event detail", "GET /v1/events/{event_id}"): the reader
// does the venue reads through the request's EventIO; the `build*` functions are pure.
import type { EventMarket, EventDetail, EventIO } from '../live-event.ts';
import { isRec, list, need, rec, str } from '../native.ts';
import { NOT_FOUND, type NotFound } from '../../client/http.ts';

/** Sibling series registry (FORMATS.md, venue_1): the game-line series of one game. */
export const VENUE1_SIBLINGS: Record<string, readonly string[]> = {
  nba: ['KXNBAGAME', 'KXNBASPREAD', 'KXNBATOTAL', 'KXNBATEAMTOTAL', 'KXNBA1HTOTAL', 'KXNBA1QSPREAD'],
  wnba: ['KXWNBAGAME', 'KXWNBASPREAD', 'KXWNBATOTAL'],
  nfl: ['KXNFLGAME', 'KXNFLSPREAD', 'KXNFLTOTAL', 'KXNFLTEAMTOTAL', 'KXNFL2HSPREAD'],
  mlb: ['KXMLBGAME', 'KXMLBSPREAD', 'KXMLBTOTAL'],
  nhl: ['KXNHLGAME', 'KXNHLSPREAD', 'KXNHLTOTAL'],
};

/** The other series of the same game: same `<date><teams>` part under each sibling series. */
export function venue1Siblings(eventTicker: string): { series: string; siblings: { series: string; ticker: string }[] } | null {
  const dash = eventTicker.indexOf('-');
  if (dash < 0) return null;
  const series = eventTicker.slice(0, dash);
  const rest = eventTicker.slice(dash + 1);
  for (const list of Object.values(VENUE1_SIBLINGS)) {
    if (list.includes(series)) {
      return { series, siblings: list.filter((s) => s !== series).map((s) => ({ series: s, ticker: `${s}-${rest}` })) };
    }
  }
  return null;
}

function venue1Markets(raw: unknown): EventMarket[] {
  const ms = list(rec(raw, 'venue_1 event answer').markets, 'venue_1 event answer.markets').filter(isRec);
  const titles = ms.map((m) => str(m.title) ?? '');
  return ms.map((m, i) => {
    const ticker = need(str(m.ticker), 'venue_1 market.ticker');
    const title = titles[i] || ticker;
    const sub = str(m.yes_sub_title);
    // Winner markets (one per team) share the event's title; the YES side names the team.
    const shared = titles.filter((x) => x === titles[i]).length > 1;
    return { market_id: ticker, title: shared && sub ? `${title} (${sub})` : title };
  });
}

export function buildVenue1Event(
  eventTicker: string,
  primary: unknown,
  siblings: { series: string; result: unknown | NotFound | Error }[] | null,
): EventDetail {
  const p = rec(primary, 'venue_1 event answer');
  const ev = isRec(p.event) ? p.event : {};
  const markets = venue1Markets(primary);
  const d: EventDetail = { event_id: eventTicker, provider: 'venue_1', title: str(ev.title) ?? eventTicker, markets };
  if (siblings) {
    const returned: string[] = [];
    const missing: string[] = [];
    for (const s of siblings) {
      if (s.result instanceof Error) missing.push(s.series);
      else if (s.result !== NOT_FOUND) {
        try {
          markets.push(...venue1Markets(s.result));
          returned.push(s.series);
        } catch {
          missing.push(s.series); // a malformed sibling is an errored sibling
        }
      }
      // A sibling that does not exist is dropped.
    }
    d.fanout = { siblings_attempted: siblings.map((s) => s.series), siblings_returned: returned, siblings_missing: missing };
  }
  return d;
}

export async function readVenue1(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const sib = venue1Siblings(id);
  // Primary and siblings in parallel: fanout time is the slowest read, not the sum.
  const primaryP = io.get('venue_1', `/venue_1/events/${encodeURIComponent(id)}`);
  const siblingPs = (sib?.siblings ?? []).map((s) =>
    io.sibling('venue_1', `/venue_1/events/${encodeURIComponent(s.ticker)}`).then(
      (result) => ({ series: s.series, result }),
      (e: unknown) => ({ series: s.series, result: e instanceof Error ? e : new Error(String(e)) }),
    ),
  );
  primaryP.catch(() => undefined); // awaited below; avoid an unhandled rejection while siblings run
  const [primary, siblings] = await Promise.all([primaryP, Promise.all(siblingPs)]);
  if (primary === NOT_FOUND) return NOT_FOUND;
  return buildVenue1Event(id, primary, sib ? siblings : null);
}
