// Event detail, read live from the venue (spec: "Event detail", "GET /v1/events/{event_id}").
// In: a resolved provider + native event id and a LiveIO. Out: {event_id, provider, title,
// markets[{market_id, title}], fanout?}, NOT_FOUND, or a thrown ApiError. Reading is I/O; the
// `build*` functions turning native records into the body are pure.
// Rules: venue_1 sibling-series fanout in parallel (missing siblings listed, only the primary can
// fail the request); venue_2 events nest their markets; venue_4 fixtures exist only while trading;
// venue_3 wraps a market as a one-element event; venue_5 maps a question to its outcome markets or
// wraps a standalone outcome; venue_6 multi-choice events list their options, a binary market is a
// single-market event; player props are not gathered.
import { NOT_FOUND, type NotFound } from '../../pipelines/venues/client/http.ts';
import type { Provider } from '../routes/table.ts';
import { arr, isRec, need, rec, str, type Rec } from '../../pipelines/venues/adapters/native.ts';
import type { LiveIO } from '../../pipelines/venues/adapters/live.ts';
import { venue3Get } from '../../pipelines/venues/adapters/venue_3/market.ts';

export interface EventMarket {
  market_id: string;
  title: string;
}
export interface Fanout {
  siblings_attempted: string[];
  siblings_returned: string[];
  siblings_missing: string[];
}
export interface EventDetail {
  event_id: string;
  provider: Provider;
  title: string;
  markets: EventMarket[];
  fanout?: Fanout;
}

/** The reads an event needs, plus a bounded read for siblings (fails fast, never the request). */
export interface EventIO extends LiveIO {
  sibling(venue: Provider, path: string): Promise<unknown | NotFound>;
}

// ---------------------------------------------------------------- venue_1

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
  const ms = arr(rec(raw, 'venue_1 event answer').markets).filter(isRec);
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

async function readVenue1(io: EventIO, id: string): Promise<EventDetail | NotFound> {
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

// ---------------------------------------------------------------- venue_2

/** venue_2 `sportsMarketType` values of player props (not gathered into the event). */
const VENUE2_PROPS = new Set(['points', 'rebounds', 'assists', 'passing_yards', 'rushing_yards', 'receiving_yards', 'receptions', 'passing_touchdowns', 'anytime_touchdown', 'touchdowns']);

export function buildVenue2Event(id: string, raw: unknown): EventDetail {
  const e = rec(raw, 'venue_2 event');
  const markets = arr(e.markets)
    .filter(isRec)
    .filter((m) => !VENUE2_PROPS.has(String(m.sportsMarketType ?? '')))
    .map((m) => ({ market_id: need(str(m.id), 'venue_2 market.id'), title: str(m.question) ?? String(m.id) }));
  return { event_id: id, provider: 'venue_2', title: str(e.title) ?? id, markets };
}

async function readVenue2(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const path = /^[0-9]+$/.test(id) ? `/venue_2/events/${id}` : `/venue_2/events/slug/${encodeURIComponent(id)}`;
  const e = await io.get('venue_2', path);
  return e === NOT_FOUND ? NOT_FOUND : buildVenue2Event(id, e);
}

// ---------------------------------------------------------------- venue_3 (market wrapped as an event)

export function buildVenue3Event(id: string, raw: unknown): EventDetail {
  const m = rec(rec(raw, 'venue_3 answer').data, 'venue_3 market');
  const title = str(m.title) ?? id;
  return { event_id: id, provider: 'venue_3', title, markets: [{ market_id: need(str(m.id), 'venue_3 market.id'), title }] };
}

async function readVenue3(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const r = await venue3Get(io, id);
  return r === NOT_FOUND ? NOT_FOUND : buildVenue3Event(id, r);
}

// ---------------------------------------------------------------- venue_4 (fixtures while trading)

export function buildVenue4Event(id: string, fixture: unknown, found: unknown): EventDetail {
  const f = rec(rec(fixture, 'venue_4 answer').data, 'venue_4 fixture');
  const hashes = arr(f.markets).map((h) => String(h).toLowerCase());
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

async function readVenue4(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  // "a fixture of a finished game is 404": the venue drops fixtures once trading ends.
  const f = await io.get('venue_4', `/venue_4/fixture/${id}`);
  if (f === NOT_FOUND) return NOT_FOUND;
  const hashes = arr(rec(rec(f, 'venue_4 answer').data, 'venue_4 fixture').markets).map(String);
  const found = hashes.length ? await io.get('venue_4', '/venue_4/markets/find', { marketHashes: hashes.join(',') }) : NOT_FOUND;
  return buildVenue4Event(id, f, found);
}

// ---------------------------------------------------------------- venue_5 (question or standalone outcome)

export function buildVenue5Question(id: string, raw: unknown): EventDetail {
  const q = rec(rec(raw, 'venue_5 answer').question, 'venue_5 question');
  const markets = arr(q.outcomes)
    .filter(isRec)
    .map((o) => ({ market_id: need(str(o.outcome_id), 'venue_5 outcome_id'), title: str(o.label) ?? String(o.outcome_id) }));
  return { event_id: id, provider: 'venue_5', title: str(q.title) ?? id, markets };
}

export function buildVenue5Outcome(id: string, raw: unknown): EventDetail {
  const o = rec(rec(raw, 'venue_5 answer').outcome, 'venue_5 outcome');
  const title = str(o.label) ?? id;
  return { event_id: id, provider: 'venue_5', title, markets: [{ market_id: need(str(o.outcome_id), 'venue_5 outcome_id'), title }] };
}

async function readVenue5(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const [q, o] = await Promise.all([io.get('venue_5', `/venue_5/questions/${id}`), io.get('venue_5', `/venue_5/outcomes/${id}`)]);
  if (q !== NOT_FOUND) return buildVenue5Question(id, q);
  if (o !== NOT_FOUND) return buildVenue5Outcome(id, o);
  return NOT_FOUND;
}

// ---------------------------------------------------------------- venue_6 (multi-choice or binary)

const isProp = (m: Rec): boolean => /prop/i.test(String(m.kind ?? '')) || /prop/i.test(String(m.line_type ?? ''));

export function buildVenue6Event(id: string, ev: unknown | NotFound, market: unknown | NotFound): EventDetail | NotFound {
  if (ev !== NOT_FOUND) {
    const e = rec(ev, 'venue_6 event');
    const markets = arr(e.markets)
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

async function readVenue6(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const [e, m] = await Promise.all([io.get('venue_6', `/venue_6/api/events/${id}`), io.get('venue_6', `/venue_6/api/markets/${id}`)]);
  return buildVenue6Event(id, e, m);
}

// ---------------------------------------------------------------- venue_7

export function buildVenue7Event(id: string, raw: unknown): EventDetail {
  const e = rec(raw, 'venue_7 event');
  const eid = str(e.event_id) ?? id;
  const markets = arr(e.markets)
    .filter(isRec)
    // Market type ids from 100 up are player props.
    .filter((m) => Number(m.type_id) < 100)
    .map((m) => ({ market_id: str(m.id) ?? `${eid}:${String(m.type_id)}`, title: str(m.name) ?? String(m.type_id) }));
  return { event_id: id, provider: 'venue_7', title: str(e.name) ?? id, markets };
}

async function readVenue7(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const e = await io.get('venue_7', `/venue_7/events/${id}`);
  return e === NOT_FOUND ? NOT_FOUND : buildVenue7Event(id, e);
}

// ---------------------------------------------------------------- venue_8 (market slug or group slug)

export function buildVenue8Event(id: string, market: unknown | NotFound, group: unknown | NotFound): EventDetail | NotFound {
  if (market !== NOT_FOUND) {
    const m = rec(market, 'venue_8 market');
    const title = str(m.question) ?? id;
    return { event_id: id, provider: 'venue_8', title, markets: [{ market_id: need(str(m.slug), 'venue_8 market.slug'), title }] };
  }
  if (group !== NOT_FOUND) {
    const g = rec(group, 'venue_8 group');
    const markets = arr(g.markets)
      .filter(isRec)
      .map((m) => ({ market_id: need(str(m.slug), 'venue_8 market.slug'), title: str(m.question) ?? String(m.slug) }));
    return { event_id: id, provider: 'venue_8', title: str(g.name) ?? id, markets };
  }
  return NOT_FOUND;
}

async function readVenue8(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const [m, g] = await Promise.all([io.get('venue_8', `/venue_8/v0/slug/${id}`), io.get('venue_8', `/venue_8/v0/group/${id}`)]);
  return buildVenue8Event(id, m, g);
}

// ---------------------------------------------------------------- venue_9 (parent)

export function buildVenue9Event(id: string, raw: unknown): EventDetail {
  const p = rec(raw, 'venue_9 parent');
  const pid = (str(p.id) ?? id).toLowerCase();
  const markets = arr(p.children)
    .filter(isRec)
    .map((c) => ({ market_id: (str(c.pair) ?? `${pid}:${String(c.id)}`).toLowerCase(), title: str(c.title) ?? String(c.id) }));
  return { event_id: id, provider: 'venue_9', title: str(p.title) ?? id, markets };
}

async function readVenue9(io: EventIO, id: string): Promise<EventDetail | NotFound> {
  const p = await io.get('venue_9', `/venue_9/parents/${id}`);
  return p === NOT_FOUND ? NOT_FOUND : buildVenue9Event(id, p);
}

export const EVENT_READERS: Record<Provider, (io: EventIO, nativeId: string) => Promise<EventDetail | NotFound>> = {
  venue_1: readVenue1,
  venue_2: readVenue2,
  venue_3: readVenue3,
  venue_4: readVenue4,
  venue_5: readVenue5,
  venue_6: readVenue6,
  venue_7: readVenue7,
  venue_8: readVenue8,
  venue_9: readVenue9,
};
