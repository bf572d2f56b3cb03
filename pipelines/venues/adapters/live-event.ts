// Event detail, read live from the venue (spec: "Event detail", "GET /v1/events/{event_id}"):
// the shape every venue's event reader gives (each venue's reader is its adapter's
// venue_N/event.ts, readEvent).
// In: a resolved provider + native event id and a LiveIO. Out: {event_id, provider, title,
// markets[{market_id, title}], fanout?}, NOT_FOUND, or a thrown ApiError. Reading is I/O; the
// `build*` functions turning native records into the body are pure.
// Rules: venue_1 sibling-series fanout in parallel (missing siblings listed, only the primary can
// fail the request); venue_2 events nest their markets; venue_4 fixtures exist only while trading;
// venue_3 wraps a market as a one-element event; venue_5 maps a question to its outcome markets or
// wraps a standalone outcome; venue_6 multi-choice events list their options, a binary market is a
// single-market event; player props are not gathered.
import type { NotFound } from '../client/http.ts';
import type { Provider } from '../../../lib/vocabulary.ts';
import type { LiveIO } from './live.ts';

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
