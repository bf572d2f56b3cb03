// The sports channel's snapshot as joined from each entry's kept JSON (snapshotJson) against the
// list serialized whole (snapshotBody): the same text for every shape and filter, and an event's new
// entry read anew.
import { describe, expect, it } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import { FULL_MONEYLINE, type SportsEntry } from '../../pipelines/matching/readmodel.ts';
import { entryOfRecord } from '../../pipelines/matching/stages/sports-snapshot.ts';
import type { MatchedEventRecord } from '../../pipelines/topics.ts';
import { snapshotBody, snapshotJson, type SportsFilter } from './sports.ts';

const DAY = 86_400_000;

function entry(o: { id: string; league?: string; days?: number; title?: string; archived?: boolean; prop?: 'strict' | 'loose' }): SportsEntry {
  const date = new Date(Date.now() + (o.days ?? 3) * DAY).toISOString().slice(0, 10);
  const submarkets: object[] = [
    { key: FULL_MONEYLINE, market_type: 'moneyline', rule_comparisons: [{ venue: 'venue_1', same: true }], source_markets: [{ provider: 'venue_1', market_id: `${o.id}-m` }] },
  ];
  if (o.prop) submarkets.push({ key: `prop|${o.id}`, market_type: 'player_prop', source_markets: [{ provider: 'venue_2', market_id: `${o.id}-p` }] });
  const event = { event_id: o.id, sport: 'basketball', league: o.league ?? 'nba', title: o.title ?? 'lal at bos', scheduled_date: date, scheduled_start: `${date}T23:30:00.000Z`, participants: [{ key: 'lal', name: 'LAL', role: 'away' }, { key: 'bos', name: 'BOS', role: 'home' }], submarkets };
  const record: MatchedEventRecord = {
    event_id: o.id,
    league: event.league,
    sport: 'basketball',
    title: event.title,
    scheduled_date: date,
    scheduled_start: Date.parse(event.scheduled_start),
    participant_keys: ['lal', 'bos'],
    population: o.archived ? 'archived' : 'current',
    submarket_count: submarkets.length,
    observed_at: Date.now(),
    body: JSON.stringify(event),
    strict_prop_keys: o.prop === 'strict' ? [`prop|${o.id}`] : [],
    lookup_ids: [],
  };
  return entryOfRecord(record);
}

const filter = (f: Partial<Omit<SportsFilter, 'shape'>> & { shape?: Partial<SportsFilter['shape']> } = {}): SportsFilter => ({
  includeSettled: false,
  ...f,
  shape: { includeSubmarkets: false, includeRules: false, policy: 'strict', ...f.shape },
});

describe('snapshotJson', () => {
  const ids = Array.from({ length: 6 }, (_, i) => randomName(`e${i}`));
  const entries = [
    entry({ id: ids[0]!, days: 5 }),
    entry({ id: ids[1]!, league: 'nfl', days: 2 }),
    entry({ id: ids[2]!, archived: true }),
    entry({ id: ids[3]!, prop: 'strict', days: 1 }),
    entry({ id: ids[4]!, prop: 'loose', days: 4 }),
    undefined,
    entry({ id: ids[5]!, days: -3 }),
  ];
  const filters: SportsFilter[] = [
    filter(),
    filter({ league: 'nfl' as SportsFilter['league'] }),
    filter({ includeSettled: true }),
    filter({ shape: { includeSubmarkets: true } }),
    filter({ shape: { includeSubmarkets: true, includeRules: true } }),
    filter({ shape: { includeSubmarkets: true, policy: 'same_prop' } }),
    filter({ scheduledDate: entries[0]!.event.scheduled_date }),
    filter({ participant: 'LAL', includeSettled: true }),
  ];

  it('is the whole list serialized, for every shape and filter, read twice', () => {
    const now = Date.now();
    for (let round = 0; round < 2; round++) for (const f of filters) expect(snapshotJson(f, entries, now)).toBe(JSON.stringify(snapshotBody(f, entries, now)));
  });

  it("reads an event's new entry anew (the hub makes one per change)", () => {
    const now = Date.now();
    const f = filter({ shape: { includeSubmarkets: true } });
    const before = snapshotJson(f, entries, now);
    const changed = [...entries];
    changed[0] = entry({ id: ids[0]!, days: 5, title: 'renamed' });
    const after = snapshotJson(f, changed, now);
    expect(after).not.toBe(before);
    expect(after).toBe(JSON.stringify(snapshotBody(f, changed, now)));
    expect((JSON.parse(after) as { data: { title: string }[] }).data.map((e) => e.title)).toContain('renamed');
  });
});
