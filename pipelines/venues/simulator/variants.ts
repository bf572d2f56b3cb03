// Printing variety seen on real venues and feeds, for the `wide` preset (the second evaluation
// world): team codes and their alternates in every position (prefix, suffix, parentheses), players
// as initial + surname, roster names with suffixes (Jr., III) and accents that venues print plain,
// the threshold family of player props (`25+`, `at least 25`, `25 or more`, `O/U 24.5`), and
// placeholder start times (noon UTC, a date alone). Sources of the forms: Kalshi prop titles
// (`Jabari Smith Jr.: 15+`), Polymarket questions (`Spread: Knicks (-12.5)`, `O/U 234.5`),
// nflreadr's alternate abbreviations (CRD, BLT, CLV, ...), Retrosheet and NHL feeds (`L.A`, `N.J`,
// `T.B`), odds feeds that date a fixture at a fixed hour. In: the world's mix and a stable key. Out:
// the printed form. The `hard` and `default` presets use no mix, so their worlds print as before.
import { h32, unit } from './core.ts';
import type { League, Player, SimTeam } from './teams.ts';

export interface VariantMix {
  /** Share of games whose venue_6 labels carry an alternate code in parentheses. */
  altCodes: number;
  /** Share of games whose venue_4 team names carry the code before or after the name. */
  codePosition: number;
  /** Share of props whose venue_2 and venue_7 forms name the player by initial and surname. */
  initials: number;
  /** Share of venue_2 props printed as a yes/no threshold question instead of `O/U`. */
  thresholdWords: number;
  /** Share of games whose venue_3 / venue_4 start is a placeholder (noon UTC, or a date alone). */
  placeholder: number;
  /** Share of roster names the sports data source publishes with a suffix or accents. */
  rosterForms: number;
}

export const NO_VARIANTS: VariantMix = { altCodes: 0, codePosition: 0, initials: 0, thresholdWords: 0, placeholder: 0, rosterForms: 0 };
export const WIDE_VARIANTS: VariantMix = { altCodes: 0.5, codePosition: 0.5, initials: 0.35, thresholdWords: 0.5, placeholder: 0.12, rosterForms: 0.3 };

// Alternate codes in real use beside the common one (league feeds, reference sites, books).
const ALTERNATES: Partial<Record<League, Record<string, string[]>>> = {
  nfl: { JAX: ['JAC'], BAL: ['BLT'], CLE: ['CLV'], HOU: ['HST'], ARI: ['ARZ'], LAR: ['LA'], WAS: ['WSH'], GB: ['GNB'], KC: ['KAN'], NE: ['NWE'], NO: ['NOR'], SF: ['SFO'], TB: ['TAM'], LV: ['LVR'] },
  nba: { WAS: ['WSH'], PHX: ['PHO'], BKN: ['BRK'], CHA: ['CHO'], UTA: ['UTAH'], GSW: ['GS'], NOP: ['NO'], NYK: ['NY'], SAS: ['SA'] },
  mlb: { CWS: ['CHW'], NYY: ['NYA'], NYM: ['NYN'], CHC: ['CHN'], SD: ['SDP'], SF: ['SFG'], WSH: ['WSN'], KC: ['KCR'], TB: ['TBR'], LAD: ['LAN'], ARI: ['AZ'] },
  nhl: { LAK: ['L.A', 'LA'], NJD: ['N.J', 'NJ'], TBL: ['T.B', 'TB'], SJS: ['S.J', 'SJ'], MTL: ['MON'], CGY: ['CAL'], NSH: ['NAS'], WPG: ['WIN'], VGK: ['VEG'] },
  wnba: { CON: ['CONN'], LVA: ['LV'], WAS: ['WSH'], PHX: ['PHO'], GSV: ['GS'], NYL: ['NY'], LAS: ['LA'] },
};

/** One of the team's alternate codes (or its common code when it has none), chosen by `key`. */
export function altCode(t: SimTeam, ...key: (string | number)[]): string {
  const alts = ALTERNATES[t.league]?.[t.code] ?? (t.alt !== t.code ? [t.alt] : []);
  return alts.length ? alts[h32('alt', t.league, t.code, ...key) % alts.length] : t.code;
}

/** A team name with a code in one of the positions venues print it. */
export function codedName(t: SimTeam, ...key: (string | number)[]): string {
  const code = unit('altpick', ...key) < 0.5 ? altCode(t, ...key) : t.code;
  switch (h32('codepos', t.code, ...key) % 4) {
    case 0:
      return `${code} ${t.nickname}`;
    case 1:
      return `${t.nickname} ${code}`;
    case 2:
      return `${t.name} (${code})`;
    default:
      return `${code} - ${t.name}`;
  }
}

/** "LeBron James" -> "L. James" (a generational suffix stays off). */
export function initialName(name: string): string {
  const parts = name.replace(/\s+(?:Jr\.?|Sr\.?|II|III|IV)$/, '').split(' ');
  return parts.length < 2 ? name : `${parts[0][0]}. ${parts.slice(1).join(' ')}`;
}

const ACCENTED: Record<string, string> = { Doncic: 'Dončić', Jokic: 'Jokić', Antetokounmpo: 'Antetokounmpo', Ionescu: 'Ionescu' };
const SUFFIXES = ['Jr.', 'II', 'III'];

/**
 * How the sports data source writes a player the venues print plain: `Luka Dončić` for `Luka
 * Doncic`, `Marcus Smith Jr.` for `Marcus Smith`. Decided by the name itself, so namesakes stay
 * namesakes.
 */
export function rosterName(name: string, share: number): string {
  if (share <= 0 || unit('rostername', name) >= share) return name;
  const last = name.split(' ').slice(-1)[0];
  if (ACCENTED[last] && ACCENTED[last] !== last) return name.replace(new RegExp(`${last}$`), ACCENTED[last]);
  if (/[\u0080-\uffff]|(?:Jr\.|II|III)$/.test(name)) return name;
  if (h32('rostername', name) % 2 === 0) return `${name} ${SUFFIXES[h32('suffix', name) % SUFFIXES.length]}`;
  // An accent on the first e of the surname ("Hernández"-style spellings the venues drop).
  return name.replace(/ ([^ ]*?)e([^ ]*)$/, ' $1é$2');
}

/** A yes/no threshold question for an over line N-0.5 (`N+`, `at least N`, `N or more`). */
export function thresholdQuestion(player: string, statWords: string, line: number, ...key: (string | number)[]): string {
  const n = Math.round(line + 0.5);
  const stat = statWords.replace(/^\w/, (c) => c.toUpperCase());
  switch (h32('thq', ...key) % 3) {
    case 0:
      return `${player}: ${n}+ ${stat}`;
    case 1:
      return `Will ${player} record at least ${n} ${statWords}?`;
    default:
      return `${player}: ${n} or more ${statWords}`;
  }
}

/** A placeholder form for a start: noon UTC of the Eastern day, or the day alone. */
export function placeholderStart(easternDay: string, ...key: (string | number)[]): { iso: string; ms: number } {
  const ms = Date.parse(`${easternDay}T12:00:00Z`);
  return unit('phform', ...key) < 0.5 ? { iso: `${easternDay}T12:00:00Z`, ms } : { iso: easternDay, ms };
}

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/**
 * How a venue prints a prop's player: the name, or (`wide` world, a share of props) initial and
 * surname, when that form fits one player of the two teams' published rosters only (a venue's
 * `J. Smith` that fits two players is a prop no one can resolve; the world does not print it).
 */
export function printedPlayer(world: { variants: VariantMix; rosters: Map<string, Player[]> }, g: { league: League; away: SimTeam; home: SimTeam }, p: Player, ...key: (string | number)[]): string {
  if (unit('initials', ...key) >= world.variants.initials) return p.name;
  const both = [...(world.rosters.get(`${g.league}:${g.away.code}`) ?? []), ...(world.rosters.get(`${g.league}:${g.home.code}`) ?? [])];
  const form = fold(initialName(p.name));
  return both.filter((x) => fold(initialName(x.name)) === form).length === 1 ? initialName(p.name) : p.name;
}
