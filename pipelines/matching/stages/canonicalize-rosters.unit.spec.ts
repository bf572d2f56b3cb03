// A prop refused only because its teams' rosters had not been read yet is admitted once they are,
// from the read it was refused in. The failure this guards (chaos suite, processors phases): the
// stage's first reads came before its first `reference.rosters` batch (nothing orders one input
// topic against another), so the props of records read then stayed out until their venue published
// the record again, which a poller does only when it changes. One venue's prop then joined its
// group minutes later, and with settlement rules that differ (void against loses) took the whole
// group out of the `strict` list.
import { describe, expect, it } from 'vitest';
import type { InRecord, OutRecord } from '../../runtime/types.ts';
import type { CanonicalMarket as CanonicalRecord, RawRecord } from '../../topics.ts';
import { crawlComplete, venue2Records, type GameSpec } from '../fixtures.ts';
import { canonicalBody, canonicalizeStage, Canonicalizer } from './canonicalize.ts';

const T1 = Date.parse('2026-11-20T15:00:00Z');
const game: GameSpec = { league: 'nfl', away: 'kc', home: 'bal', start: Date.parse('2026-11-24T01:20:00Z'), total: 46.5 };
const prop = { player: 'Derrick Henry', stat: 'rushing_yards', line: 64.5 };

const rosterRecord = (team: string, athletes: { id: number; name: string }[], at: number): RawRecord => ({
  venue: 'rosters',
  record_type: 'roster',
  native_id: `nfl|${team}`,
  read_started_at: at,
  payload: JSON.stringify({ source: 'sds', updated_at: new Date(at).toISOString(), athletes }),
  read_id: null,
  source_url: null,
});
const rosters = (at: number): InRecord<'reference.rosters'>[] =>
  [rosterRecord('kc', [{ id: 101, name: 'Patrick Mahomes' }], at), rosterRecord('bal', [{ id: 190700, name: 'Derrick Henry' }], at)].map((r, i) => ({
    topic: 'reference.rosters',
    topicName: 'reference.rosters',
    partition: 0,
    offset: String(i),
    key: `roster|${r.native_id}`,
    value: r,
    timestamp: at,
    headers: {},
  }));
const inputs = (records: RawRecord[]): InRecord[] =>
  records.map((r, i) => ({ topic: 'raw.venue_2', topicName: 'raw.venue_2', partition: 0, offset: String(i), key: r.native_id, value: r, timestamp: r.read_started_at, headers: {} }));

/** The player props written to canonical.markets (upserts), by key. */
const props = (out: OutRecord[]): string[] =>
  out
    .filter((r) => r.topic === 'canonical.markets' && r.value !== null && canonicalBody(r.value as CanonicalRecord)?.market.marketType === 'player_prop')
    .map((r) => r.key!);

describe('canonicalize: a prop read before its rosters', () => {
  const records = venue2Records(game, T1, { props: [prop] });
  const propKey = `venue_2:${records.at(-1)!.native_id}`;

  it('admits the prop with rosters read first (the control)', () => {
    const stage = canonicalizeStage();
    stage.handle(rosters(T1 - 1000), {} as never);
    const out = stage.handle(inputs(records), {} as never) as { records: OutRecord[] };
    expect(props(out.records)).toEqual([propKey]);
  });

  it('admits it when the rosters come after the record, without the venue publishing it again', () => {
    const stage = canonicalizeStage();
    const first = stage.handle(inputs(records), {} as never) as { records: OutRecord[] };
    expect(props(first.records)).toEqual([]); // "a missing ... roster removes the prop"
    expect(first.records.length).toBeGreaterThan(0); // the game lines are not held back
    const after = stage.handle(rosters(T1 + 1000), {} as never) as { records?: OutRecord[] };
    expect(props(after.records ?? [])).toEqual([propKey]);
    // Read at the record's own read time, not the roster's.
    const written = after.records!.find((r) => r.key === propKey)!;
    expect(canonicalBody(written.value as CanonicalRecord)!.market.observedAt).toBe(T1);
    expect(stage.state().awaitingRoster.size).toBe(0);
  });

  it('keeps a waiting record that delta crawls found unchanged, and its markets when admitted', () => {
    const c = new Canonicalizer();
    const delta = (id: string, at: number) => ({ ...crawlComplete('venue_2', id, at), payload: JSON.stringify({ feed: 'listing', started_at: at, delta: true, vanished: [] }) });
    c.ingest([crawlComplete('venue_2', 'crawl-0', T1 - 60_000)]);
    c.ingest(records);
    c.ingest([crawlComplete('venue_2', 'crawl-1', T1)]);
    // Change-only polling: the record is not published again, each delta crawl read it unchanged.
    for (let i = 2; i <= 4; i++) c.ingest([delta(`crawl-${i}`, T1 + i * 60_000)]);
    expect(c.awaitingRoster.size).toBe(1);
    expect(props(c.rosterBatch(rosters(T1 + 250_000)))).toEqual([propKey]);
    // The next crawls do not take the admitted prop for one their venue stopped listing.
    const later = [...c.ingest([delta('crawl-5', T1 + 300_000)]), ...c.ingest([delta('crawl-6', T1 + 360_000)])];
    expect(later.filter((r) => r.topic === 'canonical.markets' && r.value === null).map((r) => r.key)).toEqual([]);
    expect(c.markets.has(propKey)).toBe(true);
  });

  it('forgets a waiting record its venue no longer lists (two complete crawls without it)', () => {
    const c = new Canonicalizer();
    c.ingest(records);
    expect(c.awaitingRoster.size).toBe(1);
    c.ingest([crawlComplete('venue_2', 'crawl-2', T1 + 60_000)]);
    c.ingest([crawlComplete('venue_2', 'crawl-3', T1 + 120_000)]);
    expect(c.awaitingRoster.size).toBe(0);
    const out = c.rosterBatch(rosters(T1 + 130_000));
    expect(props(out)).toEqual([]);
  });
});
