// venue_2's canonical reading (FORMATS.md "venue_2"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, jsonArr, leagueIn, whenOf, splitPair, teamSubject, make, spreadFrom, otherOf, teamIn, propMarket, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam, isLeague, type League } from '../../../matching/teams.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import { readPropTitle, type RosterBook } from '../../../matching/props.ts';
import type { MarketReading, MarketType, Segment, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

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

export function canonicalizeVenue2(rec: J, observedAt: number, rosters?: RosterBook): MarketReading[] {
  if (Array.isArray(rec.markets) && !rec.conditionId) {
    return arr(rec.markets).flatMap((m) => canonicalizeVenue2({ ...m, events: m.events ?? [{ id: rec.id, slug: rec.slug, title: rec.title }] }, observedAt, rosters));
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
  const b: Base = { provider: 'venue_2', league, away, home, date: when.date, start: when.start, observedAt, status, fifty, rulesText, rulesUrl: evidenceUrl(rulesText), rosters };
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
