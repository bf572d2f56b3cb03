// A restart never loses a read: records of a later crawl read on one partition before the previous
// crawl's marker was applied (its last copy sat on a slower partition) count as read after a restore.
// The failure this guards (seen in the restart e2e): the restore re-read from where each partition
// stood when the marker applied, past those early reads, so it took them as read at the marker's
// crawl start; the next complete crawl then found them stale and the delta after it deleted markets
// every crawl still listed.
import { describe, expect, it } from 'vitest';
import type { InRecord, OutRecord } from '../../runtime/types.ts';
import type { CanonicalMarket as CanonicalRecord, RawRecord } from '../../topics.ts';
import { BARRIER_HEADER } from '../../venues/pollers/sink.ts';
import { crawlComplete, venue1Records, type GameSpec } from '../fixtures.ts';
import { Canonicalizer } from './canonicalize.ts';
import type { Provider } from '../types.ts';

const S = 1000;
const T1 = Date.parse('2026-11-20T15:00:00Z');
const game: GameSpec = { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z'), total: 6.5 };
const PARTITIONS = 3;

const delta = (id: string, at: number, fullStart: number): RawRecord => ({
  ...crawlComplete('venue_1', id, at),
  payload: JSON.stringify({ feed: 'sports', started_at: fullStart, delta: true, emitted: 0, vanished: [] }),
});

/** The raw topic of venue_1: the game's records on partition 0, each crawl's marker copied to every partition. */
class Topic {
  readonly parts: InRecord[][] = Array.from({ length: PARTITIONS }, () => []);
  add(partition: number, r: RawRecord, copies?: number): void {
    const list = this.parts[partition]!;
    list.push({ topic: 'raw.venue_1', topicName: 'raw.venue_1', partition, offset: String(list.length), key: r.native_id, value: r, timestamp: r.read_started_at, headers: copies ? { [BARRIER_HEADER]: String(copies) } : {} });
  }
  crawl(records: RawRecord[], marker: RawRecord): void {
    for (const r of records) this.add(0, r);
    for (let p = 0; p < PARTITIONS; p++) this.add(p, marker, PARTITIONS);
  }
}

/** Feeds partition `p` up to (not including) offset `to`, from where it stands; returns the outputs. */
function read(c: Canonicalizer, topic: Topic, at: number[], p: number, to: number, out: OutRecord[]): void {
  const records = topic.parts[p]!.slice(at[p], to);
  at[p] = to;
  for (const r of records) out.push(...c.ingestRecords([r]));
}

/** A canonicalizer restored from what `out` wrote, as the stage's restore() does, with everything up to `committed` read. */
function restore(out: OutRecord[], topic: Topic, committed: number[]): Canonicalizer {
  const c = new Canonicalizer();
  for (const r of out) if (r.topic === 'matching.state' && r.key) c.restoreState(r.key, r.value as RawRecord | null);
  for (const r of out) if (r.topic === 'canonical.markets' && r.key) c.restoreMarket(r.key, r.value as CanonicalRecord | null);
  c.finishRestore();
  const done = new Map(committed.map((o, p) => [p, String(o)]));
  for (const [p, o] of c.replayFrom('venue_1' as Provider, done)) {
    const records = topic.parts[p]!.slice(Number(o), committed[p]);
    if (records.length) c.replayAfterMarker(records);
  }
  c.restoredUpTo('venue_1' as Provider, done);
  return c;
}

describe('canonicalizer restore after reading one partition ahead', () => {
  // Two feeds of one venue: a full listing crawl whose pages are read while a delta crawl of the
  // other feed completes, its marker written between those pages and the listing's own marker.
  // The failure this guards (chaos suite, processors SIGKILL, fab80f6): the delta's marker applied
  // before the kill, its checkpoint past the listing's first pages; the restore took every market
  // as read at the previous full crawl's start, the listing's marker then found the ones on those
  // pages stale, and the next delta deleted them (351 venue_2 markets every crawl listed).
  for (const [name, deltaAt] of [
    ['the delta began with the listing', 0],
    ['the delta began just before the listing', -1 * S],
  ] as const)
    it(`keeps what a full crawl read before another feed's delta marker applied (${name})`, () => {
      const topic = new Topic();
      const L2 = T1 + 10 * S;
      const games: GameSpec[] = [game, { ...game, away: 'bos', home: 'nyr' }];
      topic.crawl([...venue1Records(games[0]!, T1, {}, 'f1'), ...venue1Records(games[1]!, T1, {}, 'f1')], crawlComplete('venue_1', 'f1', T1));
      // The listing crawl l2 reads its first page (the first game), then the delta's marker is
      // written, then l2's second page and its marker; a delta after it.
      for (const r of venue1Records(games[0]!, L2, {}, 'l2')) topic.add(0, r);
      for (let p = 0; p < PARTITIONS; p++) topic.add(p, delta('d3', L2 + deltaAt, T1), PARTITIONS);
      topic.crawl(venue1Records(games[1]!, L2 + S, {}, 'l2'), crawlComplete('venue_1', 'l2', L2));
      topic.crawl([], delta('d4', L2 + 30 * S, T1));
      const d3 = topic.parts[0]!.findIndex((r) => (r.value as RawRecord).native_id === 'd3');

      // The same records read without a restart: nothing is deleted.
      const whole: OutRecord[] = [];
      const once = new Canonicalizer();
      const at0 = [0, 0, 0];
      for (let p = 0; p < PARTITIONS; p++) read(once, topic, at0, p, topic.parts[p]!.length, whole);
      expect(once.crawls.get('venue_1' as Provider)?.applied).toEqual(['f1', 'd3', 'l2', 'd4']);
      expect(whole.filter((r) => r.topic === 'canonical.markets' && r.value === null)).toEqual([]);

      // Killed once d3 applied (all of it committed), restored, then the rest read.
      const out: OutRecord[] = [];
      const first = new Canonicalizer();
      const at = [0, 0, 0];
      read(first, topic, at, 0, d3 + 1, out);
      read(first, topic, at, 1, 2, out);
      read(first, topic, at, 2, 2, out);
      expect(first.crawls.get('venue_1' as Provider)?.applied).toEqual(['f1', 'd3']);
      const second = restore(out, topic, at);
      const after: OutRecord[] = [];
      for (let p = 0; p < PARTITIONS; p++) read(second, topic, at, p, topic.parts[p]!.length, after);
      expect(second.crawls.get('venue_1' as Provider)?.applied).toEqual(['f1', 'd3', 'l2', 'd4']);
      const deleted = [...out, ...after].filter((r) => r.topic === 'canonical.markets' && r.value === null).map((r) => r.key);
      expect(deleted).toEqual([]);
      expect(second.markets.size).toBe(once.markets.size);
    });

  /** The game listed in a full crawl f1, a delta d2 and a full crawl f3 (begun at F3). */
  const fullDeltaFull = () => {
    const topic = new Topic();
    const F3 = T1 + 4 * S;
    topic.crawl(venue1Records(game, T1, {}, 'f1'), crawlComplete('venue_1', 'f1', T1));
    topic.crawl([], delta('d2', T1 + 2 * S, T1));
    topic.crawl(venue1Records(game, F3, {}, 'f3'), crawlComplete('venue_1', 'f3', F3));
    return { topic, F3 };
  };

  it('keeps a market listed in every crawl when a later crawl was read on its partition before the restart', () => {
    // F1 full, D2 delta, F3 full, D4 delta: the game is listed throughout, so nothing may be deleted.
    const { topic, F3 } = fullDeltaFull();
    topic.crawl([], delta('d4', F3 + 2 * S, F3));
    const p0 = topic.parts[0]!;
    const f3Start = p0.findIndex((r) => (r.value as RawRecord).read_id === 'f3' && (r.value as RawRecord).record_type !== 'crawl_complete');
    expect(f3Start).toBeGreaterThan(0);

    // First run: partition 0 read through F3's records (ahead), partitions 1 and 2 only through
    // D2's marker copy; D2 applies on partition 2's copy. Then the process dies with all of it committed.
    const out: OutRecord[] = [];
    const first = new Canonicalizer();
    const at = [0, 0, 0];
    const f3Marker = p0.findIndex((r, i) => i >= f3Start && (r.value as RawRecord).record_type === 'crawl_complete');
    read(first, topic, at, 0, f3Marker, out);
    read(first, topic, at, 1, 2, out);
    read(first, topic, at, 2, 2, out);
    expect(first.crawls.get('venue_1' as Provider)?.applied).toEqual(['f1', 'd2']);

    // Second run: restored from what was written, then reads the rest (F3's marker copies, D4's).
    const second = restore(out, topic, at);
    const after: OutRecord[] = [];
    for (let p = 0; p < PARTITIONS; p++) read(second, topic, at, p, topic.parts[p]!.length, after);
    expect(second.crawls.get('venue_1' as Provider)?.applied.slice(-2)).toEqual(['f3', 'd4']);
    const deleted = [...out, ...after].filter((r) => r.topic === 'canonical.markets' && r.value === null).map((r) => r.key);
    expect(deleted).toEqual([]);
    expect(second.markets.size).toBe(first.markets.size);
  });

  it('applies every crawl when one partition was read to its end before any marker applied and the process restarted', () => {
    // No crawl state on the log yet: the restore reads what was read again from the start, so the
    // marker copies partition 0 held are counted (before, every crawl of the venue stayed unapplied
    // for good, and nothing it delisted was ever deleted).
    const { topic } = fullDeltaFull();
    const out: OutRecord[] = [];
    const first = new Canonicalizer();
    const at = [0, 0, 0];
    read(first, topic, at, 0, topic.parts[0]!.length, out);
    expect(first.crawls.get('venue_1' as Provider)).toBeUndefined();
    const second = restore(out, topic, at);
    for (let p = 1; p < PARTITIONS; p++) read(second, topic, at, p, topic.parts[p]!.length, []);
    expect(second.crawls.get('venue_1' as Provider)?.applied).toEqual(['f1', 'd2', 'f3']);
  });
});
