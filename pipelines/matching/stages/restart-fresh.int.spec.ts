// A sports snapshot read after a restart, soon. After a restart the listing feed's first crawl reads
// every listed record again; the canonicalizer used to read each one in full (its rules texts about
// 1 ms a record, the reader's kept readings gone with the process), and the crawls behind that one
// waited: the sports snapshot served after a restart kept the observed_at of before it for 30-65 s
// (bench/soak.md, runs 134-135 and "Sports snapshot after a restart"). The canonicalizer now keeps,
// on matching.state, a digest of what each record's markets were read from, and a read of the same
// input is known unchanged. These check that a restart publishes a snapshot read after it within a
// bound that holds on a loaded machine, with the content it served before (the same events with the
// same venue markets), and that reads after a restore canonicalize to what a full read gives.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLog } from '../../log/embedded.ts';
import { createAllTopics, defineTopics, rawTopicId, type CanonicalMarket as CanonicalRecord, type RawRecord } from '../../topics.ts';
import { testSerde } from '../../runtime/test-services.ts';
import { MemorySnapshotStore } from '../../readmodels/memory-store.ts';
import type { OutRecord } from '../../runtime/types.ts';
import { StageThread } from '../../runtime/stage-thread.ts';
import { startSportsArea, type SportsArea } from '../area.ts';
import { SportsReader } from '../readmodel.ts';
import { crawlComplete, rosterRecords, venue1Records, venue2Records, type GameSpec } from '../fixtures.ts';
import { startSimulator } from '../../venues/simulator/server.ts';
import { createClock } from '../../venues/simulator/core.ts';
import { crawlVenue, PROVIDER_LIST, readRosters } from '../crawl.ts';
import { PROP_ADMISSION_WINDOW_MS } from '../props.ts';
import { Canonicalizer } from './canonicalize.ts';

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

describe.each([
  ['on this thread', false],
  ['on a stage thread', true],
])('a restart of the matching stages on the embedded log (%s)', (_where, onThread) => {
  it(`publishes a snapshot read after the restart within ${FRESH_WITHIN_MS / 1000} s, with the events and venue markets it served before`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-sports-fresh-'));
    const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 });
    const topics = defineTopics({ prefix: `t${Math.random().toString(36).slice(2)}.`, partitions: 3 });
    await createAllTopics(log, topics);
    const serde = await testSerde(dir);
    const producer = await log.producer();
    cleanups.push(async () => {
      await producer.close();
      await log.close();
    });
    const send = async (records: RawRecord[]) => {
      for (const venue of ['venue_1', 'venue_2'] as const) {
        const t = topics[rawTopicId(venue)];
        const list = records.filter((r) => r.venue === venue);
        await producer.send(t.name, await Promise.all(list.map((r) => serde.encode(t, r.native_id, r, { timestamp: r.read_started_at }))));
      }
    };
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
    // Read unchanged, not canonicalized again (on this thread, where the stage's state is at hand).
    if (!onThread) expect(area!.stages.canonicalize.state().unchangedReads).toBe(crawl(t2, 'c2').filter((r) => r.record_type !== 'crawl_complete' && r.record_type !== 'event').length);
  });
});

describe('reads after a restore (simulator listing, props and rosters)', () => {
  it('canonicalize to what a full read gives: unchanged, changed, and past the props admission window', { timeout: 120_000 }, async () => {
    const AT = Date.parse('2026-11-28T19:00:00Z');
    const listing = async (at: number) => {
      const sim = await startSimulator({ port: 0, scale: 0.25, clock: createClock(at, { frozen: true }) });
      try {
        const rosters = await readRosters(sim.baseUrl, at);
        const records: RawRecord[] = [];
        for (const p of PROVIDER_LIST)
          for (const r of await crawlVenue(sim.baseUrl, p, () => at))
            records.push({ venue: r.provider, record_type: r.recordType, native_id: r.nativeId, read_started_at: at, payload: JSON.stringify(r.payload), read_id: 'c', source_url: null });
        return { records, rosters: rosterRecords(rosters) };
      } finally {
        await sim.close();
      }
    };
    const first = await listing(AT);
    const c0 = new Canonicalizer();
    c0.rosterBatch(first.rosters);
    const out0 = c0.ingest(first.records);
    expect(out0.some((o) => o.topic === 'matching.state' && o.key?.startsWith('input|'))).toBe(true);
    // Restored from what was written, with the input digests (a) and without them (b: every read in full).
    const restored = (withInputs: boolean) => {
      const c = new Canonicalizer();
      for (const r of first.rosters) c.roster(r.key, r.value);
      for (const o of out0) if (o.topic === 'matching.state' && o.key && (withInputs || !o.key.startsWith('input|'))) c.restoreState(o.key, o.value as RawRecord | null);
      for (const o of out0) if (o.topic === 'canonical.markets' && o.key) c.restoreMarket(o.key, o.value as CanonicalRecord | null);
      c.finishRestore();
      return c;
    };
    const markets = (out: OutRecord[]) => out.filter((o) => o.topic === 'canonical.markets').map((o) => [o.key, o.value]);
    const later = await listing(AT + 20 * 60_000);
    const cases: [string, RawRecord[]][] = [
      ['the same listing a minute later', first.records.map((r) => ({ ...r, read_started_at: AT + 60_000 }))],
      ['the listing 20 minutes on (prices and games moved)', later.records],
      ['the same listing past the props admission window', first.records.map((r) => ({ ...r, read_started_at: AT + PROP_ADMISSION_WINDOW_MS + 3_600_000 }))],
    ];
    for (const [name, records] of cases) {
      const a = restored(true);
      const b = restored(false);
      const outA = a.ingest(records);
      const outB = b.ingest(records);
      expect(markets(outA), name).toEqual(markets(outB));
      expect([...a.markets.keys()].sort(), name).toEqual([...b.markets.keys()].sort());
      expect(b.unchangedReads, name).toBe(0);
      if (name.startsWith('the same listing a minute')) {
        expect(a.unchangedReads).toBeGreaterThan(0);
        expect(markets(outA)).toEqual([]);
      }
    }
  });
});
