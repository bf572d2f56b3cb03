// The sports read model: what the publisher puts in the SnapshotStore and what the two sports
// routes read. In: lifecycle results (published), then a loaded snapshot (read). Out: pure query
// functions for the list (filters, order, keyset pages, total) and the lookup (identifier index).
// The route handlers validate parameters and call these; nothing here touches I/O except
// SportsReader, which loads one published snapshot once per snapshot id.
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { League } from './teams.ts';
import type { MatchedEvent, Submarket } from './types.ts';
import type { SourceQuotes } from './prices.ts';
import { easternMidnight } from './time.ts';

export const SPORTS_SNAPSHOT = 'sports';
/** Published beside `sports` on the same tick: per event, the quotes of its source markets. */
export const SPORTS_PRICES_SNAPSHOT = 'sports_prices';

/** One entry of the prices snapshot (key: event_id). */
export interface PricesEntry {
  quotes: SourceQuotes[];
}

export type Population = 'current' | 'archived';

/** One published entry (key: event_id), in publish order: soonest scheduled start first. */
export interface SportsEntry {
  event: MatchedEvent;
  population: Population;
  strictPropKeys: string[];
  lookupIds: string[];
  /** Sort key: exact start, or the Eastern midnight of the day when no exact start is known. */
  sortMs: number;
}

export function sortKey(e: MatchedEvent): number {
  return e.scheduled_start ? Date.parse(e.scheduled_start) : easternMidnight(e.scheduled_date);
}

export function compareEntries(a: SportsEntry, b: SportsEntry): number {
  return a.sortMs - b.sortMs || (a.event.event_id < b.event.event_id ? -1 : a.event.event_id > b.event.event_id ? 1 : 0);
}

export interface LoadedSnapshot {
  id: string;
  observedAt: number | null;
  entries: SportsEntry[];
  byEventId: Map<string, SportsEntry>;
  /** lower-case `provider:id` -> entries. */
  byLookupId: Map<string, SportsEntry[]>;
}

export function indexSnapshot(id: string, observedAt: number | null, entries: SportsEntry[]): LoadedSnapshot {
  const byEventId = new Map<string, SportsEntry>();
  const byLookupId = new Map<string, SportsEntry[]>();
  for (const e of entries) {
    byEventId.set(e.event.event_id, e);
    for (const id of e.lookupIds) {
      const list = byLookupId.get(id);
      if (list) {
        if (!list.includes(e)) list.push(e);
      } else byLookupId.set(id, [e]);
    }
  }
  return { id, observedAt, entries, byEventId, byLookupId };
}

/**
 * Loads the current sports snapshot, parsing each published snapshot once. On the request path it
 * asks the store only for the current id (one read; concurrent requests share the read in flight)
 * and answers from the snapshot it holds while the id is unchanged.
 */
export class SportsReader {
  private cache: LoadedSnapshot | null = null;
  private loading: Promise<LoadedSnapshot | null> | null = null;
  private versions: Record<string, number> | null = null;
  private idRead: Promise<string | null> | null = null;
  constructor(private readonly store: SnapshotStore) {}

  private currentId(): Promise<string | null> {
    if (this.idRead) return this.idRead;
    const p = this.store.currentId(SPORTS_SNAPSHOT).finally(() => {
      if (this.idRead === p) this.idRead = null;
    });
    this.idRead = p;
    return p;
  }

  async current(): Promise<LoadedSnapshot | null> {
    const id = await this.currentId();
    if (id === null) return null;
    if (this.cache?.id === id) return this.cache;
    if (this.loading) return this.loading;
    // Replaced and evicted between the two reads: read the newest.
    const info = (await this.store.snapshot(SPORTS_SNAPSHOT, id)) ?? (await this.store.current(SPORTS_SNAPSHOT));
    if (!info) return null;
    if (this.cache?.id === info.id) return this.cache;
    if (this.loading) return this.loading;
    this.loading = (async () => {
      const versions = info.meta?.versions as Record<string, number> | undefined;
      const prev = this.cache;
      let entries: SportsEntry[];
      if (versions && prev && this.versions) {
        // Only entries whose version moved are read again; the rest are the objects already held.
        const changed = Object.keys(versions).filter((k) => this.versions![k] !== versions[k] || !prev.byEventId.has(k));
        const fresh = changed.length ? await this.store.entries<SportsEntry>(SPORTS_SNAPSHOT, info.id, changed) : [];
        if (fresh.some((x) => x === null)) entries = (await this.store.range<SportsEntry>(SPORTS_SNAPSHOT, info.id, 0, info.count)).map((e) => e.value);
        else {
          const byId = new Map(changed.map((k, i) => [k, fresh[i]!]));
          entries = Object.keys(versions).map((k) => byId.get(k) ?? prev.byEventId.get(k)!);
          entries.sort(compareEntries);
        }
      } else entries = (await this.store.range<SportsEntry>(SPORTS_SNAPSHOT, info.id, 0, info.count)).map((e) => e.value);
      // Gone between the reads (retired and evicted, or the store flushed): a published snapshot
      // always has its count of entries, so fewer is not an empty snapshot to serve and keep.
      if (entries.length !== info.count || entries.some((e) => e == null)) throw new Error(`sports snapshot ${info.id} was evicted while it was read`);
      const loaded = indexSnapshot(info.id, info.observedAt, entries);
      this.cache = loaded;
      this.versions = versions ?? null;
      return loaded;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }
}

/** The current prices snapshot as a route reads it: the quotes of the events it serves. */
export interface PricesView {
  id: string;
  /** `provider:market_id` -> quotes, observed_at already the newest read that saw them. */
  quotesFor(eventIds: string[]): Promise<Map<string, SourceQuotes>>;
}

/**
 * Reads the prices snapshot for the events a response carries (include_prices only): one id read per
 * request, then only the entries of events not read yet under that id.
 */
export class SportsPricesReader {
  private held: { id: string; crawls: Record<string, number>; entries: Map<string, SourceQuotes[]> } | null = null;
  constructor(private readonly store: SnapshotStore) {}

  async current(): Promise<PricesView | null> {
    const id = await this.store.currentId(SPORTS_PRICES_SNAPSHOT);
    if (id === null) return null;
    if (this.held?.id !== id) {
      const info = (await this.store.snapshot(SPORTS_PRICES_SNAPSHOT, id)) ?? (await this.store.current(SPORTS_PRICES_SNAPSHOT));
      if (!info) return null;
      this.held = { id: info.id, crawls: (info.meta?.crawls as Record<string, number> | undefined) ?? {}, entries: new Map() };
    }
    const held = this.held;
    return {
      id: held.id,
      quotesFor: async (eventIds) => {
        const missing = [...new Set(eventIds)].filter((e) => !held.entries.has(e));
        if (missing.length) {
          const got = await this.store.entries<PricesEntry>(SPORTS_PRICES_SNAPSHOT, held.id, missing);
          // Unchanged quotes are not written again: a market still listed was read at or after its
          // venue's newest complete crawl began. Adjusted once per snapshot, so every request of it
          // shares the same objects (prices.ts works out what it can once per object).
          missing.forEach((e, i) =>
            held.entries.set(
              e,
              (got[i]?.quotes ?? []).map((q) => {
                const crawl = held.crawls[q.provider] ?? 0;
                return crawl > q.observed_at ? { ...q, observed_at: crawl } : q;
              }),
            ),
          );
        }
        const out = new Map<string, SourceQuotes>();
        for (const e of eventIds) for (const q of held.entries.get(e) ?? []) out.set(`${q.provider}:${q.market_id}`, q);
        return out;
      },
    };
  }
}

// ---------------------------------------------------------------- shaping

export type PropPolicy = 'strict' | 'same_prop';

export interface ShapeOptions {
  includeSubmarkets: boolean;
  includeRules: boolean;
  policy: PropPolicy;
}

const GAME_LINES = new Set(['moneyline', 'spread', 'total', 'team_total']);
export const FULL_MONEYLINE = 'moneyline|full|winner';

/**
 * The event as a response carries it, or null when nothing is left ("submarkets never empty on a
 * list page"). include_submarkets=false keeps only the full-game moneyline; props follow the policy
 * ("strict admits only ... a fully reviewed equivalent settlement profile"); rule rows of game
 * lines only with include_rules.
 */
export function shapeEvent(e: SportsEntry, o: ShapeOptions): MatchedEvent | null {
  let subs: Submarket[] = e.event.submarkets;
  if (!o.includeSubmarkets) subs = subs.filter((s) => s.key === FULL_MONEYLINE);
  else subs = subs.filter((s) => s.market_type !== 'player_prop' || o.policy === 'same_prop' || e.strictPropKeys.includes(s.key));
  if (subs.length === 0) return null;
  const shaped = subs.map((s) => {
    if (GAME_LINES.has(s.market_type) && !o.includeRules) {
      const { rule_comparisons: _drop, ...rest } = s;
      void _drop;
      return rest as Submarket;
    }
    return s;
  });
  return { ...e.event, submarkets: shaped };
}

// ---------------------------------------------------------------- list

export interface ListFilters {
  league?: League;
  scheduledDate?: string;
  participant?: string;
  includeSettled: boolean;
  /** Today in America/New_York (for "in the default population a past date matches nothing"). */
  today: string;
}

export function listFiltered(s: LoadedSnapshot, f: ListFilters, shape: ShapeOptions): { entry: SportsEntry; event: MatchedEvent }[] {
  if (!f.includeSettled && f.scheduledDate !== undefined && f.scheduledDate < f.today) return [];
  const p = f.participant?.toLowerCase();
  const out: { entry: SportsEntry; event: MatchedEvent }[] = [];
  for (const e of s.entries) {
    if (e.population === 'archived' && !f.includeSettled) continue;
    if (f.league && e.event.league !== f.league) continue;
    if (f.scheduledDate && e.event.scheduled_date !== f.scheduledDate) continue;
    if (p && !e.event.participants.some((x) => x.key === p)) continue;
    const ev = shapeEvent(e, shape);
    if (ev) out.push({ entry: e, event: ev });
  }
  return out;
}

/** What the API's sports routes need from the sports area (attached as deps.sports). */
export interface SportsDeps {
  reader: { current(): Promise<LoadedSnapshot | null> };
  /** The prices snapshot (include_prices); without it include_prices=true answers 503. */
  prices?: { current(): Promise<PricesView | null> };
  /** Secret that signs list cursors (default: CATALOG_CURSOR_SECRET, which signs every cursor of the API). */
  cursorSecret?: string;
}

/** The sports routes' readers over one SnapshotStore. */
export function sportsDepsOf(store: SnapshotStore): SportsDeps {
  return { reader: new SportsReader(store), prices: new SportsPricesReader(store) };
}
