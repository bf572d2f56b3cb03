// A sports snapshot read after a restart, soon. After a restart the listing feed's first crawl reads
// every listed record again, and each record's first read read its rules texts cold (the reader's
// readings went with the process) while the crawls behind it waited: the sports snapshot served after
// a restart kept the observed_at of before it for 22-45 s (bench/soak.md, "Sports snapshot after a
// restart"). The canonicalizer keeps the readings on matching.state (`reading|<version>|<digest>`, one
// record per rules text) and restores them before reading anything. These check that a restart
// publishes a snapshot read after it within a bound that holds on a loaded machine, with the content
// it served before (the same events with the same venue markets), and that the restart read no rules
// text again: every text's record restored, none written anew (on a stage thread the reader is the
// thread's own, nothing read before, so a text not restored would be read and written again).
import { afterEach, describe, expect, it } from 'vitest';
import type { Log, LogRecord } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import type { RawRecord, TopicDef } from '../../topics.ts';
import { MemorySnapshotStore } from '../../readmodels/memory-store.ts';
import { StageThread } from '../../runtime/stage-thread.ts';
import { startSportsArea, type SportsArea } from '../area.ts';
import { SportsReader } from '../readmodel.ts';
import { crawlComplete, venue1Records, venue2Records, type GameSpec } from '../fixtures.ts';
import { readerVersion } from '../rulestext.ts';
import { READING_PREFIX } from './canonicalize.ts';
import { stagesBackbone } from './stages.testkit.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
/** The liveness bound: far above what a restart takes on a loaded 2-core machine. */
const FRESH_WITHIN_MS = 30_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const games: GameSpec[] = [
  { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z'), total: 6.5 },
  { league: 'nba', away: 'bos', home: 'nyk', start: Date.parse('2026-11-24T00:30:00Z'), total: 221.5, spread: { team: 'bos', size: 3.5 } },
];

/** Both venues' records of every game, read at `at` by crawl `id`, and each venue's marker. */
function crawl(at: number, id: string): RawRecord[] {
  const records = games.flatMap((g, i) => [...venue1Records(g, at, {}, id), ...venue2Records(g, at, { idBase: 9_500_000 + i * 100 }, id)]);
  return [...records, crawlComplete('venue_1', id, at), crawlComplete('venue_2', id, at)];
}

/** The served events, each with its venue markets (`<provider>:<market_id>`). */
function served(entries: { event: { event_id: string; submarkets: { source_markets: { provider: string; market_id: string }[] }[] } }[]): Map<string, string[]> {
  return new Map(entries.map((e) => [e.event.event_id, e.event.submarkets.flatMap((s) => s.source_markets.map((m) => `${m.provider}:${m.market_id}`)).sort()]));
}

/** The keys of the reading records written to matching.state so far (every record, not compacted). */
async function readingKeys(log: Log, serde: Serde, topic: TopicDef): Promise<string[]> {
  const high = new Map((await log.topicOffsets(topic.name)).map((p) => [p.partition, Number(p.high)]));
  const records: LogRecord[] = [];
  const left = new Set([...high].filter(([, h]) => h > 0).map(([p]) => p));
  if (left.size) {
    const tail = log.tail({ topics: [topic.name] });
    await new Promise<void>((resolve, reject) => {
      tail
        .run(async (batch) => {
          const h = high.get(batch.partition)!;
          records.push(...batch.records.filter((r) => Number(r.offset) < h));
          if (batch.records.some((r) => Number(r.offset) + 1 >= h)) left.delete(batch.partition);
          if (!left.size) resolve();
        })
        .catch(reject);
    });
    await tail.stop();
  }
  return (await serde.decodeMany(topic, records)).map((d) => String(d.key)).filter((k) => k.startsWith(READING_PREFIX)).sort();
}

describe.each([
  ['on this thread', false],
  ['on a stage thread', true],
])('a restart of the matching stages on the embedded log (%s)', (_where, onThread) => {
  it(`publishes a snapshot read after the restart within ${FRESH_WITHIN_MS / 1000} s, with the events and venue markets it served before`, async () => {
    const { log, topics, serde, send } = await stagesBackbone(cleanups, 'pm-sports-fresh-');
    const store = new MemorySnapshotStore();
    const reader = new SportsReader(store);
    const clock = { now: NOW };
    let area: SportsArea | null = null;
    let thread: StageThread | undefined;
    const start = async () => {
      thread = onThread ? await StageThread.open({ tickMs: 3_600_000 }) : undefined;
      area = await startSportsArea({ config: { SPORTS_PUBLISH_MS: 3_600_000 }, deps: { log, serde, topics, store }, clock: () => clock.now, thread });
    };
    const stop = async () => {
      await area?.stop();
      await thread?.close();
      area = null;
    };
    cleanups.push(stop);
    /** Rounds until the snapshot's observed_at is at or after `since`; the seconds it took. */
    const freshSince = async (since: number, bound: number) => {
      const t0 = Date.now();
      for (;;) {
        await area!.round();
        const s = await reader.current();
        if (s && s.observedAt !== null && s.observedAt >= since) return { s, ms: Date.now() - t0 };
        if (Date.now() - t0 > bound) throw new Error(`no snapshot read at or after ${new Date(since).toISOString()} within ${bound} ms (observed_at ${s?.observedAt})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    await start();
    await send(crawl(NOW, 'c1'));
    const before = await freshSince(NOW, FRESH_WITHIN_MS);
    expect(before.s.entries.length).toBe(2);
    const servedBefore = served(before.s.entries);
    const readingsBefore = await readingKeys(log, serde, topics['matching.state']);
    expect(readingsBefore.length).toBeGreaterThan(0);
    expect(readingsBefore.every((k) => k.startsWith(`${READING_PREFIX}${readerVersion()}|`))).toBe(true);

    await stop();
    const restartAt = NOW + 120_000;
    clock.now = restartAt;
    await start();
    // The listing feed's first crawl after the restart: every record again, none changed.
    const t2 = restartAt + 1_000;
    clock.now = t2;
    await send(crawl(t2, 'c2'));
    const after = await freshSince(t2, FRESH_WITHIN_MS);
    expect(served(after.s.entries)).toEqual(servedBefore);
    // Every text's readings restored: the crawl after the restart (the same texts) wrote none again.
    expect(await readingKeys(log, serde, topics['matching.state'])).toEqual(readingsBefore);
    if (!onThread) expect(area!.stages.canonicalize.state().kept!.size).toBe(new Set(readingsBefore).size);
  });
});
