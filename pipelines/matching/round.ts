// One sports "publish round" as a pure decide/evolve step. In: the round state (the lifecycle
// snapshot per event and the caches that keep idle rounds cheap), the current canonical markets and
// which pairings changed since the last round. Out: the next state, the `lifecycle.states` and
// `matched.events` records to write (tombstones as null values, in the order they are produced) and
// whether the published snapshot changed. The processor owns I/O: it reads the state back from the
// compacted topics, writes the records, and publishes `entries(state)` with its `observed_at`.
//
// The input state is never modified: the maps are copied, so a caller (or a property test) may keep
// the state of any round and replay from it.
import { advance, bodyJson, nextTimeRule, persist, startLifecycle, stringifyWithBody, type LifecycleSnapshot } from './lifecycle.ts';
import { matchMarkets, type PriorIds } from './match.ts';
import { compareEntries, sortKey, type SportsEntry } from './readmodel.ts';
import type { TopicValues } from '../topics.ts';
import type { CanonicalMarket } from './types.ts';
import { digest } from './digest.ts';

export interface RoundState {
  /** The lifecycle snapshot per event id (what `lifecycle.states` holds). */
  lifecycle: ReadonlyMap<string, LifecycleSnapshot>;
  /** The digest of the last snapshot JSON written per event (an unchanged snapshot is not written again). */
  lastLifecycleDigest: ReadonlyMap<string, string>;
  /** The digest of the last served entry JSON per event (an unchanged entry is not written again). */
  lastEventDigest: ReadonlyMap<string, string>;
  /** Per-entry versions, so readers fetch only the entries that changed since their last load. */
  entryVersion: ReadonlyMap<string, number>;
  versionSeq: number;
  /** The entry served per event, with the snapshot it was built from (same snapshot: no rebuild). */
  entryCache: ReadonlyMap<string, { snap: LifecycleSnapshot; entry: SportsEntry | null }>;
}

export interface RoundInput {
  /** Every current canonical market; only those of the dirty pairings are matched. */
  markets: Iterable<CanonicalMarket>;
  /** Pairings (`<league>-<away>-<home>`) with a canonical market changed since the last round. */
  dirty: 'all' | ReadonlySet<string>;
  now: number;
}

export interface RoundOutput {
  state: RoundState;
  lifecycleOut: { key: string; value: TopicValues['lifecycle.states'] | null }[];
  eventsOut: { key: string; value: TopicValues['matched.events'] | null }[];
  /** The served entries changed (or matching ran): the snapshot must be published again. */
  changed: boolean;
}

export function emptyRoundState(): RoundState {
  return { lifecycle: new Map(), lastLifecycleDigest: new Map(), lastEventDigest: new Map(), entryVersion: new Map(), versionSeq: 0, entryCache: new Map() };
}

/** A state read back from `lifecycle.states` (restart): the caches start empty. */
export function restoredRoundState(snapshots: Iterable<[string, { snapshot: LifecycleSnapshot; json: string }]>): RoundState {
  const s = emptyRoundState();
  const lifecycle = new Map<string, LifecycleSnapshot>();
  const written = new Map<string, string>();
  for (const [id, v] of snapshots) {
    lifecycle.set(id, v.snapshot);
    written.set(id, digest(v.json));
  }
  return { ...s, lifecycle, lastLifecycleDigest: written };
}

export const pairingOfMarket = (m: CanonicalMarket) => `${m.league}-${m.away}-${m.home}`;
const pairingOfId = (id: string) => id.split('-').slice(0, 3).join('-');

/**
 * Prior event ids of venue markets, from the lifecycle (postponed games keep their id); the
 * markets an event holds now are `PriorIds.held`, the rest had been in one before.
 */
export function priorIds(lifecycle: ReadonlyMap<string, LifecycleSnapshot>): Required<PriorIds> {
  const prior = Object.assign(new Map<string, string>(), { held: new Set<string>() });
  for (const [id, s] of lifecycle)
    for (const k of s.context.marketIds ?? []) {
      prior.set(k, id);
      prior.held.add(k);
    }
  // A market the game had before (delisted, then listed again) returns to it, unless another
  // event has it now.
  for (const [id, s] of lifecycle) for (const k of s.context.formerMarketIds ?? []) if (!prior.has(k)) prior.set(k, id);
  return prior;
}

export function matchRound(state: RoundState, input: RoundInput): RoundOutput {
  const { now, dirty } = input;
  const lifecycle = new Map(state.lifecycle);
  const lastLifecycleDigest = new Map(state.lastLifecycleDigest);
  const lastEventDigest = new Map(state.lastEventDigest);
  const entryVersion = new Map(state.entryVersion);
  const entryCache = new Map(state.entryCache);
  let versionSeq = state.versionSeq;
  const lifecycleOut: RoundOutput['lifecycleOut'] = [];
  const eventsOut: RoundOutput['eventsOut'] = [];
  const all = dirty === 'all';
  // Matching runs only when a canonical market changed since the last round; the lifecycle's
  // time rules (TICK) run every round and are cheap when nothing moves.
  // Games of different pairings never share markets, so only pairings touched since the last
  // round are matched again.
  const matched = all || dirty.size > 0;
  if (matched) {
    const inScope = (m: CanonicalMarket) => all || dirty.has(pairingOfMarket(m));
    const scoped: CanonicalMarket[] = [];
    for (const m of input.markets) if (inScope(m)) scoped.push(m);
    const records = matchMarkets(scoped, priorIds(lifecycle));
    const seen = new Set<string>();
    for (const r of records) {
      const id = r.event.event_id;
      seen.add(id);
      const prev = lifecycle.get(id);
      if (!prev) {
        // Only games matched on at least one submarket enter the population.
        if (r.event.submarkets.length === 0) continue;
        lifecycle.set(id, startLifecycle({ now, record: r }).snapshot);
      } else lifecycle.set(id, advance(prev, { type: 'OBSERVE', now, record: r }).snapshot);
    }
    // Markets the events of this round hold: an event not seen in it gives them up.
    const claimed = new Set<string>();
    for (const r of records) if (lifecycle.has(r.event.event_id)) for (const k of r.marketIds) claimed.add(k);
    for (const [id, snap] of lifecycle)
      if (!seen.has(id) && (all || dirty.has(pairingOfId(id)))) lifecycle.set(id, advance(snap, { type: 'GONE', now, claimed }).snapshot);
  }
  let changed = matched;
  for (const [id, snap] of lifecycle) {
    const next = now >= nextTimeRule(snap) ? advance(snap, { type: 'TICK', now }).snapshot : snap;
    lifecycle.set(id, next);
    if (next.value === 'removed') {
      lifecycle.delete(id);
      entryCache.delete(id);
      lifecycleOut.push({ key: id, value: null });
      eventsOut.push({ key: id, value: null });
      lastLifecycleDigest.delete(id);
      lastEventDigest.delete(id);
      entryVersion.delete(id);
      changed = true;
      continue;
    }
    const cached = entryCache.get(id);
    if (cached && cached.snap === next) continue;
    changed = true;
    const json = persist(next);
    const jsonDigest = digest(json);
    if (lastLifecycleDigest.get(id) !== jsonDigest) {
      lastLifecycleDigest.set(id, jsonDigest);
      lifecycleOut.push({ key: id, value: { event_id: id, state: String(next.value), updated_at: now, snapshot: json } });
    }
    const c = next.context;
    const population = next.value === 'current' ? 'current' : 'archived';
    const visible = !!c.body && c.body.submarkets.length > 0 && !(population === 'current' && c.liveEmpty);
    const entry: SportsEntry | null =
      // Id lists in a fixed order: the order markets were read in (which a restart or a rebalance
      // changes) must not make a new version of an event.
      visible && c.body ? { event: c.body, population, strictPropKeys: [...c.strictPropKeys].sort(), lookupIds: [...c.lookupIds].sort(), sortMs: sortKey(c.body) } : null;
    entryCache.set(id, { snap: next, entry });
    if (!entry || !c.body) {
      // Not served now: matched.events says so too, so a reader of the topic serves what this does.
      if (lastEventDigest.delete(id)) {
        entryVersion.delete(id);
        eventsOut.push({ key: id, value: null });
      }
      continue;
    }
    const evDigest = digest(stringifyWithBody(entry, 'event'));
    if (lastEventDigest.get(id) !== evDigest) {
      lastEventDigest.set(id, evDigest);
      entryVersion.set(id, ++versionSeq);
      eventsOut.push({
        key: id,
        value: {
          event_id: id,
          league: c.body.league,
          sport: c.body.sport,
          title: c.body.title,
          scheduled_date: c.body.scheduled_date,
          scheduled_start: c.body.scheduled_start ? Date.parse(c.body.scheduled_start) : null,
          participant_keys: c.body.participants.map((p) => p.key),
          population: population === 'current' ? 'current' : 'settled',
          submarket_count: c.body.submarkets.length,
          observed_at: now,
          body_version: 1,
          body: bodyJson(c.body),
          strict_prop_keys: entry.strictPropKeys,
          lookup_ids: entry.lookupIds,
          archive_reason: population === 'current' ? null : (c.archiveReason ?? null),
        },
      });
    }
  }
  return { state: { lifecycle, lastLifecycleDigest, lastEventDigest, entryVersion, versionSeq, entryCache }, lifecycleOut, eventsOut, changed };
}

/** The served entries of a state, in the published order. */
export function roundEntries(state: RoundState): SportsEntry[] {
  const entries: SportsEntry[] = [];
  for (const { entry } of state.entryCache.values()) if (entry) entries.push(entry);
  entries.sort(compareEntries);
  return entries;
}
