// SportsReader when the snapshot it is loading goes between its reads (retired and evicted, or the
// store flushed: "[] when evicted"): the load fails (the route answers 503) and is not kept as an
// empty snapshot under that id; the next read loads the store's current snapshot whole.
import { describe, expect, it } from 'vitest';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import { FULL_MONEYLINE, SPORTS_SNAPSHOT, SportsReader, sortKey, type SportsEntry } from './readmodel.ts';
import type { MatchedEvent } from './types.ts';

/** An NBA game with a full-game moneyline, as a sports index entry. */
function sportsEntry(away: string, home: string): SportsEntry {
  const event = {
    event_id: `nba-${away}-${home}-2026-11-21`,
    sport: 'basketball',
    league: 'nba',
    title: `${away} at ${home}`,
    scheduled_date: '2026-11-21',
    scheduled_start: '2026-11-22T00:30:00.000Z',
    participants: [
      { key: away, name: away, role: 'away' },
      { key: home, name: home, role: 'home' },
    ],
    submarkets: [{ key: FULL_MONEYLINE, market_type: 'moneyline', segment: 'full', display_name: 'Moneyline', metric: 'winner', outcomes: [], source_markets: [], settlement_equivalence: 'equivalent' }],
  } as unknown as MatchedEvent;
  return { event, population: 'current', strictPropKeys: [], lookupIds: [], sortMs: sortKey(event) };
}

describe('SportsReader and a snapshot evicted while it is read', () => {
  it('regression: a snapshot whose entries are gone by the time they are read is not loaded as an empty snapshot (200 with no events)', async () => {
    const store = new MemorySnapshotStore();
    const events = [sportsEntry('bos', 'nyk'), sportsEntry('lal', 'gsw')];
    await store.publish(SPORTS_SNAPSHOT, events.map((e) => ({ key: e.event.event_id, value: e })), { observedAt: 1 });
    const range = store.range.bind(store);
    let evicted = true;
    store.range = (async (...a: Parameters<typeof range>) => (evicted ? [] : range(...a))) as typeof store.range;
    const reader = new SportsReader(store);
    await expect(reader.current()).rejects.toThrow(/evicted/);
    evicted = false;
    const loaded = await reader.current();
    expect(loaded!.entries.map((e) => e.event.event_id)).toEqual(events.map((e) => e.event.event_id));
  });
});
