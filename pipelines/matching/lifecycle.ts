// The "Sports event population lifecycle" as an XState v5 machine, used only through XState's
// pure `initialTransition` / `transition`: the processor stores each returned snapshot on the
// compacted `lifecycle.states` topic (so a restart resumes it) and runs the returned actions.
// In: OBSERVE (what this publish round matched for the event, with the venue signals) and TICK
// (the passage of time). Out: the state (current, archived = settled archive, removed), the event
// body to serve, and a `publish` or `remove` action.
import { assign, initialTransition, setup, transition, type SnapshotFrom } from 'xstate';
import type { EventRecord } from './match.ts';
import { addDays, easternMidnight } from './time.ts';
import type { MatchedEvent } from './types.ts';

/** "kept 30 days" / "Settled-archive retention: 30 days". */
export const ARCHIVE_RETENTION_MS = 30 * 86_400_000;

export interface LifecycleContext {
  eventId: string;
  league: string;
  scheduledDate: string;
  startMs: number | null;
  /** The body served: live before the start, the fullest one after (see OBSERVE). */
  body: MatchedEvent | null;
  strictPropKeys: string[];
  lookupIds: string[];
  /** Number of source markets in `body`, to keep the fullest mapping. */
  bodySize: number;
  firstSettledAt: number | null;
  archivedAt: number | null;
  archiveReason: string | null;
  /** Last round in which any venue still listed the game. */
  lastSeenAt: number;
  /** Venue markets of the game (so a postponed game keeps its event id). */
  marketIds: string[];
  /**
   * Venue markets the game had before and no longer has (delisted, or left out of a round while
   * venues disagreed): a market listed again comes back to this event rather than starting a new
   * one. Absent from snapshots written before it existed.
   */
  formerMarketIds?: string[];
  /** Before the start, no submarket is matched any more: not served as current. */
  liveEmpty: boolean;
}

export type LifecycleEvent =
  | { type: 'OBSERVE'; now: number; record: EventRecord }
  | { type: 'GONE'; now: number; claimed?: ReadonlySet<string> }
  | { type: 'TICK'; now: number };

export interface LifecycleInput {
  now: number;
  record: EventRecord;
}

function sizeOf(e: MatchedEvent): number {
  let n = 0;
  for (const s of e.submarkets) n += s.source_markets.length;
  return n;
}

/** "Settled-archive retention: 30 days" from the archiving. */
function retentionEnds(archivedAt: number): number {
  return archivedAt + ARCHIVE_RETENTION_MS;
}

/**
 * The first instant at which TICK can change this snapshot: the time rules' guards (graceOver,
 * retentionOver) read the same instants. A round skips TICK before it, so an idle round neither
 * runs a transition nor makes a new snapshot per event.
 */
export function nextTimeRule(s: LifecycleSnapshot): number {
  if (s.value === 'current') return graceEnds(s.context.scheduledDate);
  if (s.value === 'archived' && s.context.archivedAt !== null) return retentionEnds(s.context.archivedAt);
  return Number.POSITIVE_INFINITY;
}

/** "the game's date plus a one-day grace (Eastern) has passed". */
export function graceEnds(scheduledDate: string): number {
  return easternMidnight(addDays(scheduledDate, 2));
}

function formerIds(ctx: LifecycleContext, now: string[]): string[] {
  const listed = new Set(now);
  const out = (ctx.formerMarketIds ?? []).filter((k) => !listed.has(k));
  for (const k of ctx.marketIds) if (!listed.has(k) && !out.includes(k)) out.push(k);
  return out;
}

function observe(ctx: LifecycleContext, now: number, r: EventRecord): Partial<LifecycleContext> {
  const started = r.startMs !== null ? now >= r.startMs : false;
  const settledNow = r.signals.settledProviders.length > 0;
  const next: Partial<LifecycleContext> = {
    // "a postponed game takes its new day" (the matcher never publishes an earlier day).
    scheduledDate: r.event.scheduled_date,
    startMs: r.startMs,
    lastSeenAt: now,
    marketIds: r.marketIds,
    formerMarketIds: formerIds(ctx, r.marketIds),
  };
  if (settledNow && ctx.firstSettledAt === null) next.firstSettledAt = now;
  const size = sizeOf(r.event);
  // "A game that has started is served with the fullest venue mapping it had before its first
  // venue settled": before the start the live mapping is served; after it, a smaller mapping
  // never replaces a fuller one, and nothing replaces it once a venue has settled.
  const frozen = ctx.firstSettledAt !== null || settledNow;
  next.liveEmpty = !started && size === 0;
  if (!frozen && (size > 0 || ctx.body === null) && (!started || ctx.body === null || size >= ctx.bodySize)) {
    next.body = r.event;
    next.bodySize = size;
    next.strictPropKeys = r.strictPropKeys;
    next.lookupIds = r.lookupIds;
  } else if (ctx.body !== null) {
    // Keep the frozen mapping, but schedule identity still follows the venues.
    next.body = { ...ctx.body, scheduled_date: r.event.scheduled_date, scheduled_start: r.event.scheduled_start };
    next.lookupIds = [...new Set([...ctx.lookupIds, ...r.lookupIds])];
  }
  return next;
}

/** The context without the markets another event holds now (nothing changes when none are). */
function release(ctx: LifecycleContext, claimed: ReadonlySet<string> | undefined): Partial<LifecycleContext> {
  if (!claimed?.size || !ctx.marketIds.some((k) => claimed.has(k))) return {};
  const keep = (m: { provider: string; market_id: string }) => !claimed.has(`${m.provider}:${m.market_id}`);
  const body = ctx.body
    ? { ...ctx.body, submarkets: ctx.body.submarkets.map((s) => ({ ...s, source_markets: s.source_markets.filter(keep) })).filter((s) => s.source_markets.length > 0) }
    : null;
  const gone = new Set(ctx.marketIds.filter((k) => claimed.has(k)).map((k) => k.toLowerCase()));
  return {
    body,
    bodySize: body ? sizeOf(body) : 0,
    marketIds: ctx.marketIds.filter((k) => !claimed.has(k)),
    lookupIds: ctx.lookupIds.filter((k) => !gone.has(k.toLowerCase())),
    liveEmpty: !body || body.submarkets.length === 0 || ctx.liveEmpty,
  };
}

export const lifecycleMachine = setup({
  types: {
    context: {} as LifecycleContext,
    events: {} as LifecycleEvent,
    input: {} as LifecycleInput,
  },
  actions: {
    publish: () => {},
    remove: () => {},
  },
  guards: {
    /** A venue's settlement says the game was cancelled with no make-up (venue_2's 50-50 moneyline, not in the nfl: matching/match.ts signals). */
    cancelled: ({ event }) => event.type === 'OBSERVE' && event.record.signals.cancelled,
    /** "the venues have settled or delisted it": nothing is open any more and a venue settled. */
    allSettled: ({ event }) =>
      event.type === 'OBSERVE' && event.record.signals.openMarkets === 0 && event.record.signals.settledProviders.length > 0,
    started: ({ context, event }) =>
      'now' in event && event.now >= (context.startMs ?? easternMidnight(context.scheduledDate)),
    graceOver: ({ context, event }) => 'now' in event && event.now >= graceEnds(context.scheduledDate),
    retentionOver: ({ context, event }) => 'now' in event && context.archivedAt !== null && event.now >= retentionEnds(context.archivedAt),
  },
}).createMachine({
  id: 'sportsEventPopulation',
  initial: 'current',
  context: ({ input }) => ({
    eventId: input.record.event.event_id,
    league: input.record.event.league,
    scheduledDate: input.record.event.scheduled_date,
    startMs: input.record.startMs,
    body: input.record.event,
    strictPropKeys: input.record.strictPropKeys,
    lookupIds: input.record.lookupIds,
    bodySize: sizeOf(input.record.event),
    firstSettledAt: input.record.signals.settledProviders.length ? input.now : null,
    archivedAt: null,
    archiveReason: null,
    lastSeenAt: input.now,
    marketIds: input.record.marketIds,
    liveEmpty: false,
  }),
  states: {
    current: {
      entry: 'publish',
      on: {
        OBSERVE: [
          {
            guard: 'cancelled',
            target: 'archived',
            actions: assign(({ context, event }) => ({
              ...observe(context, event.now, event.record),
              archivedAt: event.now,
              archiveReason: 'cancelled: venue_2 settled the moneyline 50-50',
            })),
          },
          {
            guard: 'allSettled',
            target: 'archived',
            actions: assign(({ context, event }) => ({
              ...observe(context, event.now, event.record),
              archivedAt: event.now,
              archiveReason: 'settled by the venues',
            })),
          },
          { actions: [assign(({ context, event }) => observe(context, event.now, event.record)), 'publish'] },
        ],
        GONE: [
          {
            // Every venue delisted the game after it began. Before that it stays listed until its
            // date passes ("A cancelled game that never had a venue_2 market stays listed").
            guard: 'started',
            target: 'archived',
            actions: assign(({ event }) => ({ archivedAt: event.now, archiveReason: 'delisted by the venues' })),
          },
          {
            // Still listed, but its markets now belong to another event of this round (the game was
            // split for a while, e.g. venues lagging a postponement, and is one again): they leave
            // this one, so a venue market is never served by two current events.
            actions: assign(({ context, event }) => release(context, event.claimed)),
          },
        ],
        TICK: {
          guard: 'graceOver',
          target: 'archived',
          actions: assign(({ event }) => ({ archivedAt: event.now, archiveReason: 'date plus one-day grace passed' })),
        },
      },
    },
    archived: {
      entry: 'publish',
      on: {
        // The archived mapping no longer changes; only schedule identity is not revisited either.
        TICK: { guard: 'retentionOver', target: 'removed' },
        GONE: { guard: 'retentionOver', target: 'removed' },
        OBSERVE: { guard: 'retentionOver', target: 'removed' },
      },
    },
    removed: { type: 'final', entry: 'remove' },
  },
});

export type LifecycleSnapshot = SnapshotFrom<typeof lifecycleMachine>;
export type LifecycleState = 'current' | 'archived' | 'removed';

export interface Step {
  snapshot: LifecycleSnapshot;
  state: LifecycleState;
  actions: string[];
}

function step(pair: [LifecycleSnapshot, { type: string }[]]): Step {
  const [snapshot, actions] = pair;
  return { snapshot, state: snapshot.value as LifecycleState, actions: actions.map((a) => a.type) };
}

export function startLifecycle(input: LifecycleInput): Step {
  return step(initialTransition(lifecycleMachine, input) as [LifecycleSnapshot, { type: string }[]]);
}

export function advance(snapshot: LifecycleSnapshot, event: LifecycleEvent): Step {
  return step(transition(lifecycleMachine, snapshot, event) as [LifecycleSnapshot, { type: string }[]]);
}

const bodies = new WeakMap<MatchedEvent, string>();
const BODY_SLOT = '\u0000body';

/**
 * JSON of a served body, made once per body object (bodies are never changed in place: a round
 * makes new ones). The lifecycle snapshot, the served entry and the matched.events record each
 * embed the same body; serializing it three times was most of a round's own time.
 */
export function bodyJson(b: MatchedEvent): string {
  let json = bodies.get(b);
  if (json === undefined) bodies.set(b, (json = JSON.stringify(b)));
  return json;
}

/** JSON.stringify(o), with `o[key]` (a body) written from bodyJson: the same text, made faster. */
export function stringifyWithBody<T extends object>(o: T, key: keyof T & string): string {
  const b = o[key] as MatchedEvent | null | undefined;
  if (!b) return JSON.stringify(o);
  const slot = `"${key}":${JSON.stringify(BODY_SLOT)}`;
  // A function replacement: the body's text may hold `$` patterns a string replacement would expand.
  return JSON.stringify({ ...o, [key]: BODY_SLOT }).replace(slot, () => `"${key}":${bodyJson(b)}`);
}

/** What goes on the compacted topic. */
export function persist(s: LifecycleSnapshot): string {
  return `{"value":${JSON.stringify(s.value)},"context":${stringifyWithBody(s.context, 'body')}}`;
}

/** Rebuilds a snapshot read back from the topic. */
export function restore(json: string): LifecycleSnapshot {
  const { value, context } = JSON.parse(json) as { value: LifecycleState; context: LifecycleContext };
  return lifecycleMachine.resolveState({ value, context });
}
