// venue_9's canonical reading (FORMATS.md "venue_9"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, leagueIn, whenOf, splitPair, make, otherOf, teamIn, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam, TEAMS, type League, type Team } from '../../../matching/teams.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import type { CanonicalMarket, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

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
