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

/** What admits a prop before its player is looked up: an admitted statistic, line and time (null: none). */
function admissibleStat(p: PropInput): string | null {
  const stat = normalizeStat(p.stat);
  const allowed = p.league === 'nfl' ? NFL_STATS : p.league === 'nba' || p.league === 'wnba' ? BASKETBALL_STATS : undefined;
  if (!allowed?.has(stat)) return null;
  // "Only non-negative half-point thresholds are admitted".
  if (!(p.line >= 0) || !isHalfPoint(p.line)) return null;
  if (p.start !== null && p.observedAt > p.start + PROP_ADMISSION_WINDOW_MS) return null;
  return stat;
}

/** Both teams' rosters, when the book holds a fresh one of each ("a missing, stale ... roster removes the prop"). */
function teamRosters(p: PropInput, book: RosterBook | undefined): RosterPlayer[] | null {
  if (!book) return null;
  const players: RosterPlayer[] = [];
  for (const team of [p.away, p.home]) {
    const r = book.rosters.get(`${p.league}:${team}`);
    if (!r || p.observedAt - r.readAt > book.staleAfterMs) return null;
    players.push(...r.players);
  }
  return players;
}

/**
 * Whether a prop is refused only for want of a fresh roster of either team: a roster read later
 * admits it, from the same venue record (the canonicalize stage reads such records again then).
 */
export function awaitsRoster(p: PropInput, book: RosterBook | undefined): boolean {
  return admissibleStat(p) !== null && teamRosters(p, book) === null;
}

export function admitProp(p: PropInput, book: RosterBook | undefined): AdmittedProp | undefined {
  const stat = admissibleStat(p);
  if (stat === null) return undefined;
  // "a missing, stale or ambiguous roster removes the prop".
  const players = teamRosters(p, book);
  if (!players || !book) return undefined;
  const a = resolvePlayer(p.player, players);
  return a ? { stat, playerKey: `${book.source}_${p.league}_${a.athleteId}`, playerName: a.name } : undefined;
}

const SUFFIX = /\s+(?:jr|sr|ii|iii|iv|v)$/;

/** A printed name's forms: full, without a generational suffix ("Jr.", "III"). */
function nameForms(name: string): { full: string; bare: string } {
  const full = normalizeName(name);
  return { full, bare: full.replace(SUFFIX, '') };
}

/**
 * The one player of both teams' rosters a printed name denotes, or nothing. Tried in order, each
 * step only when the one before found nobody: the exact name (accents and punctuation aside); the
 * name without a generational suffix ("Marvin Harrison" and "Marvin Harrison Jr."); an initial and
 * surname ("J. Smith", "J Smith", "Smith, J."). Two fits at any step refuse: a wrong player is
 * worse than a missing prop.
 */
export function resolvePlayer(printed: string, players: readonly RosterPlayer[]): RosterPlayer | undefined {
  const want = nameForms(printed);
  if (!want.full) return undefined;
  const steps: ((n: { full: string; bare: string }) => boolean)[] = [(n) => n.full === want.full, (n) => n.bare === want.bare];
  const init = initialForm(printed);
  if (init) steps.push((n) => {
    const words = n.bare.split(' ');
    return words.length >= 2 && words[0][0] === init.initial && words.slice(1).join(' ') === init.surname;
  });
  const forms = players.map((pl) => nameForms(pl.name));
  for (const step of steps) {
    const hits = players.filter((_, i) => step(forms[i]));
    if (hits.length) return hits.length === 1 ? hits[0] : undefined;
  }
  return undefined;
}

/** "J. Smith", "J Smith", "Smith, J.": a first initial and a surname (suffix dropped). */
function initialForm(printed: string): { initial: string; surname: string } | undefined {
  const comma = /^([^,]+),\s*([A-Za-z])\.?$/.exec(printed.trim());
  const lead = /^([A-Za-z])\.?\s+(.+)$/.exec(printed.trim());
  const [initial, surname] = comma ? [comma[2], comma[1]] : lead ? [lead[1], lead[2]] : [];
  if (!initial || !surname) return undefined;
  const s = normalizeName(surname).replace(SUFFIX, '');
  return s ? { initial: initial.toLowerCase(), surname: s } : undefined;
}

export interface PropThreshold {
  /** The over line: `25+`, `at least 25` and `25 or more` on an integer statistic are over 24.5. */
  line: number;
  /** As the venue printed it (for the threshold row's description). */
  printed: string;
}

// Threshold phrases venues print. "N+" and its word forms count N itself, so on an integer
// statistic they are the market `over N-0.5`; an over line printed as such is that line.
const THRESHOLD_FORMS: { re: RegExp; atLeast: boolean }[] = [
  { re: /\b(\d+)\s*\+(?=\s|$|[^\w])/, atLeast: true },
  { re: /\bat\s+least\s+(\d+)\b/i, atLeast: true },
  { re: /\b(\d+)\s+or\s+more\b/i, atLeast: true },
  { re: /\b(?:o\/u|over\/under|over|o)\s*(\d+(?:\.\d+)?)\b/i, atLeast: false },
];

/**
 * A threshold printed in a prop's title or selection, or nothing. `atLeast`: one of the `N+`
 * family (its line is N-0.5), not an over line printed as such.
 */
export function readThreshold(text: string): (PropThreshold & { atLeast: boolean; index: number; length: number }) | undefined {
  for (const f of THRESHOLD_FORMS) {
    const m = f.re.exec(text);
    if (m) return { line: f.atLeast ? Number(m[1]) - 0.5 : Number(m[1]), printed: m[0].trim(), atLeast: f.atLeast, index: m.index, length: m[0].length };
  }
  return undefined;
}

/**
 * A prop as a title prints it: `LeBron James: 25+ points`, `LeBron James: Points O/U 24.5`,
 * `LeBron James: at least 25 points`, `Will LeBron James score 25 or more points?`,
 * `LeBron James Over 24.5 Points`. Out: the player as printed, the statistic's words and the
 * threshold, or nothing.
 */
export function readPropTitle(title: string): ({ player: string; stat: string } & PropThreshold) | undefined {
  const t = title.trim().replace(/\?+$/, '');
  const th = readThreshold(t);
  if (!th) return undefined;
  const before = t.slice(0, th.index).trim();
  const after = t.slice(th.index + th.length).trim();
  let player: string | undefined;
  let stat: string;
  const colon = /^(.+?):\s*(.*)$/.exec(before);
  const will = /^will\s+(.+?)\s+(?:score|record|have|get|throw for|rush for|catch)\s*(.*)$/i.exec(before);
  if (colon) {
    player = colon[1];
    stat = `${colon[2]} ${after}`;
  } else if (will) {
    player = will[1];
    stat = `${will[2]} ${after}`;
  } else {
    player = before;
    stat = after;
  }
  stat = stat.replace(/\b(?:total|in the game|in game|scored)\b/gi, ' ').replace(/\s+/g, ' ').trim();
  if (!player || !stat) return undefined;
  return { player: player.trim(), stat, line: th.line, printed: th.printed };
}
