// venue_4's canonical reading (FORMATS.md "venue_4"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, leagueIn, startOf, make, spreadFrom, otherOf, teamIn, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam } from '../../../matching/teams.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import type { CanonicalMarket, MarketType, Segment, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

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
