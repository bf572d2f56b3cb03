// A matched sports event as an entry of the sports read model's index, for the route tests that build
// sports snapshots by hand (indexSnapshot, SportsReader): an NBA game of 2026-11-21 (Eastern) between two
// team keys, with a full-game moneyline unless the test gives its own submarkets.
import { FULL_MONEYLINE, sortKey, type SportsEntry } from '../../../pipelines/matching/readmodel.ts';
import type { MatchedEvent } from '../../../pipelines/matching/types.ts';

const MONEYLINE_ONLY = [{ key: FULL_MONEYLINE, market_type: 'moneyline', segment: 'full', display_name: 'Moneyline', metric: 'winner', outcomes: [], source_markets: [], settlement_equivalence: 'equivalent' }];

export function sportsEntry(away: string, home: string, start = '2026-11-22T00:30:00.000Z', opts: { title?: string; submarkets?: readonly unknown[] } = {}): SportsEntry {
  const date = '2026-11-21';
  const event = {
    event_id: `nba-${away}-${home}-${date}`,
    sport: 'basketball',
    league: 'nba',
    title: opts.title ?? `${away} at ${home}`,
    scheduled_date: date,
    scheduled_start: start,
    participants: [
      { key: away, name: away, role: 'away' },
      { key: home, name: home, role: 'home' },
    ],
    submarkets: opts.submarkets ?? MONEYLINE_ONLY,
  } as unknown as MatchedEvent;
  return { event, population: 'current', strictPropKeys: [], lookupIds: [], sortMs: sortKey(event) };
}
