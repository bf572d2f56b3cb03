// Canonicalize, per venue, from what venues publish (pipelines/venues/simulator/FORMATS.md).
// In: one raw venue record as read (a market, or an event/question/parent with its markets nested)
// and when its read began. Out: the canonical markets it contains: league, both teams through the
// team registry, Eastern day and exact start (placeholder and date-only times give a null start),
// market type, segment, line, subject, outcomes mapped onto canonical outcome keys, rule values read
// from the venue's rules text, lookup identifiers and status. Records that are not sports game
// lines or admitted props give nothing. An open market also carries the top of book and taker fee
// its record lists (source-quotes.ts), which the prices view of the sports routes reads.
// Pure: no I/O, no clock.
import { resolveTeam, isLeague, type League, type Team, TEAMS } from './teams.ts';
import { easternDate, easternLocalToUtc, isPlaceholderStart, isRealDate } from './time.ts';
import { readGameLineRules, readPropRules, evidenceUrl } from './rulestext.ts';
import { admitProp, readPropTitle, readThreshold, type PropInput, type RosterBook } from './props.ts';
import type { CanonicalMarket, MarketType, Provider, Segment, SourceOutcome, Subject, VenueStatus, RuleValue } from './types.ts';
import { sourceQuotesOf } from './source-quotes.ts';

type J = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
const arr = (v: unknown): J[] => (Array.isArray(v) ? (v as J[]) : []);
function jsonArr(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') {
    try {
      const p = JSON.parse(v) as unknown;
      return Array.isArray(p) ? p.map(String) : [];
    } catch {
      return [];
    }
  }
  return [];
}

export function leagueIn(s: string | undefined | null): League | undefined {
  if (!s) return undefined;
  const m = /(?:^|[^a-z])(wnba|nba|nfl|mlb|nhl)(?:[^a-z]|$)/i.exec(s);
  return m ? (m[1].toLowerCase() as League) : undefined;
}

/** Exact start from an instant, unless it is a placeholder time. */
function startOf(ms: number | undefined): { date: string; start: number | null } | undefined {
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  return { date: easternDate(ms), start: isPlaceholderStart(ms) ? null : ms };
}

/** An instant with its zone ("2026-11-22T00:30:00Z", venue_2's "2026-11-22 00:30:00+00"); a time without one is no instant. */
function parseIso(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const iso = s.trim().replace(' ', 'T').replace(/\+00$/, 'Z');
  if (!/T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(iso)) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The day and exact start of a printed start. A date alone ("2026-11-21"), a date with a time but
 * no zone ("2026-11-21T00:00:00", local midnight) or with a word ("2026-11-21 TBD") names the day
 * only: the printed date is the day, the start is unknown. An instant gives its Eastern day, and
 * its start unless it is a placeholder time (time.ts).
 */
function whenOf(s: string | undefined): { date: string; start: number | null } | undefined {
  if (!s) return undefined;
  // Midnight printed with a local offset ("2026-11-21T00:00:00-08:00") is that day with no time.
  const local = /^(\d{4}-\d{2}-\d{2})[T ]00:00(?::00(?:\.0+)?)?[+-](?!00(?::?00)?$)\d{2}(?::?\d{2})?$/.exec(s.trim());
  if (local && isRealDate(local[1])) return { date: local[1], start: null };
  const t = parseIso(s);
  if (t !== undefined) return startOf(t);
  const d = /^(\d{4}-\d{2}-\d{2})(?:$|[T ]\s*(?:00:00(?::00(?:\.0+)?)?|TBD|TBA)\s*$)/i.exec(s.trim());
  return d && isRealDate(d[1]) ? { date: d[1], start: null } : undefined;
}

/** "Away at Home", "Away @ Home", "Away vs Home" (away first) split into two team forms. */
function splitPair(title: string, seps: RegExp): [string, string] | undefined {
  const m = seps.exec(title);
  if (!m) return undefined;
  return [title.slice(0, m.index).trim(), title.slice(m.index + m[0].length).trim()];
}

interface Base {
  provider: Provider;
  league: League;
  away: Team;
  home: Team;
  date: string;
  start: number | null;
  gameNumber?: number;
  observedAt: number;
  status: VenueStatus;
  fifty?: boolean;
  rulesText?: string;
  rulesUrl?: string;
}

interface Line {
  marketType: MarketType;
  segment: Segment;
  line?: number;
  subject?: Subject;
  stat?: string;
  propVerified?: boolean;
  outcomes: SourceOutcome[];
  market_id: string;
  event_id: string;
  market_name: string;
  market_slug?: string;
  lookupIds?: string[];
  rules?: Partial<Record<string, RuleValue>>;
  /** Overrides the fifty/status of the base (per-market status). */
  status?: VenueStatus;
  fifty?: boolean;
}

const teamSubject = (t: Team): Subject => ({ type: 'team', key: t.key, name: t.name });

function make(b: Base, l: Line): CanonicalMarket {
  const rules = l.rules ?? (l.marketType === 'player_prop' ? {} : readGameLineRules(b.rulesText, b.provider, { league: b.league, marketType: l.marketType, segment: l.segment }, b.rulesUrl));
  // Overtime in the key: a team total counts overtime unless the venue says otherwise; a second
  // half or fourth quarter only when the venue says it does.
  const ot = rules.overtime?.value;
  const inclOt = l.marketType === 'team_total' ? ot !== 'excluded' : ot === 'included';
  const m: CanonicalMarket = {
    provider: b.provider,
    league: b.league,
    away: b.away.key,
    home: b.home.key,
    scheduledDate: b.date,
    scheduledStart: b.start,
    marketType: l.marketType,
    segment: l.segment,
    inclOt,
    source: {
      provider: b.provider,
      event_id: l.event_id,
      market_id: l.market_id,
      market_name: l.market_name,
      ...(l.market_slug ? { market_slug: l.market_slug } : {}),
      outcomes: l.outcomes,
    },
    rules,
    lookupIds: l.lookupIds ?? [],
    status: l.status ?? b.status,
    observedAt: b.observedAt,
  };
  if (b.gameNumber !== undefined) m.gameNumber = b.gameNumber;
  if (l.line !== undefined) m.line = l.line;
  if (l.subject) m.subject = l.subject;
  if (l.stat) m.stat = l.stat;
  if (l.propVerified !== undefined) m.propVerified = l.propVerified;
  if (l.fifty ?? b.fifty) m.settledFiftyFifty = true;
  return m;
}

/** Spread from one side's signed line: the subject is the favourite (negative line). */
function spreadFrom(team: Team, other: Team, signed: number): { subject: Subject; line: number; teamSide: 'cover' | 'not_cover' } {
  if (signed < 0 || (signed === 0 && true)) return { subject: teamSubject(team), line: signed, teamSide: 'cover' };
  return { subject: teamSubject(other), line: -signed, teamSide: 'not_cover' };
}

const otherOf = (b: Base, t: Team) => (t === b.away ? b.home : b.away);
function teamIn(b: Base, form: string): Team | undefined {
  const t = resolveTeam(b.league, form);
  return t && (t === b.away || t === b.home) ? t : undefined;
}

// ---------------------------------------------------------------- venue_1
const V1_SERIES = /^KX(WNBA|NBA|NFL|MLB|NHL)(GAME|SPREAD|TOTAL|TEAMTOTAL|1HTOTAL|1QSPREAD|2HSPREAD|PTS|REB|AST|PASSYDS|RUSHYDS|RECYDS|REC|PASSTDS|TD)$/;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
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

export function canonicalizeVenue1(rec: J, observedAt: number): CanonicalMarket[] {
  if (Array.isArray(rec.markets)) return arr(rec.markets).flatMap((m) => canonicalizeVenue1({ ...m, _event: rec.event ?? rec }, observedAt));
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
  const b: Base = { provider: 'venue_1', league, away, home, date: day, start, observedAt, status: st.status, fifty: st.fifty, rulesText, rulesUrl: evidenceUrl(rulesText) };
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

// ---------------------------------------------------------------- props (shared)
let ROSTERS: RosterBook | undefined;
/** The processor installs the roster book it keeps (rosters are read like any venue data). */
export function setRosterBook(book: RosterBook | undefined): void {
  ROSTERS = book;
}

function propMarket(
  b: Base,
  p: { player: string; stat: string; line: number; printed: string; common: { market_id: string; event_id: string; market_name: string; market_slug?: string }; outcomes: SourceOutcome[]; lookupIds?: string[] },
): CanonicalMarket[] {
  const input: PropInput = { league: b.league, away: b.away.key, home: b.home.key, player: p.player, stat: p.stat, line: p.line, start: b.start, date: b.date, observedAt: b.observedAt };
  const admitted = admitProp(input, ROSTERS);
  if (!admitted) return [];
  const rules = readPropRules(b.rulesText, b.provider, { line: p.line, printed: p.printed }, { league: b.league, marketType: 'player_prop', segment: 'full' }, b.rulesUrl);
  return [
    make(b, {
      ...p.common,
      marketType: 'player_prop',
      segment: 'full',
      line: p.line,
      stat: admitted.stat,
      subject: { type: 'player', key: admitted.playerKey, name: admitted.playerName },
      propVerified: true,
      outcomes: p.outcomes,
      rules,
      lookupIds: p.lookupIds,
    }),
  ];
}

// ---------------------------------------------------------------- venue_2
const V2_TYPES: Record<string, { type: MarketType; segment: Segment } | undefined> = {
  moneyline: { type: 'moneyline', segment: 'full' },
  spreads: { type: 'spread', segment: 'full' },
  totals: { type: 'total', segment: 'full' },
  team_totals: { type: 'team_total', segment: 'full' },
  first_half_totals: { type: 'total', segment: 'half:1' },
  first_half_spreads: { type: 'spread', segment: 'half:1' },
  second_half_spreads: { type: 'spread', segment: 'half:2' },
  first_quarter_spreads: { type: 'spread', segment: 'quarter:1' },
};

export function canonicalizeVenue2(rec: J, observedAt: number): CanonicalMarket[] {
  if (Array.isArray(rec.markets) && !rec.conditionId) {
    return arr(rec.markets).flatMap((m) => canonicalizeVenue2({ ...m, events: m.events ?? [{ id: rec.id, slug: rec.slug, title: rec.title }] }, observedAt));
  }
  const slug = str(rec.slug) ?? '';
  const tags = arr(rec.tags).map((t) => str(t.slug) ?? '');
  const league = leagueIn(slug.split('-')[0]) ?? (tags.map((t) => (isLeague(t) ? t : undefined)).find(Boolean) as League | undefined);
  if (!league) return [];
  const ev = arr(rec.events)[0] ?? {};
  const eventTitle = str(ev.title) ?? str(rec.question) ?? '';
  // Titles `Lakers vs. Celtics` (away first); the slug's codes confirm.
  const sp = splitPair(eventTitle, /\s+vs\.?\s+/i);
  let away = sp ? resolveTeam(league, sp[0]) : undefined;
  let home = sp ? resolveTeam(league, sp[1]) : undefined;
  const codes = /^[a-z]+-([a-z]+)-([a-z]+)-\d{4}-\d{2}-\d{2}/.exec(slug);
  if (codes) {
    const a = resolveTeam(league, codes[1]);
    const h = resolveTeam(league, codes[2]);
    if (!away || !home) {
      away = a;
      home = h;
    } else if (a && h && (a !== away || h !== home)) return []; // title and slug disagree: refuse
  }
  if (!away || !home || away === home) return [];
  const when = whenOf(str(rec.gameStartTime));
  if (!when) return [];
  const prices = jsonArr(rec.outcomePrices);
  const resolved = str(rec.umaResolutionStatus) === 'resolved';
  const status: VenueStatus = resolved ? 'settled' : rec.closed === true || rec.active === false ? 'closed' : 'open';
  const fifty = resolved && prices.length === 2 && Number(prices[0]) === 0.5 && Number(prices[1]) === 0.5;
  const rulesText = str(rec.description);
  const b: Base = { provider: 'venue_2', league, away, home, date: when.date, start: when.start, observedAt, status, fifty, rulesText, rulesUrl: evidenceUrl(rulesText) };
  const names = jsonArr(rec.outcomes);
  const tokens = jsonArr(rec.clobTokenIds);
  if (names.length !== 2 || tokens.length !== 2) return [];
  const id = str(rec.id);
  if (!id) return [];
  const lookupIds = [str(rec.conditionId), ...tokens, str(ev.slug), str(ev.id)].filter((x): x is string => !!x);
  const common = { market_id: id, event_id: str(ev.id) ?? id, market_name: str(rec.question) ?? slug, market_slug: slug, lookupIds };
  const out = (keys: [string, string]): SourceOutcome[] => [
    { canonical_outcome_key: keys[0], label: names[0], outcome_id: tokens[0] },
    { canonical_outcome_key: keys[1], label: names[1], outcome_id: tokens[1] },
  ];
  const smt = str(rec.sportsMarketType) ?? '';
  const kind = V2_TYPES[smt];
  const line = num(rec.line);
  if (kind?.type === 'moneyline') {
    const t0 = teamIn(b, names[0]);
    const t1 = teamIn(b, names[1]);
    if (!t0 || !t1 || t0 === t1) return [];
    return [make(b, { ...common, marketType: 'moneyline', segment: kind.segment, outcomes: out([`winner:${t0.key}`, `winner:${t1.key}`]) })];
  }
  if (kind?.type === 'spread') {
    const t0 = teamIn(b, names[0]);
    if (!t0 || line === undefined) return [];
    const s = spreadFrom(t0, otherOf(b, t0), line);
    const k0 = `${s.teamSide}:${s.subject.key}`;
    const k1 = `${s.teamSide === 'cover' ? 'not_cover' : 'cover'}:${s.subject.key}`;
    return [make(b, { ...common, marketType: 'spread', segment: kind.segment, subject: s.subject, line: s.line, outcomes: out([k0, k1]) })];
  }
  if (kind?.type === 'total' || kind?.type === 'team_total') {
    if (line === undefined || !/^over/i.test(names[0]) || !/^under/i.test(names[1])) return [];
    if (kind.type === 'team_total') {
      const q = /^(.*?)\s+Team Total/i.exec(str(rec.question) ?? '');
      const team = q ? teamIn(b, q[1]) : undefined;
      if (!team) return [];
      return [make(b, { ...common, marketType: 'team_total', segment: kind.segment, subject: teamSubject(team), line, outcomes: out(['over', 'under']) })];
    }
    return [make(b, { ...common, marketType: 'total', segment: kind.segment, line, outcomes: out(['over', 'under']) })];
  }
  // Props: `LeBron James: Points O/U 24.5`, and the yes/no forms `LeBron James: 25+ Points`,
  // `Will LeBron James score at least 25 points?` (Yes is the over side).
  const pq = readPropTitle(str(rec.question) ?? '');
  const side0 = /^(?:over|yes)\b/i.test(names[0]) ? 'over' : /^(?:under|no)\b/i.test(names[0]) ? 'under' : undefined;
  const side1 = /^(?:over|yes)\b/i.test(names[1]) ? 'over' : /^(?:under|no)\b/i.test(names[1]) ? 'under' : undefined;
  if (pq && side0 && side1 && side0 !== side1) {
    // The record's own line wins for an over/under question; an `N+` question means over N-0.5.
    const l = /^(?:o\/u|over)/i.test(pq.printed) && line !== undefined ? line : pq.line;
    return propMarket(b, { player: pq.player, stat: (V2_TYPES[smt] ? '' : smt) || pq.stat, line: l, printed: pq.printed, common, outcomes: out([side0, side1]), lookupIds });
  }
  return [];
}

// ---------------------------------------------------------------- venue_3
export function canonicalizeVenue3(rec: J, observedAt: number): CanonicalMarket[] {
  if (rec.data && typeof rec.data === 'object' && !Array.isArray(rec.data)) return canonicalizeVenue3(rec.data as J, observedAt);
  const league = leagueIn(str(rec.sub_category));
  if (!league) return [];
  const sp = splitPair((str(rec.title) ?? '').replace(/:.*$/, ''), /\s+@\s+/);
  const away = sp ? resolveTeam(league, sp[0]) : undefined;
  const home = sp ? resolveTeam(league, sp[1]) : undefined;
  if (!away || !home || away === home) return [];
  const when = whenOf(str(rec.starts_at));
  if (!when) return [];
  const s = str(rec.status);
  const resolution = str(rec.resolution);
  const status: VenueStatus = s === 'resolved' ? 'settled' : s === 'closed' ? 'closed' : 'open';
  const rulesText = str(rec.rules);
  const b: Base = { provider: 'venue_3', league, away, home, date: when.date, start: when.start, observedAt, status, fifty: s === 'resolved' && resolution === 'void', rulesText, rulesUrl: evidenceUrl(rulesText) };
  const id = str(rec.id);
  const outs = arr(rec.outcomes);
  if (!id || outs.length !== 2) return [];
  const tokens = outs.map((o) => str(o.token) ?? '');
  const names = outs.map((o) => str(o.name) ?? '');
  const common = { market_id: id, event_id: id, market_name: str(rec.title) ?? id, lookupIds: tokens.filter(Boolean) };
  const out = (k: string[]): SourceOutcome[] => outs.map((_, i) => ({ canonical_outcome_key: k[i], label: names[i], outcome_id: tokens[i] }));
  const type = str(rec.type);
  const line = num(rec.line);
  if (type === 'moneyline') {
    const t0 = teamIn(b, names[0]);
    const t1 = teamIn(b, names[1]);
    if (!t0 || !t1 || t0 === t1) return [];
    return [make(b, { ...common, marketType: 'moneyline', segment: 'full', outcomes: out([`winner:${t0.key}`, `winner:${t1.key}`]) })];
  }
  if (type === 'total') {
    const l = line ?? num(/([\d.]+)\s*$/.exec(names[0])?.[1]);
    if (l === undefined || !/^over/i.test(names[0])) return [];
    return [make(b, { ...common, marketType: 'total', segment: 'full', line: l, outcomes: out(['over', 'under']) })];
  }
  if (type === 'spread') {
    const t0 = teamIn(b, names[0].replace(/\s*[+-][\d.]+\s*$/, ''));
    const l0 = line ?? num(/([+-][\d.]+)\s*$/.exec(names[0])?.[1]);
    if (!t0 || l0 === undefined) return [];
    const sp2 = spreadFrom(t0, otherOf(b, t0), l0);
    const k0 = `${sp2.teamSide}:${sp2.subject.key}`;
    const k1 = `${sp2.teamSide === 'cover' ? 'not_cover' : 'cover'}:${sp2.subject.key}`;
    return [make(b, { ...common, marketType: 'spread', segment: 'full', subject: sp2.subject, line: sp2.line, outcomes: out([k0, k1]) })];
  }
  return [];
}

// ---------------------------------------------------------------- venue_4
const V4_TYPES: Record<string, { type: MarketType; segment: Segment }> = {
  MONEYLINE: { type: 'moneyline', segment: 'full' },
  SPREAD: { type: 'spread', segment: 'full' },
  OVER_UNDER: { type: 'total', segment: 'full' },
  FIRST_HALF_SPREAD: { type: 'spread', segment: 'half:1' },
  FIRST_HALF_OVER_UNDER: { type: 'total', segment: 'half:1' },
  SECOND_HALF_SPREAD: { type: 'spread', segment: 'half:2' },
};

export function canonicalizeVenue4(rec: J, observedAt: number): CanonicalMarket[] {
  const league = leagueIn(str(rec.leagueLabel));
  const kind = V4_TYPES[str(rec.type) ?? ''];
  if (!league || !kind) return [];
  // teamOne is the away side ("outcomeOneName = away / over side").
  const away = resolveTeam(league, str(rec.teamOneName) ?? '');
  const home = resolveTeam(league, str(rec.teamTwoName) ?? '');
  if (!away || !home || away === home) return [];
  const gt = num(rec.gameTime);
  const when = startOf(gt === undefined ? undefined : gt * 1000);
  if (!when) return [];
  const s = str(rec.status);
  const status: VenueStatus = s === 'SETTLED' ? 'settled' : s === 'INACTIVE' ? 'closed' : 'open';
  const rulesText = str(rec.rules);
  const b: Base = { provider: 'venue_4', league, away, home, date: when.date, start: when.start, observedAt, status, fifty: s === 'SETTLED' && num(rec.outcome) === 0, rulesText, rulesUrl: evidenceUrl(rulesText) };
  const hash = str(rec.marketHash);
  const ev = str(rec.sportXeventId);
  const n1 = str(rec.outcomeOneName) ?? '';
  const n2 = str(rec.outcomeTwoName) ?? '';
  if (!hash || !ev) return [];
  const common = { market_id: hash, event_id: ev, market_name: `${n1} vs ${n2}` };
  const out = (k1: string, k2: string): SourceOutcome[] => [
    { canonical_outcome_key: k1, label: n1, outcome_id: 'outcomeOne' },
    { canonical_outcome_key: k2, label: n2, outcome_id: 'outcomeTwo' },
  ];
  const line = num(rec.line);
  if (kind.type === 'moneyline') {
    const t1 = teamIn(b, n1);
    const t2 = teamIn(b, n2);
    if (!t1 || !t2 || t1 === t2) return [];
    return [make(b, { ...common, marketType: 'moneyline', segment: kind.segment, outcomes: out(`winner:${t1.key}`, `winner:${t2.key}`) })];
  }
  if (kind.type === 'spread') {
    // The line belongs to outcome one.
    const t1 = teamIn(b, n1.replace(/\s*[+-][\d.]+\s*$/, ''));
    if (!t1 || line === undefined) return [];
    const sp = spreadFrom(t1, otherOf(b, t1), line);
    return [
      make(b, {
        ...common,
        marketType: 'spread',
        segment: kind.segment,
        subject: sp.subject,
        line: sp.line,
        outcomes: out(`${sp.teamSide}:${sp.subject.key}`, `${sp.teamSide === 'cover' ? 'not_cover' : 'cover'}:${sp.subject.key}`),
      }),
    ];
  }
  if (line === undefined) return [];
  return [make(b, { ...common, marketType: 'total', segment: kind.segment, line: Math.abs(line), outcomes: out('over', 'under') })];
}

// ---------------------------------------------------------------- venue_5
export function canonicalizeVenue5(rec: J, observedAt: number): CanonicalMarket[] {
  if (rec.question && typeof rec.question === 'object') return canonicalizeVenue5(rec.question as J, observedAt);
  const league = leagueIn(str(rec.topic));
  const kind = str(rec.kind);
  if (!league || (kind !== 'game_winner' && kind !== 'game_total')) return [];
  // "home team first": `Boston Celtics vs Los Angeles Lakers`.
  const title = str(rec.title) ?? '';
  const gm = /\((?:game|gm\.?)\s*(\d)\)|\bgame\s*(\d)\b/i.exec(title);
  // `Boston Celtics vs Los Angeles Lakers: total points over/under 221.5`: teams before the colon.
  const teamsPart = title.replace(/:.*$/, '').replace(/\s*\((?:game|gm\.?)\s*\d\)\s*/i, ' ').replace(/\s*[-–]\s*game\s*\d\b.*$/i, '').trim();
  const sp = splitPair(teamsPart, /\s+vs\.?\s+/i);
  const home = sp ? resolveTeam(league, sp[0]) : undefined;
  const away = sp ? resolveTeam(league, sp[1]) : undefined;
  if (!away || !home || away === home) return [];
  const date = str(rec.game_date);
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return [];
  const et = str(rec.start_time_et);
  let start: number | null = null;
  if (et && /^\d{1,2}:\d{2}$/.test(et)) {
    const t = easternLocalToUtc(date, et);
    if (t !== null && !isPlaceholderStart(t)) start = t;
  }
  const state = str(rec.state);
  const outs = arr(rec.outcomes);
  const anyVoid = outs.some((o) => str(o.state) === 'void');
  const anyResolved = outs.some((o) => /^resolved/.test(str(o.state) ?? ''));
  const status: VenueStatus = anyResolved || anyVoid || state === 'resolved' ? 'settled' : state === 'open' ? 'open' : 'closed';
  const rulesText = str(rec.rules);
  const b: Base = { provider: 'venue_5', league, away, home, date, start, observedAt, status, fifty: anyVoid && !anyResolved, rulesText, rulesUrl: evidenceUrl(rulesText) };
  if (gm) b.gameNumber = Number(gm[1] ?? gm[2]);
  const qid = str(rec.question_id);
  if (!qid || outs.length !== 2) return [];
  const lookupIds = outs.flatMap((o) => [str(o.token), str(o.outcome_id)]).filter((x): x is string => !!x);
  const common = { market_id: qid, event_id: qid, market_name: title, lookupIds };
  const labels = outs.map((o) => str(o.label) ?? '');
  // The `#` token is the venue's per-outcome identifier (the integer id is one of its outcome markets).
  const mk = (keys: string[]): SourceOutcome[] => outs.map((o, i) => ({ canonical_outcome_key: keys[i], label: labels[i], outcome_id: str(o.token) ?? str(o.outcome_id) ?? '' }));
  if (kind === 'game_winner') {
    const t0 = teamIn(b, labels[0]);
    const t1 = teamIn(b, labels[1]);
    if (!t0 || !t1 || t0 === t1) return [];
    const m = make(b, { ...common, marketType: 'moneyline', segment: 'full', outcomes: mk([`winner:${t0.key}`, `winner:${t1.key}`]) });
    m.source.outcomes.sort((x, y) => (x.canonical_outcome_key === `winner:${away.key}` ? -1 : y.canonical_outcome_key === `winner:${away.key}` ? 1 : 0));
    return [m];
  }
  const l0 = num(/([\d.]+)\s*$/.exec(labels[0])?.[1]);
  const overFirst = /^over/i.test(labels[0]);
  if (l0 === undefined) return [];
  return [make(b, { ...common, marketType: 'total', segment: 'full', line: l0, outcomes: mk(overFirst ? ['over', 'under'] : ['under', 'over']) })];
}

// ---------------------------------------------------------------- venue_6
function resolveAnyLeague(forms: string[]): { league: League; teams: Team[] } | undefined {
  const hits: { league: League; teams: Team[] }[] = [];
  for (const league of Object.keys(TEAMS) as League[]) {
    const teams = forms.map((f) => resolveTeam(league, f));
    if (teams.every(Boolean)) hits.push({ league, teams: teams as Team[] });
  }
  return hits.length === 1 ? hits[0] : undefined;
}

export function canonicalizeVenue6(rec: J, observedAt: number): CanonicalMarket[] {
  if (str(rec.kind) !== 'game_line') return [];
  const outs = arr(rec.outcomes);
  const labels = outs.map((o) => str(o.label) ?? '');
  const tokens = outs.map((o) => str(o.token) ?? '');
  // question `Lakers (LAL) vs Celtics (BOS): winner` names both teams with nickname and code, away first.
  const q = /^(.+?\([A-Z0-9]+\))\s+vs\.?\s+(.+?\([A-Z0-9]+\))/i.exec(str(rec.question) ?? '');
  const tsp = splitPair(str(rec.title) ?? '', /\s+@\s+/);
  const forms = q ? [q[1], q[2]] : tsp ? [tsp[0], tsp[1]] : undefined;
  if (!forms) return [];
  const hintLeague = leagueIn(str(rec.league)) ?? leagueIn(arr(rec.tags).map(String).join(' '));
  const res = hintLeague
    ? (() => {
        const teams = forms.map((f) => resolveTeam(hintLeague, f));
        return teams.every(Boolean) ? { league: hintLeague, teams: teams as Team[] } : undefined;
      })()
    : resolveAnyLeague(tsp && q ? [q[1], q[2], tsp[0], tsp[1]] : forms);
  if (!res) return [];
  const [away, home] = res.teams;
  if (away === home || (res.teams[2] && res.teams[2] !== away) || (res.teams[3] && res.teams[3] !== home)) return [];
  const when = whenOf(str(rec.starts_at));
  if (!when) return [];
  const s = str(rec.status);
  const result = str(rec.result) ?? str(rec.resolution);
  const status: VenueStatus = s === 'settled' ? 'settled' : s === 'closed' ? 'closed' : 'open';
  const rulesText = str(rec.rules);
  const b: Base = { provider: 'venue_6', league: res.league, away, home, date: when.date, start: when.start, observedAt, status, fifty: s === 'settled' && (result === 'void' || result === 'cancelled'), rulesText, rulesUrl: str(rec.rules_url) ?? evidenceUrl(rulesText) };
  const id = str(rec.id);
  if (!id || outs.length !== 2) return [];
  const common = { market_id: id, event_id: str(rec.event_id) ?? id, market_name: str(rec.question) ?? str(rec.title) ?? id, lookupIds: tokens.filter(Boolean) };
  const mk = (k: string[]): SourceOutcome[] => outs.map((_, i) => ({ canonical_outcome_key: k[i], label: labels[i], outcome_id: tokens[i] }));
  const lt = str(rec.line_type);
  const line = num(rec.line);
  if (lt === 'moneyline') {
    const t0 = teamIn(b, labels[0]);
    const t1 = teamIn(b, labels[1]);
    if (!t0 || !t1 || t0 === t1) return [];
    return [make(b, { ...common, marketType: 'moneyline', segment: 'full', outcomes: mk([`winner:${t0.key}`, `winner:${t1.key}`]) })];
  }
  if (lt === 'spread') {
    const t0 = teamIn(b, labels[0].replace(/\s*[+-][\d.]+\s*$/, ''));
    if (!t0 || line === undefined) return [];
    const sp = spreadFrom(t0, otherOf(b, t0), line);
    return [
      make(b, {
        ...common,
        marketType: 'spread',
        segment: 'full',
        subject: sp.subject,
        line: sp.line,
        outcomes: mk([`${sp.teamSide}:${sp.subject.key}`, `${sp.teamSide === 'cover' ? 'not_cover' : 'cover'}:${sp.subject.key}`]),
      }),
    ];
  }
  if (lt === 'total') {
    if (line === undefined || !/^over/i.test(labels[0])) return [];
    return [make(b, { ...common, marketType: 'total', segment: 'full', line, outcomes: mk(['over', 'under']) })];
  }
  return [];
}

// ---------------------------------------------------------------- venue_7
const V7_TYPES: Record<number, { type: MarketType; segment: Segment; side?: 'home' | 'away'; stat?: string }> = {
  1: { type: 'moneyline', segment: 'full' },
  2: { type: 'spread', segment: 'full' },
  3: { type: 'total', segment: 'full' },
  4: { type: 'team_total', segment: 'full', side: 'home' },
  5: { type: 'team_total', segment: 'full', side: 'away' },
  6: { type: 'total', segment: 'half:1' },
  7: { type: 'spread', segment: 'half:2' },
  8: { type: 'spread', segment: 'quarter:1' },
  101: { type: 'player_prop', segment: 'full', stat: 'points' },
  111: { type: 'player_prop', segment: 'full', stat: 'passing_yards' },
  112: { type: 'player_prop', segment: 'full', stat: 'rushing_yards' },
  113: { type: 'player_prop', segment: 'full', stat: 'receiving_yards' },
  114: { type: 'player_prop', segment: 'full', stat: 'receptions' },
};

function printLine(n: unknown): string {
  return typeof n === 'string' ? n : String(n);
}

export function canonicalizeVenue7(rec: J, observedAt: number): CanonicalMarket[] {
  const league = leagueIn(str(rec.league));
  if (!league || !Array.isArray(rec.markets)) return [];
  const sp = splitPair(str(rec.name) ?? '', /\s+at\s+/i);
  const away = sp ? resolveTeam(league, sp[0]) : undefined;
  const home = sp ? resolveTeam(league, sp[1]) : undefined;
  if (!away || !home || away === home) return [];
  const when = whenOf(str(rec.start));
  if (!when) return [];
  const evState = str(rec.state);
  const eventId = str(rec.event_id);
  if (!eventId) return [];
  const out: CanonicalMarket[] = [];
  for (const m of arr(rec.markets)) {
    const typeId = num(m.type_id);
    // Type ids from 100 up are player props (one id per player slot); the statistic is read from
    // the selections (`LeBron James Over 24.5 Points`), not from the id.
    const kind = typeId === undefined ? undefined : (V7_TYPES[typeId] ?? (typeId >= 100 ? { type: 'player_prop' as const, segment: 'full' as const } : undefined));
    if (!kind) continue;
    const st = str(m.state) ?? evState;
    const status: VenueStatus = st === 'settled' ? 'settled' : st === 'closed' ? 'closed' : 'open';
    const rulesText = str(m.rules) ?? str(rec.rules);
    const b: Base = { provider: 'venue_7', league, away, home, date: when.date, start: when.start, observedAt, status, fifty: st === 'settled' && /void|cancel/i.test(str(m.result) ?? ''), rulesText, rulesUrl: evidenceUrl(rulesText) };
    const marketName = str(m.name) ?? '';
    for (const ln of arr(m.lines)) {
      const sels = arr(ln.selections);
      if (sels.length !== 2) continue;
      const names = sels.map((s) => str(s.name) ?? '');
      const ids = sels.map((s) => str(s.id) ?? '');
      const mk = (k: string[]): SourceOutcome[] => sels.map((_, i) => ({ canonical_outcome_key: k[i], label: names[i], outcome_id: ids[i] }));
      const lineVal = num(ln.line);
      // "Matched props use the three-part form"; every priced line is one market of its own.
      // The pair form resolves the line the venue flags favourite; any other line (and every prop,
      // "Matched props use the three-part form") is named by the three-part form.
      const marketId =
        kind.type === 'moneyline' || (ln.favourite === true && kind.type !== 'player_prop') ? `${eventId}:${typeId}` : `${eventId}:${typeId}:${printLine(ln.line)}`;
      const common = { market_id: marketId, event_id: eventId, market_name: lineVal === undefined ? `${marketName}` : `${marketName} ${printLine(ln.line)}` };
      if (kind.type === 'moneyline') {
        const t0 = teamIn(b, names[0]);
        const t1 = teamIn(b, names[1]);
        if (!t0 || !t1 || t0 === t1) continue;
        out.push(make(b, { ...common, marketType: 'moneyline', segment: kind.segment, outcomes: mk([`winner:${t0.key}`, `winner:${t1.key}`]) }));
      } else if (kind.type === 'spread') {
        const m0 = /^(.*?)\s*([+-][\d.]+)$/.exec(names[0]);
        const t0 = m0 ? teamIn(b, m0[1]) : undefined;
        if (!t0 || !m0) continue;
        const sp2 = spreadFrom(t0, otherOf(b, t0), Number(m0[2]));
        out.push(
          make(b, {
            ...common,
            marketType: 'spread',
            segment: kind.segment,
            subject: sp2.subject,
            line: sp2.line,
            outcomes: mk([`${sp2.teamSide}:${sp2.subject.key}`, `${sp2.teamSide === 'cover' ? 'not_cover' : 'cover'}:${sp2.subject.key}`]),
          }),
        );
      } else if (kind.type === 'total' || kind.type === 'team_total') {
        if (lineVal === undefined) continue;
        const keys = names.map((n) => (/^over/i.test(n) ? 'over' : /^under/i.test(n) ? 'under' : ''));
        if (keys.includes('') || keys[0] === keys[1]) continue;
        const team = kind.side === 'home' ? home : kind.side === 'away' ? away : undefined;
        out.push(make(b, { ...common, marketType: kind.type, segment: kind.segment, line: Math.abs(lineVal), ...(team ? { subject: teamSubject(team) } : {}), outcomes: mk(keys) }));
      } else if (kind.type === 'player_prop') {
        const sel = /^(.+?)\s+(?:over|under)\s+[\d.]+\s+(.+)$/i.exec(names[0]);
        const player = str(ln.player) ?? str(ln.participant) ?? sel?.[1];
        const stat = sel?.[2] ?? kind.stat;
        if (!player || !stat || lineVal === undefined) continue;
        const keys = names.map((n) => (/\bover\b/i.test(n) ? 'over' : /\bunder\b/i.test(n) ? 'under' : ''));
        if (keys.includes('') || keys[0] === keys[1]) continue;
        out.push(...propMarket(b, { player, stat, line: lineVal, printed: printLine(ln.line), common, outcomes: mk(keys) }));
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- venue_8
export function canonicalizeVenue8(rec: J, observedAt: number): CanonicalMarket[] {
  if (str(rec.outcomeType) !== 'BINARY') return [];
  const league = arr(rec.groupSlugs).map((g) => leagueIn(String(g))).find(Boolean);
  if (!league) return [];
  // `Will the Lakers beat the Celtics on Nov 21?`: the first team is the YES side.
  const q = /^will the (.+?) beat the (.+?)(?: on ([A-Z][a-z]{2}) (\d{1,2}))?\??(?: \(game (\d)\))?\??$/i.exec(str(rec.question) ?? '');
  if (!q) return [];
  const yesTeam = resolveTeam(league, q[1]);
  const noTeam = resolveTeam(league, q[2]);
  if (!yesTeam || !noTeam || yesTeam === noTeam) return [];
  // Away and home: the description or slug says it when the question does not.
  const desc = str(rec.description) ?? '';
  const slug = str(rec.slug);
  if (!slug) return [];
  let away: Team | undefined;
  let home: Team | undefined;
  const at = /\b([A-Z][\w. ]+?)\s+(?:at|@)\s+([A-Z][\w. ]+?)(?:[,.;]|$)/.exec(desc);
  if (at) {
    const a = resolveTeam(league, at[1]);
    const h = resolveTeam(league, at[2]);
    if (a && h && new Set([a, h, yesTeam, noTeam]).size === 2) {
      away = a;
      home = h;
    }
  }
  if (!away || !home) {
    // The question names the away team first (venue convention, like its titles).
    away = yesTeam;
    home = noTeam;
  }
  const close = num(rec.closeTime);
  const when = startOf(close);
  if (!when) return [];
  // The question's "on Nov 21" is the Eastern day; trust it over the close time.
  let date = when.date;
  if (q[3] && q[4]) {
    const mo = MONTHS.indexOf(q[3].toUpperCase()) + 1;
    if (mo > 0) {
      const y = Number(when.date.slice(0, 4));
      const cand = `${y}-${String(mo).padStart(2, '0')}-${q[4].padStart(2, '0')}`;
      if (cand !== date) return []; // close time and question disagree: not trustworthy
      date = cand;
    }
  }
  const resolved = rec.isResolved === true;
  const res = str(rec.resolution);
  const b: Base = {
    provider: 'venue_8',
    league,
    away,
    home,
    date,
    start: when.start,
    observedAt,
    status: resolved ? 'settled' : 'open',
    fifty: resolved && (res === 'CANCEL' || res === 'MKT'),
    rulesText: desc,
    rulesUrl: evidenceUrl(desc),
  };
  if (q[5]) b.gameNumber = Number(q[5]);
  return [
    make(b, {
      market_id: slug,
      event_id: slug,
      market_name: str(rec.question) ?? slug,
      lookupIds: [str(rec.id)].filter((x): x is string => !!x),
      marketType: 'moneyline',
      segment: 'full',
      outcomes: [
        { canonical_outcome_key: `winner:${yesTeam.key}`, label: 'Yes', outcome_id: 'yes', side: 'yes' },
        { canonical_outcome_key: `winner:${noTeam.key}`, label: 'No', outcome_id: 'no', side: 'no' },
      ],
    }),
  ];
}

// ---------------------------------------------------------------- venue_9
/** A title token such as `CAV` or `LAL`: a code, or the unique team whose nickname starts with it. */
function teamByToken(league: League, token: string): Team | undefined {
  const direct = resolveTeam(league, token);
  if (direct) return direct;
  const t = token.replace(/[^A-Za-z]/g, '').toUpperCase();
  if (t.length < 3) return undefined;
  const hits = TEAMS[league].filter((x) => x.nickname.replace(/[^A-Za-z]/g, '').toUpperCase().startsWith(t));
  return hits.length === 1 ? hits[0] : undefined;
}

/** `REX` for Red Sox, `BLS` for Blues: the token's letters in order within the nickname, first letter first. */
function abbreviates(token: string, t: Team): boolean {
  const tok = token.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  const nick = t.nickname.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  if (!tok || nick[0] !== tok[0]) return false;
  let i = 0;
  for (const ch of nick) if (ch === tok[i]) i++;
  return i === tok.length;
}

export function canonicalizeVenue9(rec: J, observedAt: number): CanonicalMarket[] {
  if (str(rec.kind) !== 'game') return [];
  const league = arr(rec.tags).map((t) => leagueIn(String(t))).find(Boolean);
  if (!league) return [];
  const children = arr(rec.children);
  // Children of the moneyline are named by full team name; the title `LAL vs BOS` puts away first.
  const named = children.filter((c) => (str(c.market_type) ?? 'moneyline') === 'moneyline').map((c) => resolveTeam(league, str(c.title) ?? ''));
  const sp = splitPair(str(rec.title) ?? '', /\s+(?:vs\.?|@|at)\s+/i);
  if (!sp) return [];
  const teams = [...new Set(named.filter((x): x is Team => !!x))];
  let away: Team | undefined;
  let home: Team | undefined;
  if (teams.length === 2) {
    // The children name both teams; the title's short forms (`76E vs PIS`) say which is away.
    const fits = (tok: string, t: Team) => resolveTeam(league, tok) === t || abbreviates(tok, t);
    const [x, y] = teams;
    const xy = fits(sp[0], x) && fits(sp[1], y);
    const yx = fits(sp[0], y) && fits(sp[1], x);
    if (xy !== yx) [away, home] = xy ? [x, y] : [y, x];
  } else {
    away = teamByToken(league, sp[0]);
    home = teamByToken(league, sp[1]);
  }
  if (!away || !home || away === home) return [];
  const when = whenOf(str(rec.start_time));
  if (!when) return [];
  const parent = str(rec.id);
  if (!parent) return [];
  const out: CanonicalMarket[] = [];
  for (const c of children) {
    const s = str(c.status);
    const status: VenueStatus = s === 'resolved' ? 'settled' : s === 'closed' ? 'closed' : 'open';
    const rulesText = str(c.rules) ?? str(rec.rules);
    const b: Base = { provider: 'venue_9', league, away, home, date: when.date, start: when.start, observedAt, status, fifty: s === 'resolved' && /void|50|cancel/i.test(str(c.resolved_to) ?? ''), rulesText, rulesUrl: evidenceUrl(rulesText) };
    const pair = str(c.pair);
    const title = str(c.title) ?? '';
    if (!pair) continue;
    const mt = str(c.market_type) ?? 'moneyline';
    const yesNo = (y: string, n: string): SourceOutcome[] => [
      { canonical_outcome_key: y, label: 'Yes', outcome_id: 'yes', side: 'yes' },
      { canonical_outcome_key: n, label: 'No', outcome_id: 'no', side: 'no' },
    ];
    const common = { market_id: pair, event_id: parent, market_name: title || pair, lookupIds: [str(c.id)].filter((x): x is string => !!x) };
    if (mt === 'moneyline') {
      const team = teamIn(b, title);
      if (!team) continue;
      out.push(make(b, { ...common, marketType: 'moneyline', segment: 'full', outcomes: yesNo(`winner:${team.key}`, `winner:${otherOf(b, team).key}`) }));
    } else if (mt === 'total') {
      const line = num(c.line) ?? num(/([\d.]+)\s*$/.exec(title)?.[1]);
      if (line === undefined) continue;
      const over = /^over/i.test(title);
      const under = /^under/i.test(title);
      if (!over && !under) continue;
      out.push(make(b, { ...common, marketType: 'total', segment: 'full', line, outcomes: over ? yesNo('over', 'under') : yesNo('under', 'over') }));
    }
  }
  return out;
}

const BY_VENUE: Record<Provider, (rec: J, observedAt: number) => CanonicalMarket[]> = {
  venue_1: canonicalizeVenue1,
  venue_2: canonicalizeVenue2,
  venue_3: canonicalizeVenue3,
  venue_4: canonicalizeVenue4,
  venue_5: canonicalizeVenue5,
  venue_6: canonicalizeVenue6,
  venue_7: canonicalizeVenue7,
  venue_8: canonicalizeVenue8,
  venue_9: canonicalizeVenue9,
};

/**
 * The record canonicalize() reads for one listed market: a venue_1 market joined with its event
 * record (start time, titles), which that venue lists apart under the market's `event_ticker`.
 */
export function withListedEvent(provider: Provider, payload: Record<string, unknown>, eventOf: (ticker: string) => unknown): unknown {
  return provider === 'venue_1' ? { ...payload, _event: eventOf(String(payload.event_ticker)) } : payload;
}

/** One raw venue record (parsed JSON) to its canonical markets. Never throws on odd input. */
export function canonicalize(provider: Provider, record: unknown, observedAt: number): CanonicalMarket[] {
  if (!record || typeof record !== 'object') return [];
  try {
    const ms = BY_VENUE[provider](record as J, observedAt);
    for (const m of ms) {
      const q = sourceQuotesOf(provider, record, m);
      if (q) m.quotes = q;
    }
    return ms;
  } catch {
    return [];
  }
}
