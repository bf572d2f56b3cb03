// venue_5's canonical reading (FORMATS.md "venue_5"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, leagueIn, splitPair, make, teamIn, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam } from '../../../matching/teams.ts';
import { easternLocalToUtc, isPlaceholderStart } from '../../../matching/time.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import type { CanonicalMarket, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

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
