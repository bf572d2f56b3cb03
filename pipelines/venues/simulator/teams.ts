// Real-world teams of the five leagues and generated rosters for player props.
// In: nothing (static data) and the seed. Out: teams (code, city, nickname, a second code some
// venues print) and per-team rosters (athlete ids, names, positions). This is world data the
// simulator renders from; it is not ground truth and the pipeline never imports it.
import { h32, pick } from './core.ts';

import { LEAGUES, type League } from '../../../lib/vocabulary.ts';
export { LEAGUES, type League };

export interface SimTeam {
  league: League;
  /** Common code, upper case ("LAL"). */
  code: string;
  /** A second code some venues print ("GS" for "GSW"); equals `code` when there is none. */
  alt: string;
  city: string;
  nickname: string;
  name: string;
  /** Another team of the league shares the city ("Los Angeles"). */
  sharedCity: boolean;
}

export interface Player {
  athleteId: number;
  name: string;
  position: string;
  jersey: number;
  team: string;
}

const DATA: Record<League, [string, string, string, string][]> = {
  nba: [
    ["ATL", "Atlanta", "Hawks", "ATL"],
    ["BOS", "Boston", "Celtics", "BOS"],
    ["BKN", "Brooklyn", "Nets", "BRK"],
    ["CHA", "Charlotte", "Hornets", "CHO"],
    ["CHI", "Chicago", "Bulls", "CHI"],
    ["CLE", "Cleveland", "Cavaliers", "CLE"],
    ["DAL", "Dallas", "Mavericks", "DAL"],
    ["DEN", "Denver", "Nuggets", "DEN"],
    ["DET", "Detroit", "Pistons", "DET"],
    ["GSW", "Golden State", "Warriors", "GS"],
    ["HOU", "Houston", "Rockets", "HOU"],
    ["IND", "Indiana", "Pacers", "IND"],
    ["LAC", "Los Angeles", "Clippers", "LAC"],
    ["LAL", "Los Angeles", "Lakers", "LAL"],
    ["MEM", "Memphis", "Grizzlies", "MEM"],
    ["MIA", "Miami", "Heat", "MIA"],
    ["MIL", "Milwaukee", "Bucks", "MIL"],
    ["MIN", "Minnesota", "Timberwolves", "MIN"],
    ["NOP", "New Orleans", "Pelicans", "NO"],
    ["NYK", "New York", "Knicks", "NY"],
    ["OKC", "Oklahoma City", "Thunder", "OKL"],
    ["ORL", "Orlando", "Magic", "ORL"],
    ["PHI", "Philadelphia", "76ers", "PHI"],
    ["PHX", "Phoenix", "Suns", "PHO"],
    ["POR", "Portland", "Trail Blazers", "POR"],
    ["SAC", "Sacramento", "Kings", "SAC"],
    ["SAS", "San Antonio", "Spurs", "SA"],
    ["TOR", "Toronto", "Raptors", "TOR"],
    ["UTA", "Utah", "Jazz", "UTAH"],
    ["WAS", "Washington", "Wizards", "WSH"],
  ],
  wnba: [
    ["ATL", "Atlanta", "Dream", "ATL"],
    ["CHI", "Chicago", "Sky", "CHI"],
    ["CON", "Connecticut", "Sun", "CONN"],
    ["DAL", "Dallas", "Wings", "DAL"],
    ["GSV", "Golden State", "Valkyries", "GS"],
    ["IND", "Indiana", "Fever", "IND"],
    ["LVA", "Las Vegas", "Aces", "LV"],
    ["LAS", "Los Angeles", "Sparks", "LA"],
    ["MIN", "Minnesota", "Lynx", "MIN"],
    ["NYL", "New York", "Liberty", "NY"],
    ["PHX", "Phoenix", "Mercury", "PHO"],
    ["POR", "Portland", "Fire", "POR"],
    ["SEA", "Seattle", "Storm", "SEA"],
    ["TOR", "Toronto", "Tempo", "TOR"],
    ["WAS", "Washington", "Mystics", "WSH"],
  ],
  nfl: [
    ["ARI", "Arizona", "Cardinals", "ARZ"],
    ["ATL", "Atlanta", "Falcons", "ATL"],
    ["BAL", "Baltimore", "Ravens", "BAL"],
    ["BUF", "Buffalo", "Bills", "BUF"],
    ["CAR", "Carolina", "Panthers", "CAR"],
    ["CHI", "Chicago", "Bears", "CHI"],
    ["CIN", "Cincinnati", "Bengals", "CIN"],
    ["CLE", "Cleveland", "Browns", "CLE"],
    ["DAL", "Dallas", "Cowboys", "DAL"],
    ["DEN", "Denver", "Broncos", "DEN"],
    ["DET", "Detroit", "Lions", "DET"],
    ["GB", "Green Bay", "Packers", "GNB"],
    ["HOU", "Houston", "Texans", "HOU"],
    ["IND", "Indianapolis", "Colts", "IND"],
    ["JAX", "Jacksonville", "Jaguars", "JAC"],
    ["KC", "Kansas City", "Chiefs", "KAN"],
    ["LV", "Las Vegas", "Raiders", "LVR"],
    ["LAC", "Los Angeles", "Chargers", "LAC"],
    ["LAR", "Los Angeles", "Rams", "LA"],
    ["MIA", "Miami", "Dolphins", "MIA"],
    ["MIN", "Minnesota", "Vikings", "MIN"],
    ["NE", "New England", "Patriots", "NWE"],
    ["NO", "New Orleans", "Saints", "NOR"],
    ["NYG", "New York", "Giants", "NYG"],
    ["NYJ", "New York", "Jets", "NYJ"],
    ["PHI", "Philadelphia", "Eagles", "PHI"],
    ["PIT", "Pittsburgh", "Steelers", "PIT"],
    ["SF", "San Francisco", "49ers", "SFO"],
    ["SEA", "Seattle", "Seahawks", "SEA"],
    ["TB", "Tampa Bay", "Buccaneers", "TAM"],
    ["TEN", "Tennessee", "Titans", "TEN"],
    ["WAS", "Washington", "Commanders", "WSH"],
  ],
  mlb: [
    ["ARI", "Arizona", "Diamondbacks", "AZ"],
    ["ATL", "Atlanta", "Braves", "ATL"],
    ["BAL", "Baltimore", "Orioles", "BAL"],
    ["BOS", "Boston", "Red Sox", "BOS"],
    ["CHC", "Chicago", "Cubs", "CHC"],
    ["CWS", "Chicago", "White Sox", "CHW"],
    ["CIN", "Cincinnati", "Reds", "CIN"],
    ["CLE", "Cleveland", "Guardians", "CLE"],
    ["COL", "Colorado", "Rockies", "COL"],
    ["DET", "Detroit", "Tigers", "DET"],
    ["HOU", "Houston", "Astros", "HOU"],
    ["KC", "Kansas City", "Royals", "KCR"],
    ["LAA", "Los Angeles", "Angels", "ANA"],
    ["LAD", "Los Angeles", "Dodgers", "LAD"],
    ["MIA", "Miami", "Marlins", "MIA"],
    ["MIL", "Milwaukee", "Brewers", "MIL"],
    ["MIN", "Minnesota", "Twins", "MIN"],
    ["NYM", "New York", "Mets", "NYM"],
    ["NYY", "New York", "Yankees", "NYY"],
    ["ATH", "Athletics", "Athletics", "OAK"],
    ["PHI", "Philadelphia", "Phillies", "PHI"],
    ["PIT", "Pittsburgh", "Pirates", "PIT"],
    ["SD", "San Diego", "Padres", "SDP"],
    ["SF", "San Francisco", "Giants", "SFG"],
    ["SEA", "Seattle", "Mariners", "SEA"],
    ["STL", "St. Louis", "Cardinals", "STL"],
    ["TB", "Tampa Bay", "Rays", "TBR"],
    ["TEX", "Texas", "Rangers", "TEX"],
    ["TOR", "Toronto", "Blue Jays", "TOR"],
    ["WSH", "Washington", "Nationals", "WAS"],
  ],
  nhl: [
    ["ANA", "Anaheim", "Ducks", "ANA"],
    ["BOS", "Boston", "Bruins", "BOS"],
    ["BUF", "Buffalo", "Sabres", "BUF"],
    ["CGY", "Calgary", "Flames", "CAL"],
    ["CAR", "Carolina", "Hurricanes", "CAR"],
    ["CHI", "Chicago", "Blackhawks", "CHI"],
    ["COL", "Colorado", "Avalanche", "COL"],
    ["CBJ", "Columbus", "Blue Jackets", "CLB"],
    ["DAL", "Dallas", "Stars", "DAL"],
    ["DET", "Detroit", "Red Wings", "DET"],
    ["EDM", "Edmonton", "Oilers", "EDM"],
    ["FLA", "Florida", "Panthers", "FLO"],
    ["LAK", "Los Angeles", "Kings", "LA"],
    ["MIN", "Minnesota", "Wild", "MIN"],
    ["MTL", "Montreal", "Canadiens", "MON"],
    ["NSH", "Nashville", "Predators", "NAS"],
    ["NJD", "New Jersey", "Devils", "NJ"],
    ["NYI", "New York", "Islanders", "NYI"],
    ["NYR", "New York", "Rangers", "NYR"],
    ["OTT", "Ottawa", "Senators", "OTT"],
    ["PHI", "Philadelphia", "Flyers", "PHI"],
    ["PIT", "Pittsburgh", "Penguins", "PIT"],
    ["SJS", "San Jose", "Sharks", "SJ"],
    ["SEA", "Seattle", "Kraken", "SEA"],
    ["STL", "St. Louis", "Blues", "STL"],
    ["TBL", "Tampa Bay", "Lightning", "TB"],
    ["TOR", "Toronto", "Maple Leafs", "TOR"],
    ["UTA", "Utah", "Mammoth", "UTAH"],
    ["VAN", "Vancouver", "Canucks", "VAN"],
    ["VGK", "Vegas", "Golden Knights", "VEG"],
    ["WSH", "Washington", "Capitals", "WAS"],
    ["WPG", "Winnipeg", "Jets", "WIN"],
  ],
};

export const TEAMS: Record<League, SimTeam[]> = Object.fromEntries(
  LEAGUES.map((lg) => {
    const rows = DATA[lg];
    return [
      lg,
      rows.map(([code, city, nickname, alt]) => ({
        league: lg,
        code,
        alt,
        city,
        nickname,
        name: city === nickname ? nickname : `${city} ${nickname}`,
        sharedCity: rows.filter((r) => r[1] === city).length > 1,
      })),
    ];
  }),
) as Record<League, SimTeam[]>;

export function teamByCode(league: League, code: string): SimTeam | undefined {
  return TEAMS[league].find((t) => t.code === code);
}

// Real stars so prop titles read like the venues' ("LeBron James 25+ points").
const STARS: Record<string, [string, string][]> = {
  'nba:LAL': [['LeBron James', 'F'], ['Luka Doncic', 'G']],
  'nba:BOS': [['Jayson Tatum', 'F'], ['Jaylen Brown', 'G']],
  'nba:GSW': [['Stephen Curry', 'G'], ['Draymond Green', 'F']],
  'nba:DEN': [['Nikola Jokic', 'C'], ['Jamal Murray', 'G']],
  'nba:MIL': [['Giannis Antetokounmpo', 'F'], ['Damian Lillard', 'G']],
  'nba:OKC': [['Shai Gilgeous-Alexander', 'G'], ['Chet Holmgren', 'C']],
  'nba:NYK': [['Jalen Brunson', 'G'], ['Karl-Anthony Towns', 'C']],
  'nba:PHX': [['Devin Booker', 'G'], ['Kevin Durant', 'F']],
  'nba:DAL': [['Anthony Davis', 'F'], ['Kyrie Irving', 'G']],
  'nba:MIN': [['Anthony Edwards', 'G'], ['Rudy Gobert', 'C']],
  'wnba:LVA': [["A'ja Wilson", 'F'], ['Jackie Young', 'G']],
  'wnba:IND': [['Caitlin Clark', 'G'], ['Aliyah Boston', 'F']],
  'wnba:NYL': [['Breanna Stewart', 'F'], ['Sabrina Ionescu', 'G']],
  'nfl:KC': [['Patrick Mahomes', 'QB'], ['Travis Kelce', 'TE'], ['Isiah Pacheco', 'RB']],
  'nfl:BUF': [['Josh Allen', 'QB'], ['James Cook', 'RB'], ['Khalil Shakir', 'WR']],
  'nfl:BAL': [['Lamar Jackson', 'QB'], ['Derrick Henry', 'RB'], ['Zay Flowers', 'WR']],
  'nfl:PHI': [['Jalen Hurts', 'QB'], ['Saquon Barkley', 'RB'], ['A.J. Brown', 'WR']],
  'nfl:CIN': [['Joe Burrow', 'QB'], ["Ja'Marr Chase", 'WR'], ['Chase Brown', 'RB']],
  'nfl:DET': [['Jared Goff', 'QB'], ['Jahmyr Gibbs', 'RB'], ['Amon-Ra St. Brown', 'WR']],
  'nfl:SF': [['Brock Purdy', 'QB'], ['Christian McCaffrey', 'RB'], ['George Kittle', 'TE']],
  'nfl:DAL': [['Dak Prescott', 'QB'], ['CeeDee Lamb', 'WR'], ['Javonte Williams', 'RB']],
};
const FIRST = [
  'Marcus', 'Jalen', 'Tyler', 'Devin', 'Chris', 'Jordan', 'Andre', 'Malik', 'Trey', 'Caleb', 'Darius',
  'Isaiah', 'Kevin', 'Brandon', 'Xavier', 'Miles', 'Jaylen', 'Cole', 'Evan', 'Noah', 'Aaron', 'Derek',
];
const FIRST_W = [
  'Aaliyah', 'Brianna', 'Kayla', 'Jasmine', 'Maya', 'Taylor', 'Jordan', 'Alexis', 'Destiny', 'Sydney',
  'Morgan', 'Kelsey', 'Natasha', 'Courtney', 'Erica', 'Dana',
];
const LAST = [
  'Johnson', 'Williams', 'Brown', 'Carter', 'Mitchell', 'Harris', 'Robinson', 'Walker', 'Bennett',
  'Coleman', 'Hayes', 'Porter', 'Fletcher', 'Griffin', 'Sullivan', 'Dawson', 'Reed', 'Holloway',
  'Pryor', 'Vance', 'Okafor', 'Mensah', 'Novak', 'Lindqvist', 'Castillo', 'Moreau',
];
const POS: Record<League, string[]> = {
  nba: ['G', 'G', 'F', 'F', 'C'],
  wnba: ['G', 'G', 'F', 'F', 'C'],
  nfl: ['QB', 'RB', 'WR', 'WR', 'TE'],
  mlb: ['SP', 'C', '1B', 'SS', 'CF'],
  nhl: ['C', 'LW', 'RW', 'D', 'G'],
};

/** The roster of a team: stars first in their positions, then generated players. */
export function roster(seed: number, team: SimTeam): Player[] {
  const stars = [...(STARS[`${team.league}:${team.code}`] ?? [])];
  const out: Player[] = [];
  const pos = POS[team.league];
  for (let k = 0; k < pos.length; k++) {
    const si = stars.findIndex(([, p]) => p === pos[k]);
    let name: string;
    if (si >= 0) name = stars.splice(si, 1)[0][0];
    else {
      const first = pick(team.league === 'wnba' ? FIRST_W : FIRST, seed, team.league, team.code, k, 'f');
      let last = pick(LAST, seed, team.league, team.code, k, 'l');
      if (out.some((o) => o.name.endsWith(` ${last}`))) last = `${last}-${pick(LAST, seed, team.code, k, 'l2')}`;
      name = `${first} ${last}`;
    }
    out.push({
      athleteId: 100000 + (h32(seed, 'athlete', team.league, team.code, k) % 900000),
      name,
      position: pos[k],
      jersey: 1 + (h32(seed, 'jersey', team.league, team.code, k) % 98),
      team: team.code,
    });
  }
  return out;
}
