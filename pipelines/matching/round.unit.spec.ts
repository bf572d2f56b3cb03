// Properties of the publish round (matchRound) over generated timelines: games listed across the
// nine venues, postponed by hours or days with venues that lag each other, cancelled, settled,
// delisted and re-listed, with restarts (the state read back through the lifecycle's persist and
// restore) and time moving on. After every round:
//  (a) a venue market is in at most one current event;
//  (b) a game never splits: the current events holding its markets are at most one, and it keeps
//      the event id it was first served under while it stays current;
//  (c) an event that reached the settled archive (or was removed) never returns to the current list.
// And the matching itself stays right: a current event never holds markets of two games (a
// doubleheader or a series of the same teams stays apart).
// The generated world is the test's ground truth; matchRound only sees the canonical markets the
// venues publish (teams, start or date, status), as in production.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { persist, restore } from './lifecycle.ts';
import { matchMarkets } from './match.ts';
import { emptyRoundState, matchRound, pairingOfMarket, restoredRoundState, roundEntries, type RoundState } from './round.ts';
import { easternDate } from './time.ts';
import type { League } from './teams.ts';
import type { CanonicalMarket, Provider } from './types.ts';

const H = 3600_000;
const D = 24 * H;
const T0 = Date.parse('2026-11-21T15:00:00Z');
const PROVIDERS: Provider[] = ['venue_1', 'venue_2', 'venue_3', 'venue_4', 'venue_5', 'venue_6', 'venue_7', 'venue_8', 'venue_9'];
const PAIRINGS: { league: League; away: string; home: string }[] = [
  { league: 'nba', away: 'lal', home: 'bos' },
  { league: 'nhl', away: 'tor', home: 'mtl' },
  { league: 'nfl', away: 'kc', home: 'buf' },
  { league: 'mlb', away: 'nyy', home: 'bos' },
];

/** A game as the test world knows it: its pairing, true start, and which venues list it. */
export interface GameDef {
  /**
   * Index into PAIRINGS. Games of one pairing (a series, a doubleheader) start at least 5 hours
   * apart, are never postponed onto each other, and list exact starts only: a date-only listing
   * without a game number is ambiguous to anyone on such a day.
   */
  pairing: number;
  /** Hours after T0. */
  startH: number;
  /** Venue indexes (into PROVIDERS) that list the game, and whether each lists only the date. */
  venues: { v: number; dateOnly: boolean }[];
}

export type Action =
  | { t: 'tick'; minutes: number }
  /** The game moves; the venues in `now` publish the new start at once, the others lag. */
  | { t: 'postpone'; g: number; hours: number; now: number[] }
  /** A lagging venue publishes the game's current start. */
  | { t: 'catchUp'; g: number; v: number }
  /** A venue settles its market on a result (only after the game's start). */
  | { t: 'settle'; g: number; v: number }
  /** A venue settles its market 50-50 (the game is cancelled). */
  | { t: 'cancel'; g: number; v: number }
  | { t: 'delist'; g: number; v: number }
  /** The venue lists the game again (at its current start), under a new market id or the old one. */
  | { t: 'relist'; g: number; v: number; newId: boolean }
  /**
   * A venue that lags a postponement lists the game again at its current start under a new market
   * id, while its old listing stays up at the old start (held) until a later delist; only once
   * another venue shows the new start under its old id.
   */
  | { t: 'relistMoved'; g: number; v: number }
  | { t: 'restart' };

interface VenueView {
  provider: Provider;
  marketId: string;
  dateOnly: boolean;
  start: number;
  listed: boolean;
  status: 'open' | 'settled';
  fifty: boolean;
  /** An old listing the venue keeps up after re-listing the game under a new id: it no longer moves. */
  held?: boolean;
}

interface Violation {
  round: number;
  rule: string;
  detail: string;
}

function market(g: GameDef, game: number, view: VenueView, now: number): CanonicalMarket {
  const p = PAIRINGS[g.pairing];
  return {
    provider: view.provider,
    league: p.league,
    away: p.away,
    home: p.home,
    scheduledDate: easternDate(view.start),
    scheduledStart: view.dateOnly ? null : view.start,
    marketType: 'moneyline',
    segment: 'full',
    inclOt: true,
    source: {
      provider: view.provider,
      event_id: `ev-${game}`,
      market_id: view.marketId,
      market_name: `${p.away} at ${p.home}`,
      outcomes: [
        { canonical_outcome_key: `winner:${p.away}`, label: p.away, outcome_id: `${view.marketId}-a` },
        { canonical_outcome_key: `winner:${p.home}`, label: p.home, outcome_id: `${view.marketId}-h` },
      ],
    },
    rules: {},
    lookupIds: [],
    status: view.status,
    settledFiftyFifty: view.fifty || undefined,
    observedAt: now,
  };
}

const sameish = (a: CanonicalMarket, b: CanonicalMarket) => JSON.stringify({ ...a, observedAt: 0 }) === JSON.stringify({ ...b, observedAt: 0 });

interface Served {
  id: string;
  date: string;
  markets: string[];
}

/** Runs a timeline through matchRound, one round after each action: the invariant breaks, and the current events at the end. */
function runTimeline(games: GameDef[], actions: Action[]): { violations: Violation[]; current: Served[] } {
  const out: Violation[] = [];
  let current: Served[] = [];
  let now = T0;
  let relisted = 0;
  const views = games.map((g, gi) =>
    g.venues.map(({ v, dateOnly }): VenueView => ({
      provider: PROVIDERS[v],
      marketId: `${PROVIDERS[v]}-g${gi}`,
      dateOnly,
      start: T0 + g.startH * H,
      listed: true,
      status: 'open',
      fifty: false,
    })),
  );
  const trueStart = games.map((g) => T0 + g.startH * H);
  const gameOfMarket = new Map<string, number>();
  const firstId = new Map<number, string>();
  const archived = new Set<string>();
  /** Venue markets some current event has served (relistMoved needs one at the game's new start). */
  const served = new Set<string>();
  let state: RoundState = emptyRoundState();
  let dirtyAll = true;
  let prev = new Map<string, CanonicalMarket>();
  const view = (g: number, v: number) => {
    const list = views[g % views.length];
    return list[v % list.length];
  };
  for (let round = 0; round <= actions.length; round++) {
    const a = actions[round - 1];
    if (a) {
      switch (a.t) {
        case 'tick':
          now += a.minutes * 60_000;
          break;
        case 'postpone': {
          const g = a.g % games.length;
          const to = trueStart[g] + a.hours * H;
          const near = (t: number) => Math.abs(t - to) < 4 * H;
          if (games.some((o, i) => i !== g && o.pairing === games[g].pairing && (near(trueStart[i]) || views[i].some((x) => near(x.start))))) break;
          trueStart[g] = to;
          for (const v of a.now) if (!view(g, v).held) view(g, v).start = trueStart[g];
          break;
        }
        case 'catchUp':
          if (!view(a.g, a.v).held) view(a.g, a.v).start = trueStart[a.g % games.length];
          break;
        case 'settle': {
          const x = view(a.g, a.v);
          if (now >= trueStart[a.g % games.length] + 3 * H) x.status = 'settled';
          break;
        }
        case 'cancel': {
          const x = view(a.g, a.v);
          x.status = 'settled';
          x.fifty = true;
          break;
        }
        case 'delist':
          view(a.g, a.v).listed = false;
          break;
        case 'relist': {
          const x = view(a.g, a.v);
          if (x.held) break;
          // Under a new id only beside another venue still listing the game under an id served
          // before: when every listing of a game is gone and each comes back under a new id, nothing
          // the venues publish ties it to the old event (it reads as the next game of the teams;
          // fast-check's seed -521748867: delisted everywhere, postponed two days, re-listed).
          const list = views[a.g % views.length];
          const linked = list.some((o) => o !== x && o.listed && served.has(`${o.provider}:${o.marketId}`));
          if (!x.listed && a.newId && !linked) break;
          if (!x.listed && a.newId) x.marketId = `${x.provider}-r${++relisted}`;
          x.listed = true;
          x.start = trueStart[a.g % games.length];
          break;
        }
        case 'relistMoved': {
          const list = views[a.g % views.length];
          const x = view(a.g, a.v);
          const start = trueStart[a.g % games.length];
          if (!x.listed || x.dateOnly || x.start === start || list.some((o) => o.provider === x.provider && o.start === start)) break;
          // Only beside another venue that already lists the game at its new start under an id served
          // before: a game every venue re-lists under new ids (new at the new start, or delisted and
          // listed again under a new id) while holding the old is, from what the venues publish, a
          // second game of the same teams (a doubleheader, or the next of a series). A date-only
          // listing names no start, so it is no such venue: beside one, two venues re-listing at a
          // later hour of the same day publish exactly a doubleheader (fast-check's seed 1656429125).
          if (!list.some((o) => o.provider !== x.provider && o.listed && !o.dateOnly && o.start === start && served.has(`${o.provider}:${o.marketId}`))) break;
          list.push({ ...x, marketId: `${x.provider}-m${++relisted}`, start, status: 'open', fifty: false });
          x.held = true;
          break;
        }
        case 'restart': {
          const snaps = new Map([...state.lifecycle].map(([id, s]) => [id, { json: persist(s), snapshot: restore(persist(s)) }]));
          state = restoredRoundState(snaps);
          dirtyAll = true;
          break;
        }
      }
    }
    const cur = new Map<string, CanonicalMarket>();
    views.forEach((list, gi) => {
      for (const x of list) {
        if (!x.listed) continue;
        const m = market(games[gi], gi, x, now);
        cur.set(`${x.provider}:${x.marketId}`, m);
        gameOfMarket.set(`${x.provider}:${x.marketId}`, gi);
      }
    });
    // What the processor marks dirty: the pairings of markets that appeared, changed or left.
    const dirty = new Set<string>();
    for (const [k, m] of cur) if (!prev.has(k) || !sameish(prev.get(k)!, m)) dirty.add(pairingOfMarket(m));
    for (const [k, m] of prev) if (!cur.has(k)) dirty.add(pairingOfMarket(m));
    prev = cur;
    const r = matchRound(state, { markets: cur.values(), dirty: dirtyAll ? 'all' : dirty, now });
    state = r.state;
    dirtyAll = false;

    const entries = roundEntries(state);
    const live = entries.filter((e) => e.population === 'current');
    current = live.map((e) => ({ id: e.event.event_id, date: e.event.scheduled_date, markets: e.event.submarkets.flatMap((sm) => sm.source_markets.map((x) => `${x.provider}:${x.market_id}`)) }));
    for (const e of entries) if (e.population !== 'current') archived.add(e.event.event_id);
    for (const [id, s] of state.lifecycle) if (s.value !== 'current') archived.add(id);
    for (const x of r.lifecycleOut) if (x.value === null) archived.add(x.key);
    // (a)
    const holder = new Map<string, string>();
    for (const e of live)
      for (const sm of e.event.submarkets)
        for (const src of sm.source_markets) {
          const k = `${src.provider}:${src.market_id}`;
          const h = holder.get(k);
          if (h !== undefined && h !== e.event.event_id) out.push({ round, rule: 'shared', detail: `${k} in ${h} and ${e.event.event_id}` });
          holder.set(k, e.event.event_id);
        }
    // (b)
    const eventsOfGame = new Map<number, Set<string>>();
    for (const k of holder.keys()) served.add(k);
    for (const [k, id] of holder) {
      const g = gameOfMarket.get(k)!;
      const set = eventsOfGame.get(g) ?? new Set();
      set.add(id);
      eventsOfGame.set(g, set);
    }
    const gamesOfEvent = new Map<string, Set<number>>();
    for (const [k, id] of holder) gamesOfEvent.set(id, (gamesOfEvent.get(id) ?? new Set()).add(gameOfMarket.get(k)!));
    for (const [id, gs] of gamesOfEvent) if (gs.size > 1) out.push({ round, rule: 'mixed', detail: `${id} holds games ${[...gs].join(', ')}` });
    for (const [g, ids] of eventsOfGame) {
      if (ids.size > 1) out.push({ round, rule: 'split', detail: `game ${g} split into ${[...ids].join(', ')}` });
      const first = firstId.get(g);
      if (first === undefined) firstId.set(g, [...ids][0]);
      else if (!ids.has(first) && !archived.has(first)) out.push({ round, rule: 'moved', detail: `game ${g} moved from ${first} to ${[...ids].join(', ')}` });
    }
    // (c)
    for (const e of live) if (archived.has(e.event.event_id)) out.push({ round, rule: 'revived', detail: `${e.event.event_id} is current again` });
  }
  return { violations: out, current };
}

const arbGames = fc
  .array(fc.nat(PAIRINGS.length - 1), { minLength: 1, maxLength: 3 })
  .chain((pairings) =>
    fc.tuple(
      ...pairings.map((pairing) =>
        fc.record({
          pairing: fc.constant(pairing),
          startH: fc.integer({ min: 1, max: 60 }),
          venues: fc.uniqueArray(fc.record({ v: fc.nat(8), dateOnly: fc.boolean() }), { minLength: 2, maxLength: 5, selector: (x) => x.v }),
        }),
      ),
    ),
  )
  .filter((gs) => gs.every((g, i) => gs.every((o, j) => j === i || o.pairing !== g.pairing || Math.abs(o.startH - g.startH) >= 5)))
  .map((gs) => gs.map((g) => (gs.filter((o) => o.pairing === g.pairing).length > 1 ? { ...g, venues: g.venues.map((x) => ({ ...x, dateOnly: false })) } : g)));

const arbAction: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('tick' as const), minutes: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 60, max: 36 * 60 })) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('postpone' as const),
      g: fc.nat(2),
      hours: fc.constantFrom(3, 5, 20, 24, 48, 72),
      now: fc.uniqueArray(fc.nat(4), { maxLength: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('catchUp' as const), g: fc.nat(2), v: fc.nat(4) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('settle' as const), g: fc.nat(2), v: fc.nat(4) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), g: fc.nat(2), v: fc.nat(4) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('delist' as const), g: fc.nat(2), v: fc.nat(4) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('relist' as const), g: fc.nat(2), v: fc.nat(4), newId: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('relistMoved' as const), g: fc.nat(2), v: fc.nat(4) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'restart' as const }) },
);

describe('matchRound over generated timelines', () => {
  it('keeps each venue market in one current event, never splits, renames or mixes games, never revives an archived event', () => {
    fc.assert(
      fc.property(arbGames, fc.array(arbAction, { minLength: 1, maxLength: 25 }), (games, actions) => {
        expect(runTimeline(games, actions).violations).toEqual([]);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

// The smallest timelines fast-check found, kept as they were shrunk (some keep a game that plays
// no part). Venue indexes: 0 = venue_1, 1 = venue_2, 2 = venue_3, 3 = venue_4.
describe('matchRound regressions', () => {
  it('a postponed game that had started was served twice, its frozen mapping beside the venues that moved (the measured failure)', () => {
    const r = runTimeline(
      [
        { pairing: 1, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }] },
        { pairing: 3, startH: 1, venues: [{ v: 1, dateOnly: false }, { v: 2, dateOnly: false }, { v: 0, dateOnly: false }] },
        { pairing: 2, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }] },
      ],
      [
        { t: 'tick', minutes: 60 },
        { t: 'postpone', g: 1, hours: 3, now: [] },
        { t: 'catchUp', g: 1, v: 0 },
        { t: 'catchUp', g: 1, v: 1 },
      ],
    );
    expect(r.violations).toEqual([]);
    expect(r.current.find((e) => e.id.startsWith('mlb-'))).toEqual({
      id: 'mlb-nyy-bos-2026-11-21',
      date: '2026-11-21',
      markets: ['venue_1:venue_1-g1', 'venue_2:venue_2-g1', 'venue_3:venue_3-g1'],
    });
  });

  it('the venues that moved a game first got a new event id while the others lagged', () => {
    const r = runTimeline(
      [{ pairing: 0, startH: 1, venues: [{ v: 1, dateOnly: false }, { v: 0, dateOnly: false }, { v: 2, dateOnly: false }] }],
      [
        { t: 'postpone', g: 0, hours: 3, now: [0] },
        { t: 'catchUp', g: 0, v: 1 },
        { t: 'tick', minutes: 1 },
      ],
    );
    expect(r.violations).toEqual([]);
    expect(r.current.map((e) => e.id)).toEqual(['nba-lal-bos-2026-11-21']);
  });

  it('two venues of four moving a game split it into two current events, also across a restart', () => {
    const r = runTimeline(
      [{ pairing: 0, startH: 1, venues: [0, 1, 2, 3].map((v) => ({ v, dateOnly: false })) }],
      [
        { t: 'postpone', g: 0, hours: 3, now: [] },
        { t: 'catchUp', g: 0, v: 0 },
        { t: 'catchUp', g: 0, v: 1 },
        { t: 'restart' },
      ],
    );
    expect(r.violations).toEqual([]);
    expect(r.current.map((e) => e.id)).toEqual(['nba-lal-bos-2026-11-21']);
  });

  it('a game moved while one venue was out of the listing for a crawl kept its id', () => {
    const r = runTimeline(
      [
        { pairing: 1, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }] },
        { pairing: 0, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }, { v: 2, dateOnly: false }] },
      ],
      [
        { t: 'postpone', g: 1, hours: 3, now: [1] },
        { t: 'relist', g: 1, v: 0, newId: false },
        { t: 'catchUp', g: 0, v: 0 },
      ],
    );
    expect(r.violations).toEqual([]);
  });

  it('date-only listings moved a day ahead while two timed venues sat hours apart on the old day became a second event', () => {
    const games: GameDef[] = [
      { pairing: 0, startH: 1, venues: [{ v: 1, dateOnly: true }, { v: 0, dateOnly: false }, { v: 2, dateOnly: true }, { v: 3, dateOnly: false }] },
      { pairing: 1, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }] },
    ];
    const split = runTimeline(games, [
      { t: 'postpone', g: 0, hours: 3, now: [3] },
      { t: 'postpone', g: 0, hours: 24, now: [0, 2] },
      { t: 'tick', minutes: 60 },
    ]);
    expect(split.violations).toEqual([]);
    // The same after the game's first start passed: its frozen mapping held the moved markets.
    const shared = runTimeline(games, [
      { t: 'tick', minutes: 60 },
      { t: 'postpone', g: 0, hours: 3, now: [3] },
      { t: 'postpone', g: 0, hours: 24, now: [0, 2] },
      { t: 'tick', minutes: 60 },
    ]);
    expect(shared.violations).toEqual([]);
    expect(shared.current.filter((e) => e.id.startsWith('nba-')).map((e) => e.id)).toEqual(['nba-lal-bos-2026-11-21']);
  });

  it('date-only listings moved three days while another venue moved hours split the game', () => {
    const r = runTimeline(
      [
        { pairing: 1, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }] },
        { pairing: 0, startH: 1, venues: [{ v: 2, dateOnly: false }, { v: 1, dateOnly: false }, { v: 0, dateOnly: true }, { v: 3, dateOnly: true }] },
        { pairing: 2, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }] },
      ],
      [
        { t: 'postpone', g: 1, hours: 3, now: [0] },
        { t: 'postpone', g: 1, hours: 72, now: [2, 3] },
        { t: 'tick', minutes: 60 },
      ],
    );
    expect(r.violations).toEqual([]);
  });

  it('a venue re-listing a game under a new id on its new day, beside a date-only venue that had moved it, became a second event', () => {
    const split = runTimeline(
      [{ pairing: 0, startH: 1, venues: [{ v: 1, dateOnly: false }, { v: 0, dateOnly: false }, { v: 2, dateOnly: true }, { v: 3, dateOnly: false }] }],
      [
        { t: 'delist', g: 0, v: 1 },
        { t: 'postpone', g: 0, hours: 24, now: [2] },
        { t: 'relist', g: 0, v: 1, newId: true },
        { t: 'delist', g: 0, v: 0 },
      ],
    );
    expect(split.violations).toEqual([]);
    const moved = runTimeline(
      [{ pairing: 0, startH: 1, venues: [{ v: 1, dateOnly: false }, { v: 0, dateOnly: false }, { v: 2, dateOnly: true }] }],
      [
        { t: 'delist', g: 0, v: 1 },
        { t: 'postpone', g: 0, hours: 24, now: [2] },
        { t: 'relist', g: 0, v: 1, newId: true },
        { t: 'delist', g: 0, v: 0 },
      ],
    );
    expect(moved.violations).toEqual([]);
    expect(moved.current.map((e) => e.id)).toEqual(['nba-lal-bos-2026-11-21']);
  });

  it('markets delisted and listed again after a postponement came back under a new event id', () => {
    const r = runTimeline(
      [{ pairing: 0, startH: 1, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }, { v: 2, dateOnly: false }] }],
      [
        { t: 'postpone', g: 0, hours: 3, now: [] },
        { t: 'delist', g: 0, v: 0 },
        { t: 'delist', g: 0, v: 1 },
        { t: 'relist', g: 0, v: 0, newId: false },
        { t: 'relist', g: 0, v: 4, newId: false },
        { t: 'tick', minutes: 60 },
      ],
    );
    expect(r.violations).toEqual([]);
    expect(r.current.map((e) => e.id)).toEqual(['nba-lal-bos-2026-11-21']);
  });
});

describe('matchRound regressions: a venue re-listing a postponed game under new ids while its old listing stays up', () => {
  it('the old listing, settled after the re-listed game was joined, split the game again and served two markets twice', () => {
    const r = runTimeline(
      [{ pairing: 1, startH: 1, venues: [{ v: 2, dateOnly: false }, { v: 0, dateOnly: false }, { v: 1, dateOnly: false }] }],
      [
        { t: 'tick', minutes: 420 },
        { t: 'postpone', g: 0, hours: 3, now: [] },
        { t: 'catchUp', g: 0, v: 1 },
        { t: 'relistMoved', g: 0, v: 0 },
        { t: 'settle', g: 0, v: 0 },
      ],
    );
    expect(r.violations).toEqual([]);
  });

  it('two venues re-listing one after the other split the game (each line new on a different side)', () => {
    const r = runTimeline(
      [
        { pairing: 2, startH: 6, venues: [{ v: 0, dateOnly: false }, { v: 1, dateOnly: false }, { v: 2, dateOnly: false }] },
        { pairing: 2, startH: 1, venues: [{ v: 1, dateOnly: false }, { v: 0, dateOnly: false }] },
      ],
      [
        { t: 'postpone', g: 0, hours: 3, now: [0] },
        { t: 'relistMoved', g: 0, v: 1 },
        { t: 'relistMoved', g: 0, v: 2 },
        { t: 'tick', minutes: 1 },
      ],
    );
    expect(r.violations).toEqual([]);
    // The re-listed game takes its new start; the first game of the day is left as it was.
    expect(r.current.map((e) => [e.id, e.markets])).toEqual([
      ['nfl-kc-buf-2026-11-21', ['venue_1:venue_1-g1', 'venue_2:venue_2-g1']],
      ['nfl-kc-buf-g2-2026-11-21', ['venue_1:venue_1-g0', 'venue_2:venue_2-m1', 'venue_3:venue_3-m2']],
    ]);
  });
});

describe('matchMarkets joins a postponement only through prior event ids', () => {
  const view = (provider: Provider, marketId: string, start: number): VenueView => ({ provider, marketId, dateOnly: false, start, listed: true, status: 'open', fifty: false });
  const game: GameDef = { pairing: 3, startH: 0, venues: [] };
  const g1 = Date.parse('2026-11-21T18:05:00Z');
  const g2 = g1 + 6 * H;

  it('keeps a doubleheader two games even when every market was published under one event', () => {
    const ms = [view('venue_1', 'a1', g1), view('venue_2', 'b1', g1), view('venue_1', 'a2', g2), view('venue_2', 'b2', g2)].map((v) => market(game, 0, v, T0));
    const prior = new Map(ms.map((m) => [`${m.provider}:${m.source.market_id}`, 'mlb-nyy-bos-2026-11-21']));
    expect(matchMarkets(ms, prior).map((r) => [r.event.event_id, r.marketIds])).toEqual([
      ['mlb-nyy-bos-2026-11-21', ['venue_1:a1', 'venue_2:b1']],
      ['mlb-nyy-bos-g2-2026-11-21', ['venue_1:a2', 'venue_2:b2']],
    ]);
  });

  it('joins a venue that re-listed a postponed game on its new day while its old listing is still up, and takes the new day', () => {
    const ms = [view('venue_1', 'old', g1), view('venue_2', 'b1', g1 + D), view('venue_1', 'new', g1 + D)].map((v) => market(game, 0, v, T0));
    // venue_1's old listing and venue_2 (which moved first) were served under the game's event.
    const prior = new Map([
      ['venue_1:old', 'mlb-nyy-bos-2026-11-21'],
      ['venue_2:b1', 'mlb-nyy-bos-2026-11-21'],
    ]);
    const out = matchMarkets(ms, prior);
    expect(out.map((r) => [r.event.event_id, r.event.scheduled_date, r.marketIds])).toEqual([
      ['mlb-nyy-bos-2026-11-21', '2026-11-22', ['venue_2:b1', 'venue_1:new']],
    ]);
  });

  it('never gives a new game an id a later game of the pairing was served under', () => {
    // One venue lists a game later on the old day; the game served as mlb-nyy-bos-2026-11-21 moved
    // a day. Matched first, the new listing took that id and the moved game got a new one.
    const ms = [view('venue_1', 'late', g1 + 3 * H), view('venue_1', 'a1', g1 + D), view('venue_2', 'b1', g1 + D)].map((v) => market(game, 0, v, T0));
    const prior = new Map([
      ['venue_1:a1', 'mlb-nyy-bos-2026-11-21'],
      ['venue_2:b1', 'mlb-nyy-bos-2026-11-21'],
    ]);
    expect(matchMarkets(ms, prior).map((r) => [r.event.event_id, r.marketIds])).toEqual([
      ['mlb-nyy-bos-g2-2026-11-21', ['venue_1:late']],
      ['mlb-nyy-bos-2026-11-21', ['venue_1:a1', 'venue_2:b1']],
    ]);
  });

  it('joins venues that disagree on the start after a postponement, and only with prior ids', () => {
    const ms = [view('venue_1', 'a1', g1), view('venue_2', 'b1', g1 + D), view('venue_3', 'c1', g1 + D)].map((v) => market(game, 0, v, T0));
    expect(matchMarkets(ms).map((r) => r.event.event_id)).toEqual(['mlb-nyy-bos-2026-11-21', 'mlb-nyy-bos-2026-11-22']);
    const prior = new Map(ms.map((m) => [`${m.provider}:${m.source.market_id}`, 'mlb-nyy-bos-2026-11-21']));
    const [one, ...rest] = matchMarkets(ms, prior);
    expect(rest).toEqual([]);
    // "when venues disagree the earliest exact start is published".
    expect([one.event.event_id, one.event.scheduled_start, one.marketIds]).toEqual(['mlb-nyy-bos-2026-11-21', new Date(g1).toISOString(), ['venue_1:a1', 'venue_2:b1', 'venue_3:c1']]);
  });
});
