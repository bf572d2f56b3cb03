// venue_7's canonical reading (FORMATS.md "venue_7"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, leagueIn, whenOf, splitPair, teamSubject, make, spreadFrom, otherOf, teamIn, propMarket, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam } from '../../../matching/teams.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import { readPropTitle, readThreshold, type RosterBook } from '../../../matching/props.ts';
import type { MarketReading, MarketType, Segment, SourceOutcome, VenueStatus } from '../../../matching/types.ts';

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

export function canonicalizeVenue7(rec: J, observedAt: number, rosters?: RosterBook): MarketReading[] {
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
  const out: MarketReading[] = [];
  for (const m of arr(rec.markets)) {
    const typeId = num(m.type_id);
    // Type ids from 100 up are player props (one id per player slot); the statistic is read from
    // the selections (`LeBron James Over 24.5 Points`), not from the id.
    const kind = typeId === undefined ? undefined : (V7_TYPES[typeId] ?? (typeId >= 100 ? { type: 'player_prop' as const, segment: 'full' as const } : undefined));
    if (!kind) continue;
    const st = str(m.state) ?? evState;
    const status: VenueStatus = st === 'settled' ? 'settled' : st === 'closed' ? 'closed' : 'open';
    const rulesText = str(m.rules) ?? str(rec.rules);
    const b: Base = { provider: 'venue_7', league, away, home, date: when.date, start: when.start, observedAt, status, fifty: st === 'settled' && /void|cancel/i.test(str(m.result) ?? ''), rulesText, rulesUrl: evidenceUrl(rulesText), rosters };
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
        const p = propLine(names, ln, marketName);
        const player = str(ln.player) ?? str(ln.participant) ?? p?.player;
        const stat = p?.stat ?? kind.stat;
        if (!p || !player || !stat) continue;
        // A threshold line the venue lists without a line value is named by its N.
        const id = ln.line === undefined || ln.line === null ? `${eventId}:${typeId}:${p.line + 0.5}` : marketId;
        out.push(...propMarket(b, { player, stat, line: p.line, printed: p.printed, common: { ...common, market_id: id }, outcomes: mk(p.keys) }));
      }
    }
  }
  return out;
}

const OVER_UNDER = /^(.+?)\s+(?:over|under)\s+[\d.]+\s+(.+)$/i;

/**
 * One prop line's sides, over line and what its selections print. `LeBron James Over 24.5 Points` /
 * `… Under 24.5 Points` is over the record's line. The `N+` family counts N itself, so it is over
 * N-0.5 (props.ts readThreshold): `LeBron James 25+ Points` (or `at least 25`, `25 or more`) against
 * `… Under 25 Points` or `No`, and a `Yes` / `No` line whose threshold is printed in its line value
 * (`"25+"`) or in the market's name. A whole number printed as an over line (`Over 25 Points`) is
 * over 25: it is not `25+` and must not join the other venues' over 24.5.
 */
function propLine(names: string[], ln: J, marketName: string): { player?: string; stat?: string; line: number; printed: string; keys: string[] } | undefined {
  const keys = names.map((n) => (/\bover\b|^yes$/i.test(n) || readThreshold(n)?.atLeast ? 'over' : /\bunder\b|^no$/i.test(n) ? 'under' : ''));
  if (keys.includes('') || keys[0] === keys[1]) return undefined;
  const overName = names[keys.indexOf('over')];
  const own = readThreshold(overName);
  const th = own ? (own.atLeast ? own : undefined) : [str(ln.line) ?? '', marketName].map(readThreshold).find((t) => t?.atLeast);
  const sel = names.map((n) => OVER_UNDER.exec(n)).find((m) => m !== null);
  const title = sel ? undefined : (readPropTitle(overName) ?? readPropTitle(marketName));
  const player = sel?.[1] ?? title?.player;
  const stat = sel?.[2] ?? title?.stat;
  if (th) return { player, stat, line: th.line, printed: th.printed, keys };
  const lineVal = num(ln.line);
  return lineVal === undefined ? undefined : { player, stat, line: lineVal, printed: printLine(ln.line), keys };
}
