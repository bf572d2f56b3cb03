// Team registry: a real-world directory of the five leagues' teams (not ground truth of any
// scenario). In: a league and any name form a venue prints (code, abbreviation variant, city,
// nickname, full name, slug fragment). Out: the team, whose `key` is the lower-case code the spec's
// `participants[].key` and `event_id` use ("lower-case code, unique only within a league").
// A name form shared by two teams of a league (e.g. "los angeles" in the nba) resolves to nothing:
// a wrong match is worse than a missing one.

import { LEAGUES, type League } from '../../lib/vocabulary.ts';
export type { League };
export const LEAGUE_LIST: readonly League[] = LEAGUES;

export const SPORT_OF: Record<League, string> = {
  nba: 'basketball',
  wnba: 'basketball',
  nfl: 'american_football',
  mlb: 'baseball',
  nhl: 'ice_hockey',
};

export interface Team {
  league: League;
  /** Lower-case code, unique within the league. */
  key: string;
  city: string;
  nickname: string;
  /** "City Nickname". */
  name: string;
  /** Every code/abbreviation variant venues print (upper case as printed; matched case-insensitively). */
  codes: string[];
  /** Further name forms (short city, old names, sponsor-free forms). */
  aliases: string[];
}

// [key, city, nickname, extra codes, aliases]
type Row = [string, string, string, string[], string[]];

const NBA: Row[] = [
  ['atl', 'Atlanta', 'Hawks', [], []],
  ['bos', 'Boston', 'Celtics', [], []],
  ['bkn', 'Brooklyn', 'Nets', ['BRK', 'BKN', 'BK'], []],
  ['cha', 'Charlotte', 'Hornets', ['CHO', 'CHA'], []],
  ['chi', 'Chicago', 'Bulls', [], []],
  ['cle', 'Cleveland', 'Cavaliers', [], ['Cavs']],
  ['dal', 'Dallas', 'Mavericks', [], ['Mavs']],
  ['den', 'Denver', 'Nuggets', [], []],
  ['det', 'Detroit', 'Pistons', [], []],
  ['gsw', 'Golden State', 'Warriors', ['GS', 'GSW'], []],
  ['hou', 'Houston', 'Rockets', [], []],
  ['ind', 'Indiana', 'Pacers', [], []],
  ['lac', 'Los Angeles', 'Clippers', ['LAC'], ['LA Clippers']],
  ['lal', 'Los Angeles', 'Lakers', ['LAL'], ['LA Lakers']],
  ['mem', 'Memphis', 'Grizzlies', [], ['Grizz']],
  ['mia', 'Miami', 'Heat', [], []],
  ['mil', 'Milwaukee', 'Bucks', [], []],
  ['min', 'Minnesota', 'Timberwolves', [], ['Wolves', 'T-Wolves']],
  ['nop', 'New Orleans', 'Pelicans', ['NO', 'NOP', 'NOR'], ['Pels']],
  ['nyk', 'New York', 'Knicks', ['NY', 'NYK'], []],
  ['okc', 'Oklahoma City', 'Thunder', ['OKC', 'OKL'], []],
  ['orl', 'Orlando', 'Magic', [], []],
  ['phi', 'Philadelphia', '76ers', [], ['Sixers', 'Philly']],
  ['phx', 'Phoenix', 'Suns', ['PHO', 'PHX'], []],
  ['por', 'Portland', 'Trail Blazers', [], ['Blazers']],
  ['sac', 'Sacramento', 'Kings', [], []],
  ['sas', 'San Antonio', 'Spurs', ['SA', 'SAS'], []],
  ['tor', 'Toronto', 'Raptors', [], []],
  ['uta', 'Utah', 'Jazz', ['UTA', 'UTAH'], []],
  ['was', 'Washington', 'Wizards', ['WSH', 'WAS'], []],
];

const WNBA: Row[] = [
  ['atl', 'Atlanta', 'Dream', [], []],
  ['chi', 'Chicago', 'Sky', [], []],
  ['con', 'Connecticut', 'Sun', ['CON', 'CONN', 'CT'], []],
  ['dal', 'Dallas', 'Wings', [], []],
  ['gsv', 'Golden State', 'Valkyries', ['GS', 'GSV'], []],
  ['ind', 'Indiana', 'Fever', [], []],
  ['lva', 'Las Vegas', 'Aces', ['LV', 'LVA'], []],
  ['las', 'Los Angeles', 'Sparks', ['LA', 'LAS'], ['LA Sparks']],
  ['min', 'Minnesota', 'Lynx', [], []],
  ['nyl', 'New York', 'Liberty', ['NY', 'NYL'], []],
  ['phx', 'Phoenix', 'Mercury', ['PHO', 'PHX'], []],
  ['por', 'Portland', 'Fire', [], []],
  ['sea', 'Seattle', 'Storm', [], []],
  ['tor', 'Toronto', 'Tempo', [], []],
  ['was', 'Washington', 'Mystics', ['WSH', 'WAS'], []],
];

const NFL: Row[] = [
  ['ari', 'Arizona', 'Cardinals', ['ARI', 'ARZ', 'AZ', 'CRD'], []],
  ['atl', 'Atlanta', 'Falcons', [], []],
  ['bal', 'Baltimore', 'Ravens', ['BLT', 'RAV'], []],
  ['buf', 'Buffalo', 'Bills', [], []],
  ['car', 'Carolina', 'Panthers', [], []],
  ['chi', 'Chicago', 'Bears', [], []],
  ['cin', 'Cincinnati', 'Bengals', [], []],
  ['cle', 'Cleveland', 'Browns', ['CLV'], []],
  ['dal', 'Dallas', 'Cowboys', [], []],
  ['den', 'Denver', 'Broncos', [], []],
  ['det', 'Detroit', 'Lions', [], []],
  ['gb', 'Green Bay', 'Packers', ['GB', 'GNB'], []],
  ['hou', 'Houston', 'Texans', ['HST', 'HTX'], []],
  ['ind', 'Indianapolis', 'Colts', ['CLT'], []],
  ['jax', 'Jacksonville', 'Jaguars', ['JAX', 'JAC'], ['Jags']],
  ['kc', 'Kansas City', 'Chiefs', ['KC', 'KAN'], []],
  ['lv', 'Las Vegas', 'Raiders', ['LV', 'LVR', 'RAI', 'OAK'], []],
  ['lac', 'Los Angeles', 'Chargers', ['LAC', 'SDG'], ['LA Chargers']],
  ['lar', 'Los Angeles', 'Rams', ['LAR', 'LA', 'RAM'], ['LA Rams']],
  ['mia', 'Miami', 'Dolphins', [], []],
  ['min', 'Minnesota', 'Vikings', [], []],
  ['ne', 'New England', 'Patriots', ['NE', 'NWE'], ['Pats']],
  ['no', 'New Orleans', 'Saints', ['NO', 'NOR'], []],
  ['nyg', 'New York', 'Giants', ['NYG'], ['NY Giants']],
  ['nyj', 'New York', 'Jets', ['NYJ'], ['NY Jets']],
  ['phi', 'Philadelphia', 'Eagles', [], []],
  ['pit', 'Pittsburgh', 'Steelers', [], []],
  ['sf', 'San Francisco', '49ers', ['SF', 'SFO'], ['Niners']],
  ['sea', 'Seattle', 'Seahawks', [], []],
  ['tb', 'Tampa Bay', 'Buccaneers', ['TB', 'TAM'], ['Bucs']],
  ['ten', 'Tennessee', 'Titans', ['OTI'], []],
  ['was', 'Washington', 'Commanders', ['WSH', 'WAS'], ['Washington Football Team']],
];

const MLB: Row[] = [
  ['ari', 'Arizona', 'Diamondbacks', ['ARI', 'AZ', 'ARZ'], ['D-backs', 'Dbacks']],
  ['atl', 'Atlanta', 'Braves', [], []],
  ['bal', 'Baltimore', 'Orioles', [], []],
  ['bos', 'Boston', 'Red Sox', [], []],
  ['chc', 'Chicago', 'Cubs', ['CHC', 'CHN'], ['Chi Cubs']],
  ['cws', 'Chicago', 'White Sox', ['CWS', 'CHW', 'CHA'], ['Chi White Sox']],
  ['cin', 'Cincinnati', 'Reds', [], []],
  ['cle', 'Cleveland', 'Guardians', [], []],
  ['col', 'Colorado', 'Rockies', [], []],
  ['det', 'Detroit', 'Tigers', [], []],
  ['hou', 'Houston', 'Astros', [], []],
  ['kc', 'Kansas City', 'Royals', ['KC', 'KCR', 'KCA'], []],
  ['laa', 'Los Angeles', 'Angels', ['LAA', 'ANA'], ['LA Angels']],
  ['lad', 'Los Angeles', 'Dodgers', ['LAD', 'LAN'], ['LA Dodgers']],
  ['mia', 'Miami', 'Marlins', ['FLA'], []],
  ['mil', 'Milwaukee', 'Brewers', [], []],
  ['min', 'Minnesota', 'Twins', [], []],
  ['nym', 'New York', 'Mets', ['NYM', 'NYN'], ['NY Mets']],
  ['nyy', 'New York', 'Yankees', ['NYY', 'NYA'], ['NY Yankees']],
  ['ath', 'Athletics', 'Athletics', ['ATH', 'OAK'], ['Oakland Athletics', "A's", 'Sacramento Athletics']],
  ['phi', 'Philadelphia', 'Phillies', [], []],
  ['pit', 'Pittsburgh', 'Pirates', [], []],
  ['sd', 'San Diego', 'Padres', ['SD', 'SDP', 'SDN'], []],
  ['sf', 'San Francisco', 'Giants', ['SF', 'SFG', 'SFN'], []],
  ['sea', 'Seattle', 'Mariners', [], []],
  ['stl', 'St. Louis', 'Cardinals', ['STL', 'SLN'], ['Saint Louis Cardinals', 'St Louis Cardinals']],
  ['tb', 'Tampa Bay', 'Rays', ['TB', 'TBR', 'TBA'], []],
  ['tex', 'Texas', 'Rangers', [], []],
  ['tor', 'Toronto', 'Blue Jays', [], []],
  ['wsh', 'Washington', 'Nationals', ['WSH', 'WAS', 'WSN'], ['Nats']],
];

const NHL: Row[] = [
  ['ana', 'Anaheim', 'Ducks', [], []],
  ['bos', 'Boston', 'Bruins', [], []],
  ['buf', 'Buffalo', 'Sabres', [], []],
  ['cgy', 'Calgary', 'Flames', ['CGY', 'CAL'], []],
  ['car', 'Carolina', 'Hurricanes', [], ['Canes']],
  ['chi', 'Chicago', 'Blackhawks', [], []],
  ['col', 'Colorado', 'Avalanche', [], ['Avs']],
  ['cbj', 'Columbus', 'Blue Jackets', ['CBJ', 'CLB'], []],
  ['dal', 'Dallas', 'Stars', [], []],
  ['det', 'Detroit', 'Red Wings', [], []],
  ['edm', 'Edmonton', 'Oilers', [], []],
  ['fla', 'Florida', 'Panthers', ['FLA', 'FLO'], []],
  ['lak', 'Los Angeles', 'Kings', ['LA', 'LAK'], ['LA Kings']],
  ['min', 'Minnesota', 'Wild', [], []],
  ['mtl', 'Montreal', 'Canadiens', ['MTL', 'MON'], ['Montréal Canadiens', 'Habs']],
  ['nsh', 'Nashville', 'Predators', ['NSH', 'NAS'], ['Preds']],
  ['njd', 'New Jersey', 'Devils', ['NJ', 'NJD'], []],
  ['nyi', 'New York', 'Islanders', ['NYI'], ['NY Islanders']],
  ['nyr', 'New York', 'Rangers', ['NYR'], ['NY Rangers']],
  ['ott', 'Ottawa', 'Senators', [], ['Sens']],
  ['phi', 'Philadelphia', 'Flyers', [], []],
  ['pit', 'Pittsburgh', 'Penguins', [], ['Pens']],
  ['sjs', 'San Jose', 'Sharks', ['SJ', 'SJS'], []],
  ['sea', 'Seattle', 'Kraken', [], []],
  ['stl', 'St. Louis', 'Blues', ['STL'], ['St Louis Blues', 'Saint Louis Blues']],
  ['tbl', 'Tampa Bay', 'Lightning', ['TB', 'TBL'], []],
  ['tor', 'Toronto', 'Maple Leafs', [], ['Leafs']],
  ['uta', 'Utah', 'Mammoth', ['UTA', 'UTAH'], ['Utah Hockey Club']],
  ['van', 'Vancouver', 'Canucks', [], []],
  ['vgk', 'Vegas', 'Golden Knights', ['VGK', 'VEG'], ['Vegas Golden Knights']],
  ['wsh', 'Washington', 'Capitals', ['WSH', 'WAS'], ['Caps']],
  ['wpg', 'Winnipeg', 'Jets', ['WPG', 'WIN'], []],
];

const ROWS: Record<League, Row[]> = { nba: NBA, wnba: WNBA, nfl: NFL, mlb: MLB, nhl: NHL };

function build(league: League, [key, city, nickname, codes, aliases]: Row): Team {
  const name = city === nickname ? nickname : `${city} ${nickname}`;
  const allCodes = [...new Set([key.toUpperCase(), ...codes])];
  return { league, key, city, nickname, name, codes: allCodes, aliases };
}

export const TEAMS: Readonly<Record<League, readonly Team[]>> = Object.freeze(
  Object.fromEntries(LEAGUE_LIST.map((l) => [l, ROWS[l].map((r) => build(l, r))])) as Record<League, Team[]>,
);

/** Lower-case, accents stripped, punctuation to single spaces: "St. Louis" and "st-louis" meet. */
export function normalizeName(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const AMBIGUOUS = Symbol('ambiguous');
type Slot = Team | typeof AMBIGUOUS;

function indexLeague(teams: readonly Team[]): Map<string, Slot> {
  const m = new Map<string, Slot>();
  const put = (form: string, t: Team) => {
    const k = normalizeName(form);
    if (!k) return;
    const cur = m.get(k);
    if (cur === undefined) m.set(k, t);
    else if (cur !== t) m.set(k, AMBIGUOUS);
  };
  for (const t of teams) {
    put(t.key, t);
    for (const c of t.codes) put(c, t);
    put(t.name, t);
    put(t.nickname, t);
    put(t.city, t);
    for (const a of t.aliases) put(a, t);
    // "LA Lakers"-style short city, and "St Louis" spellings.
    if (t.city === 'Los Angeles') put(`LA ${t.nickname}`, t);
    put(`${t.city} ${t.nickname}`.replace(/^St\. /, 'Saint '), t);
  }
  return m;
}

const INDEX: Record<League, Map<string, Slot>> = Object.fromEntries(
  LEAGUE_LIST.map((l) => [l, indexLeague(TEAMS[l])]),
) as Record<League, Map<string, Slot>>;

/** Codes only: a code beside a name must be the team's own (or coined: see codeFits). */
const CODES: Record<League, Map<string, Slot>> = Object.fromEntries(
  LEAGUE_LIST.map((l) => {
    const m = new Map<string, Slot>();
    for (const t of TEAMS[l])
      for (const c of [t.key, ...t.codes]) {
        const k = normalizeName(c);
        const cur = m.get(k);
        m.set(k, cur === undefined || cur === t ? t : AMBIGUOUS);
      }
    return [l, m];
  }),
) as Record<League, Map<string, Slot>>;

const resolved = new Map<string, Team | null>();

/** The team a name form denotes in a league, or undefined when unknown or ambiguous. */
export function resolveTeam(league: League, form: string): Team | undefined {
  const k = `${league}|${form}`;
  const cached = resolved.get(k);
  if (cached !== undefined) return cached ?? undefined;
  if (resolved.size > 50_000) resolved.clear();
  const t = resolveUncached(league, form);
  resolved.set(k, t ?? null);
  return t;
}

function resolveUncached(league: League, form: string): Team | undefined {
  const hit = INDEX[league].get(normalizeName(form));
  if (hit !== undefined) return hit === AMBIGUOUS ? undefined : hit;
  // "Jaguars (JAC)", "Jacksonville Jaguars [JAC]": a name and a code that must agree.
  const paren = /^(.*?)\s*[([]([^)\]]+)[)\]]\s*$/.exec(form);
  if (paren) {
    const a = resolveUncached(league, paren[1]);
    return a && codeFits(league, paren[2], a) ? a : undefined;
  }
  // The code before or after the name: "JAC Jaguars", "Jaguars JAC", "JAC - Jacksonville Jaguars".
  const coded = /^([A-Za-z0-9.]{2,5})\s*(?:\s|[-–—:|])\s*(.+)$/.exec(form.trim()) ?? undefined;
  if (coded) {
    const a = resolveUncached(league, coded[2]);
    if (a && codeFits(league, coded[1], a, true)) return a;
  }
  const trailing = /^(.+?)\s*(?:\s|[-–—:|])\s*([A-Za-z0-9.]{2,5})$/.exec(form.trim()) ?? undefined;
  if (trailing) {
    const a = resolveUncached(league, trailing[1]);
    if (a && codeFits(league, trailing[2], a, true)) return a;
  }
  // "Los Angeles L": a shared city followed by the nickname's first letter.
  const initial = /^(.*\S)\s+([A-Za-z])$/.exec(form.trim());
  if (initial) {
    const city = normalizeName(initial[1]);
    const found = TEAMS[league].filter(
      (t) => normalizeName(t.city) === city && t.nickname.toLowerCase().startsWith(initial[2].toLowerCase()),
    );
    return found.length === 1 ? found[0] : undefined;
  }
  return undefined;
}

/**
 * A code printed beside a team's name names that team: one of its codes, or (for a code this
 * registry does not list, as leagues and venues coin alternates) an abbreviation of the team's
 * city and nickname ("WSH" for Washington, "JAC" for Jacksonville, "NY" beside "Giants"). The name
 * decides the team; the code only has to agree with it, and a code of another team refuses the pair.
 */
function codeFits(league: League, code: string, team: Team, bare = false): boolean {
  const k = normalizeName(code);
  const byCode = CODES[league].get(k);
  if (byCode !== undefined) return byCode !== AMBIGUOUS ? byCode === team : team.codes.some((c) => normalizeName(c) === k);
  if (INDEX[league].has(k)) return false; // a city or nickname, not a code
  // Beside a name without brackets only an upper-case token reads as a code ("Kansas City" is no code).
  if (bare && code !== code.toUpperCase()) return false;
  if (!/^[a-z]{2,4}$/.test(k)) return false;
  return abbreviatesTeam(k, team);
}

/** The letters of `code` in order within "city nickname", from the first letter of one of its words. */
function abbreviatesTeam(code: string, t: Team): boolean {
  const words = normalizeName(`${t.city} ${t.nickname}`).split(' ');
  const from = words.findIndex((w) => w[0] === code[0]);
  if (from < 0) return false;
  let i = 0;
  for (const ch of words.slice(from).join('')) if (ch === code[i]) i++;
  return i >= code.length;
}

export function teamByKey(league: League, key: string): Team | undefined {
  return TEAMS[league].find((t) => t.key === key.toLowerCase());
}

export function isLeague(s: string): s is League {
  return (LEAGUE_LIST as readonly string[]).includes(s);
}
