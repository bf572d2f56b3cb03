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
  if (!e) return null;
  if (!matchesIgnoringPopulation(f, e, now)) return null;
  if (e.population === 'archived' && !f.includeSettled) return null;
  return shapeEvent(e, f.shape);
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


/** The event a change is for this subscription, or null when it has none. */
export function renderChange(f: SportsFilter, c: SportsChange, now: number): Rendered | null {
  const next = visible(f, c.next, now);
  if (next) return { type: 'event.updated', json: JSON.stringify(next) };
  // Out of the subscription now: a removal when the client had it. After a tombstone the last
  // served body says whether it matched the subscription's filters.
  const before = c.prev ?? (c.next === undefined ? c.last : undefined);
  if (before && visible(f, before, now)) return { type: 'event.removed', json: JSON.stringify({ event_id: c.key, reason: c.reason }) };
  return null;
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

