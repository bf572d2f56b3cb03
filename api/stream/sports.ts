// The `sports` channel of the push stream: which sports events a subscription sees and how each
// change reads as an event. In: the sports list's filters (league, scheduled_date, participant,
// include_settled, include_submarkets, include_rules, player_prop_match: the same meaning as on
// GET /v1/matching-markets/sports) and the hub's changes. Out: `event.updated` (the event in the
// list shape), `event.removed` ({event_id, reason}) and the `snapshot` of the current list.
import { compareEntries, shapeEvent, type ShapeOptions, type SportsEntry } from '../../pipelines/matching/readmodel.ts';
import { easternDate } from '../../pipelines/matching/time.ts';
import type { League } from '../routes/table.ts';
import type { MatchedEvent } from '../../pipelines/matching/types.ts';
import type { Rendered, SportsChange } from './hub.ts';

export interface SportsFilter {
  league?: League;
  scheduledDate?: string;
  participant?: string;
  includeSettled: boolean;
  shape: ShapeOptions;
}

/** One string per distinct subscription: connections that share it share each change's rendering. */
export function filterKey(f: SportsFilter): string {
  return JSON.stringify([f.league ?? null, f.scheduledDate ?? null, f.participant?.toLowerCase() ?? null, f.includeSettled, f.shape.includeSubmarkets, f.shape.includeRules, f.shape.policy]);
}

/** The event as this subscription serves it, or null when it is not in the subscription (as the list filters). */
export function visible(f: SportsFilter, e: SportsEntry | undefined, now: number): MatchedEvent | null {
  return inSubscription(f, e, now) ? shapeEvent(e, f.shape) : null;
}

/** Whether the subscription holds this entry (before its shape decides what of it is sent). */
function inSubscription(f: SportsFilter, e: SportsEntry | undefined, now: number): e is SportsEntry {
  if (!e || !matchesIgnoringPopulation(f, e, now)) return false;
  return e.population !== 'archived' || f.includeSettled;
}

function matchesIgnoringPopulation(f: SportsFilter, e: SportsEntry, now: number): boolean {
  // "In the default population a past date matches nothing."
  if (!f.includeSettled && f.scheduledDate !== undefined && f.scheduledDate < easternDate(now)) return false;
  if (f.league && e.event.league !== f.league) return false;
  if (f.scheduledDate && e.event.scheduled_date !== f.scheduledDate) return false;
  const p = f.participant?.toLowerCase();
  if (p && !e.event.participants.some((x) => x.key === p)) return false;
  return true;
}


/** One string per distinct shape (a part of filterKey): an entry's JSON is shared by the subscriptions of one shape. */
export function shapeKey(o: ShapeOptions): string {
  return `${o.includeSubmarkets ? 1 : 0}${o.includeRules ? 1 : 0}${o.policy}`;
}

/**
 * Each entry's event as one shape serves it, as JSON (null: the shape leaves nothing of it), kept
 * while the entry lives: the hub makes a new entry for each change, so a string here is never stale.
 * Why: a connection's first event is the whole subscribed list, and serializing it per connection
 * was most of a connect's cost on the API's thread (about 4 ms each at SIM_SCALE=1: 1,000 clients
 * reconnecting at once held the loop for seconds); joined from here, only the changed events are
 * serialized again.
 */
const shapedJson = new WeakMap<SportsEntry, Map<string, string | null>>();

function jsonOf(e: SportsEntry, shape: ShapeOptions, key: string): string | null {
  let byShape = shapedJson.get(e);
  if (!byShape) shapedJson.set(e, (byShape = new Map()));
  let json = byShape.get(key);
  if (json === undefined) {
    const ev = shapeEvent(e, shape);
    json = ev ? JSON.stringify(ev) : null;
    byShape.set(key, json);
  }
  return json;
}

/** visible(), as the JSON the subscription sends (null: not in it). */
function visibleJson(f: SportsFilter, e: SportsEntry | undefined, now: number, key = shapeKey(f.shape)): string | null {
  return inSubscription(f, e, now) ? jsonOf(e, f.shape, key) : null;
}

/**
 * The event is still listed (current, not archived) and left the subscription for another reason
 * than its date passing: postponed out of its scheduled_date, or its shape leaves nothing of it (the
 * full-game moneyline no longer matched). Its lifecycle has no archive reason to give: not `settled`.
 */
function stillListed(f: SportsFilter, next: SportsEntry | undefined, now: number): boolean {
  if (!next || next.population === 'archived') return false;
  return f.includeSettled || f.scheduledDate === undefined || f.scheduledDate >= easternDate(now);
}

/** The event a change is for this subscription, or null when it has none. */
export function renderChange(f: SportsFilter, c: SportsChange, now: number): Rendered | null {
  const next = visibleJson(f, c.next, now);
  if (next !== null) return { type: 'event.updated', json: next };
  // Out of the subscription now: a removal when the client had it. After a tombstone the last
  // served body says whether it matched the subscription's filters.
  const before = c.prev ?? (c.next === undefined ? c.last : undefined);
  if (before && visible(f, before, now)) return { type: 'event.removed', json: JSON.stringify({ event_id: c.key, reason: stillListed(f, c.next, now) ? 'filtered' : c.reason }) };
  return null;
}

/** JSON.stringify(snapshotBody(f, entries, now)), joined from each entry's JSON as the shape serves it (kept per entry). */
export function snapshotJson(f: SportsFilter, entries: Iterable<SportsEntry | undefined>, now: number): string {
  const key = shapeKey(f.shape);
  const held: { e: SportsEntry; json: string }[] = [];
  for (const e of entries) {
    const json = visibleJson(f, e, now, key);
    if (json !== null) held.push({ e: e!, json });
  }
  held.sort((a, b) => compareEntries(a.e, b.e));
  let out = '{"channel":"sports","data":[';
  for (let i = 0; i < held.length; i++) out += (i ? ',' : '') + held[i]!.json;
  return out + ']}';
}

export function snapshotBody(f: SportsFilter, entries: Iterable<SportsEntry | undefined>, now: number): { channel: 'sports'; data: MatchedEvent[] } {
  const held: { e: SportsEntry; ev: MatchedEvent }[] = [];
  for (const e of entries) {
    const ev = visible(f, e, now);
    if (ev) held.push({ e: e!, ev });
  }
  held.sort((a, b) => compareEntries(a.e, b.e));
  return { channel: 'sports', data: held.map((x) => x.ev) };
}

