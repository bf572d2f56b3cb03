// The canonical-market kit every venue's canonical reading is built from (each venue's reading is
// in its adapter's folder, pipelines/venues/adapters/venue_N/canonical.ts; canonicalize.ts runs
// them). What a venue's reading does, from what venues publish (pipelines/venues/simulator/FORMATS.md).
// In: one raw venue record as read (a market, or an event/question/parent with its markets nested)
// and when its read began, and the roster book props are admitted against. Out: the canonical
// markets it contains: league, both teams through the team registry, Eastern day and exact start
// (placeholder and date-only times give a null start), market type, segment, line, subject, outcomes
// mapped onto canonical outcome keys, rule values read from the venue's rules text, lookup
// identifiers and status. Records that are not sports game lines or admitted props give nothing; a
// prop refused only for want of a fresh roster gives an AwaitingRoster in its place. An open market
// also carries the top of book and taker fee its record lists (the adapter's sourceQuotes), which
// the prices view of the sports routes reads. Pure: no I/O, no clock.
import { resolveTeam, type League, type Team } from './teams.ts';
import { easternDate, isPlaceholderStart, isRealDate } from './time.ts';
import { readGameLineRules, readPropRules } from './rulestext.ts';
import { admitProp, awaitsRoster, type PropInput, type RosterBook } from './props.ts';
import type { AwaitingRoster, CanonicalMarket, MarketReading, MarketType, Provider, Segment, SourceOutcome, Subject, VenueStatus, RuleValue } from './types.ts';

export type J = Record<string, unknown>;
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
export const arr = (v: unknown): J[] => (Array.isArray(v) ? (v as J[]) : []);
export function jsonArr(v: unknown): string[] {
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
export function startOf(ms: number | undefined): { date: string; start: number | null } | undefined {
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  return { date: easternDate(ms), start: isPlaceholderStart(ms) ? null : ms };
}

/** An instant with its zone ("2026-11-22T00:30:00Z", venue_2's "2026-11-22 00:30:00+00"); a time without one is no instant. */
export function parseIso(s: string | undefined): number | undefined {
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
export function whenOf(s: string | undefined): { date: string; start: number | null } | undefined {
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
export function splitPair(title: string, seps: RegExp): [string, string] | undefined {
  const m = seps.exec(title);
  if (!m) return undefined;
  return [title.slice(0, m.index).trim(), title.slice(m.index + m[0].length).trim()];
}

export interface Base {
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
  /** The roster book props are admitted against (the canonicalizer's; none: every prop awaits its roster). */
  rosters?: RosterBook;
}

export interface Line {
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

export const teamSubject = (t: Team): Subject => ({ type: 'team', key: t.key, name: t.name });

export function make(b: Base, l: Line): CanonicalMarket {
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
export function spreadFrom(team: Team, other: Team, signed: number): { subject: Subject; line: number; teamSide: 'cover' | 'not_cover' } {
  if (signed < 0 || (signed === 0 && true)) return { subject: teamSubject(team), line: signed, teamSide: 'cover' };
  return { subject: teamSubject(other), line: -signed, teamSide: 'not_cover' };
}

export const otherOf = (b: Base, t: Team) => (t === b.away ? b.home : b.away);
export function teamIn(b: Base, form: string): Team | undefined {
  const t = resolveTeam(b.league, form);
  return t && (t === b.away || t === b.home) ? t : undefined;
}

export const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

// ---------------------------------------------------------------- props (shared)
const AWAITING_ROSTER: AwaitingRoster = Object.freeze({ refused: 'awaiting_roster' });

/**
 * One player prop, admitted against the record's roster book; refused (nothing) otherwise, and
 * refused awaiting its roster when only a fresh roster of its teams is missing (read again then).
 */
export function propMarket(
  b: Base,
  p: { player: string; stat: string; line: number; printed: string; common: { market_id: string; event_id: string; market_name: string; market_slug?: string }; outcomes: SourceOutcome[]; lookupIds?: string[] },
): MarketReading[] {
  const input: PropInput = { league: b.league, away: b.away.key, home: b.home.key, player: p.player, stat: p.stat, line: p.line, start: b.start, date: b.date, observedAt: b.observedAt };
  const admitted = admitProp(input, b.rosters);
  if (!admitted) return awaitsRoster(input, b.rosters) ? [AWAITING_ROSTER] : [];
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
