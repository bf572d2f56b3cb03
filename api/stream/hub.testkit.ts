// A matched.events record as the matching stage writes it, for the hub's tests.
import type { MatchedEventRecord } from '../../pipelines/topics.ts';

export function matched(eventId: string, title: string, archiveReason: string | null = null): MatchedEventRecord {
  const body = { event_id: eventId, league: 'nba', sport: 'basketball', title, scheduled_date: '2030-01-02', scheduled_start: '2030-01-02T23:30:00.000Z', participants: [], submarkets: [] };
  return {
    event_id: eventId,
    league: 'nba',
    sport: 'basketball',
    title,
    scheduled_date: '2030-01-02',
    scheduled_start: Date.parse(body.scheduled_start),
    participant_keys: ['lal', 'bos'],
    population: archiveReason ? 'archived' : 'current',
    submarket_count: 0,
    observed_at: Date.now(),
    body: JSON.stringify(body),
    strict_prop_keys: [],
    lookup_ids: [`venue_1:${eventId}`],
    archive_reason: archiveReason,
  };
}
