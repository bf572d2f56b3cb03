// venue_1's canonical reading (FORMATS.md "venue_1"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, parseIso, splitPair, teamSubject, make, otherOf, teamIn, MONTHS, propMarket, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam, type League, type Team } from '../../../matching/teams.ts';
import { easternDate, easternLocalToUtc, isPlaceholderStart } from '../../../matching/time.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import { readPropTitle, readThreshold, type RosterBook } from '../../../matching/props.ts';
import type { MarketReading, Segment, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

const V1_LEAGUES = ['WNBA', 'NBA', 'NFL', 'MLB', 'NHL'] as const;
const V1_KINDS = ['GAME', 'SPREAD', 'TOTAL', 'TEAMTOTAL', '1HTOTAL', '1QSPREAD', '2HSPREAD', 'PTS', 'REB', 'AST', 'PASSYDS', 'RUSHYDS', 'RECYDS', 'REC', 'PASSTDS', 'TD'] as const;
const V1_SERIES = new RegExp(`^KX(${V1_LEAGUES.join('|')})(${V1_KINDS.join('|')})$`);
/** Every series whose markets are read here (the fee schedule poller reads their fees). */
export const VENUE1_SPORTS_SERIES: readonly string[] = V1_LEAGUES.flatMap((l) => V1_KINDS.map((k) => `KX${l}${k}`));
const V1_PROP_STAT: Record<string, string> = { PTS: 'points', REB: 'rebounds', AST: 'assists', PASSYDS: 'passing_yards', RUSHYDS: 'rushing_yards', RECYDS: 'receiving_yards', REC: 'receptions', PASSTDS: 'passing_touchdowns', TD: 'anytime_touchdown' };

function splitCodes(league: League, codes: string): [Team, Team] | undefined {
  const found: [Team, Team][] = [];
  for (let i = 2; i <= codes.length - 2; i++) {
    const a = resolveTeam(league, codes.slice(0, i));
    const h = resolveTeam(league, codes.slice(i));
    if (a && h && a !== h) found.push([a, h]);
  }
  return found.length === 1 ? found[0] : undefined;
}

function venue1Status(m: J): { status: VenueStatus; fifty: boolean } {
  const s = str(m.status);
  const result = str(m.result);
  if (s === 'settled' || s === 'finalized') return { status: 'settled', fifty: result === 'void' };
  if (s === 'closed') return { status: 'closed', fifty: false };
  return { status: 'open', fifty: false };
}

export function canonicalizeVenue1(rec: J, observedAt: number, rosters?: RosterBook): MarketReading[] {
  if (Array.isArray(rec.markets)) return arr(rec.markets).flatMap((m) => canonicalizeVenue1({ ...m, _event: rec.event ?? rec }, observedAt, rosters));
  const ticker = str(rec.ticker);
  const eventTicker = str(rec.event_ticker);
  if (!ticker || !eventTicker) return [];
  const [series, eventPart] = eventTicker.split('-');
  const sm = V1_SERIES.exec(series ?? '');
  if (!sm || !eventPart) return [];
  const league = sm[1].toLowerCase() as League;
  const kind = sm[2];
  const em = /^(\d{2})([A-Z]{3})(\d{2})(\d{4})?([A-Z]+)$/.exec(eventPart);
  if (!em) return [];
  const month = MONTHS.indexOf(em[2]) + 1;
  if (month === 0) return [];
  const date = `20${em[1]}-${String(month).padStart(2, '0')}-${em[3]}`;
  const pair = splitCodes(league, em[5]);
  const title = str(rec.title) ?? '';
  let away = pair?.[0];
  let home = pair?.[1];
  if (!away || !home) {
    const sp = splitPair(title.replace(/\s+(Winner|Spread|Total)\??.*$/i, ''), /\s+at\s+/i);
    away = sp ? resolveTeam(league, sp[0]) : undefined;
    home = sp ? resolveTeam(league, sp[1]) : undefined;
  }
  if (!away || !home || away === home) return [];
  let start: number | null = null;
  if (em[4]) {
    const t = easternLocalToUtc(date, em[4]);
    if (t !== null && !isPlaceholderStart(t)) start = t;
  }
  const ev = rec._event as J | undefined;
  const strike = parseIso(str(ev?.strike_date));
  // The event's strike_date is the current start: after a postponement the ticker keeps the
  // original day ("originally scheduled for") while strike_date moves (never earlier).
  let day = date;
  if (strike !== undefined && !isPlaceholderStart(strike) && easternDate(strike) >= date && strike - Date.parse(`${date}T00:00:00Z`) < 30 * 86_400_000) {
    start = strike;
    day = easternDate(strike);
  }
  const st = venue1Status(rec);
  const rulesText = [str(rec.rules_primary), str(rec.rules_secondary)].filter(Boolean).join(' ');
  const b: Base = { provider: 'venue_1', league, away, home, date: day, start, observedAt, status: st.status, fifty: st.fifty, rulesText, rulesUrl: evidenceUrl(rulesText), rosters };
  const cs = (rec.custom_strike ?? {}) as J;
  const yesNo = (yesKey: string, noKey: string): SourceOutcome[] => [
    { canonical_outcome_key: yesKey, label: 'Yes', outcome_id: 'yes', side: 'yes' },
    { canonical_outcome_key: noKey, label: 'No', outcome_id: 'no', side: 'no' },
  ];
  const common = { market_id: ticker, event_id: eventTicker, market_name: title || ticker };
  const segment: Segment = kind === '1HTOTAL' ? 'half:1' : kind === '1QSPREAD' ? 'quarter:1' : kind === '2HSPREAD' ? 'half:2' : 'full';
  const team = str(cs.team) ? teamIn(b, str(cs.team)!) : undefined;
  const strike2 = num(cs.floor_strike);
  switch (kind) {
    case 'GAME': {
      const t = team ?? teamIn(b, str(rec.yes_sub_title) ?? '');
      if (!t) return [];
      return [make(b, { ...common, marketType: 'moneyline', segment, outcomes: yesNo(`winner:${t.key}`, `winner:${otherOf(b, t).key}`) })];
    }
    case 'SPREAD':
    case '1QSPREAD':
    case '2HSPREAD': {
      // "wins by over 3.5": the named team at -3.5.
      if (!team || strike2 === undefined) return [];
      return [make(b, { ...common, marketType: 'spread', segment, subject: teamSubject(team), line: -strike2, outcomes: yesNo(`cover:${team.key}`, `not_cover:${team.key}`) })];
    }
    case 'TOTAL':
    case '1HTOTAL':
      if (strike2 === undefined) return [];
      return [make(b, { ...common, marketType: 'total', segment, line: strike2, outcomes: yesNo('over', 'under') })];
    case 'TEAMTOTAL':
      if (!team || strike2 === undefined) return [];
      return [make(b, { ...common, marketType: 'team_total', segment, subject: teamSubject(team), line: strike2, outcomes: yesNo('over', 'under') })];
    default: {
      const stat = V1_PROP_STAT[kind];
      // The strike's threshold ("25": 25+), else what the title prints (`LeBron James: 25+ points`).
      const n = num(cs.threshold);
      const fromTitle = readPropTitle(title);
      const th = n !== undefined ? { line: n - 0.5, printed: `${n}+` } : (readThreshold(str(cs.threshold) ?? '') ?? fromTitle);
      const player = str(cs.player) ?? fromTitle?.player;
      if (!stat || !th || !player) return [];
      // "25+" on an integer statistic means over 24.5.
      return propMarket(b, { player, stat, line: th.line, printed: th.printed, common, outcomes: yesNo('over', 'under') });
    }
  }
}
