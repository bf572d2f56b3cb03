// Player-prop admission ("Player-prop identity rules"). In: what a venue's prop record says (league,
// teams, player name as printed, statistic, threshold, start) and the roster book (both teams'
// rosters from the sports data source, with when each was read). Out: the admitted statistic and
// the one athlete the player resolves to (`<sports_data_source>_<league>_<athlete_id>`), or nothing.
// Refusing a prop never touches the game lines: they are canonicalized independently.
import { normalizeName, type League } from './teams.ts';
import { isHalfPoint } from './rules.ts';

export interface RosterPlayer {
  athleteId: string;
  name: string;
}

export interface Roster {
  league: League;
  team: string;
  players: RosterPlayer[];
  /** When the roster was read (Unix ms). */
  readAt: number;
}

export interface RosterBook {
  /** The sports data source's name: the first part of canonical player keys. */
  source: string;
  /** Keyed `<league>:<team_key>`. */
  rosters: ReadonlyMap<string, Roster>;
  /** A roster read longer ago than this is stale. */
  staleAfterMs: number;
}

export interface PropInput {
  league: League;
  away: string;
  home: string;
  player: string;
  stat: string;
  line: number;
  start: number | null;
  date: string;
  observedAt: number;
}

export interface AdmittedProp {
  stat: string;
  playerKey: string;
  playerName: string;
}

// "Admitted statistics": the nfl list, plus count props for nba/wnba full games.
const NFL_STATS = new Set([
  'passing_yards',
  'rushing_yards',
  'receiving_yards',
  'receptions',
  'passing_completions',
  'passing_touchdowns',
  'anytime_touchdown',
  'touchdowns_2plus',
  'passing_attempts',
  'passing_interceptions',
  'rushing_attempts',
  'rushing_receiving_yards',
  'longest_reception',
  'longest_rush',
]);
const BASKETBALL_STATS = new Set(['points', 'rebounds', 'assists']);

const STAT_ALIASES: Record<string, string> = {
  pts: 'points',
  point: 'points',
  reb: 'rebounds',
  rebound: 'rebounds',
  ast: 'assists',
  assist: 'assists',
  pass_yds: 'passing_yards',
  passing_yds: 'passing_yards',
  rush_yds: 'rushing_yards',
  rec_yds: 'receiving_yards',
  reception: 'receptions',
  rec: 'receptions',
  passing_tds: 'passing_touchdowns',
  pass_tds: 'passing_touchdowns',
  passing_touchdown: 'passing_touchdowns',
  touchdown: 'anytime_touchdown',
  touchdowns: 'anytime_touchdown',
  anytime_td: 'anytime_touchdown',
  anytime_touchdown_scorer: 'anytime_touchdown',
  td: 'anytime_touchdown',
  rushing_plus_receiving_yards: 'rushing_receiving_yards',
};

export function normalizeStat(s: string): string {
  const k = s.trim().toLowerCase().replace(/[^a-z0-9+]+/g, '_').replace(/^_|_$/g, '');
  return STAT_ALIASES[k] ?? k;
}

/** "Props are not newly admitted more than 48 hours after scheduled start." */
export const PROP_ADMISSION_WINDOW_MS = 48 * 3600_000;

export function admitProp(p: PropInput, book: RosterBook | undefined): AdmittedProp | undefined {
  const stat = normalizeStat(p.stat);
  const allowed = p.league === 'nfl' ? NFL_STATS : p.league === 'nba' || p.league === 'wnba' ? BASKETBALL_STATS : undefined;
  if (!allowed?.has(stat)) return undefined;
  // "Only non-negative half-point thresholds are admitted".
  if (!(p.line >= 0) || !isHalfPoint(p.line)) return undefined;
  if (p.start !== null && p.observedAt > p.start + PROP_ADMISSION_WINDOW_MS) return undefined;
  if (!book) return undefined;
  // "a missing, stale or ambiguous roster removes the prop".
  const candidates: RosterPlayer[] = [];
  for (const team of [p.away, p.home]) {
    const r = book.rosters.get(`${p.league}:${team}`);
    if (!r || p.observedAt - r.readAt > book.staleAfterMs) return undefined;
    const want = normalizeName(p.player);
    for (const pl of r.players) if (normalizeName(pl.name) === want) candidates.push(pl);
  }
  if (candidates.length !== 1) return undefined;
  const a = candidates[0];
  return { stat, playerKey: `${book.source}_${p.league}_${a.athleteId}`, playerName: a.name };
}
