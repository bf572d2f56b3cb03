// SportsReader when the snapshot it is loading goes between its reads (retired and evicted, or the
// store flushed: "[] when evicted"): the load fails (the route answers 503) and is not kept as an
// empty snapshot under that id; the next read loads the store's current snapshot whole.
import { describe, expect, it } from 'vitest';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import { SPORTS_SNAPSHOT, SportsReader } from './readmodel.ts';
import { sportsEntry } from '../../api/routes/v1/sports-entry.testkit.ts';

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
