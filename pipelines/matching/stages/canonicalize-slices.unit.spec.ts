// The canonicalizer handed a batch in slices (StageDef.sliceRecords: the runner frees the event loop
// between them) ends with the same canonical markets and state records as one call over the batch.
import { describe, expect, it } from 'vitest';
import { handleSliced } from '../../runtime/runner.ts';
import type { InRecord, OutRecord } from '../../runtime/types.ts';
import type { RawRecord } from '../../topics.ts';
import { crawlComplete, venue1Records, venue2Records, venue3Records, venue4Records, type GameSpec } from '../fixtures.ts';
import { canonicalizeStage } from './canonicalize.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const games: GameSpec[] = [
  { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z'), total: 6.5 },
  { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-23T00:30:00Z'), total: 221.5 },
];

/** One venue's crawl as its raw topic holds it (one partition here: the order the stage reads). */
function batch(venue: string, records: RawRecord[]): InRecord[] {
  return records.map((r, i) => ({ topic: `raw.${venue}` as InRecord['topic'], topicName: `raw.${venue}`, partition: 0, offset: String(i), key: r.native_id, value: r, timestamp: r.read_started_at, headers: {} }));
}

const lastByKey = (records: OutRecord[]) => Object.fromEntries(records.map((r) => [`${r.topic}|${r.key}`, r.value]));

describe('canonicalize in slices', () => {
  it('writes what one call over each batch writes, key by key', async () => {
    const crawls: Record<string, RawRecord[]> = { venue_1: [], venue_2: [], venue_3: [], venue_4: [] };
    for (const [i, g] of games.entries()) {
      crawls.venue_1!.push(...venue1Records(g, NOW, {}, 'c1'));
      crawls.venue_2!.push(...venue2Records(g, NOW, { idBase: 9_400_000 + i * 1000 }, 'c1'));
      crawls.venue_3!.push(...venue3Records(g, NOW, 'c1'));
      crawls.venue_4!.push(...venue4Records(g, NOW, 'c1'));
    }
    const whole = canonicalizeStage();
    const sliced = canonicalizeStage();
    const a: OutRecord[] = [];
    const b: OutRecord[] = [];
    for (const [venue, records] of Object.entries(crawls)) {
      const list = batch(venue, [...records, crawlComplete(venue, 'c1', NOW)]);
      const ctx = { stage: 'canonicalize', topic: list[0]!.topic, partition: 0 };
      a.push(...((await whole.handle(list, ctx)).records ?? []));
      b.push(...((await handleSliced(sliced, list, ctx, 3)).records ?? []));
    }
    expect(Object.keys(lastByKey(a)).filter((k) => k.startsWith('canonical.markets|')).length).toBeGreaterThan(8);
    expect(lastByKey(b)).toEqual(lastByKey(a));
  });
});
