// venue_6's canonical reading (FORMATS.md "venue_6"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, leagueIn, whenOf, splitPair, make, spreadFrom, otherOf, teamIn, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam, TEAMS, type League, type Team } from '../../../matching/teams.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import type { CanonicalMarket, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

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
