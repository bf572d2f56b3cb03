// The simulated sports world: games of the five leagues over a window of days, their lines, which
// venue lists which line, each venue's settlement-rule values, and the scenario timeline
// (start, settle, postpone, cancel). In: seed, scale, anchor day, preset. Out: `SportsWorld`.
// Venue modules render native records from it; `truth()` is the separate ground truth that the
// pipeline never reads (only bin/export-truth.ts writes it out).
import { type VenueId, eastern, fromEastern, h32, pick, rng, unit } from './core.ts';
import { LEAGUES, type League, type Player, type SimTeam, TEAMS, roster } from './teams.ts';
import { NO_VARIANTS, WIDE_VARIANTS, rosterName, type VariantMix } from './variants.ts';

export type LineKind = 'moneyline' | 'spread' | 'total' | 'team_total' | 'player_prop';
export type Segment = 'full' | 'half:1' | 'half:2' | 'quarter:1';
export type Stat =
  | 'points'
  | 'rebounds'
  | 'passing_yards'
  | 'rushing_yards'
  | 'receptions';

export interface SimLine {
  /** Index within the game, stable: part of every venue id derived from the line. */
  n: number;
  kind: LineKind;
  segment: Segment;
  /** Spread: signed for `team`; totals and props: positive. */
  line?: number;
  /** Spread / team total subject (team code). */
  team?: string;
  player?: Player;
  stat?: Stat;
  /** Probability of the first canonical outcome (away wins, `team` covers, over). */
  fair: number;
  /** Overtime counted on this line by venue (half:2 lines differ between venues). */
  venues: VenueId[];
  /** Alternate line (only the venues that ladder lines list it). */
  alt?: boolean;
}

export interface SimGame {
  i: number;
  league: League;
  away: SimTeam;
  home: SimTeam;
  /** Originally scheduled start, UTC ms. */
  start: number;
  /** 1 or 2 for the two games of an mlb doubleheader, else 0. */
  dh: 0 | 1 | 2;
  postpone?: { at: number; newStart: number };
  cancel?: { at: number };
  venues: VenueId[];
  lines: SimLine[];
  /** Team whose roster the sports data source does not publish (props of this game unmatched). */
  rosterGap?: string;
  /** Home team wins (fixed outcome). */
  homeWins: boolean;
  finalTotal: number;
}

export type Phase = 'scheduled' | 'live' | 'final' | 'cancelled';
export interface GameState {
  start: number;
  phase: Phase;
  postponed: boolean;
}

/** How long after the start a game is final and venues settle. */
export const GAME_LENGTH_MS: Record<League, number> = {
  nba: 2.5 * 3600e3,
  wnba: 2.25 * 3600e3,
  nfl: 3.25 * 3600e3,
  mlb: 3 * 3600e3,
  nhl: 2.5 * 3600e3,
};

export function gameState(g: SimGame, t: number): GameState {
  const postponed = !!g.postpone && t >= g.postpone.at;
  const start = postponed ? g.postpone!.newStart : g.start;
  if (g.cancel && t >= g.cancel.at) return { start, phase: 'cancelled', postponed };
  if (t < start) return { start, phase: 'scheduled', postponed };
  if (t < start + GAME_LENGTH_MS[g.league]) return { start, phase: 'live', postponed };
  return { start, phase: 'final', postponed };
}

/** Every instant at which some game changes phase: render caches key on the count passed. */
export function transitions(games: SimGame[]): number[] {
  const out: number[] = [];
  for (const g of games) {
    out.push(g.start, g.start + GAME_LENGTH_MS[g.league]);
    if (g.postpone) out.push(g.postpone.at, g.postpone.newStart, g.postpone.newStart + GAME_LENGTH_MS[g.league]);
    if (g.cancel) out.push(g.cancel.at);
  }
  return out.sort((a, b) => a - b);
}

// ---- rule values (the "Rule matrix" vocabulary) ----

export interface LineRules {
  tie: string;
  overtime: string;
  push: string;
}
/** Which venues list which kinds of lines. */
export const VENUE_KINDS: Record<VenueId, string[]> = {
  venue_1: ['moneyline|full', 'spread|full', 'total|full', 'team_total|full', 'total|half:1', 'spread|quarter:1', 'spread|half:2', 'player_prop|full'],
  venue_2: ['moneyline|full', 'spread|full', 'total|full', 'team_total|full', 'total|half:1', 'player_prop|full'],
  venue_3: ['moneyline|full', 'total|full'],
  venue_4: ['moneyline|full', 'spread|full', 'total|full', 'spread|half:2'],
  venue_5: ['moneyline|full', 'total|full'],
  venue_6: ['moneyline|full', 'spread|full', 'total|full'],
  venue_7: ['moneyline|full', 'spread|full', 'total|full', 'team_total|full', 'total|half:1', 'spread|half:2', 'player_prop|full'],
  venue_8: ['moneyline|full'],
  venue_9: ['moneyline|full', 'total|full'],
};
/** Venues that list alternate (laddered) lines. */
const LADDER: VenueId[] = ['venue_1', 'venue_7'];
/** Venues whose second-half lines are regulation only ("one has overtime excluded for a half line"). */
export const HALF2_EXCLUDES_OT: VenueId[] = ['venue_4', 'venue_7'];

/** A venue's settlement values for a game line (what its rules text says). */
export function lineRules(v: VenueId, g: SimGame, l: SimLine): LineRules {
  const nflTieable = g.league === 'nfl' && l.kind === 'moneyline' && l.segment === 'full';
  const tieByVenue: Record<VenueId, string> = {
    venue_1: 'loses', venue_2: 'half_payout', venue_3: 'half_payout', venue_4: 'void', venue_5: 'void',
    venue_6: 'half_payout', venue_7: 'void', venue_8: 'unknown', venue_9: 'loses',
  };
  const tie = nflTieable ? tieByVenue[v] : 'not_possible';
  let overtime = 'included';
  if (l.segment === 'half:1' || l.segment === 'quarter:1') overtime = 'not_applicable';
  if (l.segment === 'half:2') overtime = HALF2_EXCLUDES_OT.includes(v) ? 'excluded' : 'included';
  if (g.league === 'nhl' && l.kind === 'spread' && Math.abs(l.line ?? 0) > 1) overtime = 'not_applicable';
  const whole = l.line !== undefined && Number.isInteger(l.line) && l.kind !== 'moneyline';
  const pushByVenue: Partial<Record<VenueId, string>> = { venue_1: 'loses', venue_9: 'loses' };
  const push = whole ? (pushByVenue[v] ?? 'void') : 'not_applicable';
  if (!hasRulesText(v, g, l)) return { tie: nflTieable ? 'unknown' : tie, overtime: 'unknown', push: whole ? 'unknown' : push };
  return { tie, overtime, push };
}

/** venue_8 publishes no rules on sports; venue_5 omits them on some questions. */
export function hasRulesText(v: VenueId, g: SimGame, l: SimLine): boolean {
  if (v === 'venue_8') return false;
  if (v === 'venue_5') return unit('v5rules', g.i, l.kind) >= 0.15;
  return true;
}

export const PROP_RULES = [
  'non_participation', 'overtime', 'stat_definition', 'threshold', 'stat_corrections',
  'postponement', 'cancellation', 'interruption', 'resolution_source',
] as const;
/** A venue's nine player-prop values. */
export function propRules(v: VenueId): Record<(typeof PROP_RULES)[number], string> {
  const base = {
    non_participation: 'resolves_no',
    overtime: 'included',
    stat_definition: 'official_box_score',
    threshold: 'at_least',
    stat_corrections: 'ignored_after_settlement',
    postponement: 'void_if_not_played_within_48h',
    cancellation: 'void',
    interruption: 'void_unless_completed',
    resolution_source: 'official_league_stats',
  };
  if (v === 'venue_7') return { ...base, non_participation: 'void', stat_corrections: 'included_within_24h' };
  return base;
}

// ---- generation ----

export type WorldPreset = 'default' | 'hard' | 'wide' | 'none';

export interface WorldOptions {
  seed: number;
  /** Eastern day (YYYY-MM-DD) of the scenario start; the schedule runs from the day before. */
  anchorDay: string;
  days?: number;
  /**
   * `default`; `hard` (more games, every naming variant, doubleheaders, postponements,
   * cancellations, roster gaps); `wide` (as `hard`, plus the printing variety of variants.ts).
   */
  preset?: WorldPreset;
}

export interface SportsWorld {
  seed: number;
  anchorDay: string;
  games: SimGame[];
  byLeagueTeam: Map<string, SimTeam>;
  rosters: Map<string, Player[]>;
  /** `league:CODE` of teams whose roster the sports data source stopped updating (stale). */
  staleRosters: Set<string>;
  transitions: number[];
  /** How often venues print the forms of variants.ts (none outside the `wide` preset). */
  variants: VariantMix;
}

const START_TIMES: Record<League, [number, number][]> = {
  nba: [[19, 0], [19, 30], [20, 0], [22, 0], [22, 30]],
  wnba: [[19, 0], [19, 30], [22, 0]],
  nfl: [[13, 0], [16, 25], [20, 20]],
  mlb: [[13, 5], [19, 5], [19, 10], [21, 40], [22, 10]],
  nhl: [[19, 0], [19, 30], [22, 0]],
};
const PER_DAY: Record<League, number> = { nba: 5, wnba: 2, nfl: 4, mlb: 5, nhl: 5 };

function addDays(date: string, n: number): string {
  const d = new Date(date + 'T12:00:00Z');
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function halfLine(r: () => number, lo: number, hi: number): number {
  return Math.floor(lo + r() * (hi - lo)) + 0.5;
}

export function buildWorld(o: WorldOptions): SportsWorld {
  const preset = o.preset ?? 'default';
  // `wide` is a `hard` world (same schedule rules) printed with more variety.
  const hard = preset === 'hard' || preset === 'wide';
  const days = o.days ?? 8;
  const r = rng(h32(o.seed, 'world', o.anchorDay, preset));
  const games: SimGame[] = [];
  const mult = hard ? 2 : preset === 'none' ? 0 : 1;
  for (let dk = -1; dk < days - 1; dk++) {
    const day = addDays(o.anchorDay, dk);
    for (const lg of LEAGUES) {
      const teams = [...TEAMS[lg]];
      // Shuffle teams deterministically for this day and pair them up.
      for (let k = teams.length - 1; k > 0; k--) {
        const j = Math.floor(r() * (k + 1));
        [teams[k], teams[j]] = [teams[j], teams[k]];
      }
      const n = Math.min(Math.floor(teams.length / 2), PER_DAY[lg] * mult);
      for (let k = 0; k < n; k++) {
        const away = teams[2 * k];
        const home = teams[2 * k + 1];
        const [hh, mm] = START_TIMES[lg][Math.floor(r() * START_TIMES[lg].length)];
        const dh = lg === 'mlb' && k === 0 && (hard || dk % 2 === 0);
        const starts = dh ? [fromEastern(day, 13, 5), fromEastern(day, 18, 40)] : [fromEastern(day, hh, mm)];
        starts.forEach((start, si) => {
          games.push({
            i: games.length,
            league: lg,
            away,
            home,
            start,
            dh: dh ? ((si + 1) as 1 | 2) : 0,
            venues: [],
            lines: [],
            homeWins: r() < 0.55,
            finalTotal: 0,
          });
        });
      }
    }
  }
  const anchorMs = fromEastern(o.anchorDay, 12, 0);
  for (const g of games) {
    const rr = rng(h32(o.seed, 'game', g.i, g.league, g.away.code, g.home.code));
    // Which venues list the game ("Not every venue lists every game").
    const cover: Record<VenueId, number> = {
      venue_1: 0.9, venue_2: 0.92, venue_3: 0.7, venue_4: 0.75, venue_5: 0.6,
      venue_6: 1, venue_7: 0.85, venue_8: 0.4, venue_9: 0.6,
    };
    if (hard) for (const k of Object.keys(cover) as VenueId[]) cover[k] = Math.max(cover[k], 0.85);
    g.venues = (Object.keys(cover) as VenueId[]).filter((v) => rr() < cover[v]);
    if (!g.venues.includes('venue_2')) g.venues = g.venues.filter((v) => v !== 'venue_6'); // venue_6 mirrors venue_2
    // Timeline: a few postponements (new day, same time) and cancellations after the anchor.
    const pr = hard ? 0.06 : 0.02;
    if (g.start > anchorMs + 3 * 3600e3 && !g.dh) {
      const x = rr();
      if (x < pr) g.postpone = { at: g.start - 2 * 3600e3, newStart: g.start + 24 * 3600e3 };
      else if (x < 2 * pr) g.cancel = { at: g.start - 3600e3 };
    }
    if (hard && (g.league === 'nba' || g.league === 'nfl') && rr() < 0.05) g.rosterGap = g.home.code;
    g.lines = buildLines(g, rr, o.seed);
    g.finalTotal = Math.round((g.lines.find((l) => l.kind === 'total' && l.segment === 'full')?.line ?? 10) + (rr() - 0.5) * 20);
  }
  const rosters = new Map<string, Player[]>();
  for (const lg of LEAGUES) for (const t of TEAMS[lg]) rosters.set(`${lg}:${t.code}`, roster(o.seed, t));
  // "ambiguous roster": in the hard preset a few home teams carry a namesake of the visiting star.
  if (hard) {
    for (const g of games) {
      if (g.rosterGap || (g.league !== 'nba' && g.league !== 'nfl') || unit(o.seed, 'namesake', g.i) >= 0.05) continue;
      const star = rosters.get(`${g.league}:${g.away.code}`)![0];
      const home = rosters.get(`${g.league}:${g.home.code}`)!;
      if (home.some((p) => p.name === star.name)) continue;
      home.push({ ...star, athleteId: 100000 + (h32(o.seed, 'namesake-id', g.i) % 900000), team: g.home.code, jersey: 99 });
    }
  }
  // "stale roster": in the hard preset the data source stopped updating two teams' rosters.
  const staleRosters = new Set<string>();
  if (hard) {
    const gapTeams = new Set(games.filter((g) => g.rosterGap).map((g) => `${g.league}:${g.rosterGap}`));
    for (const lg of ['nba', 'nfl'] as const) {
      const t = TEAMS[lg].find((x) => !gapTeams.has(`${lg}:${x.code}`) && unit(o.seed, 'stale', lg, x.code) < 0.1);
      if (t) staleRosters.add(`${lg}:${t.code}`);
    }
  }
  // `wide`: the data source writes some names with a suffix or accents that venues print plain.
  const variants = preset === 'wide' ? WIDE_VARIANTS : NO_VARIANTS;
  if (variants.rosterForms > 0) for (const ps of rosters.values()) for (const p of ps) p.name = rosterName(p.name, variants.rosterForms);
  const byLeagueTeam = new Map<string, SimTeam>();
  for (const lg of LEAGUES) for (const t of TEAMS[lg]) byLeagueTeam.set(`${lg}:${t.code}`, t);
  return { seed: o.seed, anchorDay: o.anchorDay, games, byLeagueTeam, rosters, staleRosters, transitions: transitions(games), variants };
}

function buildLines(g: SimGame, r: () => number, seed: number): SimLine[] {
  const lines: SimLine[] = [];
  const fav = g.homeWins ? g.home : g.away;
  const pAway = g.homeWins ? 0.35 + r() * 0.12 : 0.53 + r() * 0.12;
  const add = (l: Omit<SimLine, 'n' | 'venues'>) => {
    const key = `${l.kind}|${l.segment}`;
    const venues = g.venues.filter((v) => VENUE_KINDS[v].includes(key) && (!l.alt || LADDER.includes(v)) && unit('lists', g.i, lines.length, v) < 0.92);
    if (l.kind === 'moneyline') venues.splice(0, venues.length, ...g.venues.filter((v) => VENUE_KINDS[v].includes(key)));
    lines.push({ ...l, n: lines.length, venues });
  };
  add({ kind: 'moneyline', segment: 'full', fair: pAway });
  const lg = g.league;
  const spread = lg === 'mlb' || lg === 'nhl' ? 1.5 : lg === 'nfl' ? pick([2.5, 3, 3.5, 6.5, 7, 7.5], g.i, 'sp') : halfLine(r, 1, 11);
  add({ kind: 'spread', segment: 'full', team: fav.code, line: -spread, fair: 0.5 });
  if (lg !== 'mlb' && lg !== 'nhl') add({ kind: 'spread', segment: 'full', team: fav.code, line: -(spread + 2), fair: 0.42, alt: true });
  const total =
    lg === 'nba' ? halfLine(r, 212, 236) : lg === 'wnba' ? halfLine(r, 156, 170) : lg === 'nfl' ? halfLine(r, 39, 52) : lg === 'mlb' ? halfLine(r, 7, 10) : pick([5.5, 6.5], g.i, 't');
  add({ kind: 'total', segment: 'full', line: total, fair: 0.5 });
  if (lg === 'nba' || lg === 'nfl') add({ kind: 'total', segment: 'full', line: total + 3, fair: 0.4, alt: true });
  if (lg === 'nba' || lg === 'nfl') {
    add({ kind: 'team_total', segment: 'full', team: g.home.code, line: Math.floor(total / 2) + 0.5, fair: 0.5 });
    add({ kind: 'total', segment: 'half:1', line: Math.floor(total / 2) + 0.5, fair: 0.5 });
  }
  if (lg === 'nba') add({ kind: 'spread', segment: 'quarter:1', team: fav.code, line: -1.5, fair: 0.5 });
  if (lg === 'nfl') add({ kind: 'spread', segment: 'half:2', team: fav.code, line: -(Math.floor(spread / 2) + 0.5), fair: 0.5 });
  // Player props: the two first roster slots' stars (rosters attached later by name/position).
  const props: [SimTeam, number, Stat, number][] =
    lg === 'nba' || lg === 'wnba'
      ? [[g.away, 0, 'points', lg === 'nba' ? 24.5 : 18.5], [g.home, 2, 'points', lg === 'nba' ? 22.5 : 16.5], [g.home, 4, 'rebounds', 9.5]]
      : lg === 'nfl'
        ? [[g.away, 0, 'passing_yards', 249.5 + 25 * Math.floor(r() * 2)], [g.home, 1, 'rushing_yards', 64.5], [g.home, 2, 'receptions', 5.5]]
        : [];
  for (const [team, slot, stat, line] of props) {
    const p = roster(seed, team)[slot];
    add({ kind: 'player_prop', segment: 'full', player: { ...p }, stat, line, fair: 0.5 });
  }
  return lines;
}

/** Result of a line once the game is final: true when the first canonical outcome wins. */
export function lineWins(g: SimGame, l: SimLine): boolean {
  if (l.kind === 'moneyline') return !g.homeWins;
  if (l.kind === 'spread') return unit('cover', g.i, l.n) < 0.5;
  return unit('over', g.i, l.n) < 0.5;
}

/** Current fair probability of a line's first outcome: drifts with time ("books move"). */
export function fairAt(seed: number, g: SimGame, l: SimLine, t: number): number {
  const minute = Math.floor(t / 60_000);
  const drift = (unit(seed, 'drift', g.i, l.n, minute) - 0.5) * 0.04;
  return Math.min(0.95, Math.max(0.05, l.fair + drift));
}

export function eDate(ms: number): string {
  return eastern(ms).date;
}
