// venue_7 identifiers (spec table "Provider tokens and identifier shapes"): an event is a positive
// integer; a market is `<event_id>:<market_type_id>`, the line the venue flags favourite (or the
// only line), or `<event_id>:<market_type_id>:<line>`, one line. Pure.
import type { IdRoute, NativeIdCheck } from '../types.ts';

const V7_EVENT = /^[1-9][0-9]*$/;
const V7_MARKET = /^([1-9][0-9]*):([0-9]+)(?::([-+]?[0-9]+(?:\.[0-9]+)?))?$/;

/** Parsed venue_7 market id: event half (the identity), market type id, optional line. */
export interface Venue7MarketId {
  eventId: string;
  marketTypeId: string;
  line?: string;
}
export function parseVenue7MarketId(id: string): Venue7MarketId | undefined {
  const m = V7_MARKET.exec(id);
  if (!m) return undefined;
  return { eventId: m[1], marketTypeId: m[2], line: m[3] };
}

/** A venue_7 line as the quotes channel keys it: `-1.50`, `-1.5` and `-1.5e0` name one line. */
export function venue7Line(line: string): string {
  return String(Number(line));
}

/** A venue_7 market id as the listings key it: a three-part id's line spelled by venue7Line, other ids as they are. */
export function venue7MarketKey(native: string): string {
  const v = parseVenue7MarketId(native);
  return v?.line !== undefined ? `${v.eventId}:${v.marketTypeId}:${venue7Line(v.line)}` : native;
}

export function venue7NativeId(route: IdRoute, id: string): NativeIdCheck {
  if (route === 'market') {
    if (V7_EVENT.test(id)) return { reject: 'this is an event id; a market is <event_id>:<market_id>' };
    if (parseVenue7MarketId(id)) return { id };
    return { reject: 'expected <event_id>:<market_id> or <event_id>:<market_id>:<line>' };
  }
  if (V7_EVENT.test(id)) return { id };
  return { reject: 'expected a positive integer event id' };
}
