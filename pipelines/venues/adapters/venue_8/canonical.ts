// venue_8's canonical reading (FORMATS.md "venue_8"): its sports listing records to canonical
// markets, with the shared kit (pipelines/matching/canonical-kit.ts). Pure: no I/O, no clock.
import { str, num, arr, leagueIn, startOf, make, MONTHS, type J, type Base } from '../../../matching/canonical-kit.ts';
import { resolveTeam, type Team } from '../../../matching/teams.ts';
import { evidenceUrl } from '../../../matching/rulestext.ts';
import type { CanonicalMarket } from '../../../matching/types.ts';

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
