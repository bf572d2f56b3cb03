// Polls read the same records again and again: a read that changes nothing writes nothing, a read
// that changes a market writes it, and so does a later read that changes it back. The same for the
// records a venue lists apart (venue_1 events), also after a restart restored them.
import { describe, expect, it } from 'vitest';
import type { OutRecord } from '../../runtime/types.ts';
import type { RawRecord } from '../../topics.ts';
import { venue1Records, type GameSpec } from '../fixtures.ts';
import { Canonicalizer } from './canonicalize.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const game: GameSpec = { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-23T00:30:00Z'), total: 221.5 };
const written = (out: OutRecord[], topic: string) =>
  out
    .filter((r) => r.topic === topic)
    .map((r) => String(r.key))
    .sort();
const markets = (out: OutRecord[]) => written(out, 'canonical.markets');
const state = (out: OutRecord[]) => written(out, 'matching.state');
const OTHER_RULES = 'Overtime does not count. A tie voids the market. Rules: https://venue1.example/rules/other';

describe('records read again', () => {
  it('write a market only when it changed, and again when it changes back', () => {
    const c = new Canonicalizer();
    const readId = `c${Math.random()}`;
    const first = markets(c.ingest(venue1Records(game, NOW, {}, readId)));
    expect(first.length).toBeGreaterThan(1);
    // Read again later, unchanged: nothing to write (the read time alone is no change).
    expect(c.ingest(venue1Records(game, NOW + 30_000, {}, readId))).toEqual([]);
    // Other rules text: every market reads otherwise.
    expect(markets(c.ingest(venue1Records(game, NOW + 60_000, { rules: OTHER_RULES }, readId)))).toEqual(first);
    expect(markets(c.ingest(venue1Records(game, NOW + 90_000, { rules: OTHER_RULES }, readId)))).toEqual([]);
    // And back: written again, with the first text's rules.
    const back = c.ingest(venue1Records(game, NOW + 120_000, {}, readId));
    expect(markets(back)).toEqual(first);
    const again = new Canonicalizer().ingest(venue1Records(game, NOW + 120_000, {}, readId));
    expect(back.filter((r) => r.topic === 'canonical.markets').map((r) => JSON.stringify(r.value))).toEqual(again.filter((r) => r.topic === 'canonical.markets').map((r) => JSON.stringify(r.value)));
    expect(c.ingest(venue1Records(game, NOW + 150_000, {}, readId))).toEqual([]);
  });

  it('keep a listed-apart record once, write it again only when it changed, also after a restore', () => {
    const readId = `c${Math.random()}`;
    const raws = venue1Records(game, NOW, {}, readId);
    const events = raws.filter((r) => r.record_type === 'event');
    expect(events.length).toBeGreaterThan(0);
    const c = new Canonicalizer();
    const out = c.ingest(raws);
    expect(state(out)).toEqual(events.map((e) => `event|venue_1|${e.native_id}`).sort());
    expect(state(c.ingest(events))).toEqual([]);

    // A changed event (its title) is kept again, and its markets read it.
    const changed: RawRecord[] = events.map((e) => ({ ...e, payload: JSON.stringify({ ...(JSON.parse(e.payload) as object), title: `Renamed ${Math.random()}` }) }));
    expect(state(c.ingest(changed))).toEqual(state(out));
    expect(c.listedEvents.get(`venue_1|${events[0]!.native_id}`)).toEqual(JSON.parse(changed[0]!.payload));
    expect(state(c.ingest(changed))).toEqual([]);

    // Restored from its state records: the same events are no change, other ones are.
    const restored = new Canonicalizer();
    for (const r of out.filter((o) => o.topic === 'matching.state')) restored.restoreState(String(r.key), r.value as RawRecord);
    expect(state(restored.ingest(events))).toEqual([]);
    expect(state(restored.ingest(changed))).toEqual(state(out));
    // A tombstone forgets it: read again, it is new.
    restored.restoreState(`event|venue_1|${events[0]!.native_id}`, null);
    expect(state(restored.ingest([changed[0]!]))).toEqual([`event|venue_1|${events[0]!.native_id}`]);
  });
});
