// Match: canonical markets of all venues -> matched sports events. Pure.
// In: every current canonical market (one per venue market) and the event ids already given to
// venue markets (so a postponed game keeps its `event_id` while `scheduled_date` moves). Out: one
// EventRecord per real-world game: the published "Matched sports event" with its submarkets, plus
// what the lifecycle and the lookup route need (venue signals, identifiers).
//
// Grouping: league + both teams, then by exact start (a doubleheader's games are hours apart),
// then date-only listings join the one game of their Eastern day (or the game their venue numbers).
// A submarket appears only when at least two venues list it ("Submarket").
import { adapterFor } from '../venues/adapters/index.ts';
import { ruleMatrix } from './rules.ts';
import { SPORT_OF, teamByKey, type League } from './teams.ts';
import { easternDate, isoMs } from './time.ts';
import type {
  CanonicalMarket,
  CanonicalOutcome,
  MarketType,
  MatchedEvent,
  Provider,
  Segment,
  SourceMarket,
  Submarket,
} from './types.ts';

/** Two exact starts further apart than this are different games (doubleheaders). */
export const SAME_GAME_WINDOW_MS = 2 * 3600_000;

export interface EventSignals {
  /** Providers with at least one market settled on a result (void and 50-50 excluded). */
  settledProviders: Provider[];
  /** A venue's settlement says the game was cancelled with no make-up (its adapter's cancelsGame: venue_2's 50-50 moneyline). */
  cancelled: boolean;
  /** Markets still open on any venue. */
  openMarkets: number;
}

export interface EventRecord {
  event: MatchedEvent;
  /** Prop submarket keys the `strict` policy admits (every other prop is `same_prop` only). */
  strictPropKeys: string[];
  /** Lower-case `provider:id` forms that find this event on the lookup route. */
  lookupIds: string[];
  /** Venue market identities (`provider:market_id`) in this game, matched or not. */
  marketIds: string[];
  startMs: number | null;
  signals: EventSignals;
}

const SEGMENT_ORDER: Segment[] = ['full', 'half:1', 'half:2', 'quarter:1', 'quarter:2', 'quarter:3', 'quarter:4'];
const TYPE_ORDER: MarketType[] = ['moneyline', 'spread', 'total', 'team_total', 'player_prop'];
const PROVIDER_ORDER = (p: string) => Number(p.slice(6));

export const marketIdentity = (m: CanonicalMarket) => `${m.provider}:${m.source.market_id}`;

export function formatLine(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** "Submarket" key: `<market_type>|<segment>|<detail>[|<abs_line>]`. */
export function submarketKey(m: CanonicalMarket): string {
  // "a second-half or fourth-quarter line whose venues count overtime ends its detail part with
  // :incl_ot"; a team total names its team and carries :incl_ot when overtime counts.
  const otSuffix = m.inclOt && (m.segment === 'half:2' || m.segment === 'quarter:4' || m.marketType === 'team_total') ? ':incl_ot' : '';
  const abs = m.line === undefined ? undefined : formatLine(Math.abs(m.line));
  switch (m.marketType) {
    case 'moneyline':
      return `moneyline|${m.segment}|winner${otSuffix}`;
    case 'spread':
      return `spread|${m.segment}|spread:${m.subject?.key}${otSuffix}|${abs}`;
    case 'total':
      return `total|${m.segment}|total${otSuffix}|${abs}`;
    case 'team_total':
      return `team_total|${m.segment}|team_total:${m.subject?.key}${otSuffix}|${abs}`;
    case 'player_prop':
      return `player_prop|${m.segment}|${m.subject?.key}:${m.stat}|${abs}`;
  }
}

function metricOf(m: CanonicalMarket): string {
  if (m.marketType === 'moneyline') return 'winner';
  if (m.marketType === 'player_prop') return m.stat ?? 'stat';
  return 'points';
}

const SEGMENT_NAMES: Record<Segment, string> = {
  full: 'Full game',
  'half:1': '1st half',
  'half:2': '2nd half',
  'quarter:1': '1st quarter',
  'quarter:2': '2nd quarter',
  'quarter:3': '3rd quarter',
  'quarter:4': '4th quarter',
};

function canonicalOutcomes(m: CanonicalMarket, awayName: string, homeName: string, away: string, home: string): CanonicalOutcome[] {
  switch (m.marketType) {
    case 'moneyline':
      return [
        { key: `winner:${away}`, label: awayName, type: 'participant', side: 'win' },
        { key: `winner:${home}`, label: homeName, type: 'participant', side: 'win' },
      ];
    case 'spread': {
      const s = m.subject!;
      const other = s.key === away ? homeName : awayName;
      const line = m.line ?? 0;
      const signed = (n: number) => (n > 0 ? `+${formatLine(n)}` : formatLine(n));
      return [
        { key: `cover:${s.key}`, label: `${s.name} ${signed(line)}`, type: 'participant', side: 'cover' },
        { key: `not_cover:${s.key}`, label: `${other} ${signed(-line)}`, type: 'participant', side: 'not_cover' },
      ];
    }
    default:
      return [
        { key: 'over', label: `Over ${formatLine(m.line ?? 0)}`, type: 'total', side: 'over' },
        { key: 'under', label: `Under ${formatLine(m.line ?? 0)}`, type: 'total', side: 'under' },
      ];
  }
}

function displayName(m: CanonicalMarket): string {
  const seg = SEGMENT_NAMES[m.segment];
  const l = m.line === undefined ? '' : formatLine(Math.abs(m.line));
  switch (m.marketType) {
    case 'moneyline':
      return `${seg} winner`;
    case 'spread':
      return `${seg} spread: ${m.subject?.name} ${formatLine(m.line ?? 0)}`;
    case 'total':
      return `${seg} total ${l}`;
    case 'team_total':
      return `${seg} ${m.subject?.name} team total ${l}`;
    case 'player_prop':
      return `${m.subject?.name} ${(m.stat ?? '').replace(/_/g, ' ')} ${l}`;
  }
}

function sortSourceMarkets(a: SourceMarket, b: SourceMarket): number {
  return PROVIDER_ORDER(a.provider) - PROVIDER_ORDER(b.provider) || (a.market_id < b.market_id ? -1 : a.market_id > b.market_id ? 1 : 0);
}

function submarketOrder(a: Submarket, b: Submarket): number {
  return (
    SEGMENT_ORDER.indexOf(a.segment) - SEGMENT_ORDER.indexOf(b.segment) ||
    TYPE_ORDER.indexOf(a.market_type) - TYPE_ORDER.indexOf(b.market_type) ||
    (a.subject?.key ?? '').localeCompare(b.subject?.key ?? '') ||
    Math.abs(a.line ?? 0) - Math.abs(b.line ?? 0) ||
    a.key.localeCompare(b.key)
  );
}

interface Cluster {
  league: League;
  away: string;
  home: string;
  markets: CanonicalMarket[];
  date: string;
  startMs: number | null;
  /** Eastern days of the exact starts (more than one when a postponement was joined in). */
  days: string[];
  /** The prior event id most of its markets had (set by joinPostponed). */
  top?: string;
  /** A venue re-listed the game on another day while its old listing was still up (set by joinPostponed). */
  relisted?: boolean;
}

/** Split one pairing's markets into games. */
/** The prior event id of each market of one pairing (only ids of that pairing). */
type PriorOf = ReadonlyMap<CanonicalMarket, string> & { held: ReadonlySet<CanonicalMarket> };

function clusterGames(markets: CanonicalMarket[], prior: PriorOf): Cluster[] {
  const { league, away, home } = markets[0];
  const exact = markets.filter((m) => m.scheduledStart !== null).sort((a, b) => a.scheduledStart! - b.scheduledStart!);
  const clusters: Cluster[] = [];
  for (const m of exact) {
    const last = clusters[clusters.length - 1];
    if (last && m.scheduledStart! - last.startMs! <= SAME_GAME_WINDOW_MS) last.markets.push(m);
    else {
      const date = easternDate(m.scheduledStart!);
      clusters.push({ league, away, home, markets: [m], startMs: m.scheduledStart!, date, days: [date] });
    }
  }
  // Joined before the date-only listings are placed: a game the lag shows twice on one day is not
  // a doubleheader.
  const timed = joinPostponed(clusters, prior);
  const dateOnly = markets.filter((m) => m.scheduledStart === null);
  const byDate = new Map<string, CanonicalMarket[]>();
  for (const m of dateOnly) {
    const list = byDate.get(m.scheduledDate) ?? [];
    list.push(m);
    byDate.set(m.scheduledDate, list);
  }
  for (const [date, list] of byDate) {
    const sameDay = timed.filter((c) => c.days.includes(date));
    if (sameDay.length === 1) {
      // A numbered listing of game 2 cannot be the day's only timed game... unless that game is
      // game 2 of a doubleheader whose game 1 is untimed; keep numbered listings with their number.
      for (const m of list) if ((m.gameNumber ?? 1) === 1 || sameDay[0].markets.some((x) => x.gameNumber === m.gameNumber)) sameDay[0].markets.push(m);
      continue;
    }
    if (sameDay.length > 1) {
      // Doubleheader: only the venue's own game number places a date-only listing, or the game
      // the same venue market was published with before.
      for (const m of list) {
        if (m.gameNumber !== undefined && sameDay[m.gameNumber - 1]) sameDay[m.gameNumber - 1].markets.push(m);
        else if (m.gameNumber === undefined && prior.size) {
          const id = prior.get(m);
          sameDay.find((c) => id !== undefined && c.top === id)?.markets.push(m);
        }
      }
      continue;
    }
    const numbers = new Set(list.map((m) => m.gameNumber ?? 1));
    const anyNumbered = list.some((m) => m.gameNumber !== undefined && m.gameNumber > 1);
    for (const n of [...numbers].sort()) {
      const members = list.filter((m) => (m.gameNumber ?? 1) === n && (m.gameNumber !== undefined || !anyNumbered));
      if (members.length) timed.push({ league, away, home, markets: members, startMs: null, date, days: [] });
    }
  }
  // Again once the date-only listings are placed: a date-only cluster of a game whose other venues
  // moved it to another day, or a timed cluster that only its date-only listings tie to the game.
  return joinPostponed(timed, prior);
}

/**
 * Group canonical markets into games and build each game's published event.
 * `prior` maps a venue market identity to the event id it was published under before.
 */
/** Venue market identity -> the event id it was served under; `held`: those an event holds now (absent: all). */
export type PriorIds = Map<string, string> & { held?: Set<string> };

export function matchMarkets(markets: Iterable<CanonicalMarket>, prior: ReadonlyMap<string, string> & { held?: ReadonlySet<string> } = new Map()): EventRecord[] {
  const pairings = new Map<string, CanonicalMarket[]>();
  for (const m of markets) {
    const k = `${m.league}-${m.away}-${m.home}`;
    const list = pairings.get(k);
    if (list) list.push(m);
    else pairings.set(k, [m]);
  }
  const out: EventRecord[] = [];
  const usedIds = new Set<string>();
  for (const [prefix, list] of pairings) {
    const priorOf = Object.assign(new Map<CanonicalMarket, string>(), { held: new Set<CanonicalMarket>() });
    if (prior.size)
      for (const m of list) {
        const k = marketIdentity(m);
        const id = prior.get(k);
        if (id && id.startsWith(`${prefix}-`)) {
          priorOf.set(m, id);
          if (!prior.held || prior.held.has(k)) priorOf.held.add(m);
        }
      }
    const clusters = clusterGames(list, priorOf);
    const dayCount = new Map<string, number>();
    // A new id never takes one this pairing's markets were served under: a game listed fresh by one
    // venue, matched before the cluster that holds that id, would take it and move that game.
    const reserved = new Set(priorOf.values());
    for (const c of clusters) {
      const eventId = pickEventId(prefix, c, priorOf, usedIds, dayCount, reserved);
      usedIds.add(eventId);
      out.push(buildEvent(eventId, c));
    }
  }
  return out;
}

/** The prior event id most of a cluster's markets were published under (ties: the smaller id). */
function topPrior(c: Cluster, prior: PriorOf): string | undefined {
  const votes = new Map<string, number>();
  for (const m of c.markets) {
    const id = prior.get(m);
    if (id) votes.set(id, (votes.get(id) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [id, n] of votes) if (best === undefined || n > votes.get(best)! || (n === votes.get(best)! && id < best)) best = id;
  return best;
}

/**
 * A postponement reaches the venues one crawl at a time: while some list the new start and others
 * still the old one, the game's markets fall into two clusters (starts hours or days apart), both
 * mostly published before under the same event. They are one game: left apart, the cluster read
 * first keeps the event id and the other becomes a second current event of the same game under a
 * new id, until the lagging venues catch up (or indefinitely, when the old event never started).
 * A doubleheader's two games are told apart by a venue listing the same line in both clusters (one
 * venue never lists a game's line twice), and those are not joined on one day. But the same line
 * twice on different days, or on one day where one side's copies are new listings (no prior id)
 * beside a cluster the rest of the game was served under, is a venue that re-listed the moved game
 * under new ids while its old listing is still up (held, or not yet gone from the crawl): the game
 * is joined, and the venue's earlier listing is superseded by its own later one (left out, so the
 * game takes its new start and day).
 */
function joinPostponed(clusters: Cluster[], prior: PriorOf): Cluster[] {
  if (clusters.length < 2 || prior.size === 0) return clusters;
  const out: Cluster[] = [];
  const byPrior = new Map<string, Cluster>();
  for (const c of clusters) {
    const id = topPrior(c, prior);
    const into = id === undefined ? undefined : byPrior.get(id);
    const relisted = into !== undefined && sharesVenueLine(into, c);
    if (into && (!relisted || !sharesDay(into, c) || newListings(into, c, prior))) {
      if (relisted) into.relisted = true;
      into.markets.push(...c.markets);
      if (c.startMs !== null && (into.startMs === null || c.startMs < into.startMs)) into.startMs = c.startMs;
      if (c.date < into.date) into.date = c.date;
      for (const d of c.days) if (!into.days.includes(d)) into.days.push(d);
      continue;
    }
    const copy = { ...c, markets: [...c.markets], days: [...c.days], top: id };
    out.push(copy);
    if (id !== undefined && !byPrior.has(id)) byPrior.set(id, copy);
  }
  for (const c of out) if (c.relisted) dropSuperseded(c);
  return out;
}

/**
 * Each venue line that both clusters list has, on one side, only listings no event holds now (new
 * ones, or the venue's old listing that an earlier round already left out as superseded). A
 * doubleheader served for a while as one event holds both games' listings and is never joined.
 */
function newListings(a: Cluster, b: Cluster, prior: PriorOf): boolean {
  const linesOf = (c: Cluster) => {
    const map = new Map<string, CanonicalMarket[]>();
    for (const m of c.markets) {
      const k = `${m.provider}|${submarketKey(m)}`;
      map.set(k, [...(map.get(k) ?? []), m]);
    }
    return map;
  };
  const la = linesOf(a);
  const lb = linesOf(b);
  const fresh = (ms: CanonicalMarket[]) => ms.every((m) => !prior.held.has(m));
  const shared = [...lb.keys()].filter((k) => la.has(k));
  return shared.every((k) => fresh(lb.get(k)!) || fresh(la.get(k)!));
}

/** A listing's place in time: its day, then its exact start (a date-only listing sorts first on its day). */
const whenOf = (m: CanonicalMarket): string => `${dayOf(m)}|${m.scheduledStart === null ? '' : String(m.scheduledStart).padStart(15, '0')}`;
const dayOf = (m: CanonicalMarket): string => (m.scheduledStart !== null ? easternDate(m.scheduledStart) : m.scheduledDate);
const daysOf = (c: Cluster): string[] => (c.days.length ? c.days : [c.date]);
const sharesDay = (a: Cluster, b: Cluster): boolean => daysOf(a).some((d) => daysOf(b).includes(d));

/** Keeps each venue line's latest listing; the cluster's schedule is read again from what is left. */
function dropSuperseded(c: Cluster): void {
  const latest = new Map<string, string>();
  for (const m of c.markets) {
    const k = `${m.provider}|${submarketKey(m)}`;
    const w = whenOf(m);
    if ((latest.get(k) ?? '') < w) latest.set(k, w);
  }
  c.markets = c.markets.filter((m) => whenOf(m) === latest.get(`${m.provider}|${submarketKey(m)}`));
  const starts = c.markets.map((m) => m.scheduledStart).filter((s): s is number => s !== null);
  c.startMs = starts.length ? Math.min(...starts) : null;
  c.days = [...new Set(starts.map(easternDate))];
  c.date = c.markets.map(dayOf).sort()[0] ?? c.date;
}

function sharesVenueLine(a: Cluster, b: Cluster): boolean {
  const lines = new Set(a.markets.map((m) => `${m.provider}|${submarketKey(m)}`));
  return b.markets.some((m) => lines.has(`${m.provider}|${submarketKey(m)}`));
}

function pickEventId(prefix: string, c: Cluster, prior: PriorOf, used: Set<string>, dayCount: Map<string, number>, reserved: ReadonlySet<string>): string {
  // A postponed game keeps the id it was first published under ("scheduled_date ... never earlier
  // than the date the event_id ends in; a postponed game takes its new day").
  const votes = new Map<string, number>();
  for (const m of c.markets) {
    const id = prior.get(m);
    if (id && !used.has(id) && id.slice(-10) <= c.date) votes.set(id, (votes.get(id) ?? 0) + 1);
  }
  if (votes.size) return [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
  const n = (dayCount.get(c.date) ?? 0) + 1;
  dayCount.set(c.date, n);
  // Choice where the spec is silent: a doubleheader's second game carries `-g2` before the date,
  // so the id still starts with the league and ends in the date.
  let id = n === 1 ? `${prefix}-${c.date}` : `${prefix}-g${n}-${c.date}`;
  while (used.has(id) || reserved.has(id)) {
    const k = dayCount.get(c.date)! + 1;
    dayCount.set(c.date, k);
    id = `${prefix}-g${k}-${c.date}`;
  }
  return id;
}

function buildEvent(eventId: string, c: Cluster): EventRecord {
  const awayTeam = teamByKey(c.league, c.away);
  const homeTeam = teamByKey(c.league, c.home);
  const awayName = awayTeam?.name ?? c.away.toUpperCase();
  const homeName = homeTeam?.name ?? c.home.toUpperCase();

  const groups = new Map<string, CanonicalMarket[]>();
  for (const m of c.markets) {
    const k = submarketKey(m);
    const g = groups.get(k);
    if (g) g.push(m);
    else groups.set(k, [m]);
  }
  const submarkets: Submarket[] = [];
  const strictPropKeys: string[] = [];
  const lookupIds = new Set<string>();
  for (const [key, ms] of groups) {
    // "at least two venues list any submarket that appears".
    if (new Set(ms.map((m) => m.provider)).size < 2) continue;
    const first = ms[0];
    const outcomes = canonicalOutcomes(first, awayName, homeName, c.away, c.home);
    const order = new Map(outcomes.map((o, i) => [o.key, i]));
    const sources = ms
      .map((m) => ({
        ...m.source,
        outcomes: [...m.source.outcomes].sort(
          (a, b) => (order.get(a.canonical_outcome_key) ?? 9) - (order.get(b.canonical_outcome_key) ?? 9) || (a.side === 'yes' ? -1 : 1),
        ),
      }))
      .sort(sortSourceMarkets);
    const { rows, verdict } = ruleMatrix([...ms].sort((a, b) => sortSourceMarkets(a.source, b.source)));
    const sm: Submarket = {
      key,
      market_type: first.marketType,
      segment: first.segment,
      display_name: displayName(first),
      metric: metricOf(first),
      outcomes,
      source_markets: sources,
      settlement_equivalence: verdict,
      rule_comparisons: rows,
    };
    if (first.line !== undefined && first.marketType !== 'moneyline') sm.line = first.line;
    if (first.subject && first.marketType !== 'moneyline' && first.marketType !== 'total') sm.subject = first.subject;
    if (first.inclOt && key.includes(':incl_ot')) sm.rules = { settlement: 'incl_ot' };
    // Key order of the published object: line and subject before outcomes reads better.
    submarkets.push(reorder(sm));
    if (first.marketType === 'player_prop' && ms.every((m) => m.propVerified) && verdict === 'equivalent') strictPropKeys.push(key);
    for (const m of ms) {
      const p = m.provider;
      lookupIds.add(`${p}:${m.source.market_id}`.toLowerCase());
      lookupIds.add(`${p}:${m.source.event_id}`.toLowerCase());
      if (m.source.market_slug) lookupIds.add(`${p}:${m.source.market_slug}`.toLowerCase());
      for (const id of m.lookupIds) lookupIds.add(`${p}:${id}`.toLowerCase());
    }
  }
  submarkets.sort(submarketOrder);

  const starts = c.markets.map((m) => m.scheduledStart).filter((s): s is number => s !== null);
  // "when venues disagree the earliest exact start is published".
  const startMs = starts.length ? Math.min(...starts) : null;
  const idDate = eventId.slice(-10);
  let date = startMs !== null ? easternDate(startMs) : c.date;
  if (date < idDate) date = idDate;

  const settled = new Set<Provider>();
  let cancelled = false;
  let openMarkets = 0;
  for (const m of c.markets) {
    // A void or 50-50 settlement is a cancellation signal, not a result.
    if (m.status === 'settled' && !m.settledFiftyFifty) settled.add(m.provider);
    if (m.status === 'open') openMarkets++;
    if (adapterFor(m.provider).cancelsGame?.(m) === true) cancelled = true;
  }
  const event: MatchedEvent = {
    event_id: eventId,
    sport: SPORT_OF[c.league],
    league: c.league,
    title: `${awayName} at ${homeName}`,
    scheduled_date: date,
    scheduled_start: startMs === null ? null : isoMs(startMs),
    participants: [
      { key: c.away, name: awayName, role: 'away' },
      { key: c.home, name: homeName, role: 'home' },
    ],
    submarkets,
  };
  return {
    event,
    strictPropKeys,
    lookupIds: [...lookupIds],
    marketIds: c.markets.map(marketIdentity),
    startMs,
    signals: { settledProviders: [...settled].sort(), cancelled, openMarkets },
  };
}

function reorder(s: Submarket): Submarket {
  const o: Record<string, unknown> = { key: s.key, market_type: s.market_type, segment: s.segment, display_name: s.display_name, metric: s.metric };
  if (s.line !== undefined) o.line = s.line;
  if (s.subject) o.subject = s.subject;
  if (s.rules) o.rules = s.rules;
  o.outcomes = s.outcomes;
  o.source_markets = s.source_markets;
  o.settlement_equivalence = s.settlement_equivalence;
  o.rule_comparisons = s.rule_comparisons;
  return o as unknown as Submarket;
}
