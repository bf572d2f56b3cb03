// venue_3's canonical reading (FORMATS.md "venue_3"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, leagueIn, whenOf, splitPair, make, spreadFrom, otherOf, teamIn, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam } from '../../../matching/teams.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import type { CanonicalMarket, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

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
