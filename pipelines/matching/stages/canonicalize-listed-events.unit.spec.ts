// The records a venue lists apart for its markets to read (venue_1 events) are kept on
// matching.state under `event|venue_1|<event_ticker>`, a key restarts read back: its format stays
// as persisted, and a canonicalizer restored from those records reads the markets as before.
import { describe, expect, it } from 'vitest';
import type { OutRecord } from '../../runtime/types.ts';
import type { RawRecord } from '../../topics.ts';
import { venue1Records, type GameSpec } from '../fixtures.ts';
import { Canonicalizer } from './canonicalize.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const game: GameSpec = { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-23T00:30:00Z'), total: 221.5 };
/** The canonical markets written, by key, without the read times (a restart reads them again). */
const canonical = (out: OutRecord[]) => Object.fromEntries(out.filter((r) => r.topic === 'canonical.markets').map((r) => [String(r.key), JSON.stringify(r.value)]));

describe('venue_1 events listed apart', () => {
  it('are stored under event|venue_1|<ticker> and read back on restart', () => {
    const raws = venue1Records(game, NOW, {}, `c${Math.random()}`);
    const events = raws.filter((r) => r.record_type === 'event');
    const markets = raws.filter((r) => r.record_type === 'market');
    expect(events.length).toBeGreaterThan(0);

    const first = new Canonicalizer();
    const out = first.ingest(raws);
    const state = out.filter((r) => r.topic === 'matching.state');
    expect(state.map((r) => r.key).sort()).toEqual(events.map((e) => `event|venue_1|${e.native_id}`).sort());
    expect(Object.keys(canonical(out)).length).toBeGreaterThan(0);

    // A restart: only the state records, then the markets again; without them the markets read otherwise.
    const restored = new Canonicalizer();
    for (const r of state) restored.restoreState(String(r.key), r.value as RawRecord);
    expect(canonical(restored.ingest(markets))).toEqual(canonical(out));
    expect(canonical(new Canonicalizer().ingest(markets))).not.toEqual(canonical(out));
  });
});
