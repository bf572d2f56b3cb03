// GET /v1/matching-markets/sports and GET /v1/matching-markets/sports/lookup (spec: the two sports
// routes, "Matched sports event"). In: the typed query (the router already rejected unknown,
// repeated and empty parameters and type-checked limit, booleans, enums and dates) and the current
// sports snapshot (deps.sports.reader). Out: {data, pagination, snapshot} and {data, lookups,
// snapshot}. Handlers validate values, then hand off to the read model (pipelines/matching/readmodel).
// A list page is a pure function of the snapshot and the query (and the Eastern day, which bounds
// the default population), so it is shaped, serialized and gzipped once per (snapshot id, query) and
// sent as those bytes (EncodedJson) with an ETag; the memo is dropped when a newer snapshot is read.
// `Cache-Control: private, no-cache`: a snapshot lives about 12 seconds and a cursor is not bound to
// one, so clients revalidate (If-None-Match: 304) rather than reuse.
// include_prices=true adds `prices` to every submarket of the page (pipelines/matching/prices.ts)
// from the prices snapshot published beside the sports snapshot: what the pollers last read, never a
// venue call per request. Staleness is judged at the request's whole second, so a priced page is
// memoized per (sports snapshot, prices snapshot, second, query); without the parameter nothing of
// this runs and the page is the one it always was.
import { ApiError, apiErrorFromItems, quote, type ErrorItem } from '../../errors.ts';
import { cursorCodec } from '../../../lib/cursor.ts';
import type { RouteContext, RouteHandler } from '../../types.ts';
import { EncodedJson, EncodedMemo } from '../../plugins/external/encoded.ts';
import { PROVIDERS, type League } from '../table.ts';
import {
  compareEntries,
  listFiltered,
  shapeEvent,
  type LoadedSnapshot,
  type PricesView,
  type PropPolicy,
  type ShapeOptions,
  type SportsDeps,
  type SportsEntry,
} from '../../../pipelines/matching/readmodel.ts';
import { easternDate, isoMs } from '../../../pipelines/matching/time.ts';
import type { MatchedEvent } from '../../../pipelines/matching/types.ts';
import { submarketPrices } from '../../../pipelines/matching/prices.ts';
import { adapterFor } from '../../../pipelines/venues/adapters/index.ts';

// What the handlers need from the sports area (deps.sports), declared where the area builds it.
export type { SportsDeps } from '../../../pipelines/matching/readmodel.ts';

function depsOf(ctx: RouteContext): SportsDeps {
  const d = ctx.deps.sports;
  if (!d) throw new ApiError('service_unavailable', 'sports matching is not configured');
  return d;
}

async function snapshotOf(ctx: RouteContext): Promise<LoadedSnapshot> {
  const s = await depsOf(ctx).reader.current();
  // Before the first publish there is nothing to serve honestly: absent is not "unmatched".
  if (!s) throw new ApiError('service_unavailable', 'the first sports snapshot has not been published yet; retry shortly');
  return s;
}

const snapshotBlock = (s: LoadedSnapshot) => ({ observed_at: s.observedAt === null ? null : isoMs(s.observedAt) });

function bool(v: unknown, def: boolean): boolean {
  return typeof v === 'boolean' ? v : def;
}

async function pricesOf(ctx: RouteContext): Promise<PricesView> {
  const p = depsOf(ctx).prices;
  if (!p) throw new ApiError('service_unavailable', 'prices are not configured on this process');
  const v = await p.current();
  if (!v) throw new ApiError('service_unavailable', 'the first sports prices snapshot has not been published yet; retry shortly');
  return v;
}

/** The request time that staleness is judged at: its whole second (one memo entry per second). */
const priceSecond = (now: number) => Math.floor(now / 1000) * 1000;

/** The events with `prices` on every submarket. */
async function withPrices(ctx: RouteContext, view: PricesView, page: ReadonlyArray<{ entry: SportsEntry; event: MatchedEvent }>): Promise<MatchedEvent[]> {
  const events = page.map((x) => x.event);
  if (events.length === 0) return events;
  const quotes = await view.quotesFor(events.map((e) => e.event_id));
  const at = priceSecond(ctx.now);
  const staleMs = ctx.deps.config.PRICES_STALE_MS;
  return page.map(({ entry, event: e }) => {
    // settlement_safe reads the agreed tie and push rules, which the response shows only with include_rules.
    const rows = new Map(entry.event.submarkets.map((s) => [s.key, s.rule_comparisons]));
    return { ...e, submarkets: e.submarkets.map((sm) => ({ ...sm, prices: submarketPrices({ ...sm, rule_comparisons: rows.get(sm.key) }, (id) => quotes.get(id), at, staleMs) })) };
  });
}

/** player_prop_match: "requires include_submarkets=true (otherwise 400)". */
function policyOf(ctx: RouteContext, includeSubmarkets: boolean, items: ErrorItem[]): PropPolicy {
  const raw = ctx.typed.player_prop_match;
  if (raw === undefined) return 'strict';
  if (!includeSubmarkets) {
    items.push({
      param: 'player_prop_match',
      value: ctx.query.player_prop_match,
      message: `player_prop_match requires include_submarkets=true; got player_prop_match=${quote(ctx.query.player_prop_match)} with include_submarkets=false`,
    });
  }
  return raw as PropPolicy;
}

// ---------------------------------------------------------------- cursors

interface CursorBody {
  r: 'sports_list';
  /** The six bound parameters ("A cursor is bound to include_settled, include_submarkets, ..."). */
  f: string;
  s: number;
  e: string;
}

function secretOf(ctx: RouteContext): string {
  return depsOf(ctx).cursorSecret ?? ctx.deps.config.CATALOG_CURSOR_SECRET;
}

export function encodeCursor(secret: string, c: CursorBody): string {
  return cursorCodec(secret).seal(c.r, [c.f, c.s, c.e]);
}

function decodeCursor(secret: string, raw: string): CursorBody {
  const c = cursorCodec(secret).open(raw);
  if (c === null || c.route !== 'sports_list' || c.fields.length !== 3) {
    throw new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed or was not issued by this route`, { param: 'cursor' });
  }
  const [f, s, e] = c.fields;
  if (typeof f !== 'string' || typeof s !== 'number' || typeof e !== 'string') {
    throw new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed or was not issued by this route`, { param: 'cursor' });
  }
  return { r: 'sports_list', f, s, e };
}

// ---------------------------------------------------------------- list

export const sportsList: RouteHandler = async (ctx) => {
  const t = ctx.typed;
  const items: ErrorItem[] = [];
  const includeSubmarkets = bool(t.include_submarkets, false);
  const includeSettled = bool(t.include_settled, false);
  const includeRules = bool(t.include_rules, false);
  const includePrices = bool(t.include_prices, false);
  const policy = policyOf(ctx, includeSubmarkets, items);
  const participant = typeof t.participant === 'string' ? t.participant.trim() : undefined;
  if (participant !== undefined && (participant.includes(',') || participant === '')) {
    items.push({ param: 'participant', value: t.participant, message: `participant takes one key only (pair it with league); got ${quote(t.participant)}` });
  }
  const limit = typeof t.limit === 'number' ? t.limit : 25;
  if (items.length) throw apiErrorFromItems('invalid_parameter', items);

  const league = t.league as League | undefined;
  const scheduledDate = t.scheduled_date as string | undefined;
  const bound = JSON.stringify([includeSettled, includeSubmarkets, policy, league ?? null, scheduledDate ?? null, participant?.toLowerCase() ?? null]);
  const secret = secretOf(ctx);
  let after: { s: number; e: string } | undefined;
  if (typeof t.cursor === 'string') {
    const c = decodeCursor(secret, t.cursor);
    if (c.f !== bound) {
      throw new ApiError(
        'invalid_cursor',
        `cursor ${quote(t.cursor)} belongs to another filter set (include_settled, include_submarkets, player_prop_match, league, scheduled_date and participant must be sent as on the first page)`,
        { param: 'cursor' },
      );
    }
    after = { s: c.s, e: c.e };
  }

  const snap = await snapshotOf(ctx);
  const prices = includePrices ? await pricesOf(ctx) : null;
  const today = easternDate(ctx.now);
  const held = memoFor(depsOf(ctx), snap.id);
  const priced = prices ? [prices.id, priceSecond(ctx.now)] : [];
  const memoKey = JSON.stringify([bound, includeRules, limit, after?.s ?? null, after?.e ?? null, today, ...priced]);
  const kept = held.memo.get(memoKey);
  if (kept) return { body: kept, headers: { 'cache-control': SPORTS_CACHE_CONTROL } };

  const shape: ShapeOptions = { includeSubmarkets, includeRules, policy };
  const all = listFiltered(snap, { league, scheduledDate, participant, includeSettled, today }, shape);
  let start = 0;
  if (after) {
    // Keyset paging: resume after the last event served, so a newer snapshot never repeats or skips
    // what the client already has.
    const probe = { sortMs: after.s, event: { event_id: after.e } } as SportsEntry;
    start = all.findIndex((x) => compareEntries(x.entry, probe) > 0);
    if (start === -1) start = all.length;
  }
  const page = all.slice(start, start + limit);
  const hasMore = start + limit < all.length;
  const pagination: { limit: number; total: number; has_more: boolean; next_cursor?: string } = { limit, total: all.length, has_more: hasMore };
  if (hasMore) {
    const last = page[page.length - 1].entry;
    pagination.next_cursor = encodeCursor(secret, { r: 'sports_list', f: bound, s: last.sortMs, e: last.event.event_id });
  }
  const events = page.map((x) => x.event);
  const data = prices ? await withPrices(ctx, prices, page) : events;
  const body = EncodedJson.of({ data, pagination, snapshot: snapshotBlock(snap) });
  // Unless a newer snapshot became current while the quotes were read: the memo is its now, and
  // the key does not name the snapshot.
  if (held.id === snap.id) held.memo.set(memoKey, body);
  return { body, headers: { 'cache-control': SPORTS_CACHE_CONTROL } };
};

const SPORTS_CACHE_CONTROL = 'private, no-cache';

/** One memo per sports deps (per app), holding the pages of one snapshot (`id`). */
const memos = new WeakMap<SportsDeps, { id: string; memo: EncodedMemo }>();
function memoFor(d: SportsDeps, snapshotId: string): { id: string; memo: EncodedMemo } {
  let m = memos.get(d);
  if (!m) memos.set(d, (m = { id: snapshotId, memo: new EncodedMemo() }));
  if (m.id !== snapshotId) {
    m.memo.clear();
    m.id = snapshotId;
  }
  return m;
}

// ---------------------------------------------------------------- lookup

const CANONICAL_EVENT_ID = /^(nba|wnba|nfl|mlb|nhl)-[a-z0-9]+(?:-[a-z0-9]+)*-\d{4}-\d{2}-\d{2}$/;
export const MAX_LOOKUP_IDS = 100;

const asList = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

type Parsed = { sent: string; param: 'event_id' | 'source_id'; norm: string };

function parseEventId(sent: string, snap: LoadedSnapshot | null, items: ErrorItem[]): Parsed | null {
  const v = sent.trim().toLowerCase();
  const err = (message: string) => {
    items.push({ param: 'event_id', value: sent, message });
    return null;
  };
  if (v.includes(',')) return err(`event_id takes one identifier per parameter (repeat event_id); got ${quote(sent)}`);
  const prefix = v.split(':')[0];
  if (v.includes(':') && (PROVIDERS as readonly string[]).includes(prefix)) {
    return err(`event_id ${quote(sent)} is a venue identifier; send it as source_id`);
  }
  if (!CANONICAL_EVENT_ID.test(v)) {
    return err(`event_id ${quote(sent)} is not a canonical event key (<league>-<away>-<home>-<YYYY-MM-DD>); send venue identifiers as source_id`);
  }
  // A venue_2 slug has the canonical shape but carries the UTC date of the start; when it names a
  // game whose canonical Eastern date differs, it is a venue identifier sent as event_id.
  if (snap && !snap.byEventId.has(v)) {
    const hits = snap.byLookupId.get(`venue_2:${v}`);
    if (hits && hits.some((h) => h.event.event_id !== v)) {
      return err(`event_id ${quote(sent)} is a venue_2 slug (dated in UTC), not a canonical event key; send it as source_id=venue_2:${v}`);
    }
  }
  return { sent, param: 'event_id', norm: v };
}

function parseSourceId(sent: string, items: ErrorItem[]): Parsed | null {
  const err = (message: string) => {
    items.push({ param: 'source_id', value: sent, message });
    return null;
  };
  if (sent.includes(',')) return err(`source_id takes one identifier per parameter (repeat source_id); got ${quote(sent)}`);
  const i = sent.indexOf(':');
  if (i === -1) return err(`source_id ${quote(sent)} has no provider prefix; send {provider}:{id}, e.g. venue_2:${sent.trim()}`);
  const provider = sent.slice(0, i).trim().toLowerCase();
  const id = sent.slice(i + 1).trim();
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    return err(`source_id ${quote(sent)} names provider ${quote(provider)}, which is not one of ${PROVIDERS.join(', ')}`);
  }
  if (id === '') return err(`source_id ${quote(sent)} has an empty id after the provider`);
  const lower = id.toLowerCase();
  // Each venue says which of its ids name no market on their own (its adapter).
  const adapter = adapterFor(provider);
  if (adapter.sideNames?.includes(lower)) {
    return err(`source_id ${quote(sent)} is a side name, which points to no market on its own; send the market id (${provider}:<market_id>)`);
  }
  const why = adapter.notLookupId?.(id);
  if (why) return err(`source_id ${quote(sent)}: ${why}`);
  return { sent, param: 'source_id', norm: `${provider}:${lower}` };
}

export const sportsLookup: RouteHandler = async (ctx) => {
  const t = ctx.typed;
  const items: ErrorItem[] = [];
  const includeSubmarkets = bool(t.include_submarkets, true);
  const includeSettled = bool(t.include_settled, false);
  const includeRules = bool(t.include_rules, false);
  const includePrices = bool(t.include_prices, false);
  const policy = policyOf(ctx, includeSubmarkets, items);
  const eventIds = asList(ctx.query.event_id);
  const sourceIds = asList(ctx.query.source_id);
  if (eventIds.length + sourceIds.length === 0) {
    throw new ApiError('missing_parameter', 'send at least one event_id or source_id', { param: 'event_id' });
  }
  const unique = new Set([...eventIds.map((e) => `e|${e}`), ...sourceIds.map((s) => `s|${s}`)]);
  if (unique.size > MAX_LOOKUP_IDS) {
    items.push({ param: 'source_id', value: unique.size, message: `at most ${MAX_LOOKUP_IDS} unique identifiers across event_id and source_id; got ${unique.size}` });
  }
  // The slug check needs the snapshot; a missing snapshot is reported after the 400 checks.
  const snap = await depsOf(ctx).reader.current();
  const parsed: Parsed[] = [];
  for (const e of eventIds) {
    if (e === '') items.push({ param: 'event_id', value: e, message: 'event_id must not be empty' });
    else {
      const p = parseEventId(e, snap, items);
      if (p) parsed.push(p);
    }
  }
  for (const s of sourceIds) {
    if (s === '') items.push({ param: 'source_id', value: s, message: 'source_id must not be empty' });
    else {
      const p = parseSourceId(s, items);
      if (p) parsed.push(p);
    }
  }
  if (items.length) throw apiErrorFromItems('invalid_parameter', items);
  if (!snap) throw new ApiError('service_unavailable', 'the first sports snapshot has not been published yet; retry shortly');

  const shape: ShapeOptions = { includeSubmarkets, includeRules, policy };
  const found = new Map<string, { entry: SportsEntry; event: MatchedEvent }>();
  const lookups: Record<string, { event_ids: string[] }> = {};
  const visible = (e: SportsEntry): MatchedEvent | null => {
    // "Past-dated or cancelled games are found only with include_settled=true".
    if (e.population === 'archived' && !includeSettled) return null;
    return shapeEvent(e, shape);
  };
  for (const p of parsed) {
    const hits = p.param === 'event_id' ? [snap.byEventId.get(p.norm)].filter((x): x is SportsEntry => !!x) : (snap.byLookupId.get(p.norm) ?? []);
    const ids: string[] = [];
    for (const h of hits) {
      const ev = visible(h);
      if (!ev) continue;
      ids.push(h.event.event_id);
      found.set(h.event.event_id, { entry: h, event: ev });
    }
    // "lookups lists every identifier as sent".
    const prev = lookups[p.sent]?.event_ids ?? [];
    lookups[p.sent] = { event_ids: [...new Set([...prev, ...ids])] };
  }
  const sorted = [...found.values()].sort((a, b) => compareEntries(a.entry, b.entry));
  const events = sorted.map((x) => x.event);
  const data = includePrices ? await withPrices(ctx, await pricesOf(ctx), sorted) : events;
  return { body: { data, lookups, snapshot: snapshotBlock(snap) } };
};
