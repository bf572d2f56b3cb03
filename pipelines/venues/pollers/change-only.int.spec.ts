// Change-only ingestion end to end on the embedded log: two venue pollers (sports feed in delta mode,
// their memory on `pollers.state`) read a venue upstream this test controls, and the matching stages
// and the sports snapshot run on what they write. An unchanged crawl writes its marker alone (the
// "still listed" heartbeat) and still moves observed_at; a market that leaves the listing leaves the
// served event; one listed again comes back; pollers started afresh read their memory back from the
// log and go on writing only the heartbeat.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rawTopicId, type RawRecord, type TopicMap } from '../../topics.ts';
import { logBackbone } from '../../runtime/testkit.ts';
import { MemorySnapshotStore } from '../../readmodels/memory-store.ts';
import type { Log, Producer } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import { startSportsArea, type SportsArea } from '../../matching/area.ts';
import { SportsReader } from '../../matching/readmodel.ts';
import { venue1Records, venue2Records, type GameSpec } from '../../matching/fixtures.ts';
import type { Provider } from '../../../lib/vocabulary.ts';
import { VenuePoller } from './poller.ts';
import { logRawSink } from './sink.ts';
import { LogPollerState } from './state.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const MIN = 60_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A venue_1 and venue_2 upstream serving the listed records' payloads, one page each. */
function upstream(listed: { v1: RawRecord[]; v2: RawRecord[] }): Promise<Server> {
  const body = (rs: RawRecord[]) => rs.map((r) => JSON.parse(r.payload) as Record<string, unknown>);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (v: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    // venue_1's sports listing reads events up to the first one outside Sports (its adapter, pipelines/venues/adapters/venue_1).
    if (url.pathname === '/venue_1/events') return json({ events: body(listed.v1.filter((r) => r.record_type === 'event')).map((e) => ({ ...e, category: 'Sports' })), cursor: '' });
    if (url.pathname === '/venue_1/markets') return json({ markets: body(listed.v1.filter((r) => r.record_type === 'market')), cursor: '' });
    if (url.pathname === '/venue_2/markets') return json(url.searchParams.get('offset') === '0' ? body(listed.v2) : []);
    res.writeHead(404).end('{}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const backbone = () => logBackbone(cleanups, 'pm-change-only-');

/** The two pollers on the log, their memory read back from it, each write also kept for the test. */
async function pollers(b: { log: Log; topics: TopicMap; serde: Serde; producer: Producer }, baseUrl: string, clock: { now: number }) {
  const state = await LogPollerState.restore(b);
  const written: RawRecord[] = [];
  const sink = logRawSink(b.producer, b.serde, b.topics);
  const make = (provider: Provider) =>
    new VenuePoller({
      provider,
      baseUrl,
      sink: async (p, records) => {
        await sink(p, records);
        written.push(...records);
      },
      crawlIntervalMs: 3_600_000,
      sportsIntervalMs: 2_000,
      sportsFullEveryMs: 6 * 3_600_000,
      deadlineMs: 2_000,
      clock: () => clock.now,
      state,
    });
  const list = [make('venue_1'), make('venue_2')];
  return {
    written,
    async crawl() {
      written.length = 0;
      for (const p of list) expect(await p.crawlOnce('sports')).toBe(true);
      return [...written];
    },
    stop: () => Promise.all(list.map((p) => p.stop())),
  };
}

async function until<T>(f: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const g: GameSpec = { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z'), total: 6.5 };
const marker = (rs: RawRecord[], venue: string) => JSON.parse(rs.find((r) => r.venue === venue && r.record_type === 'crawl_complete')!.payload) as Record<string, unknown>;
const rawEnds = async (log: Log, topics: TopicMap) =>
  Promise.all((['venue_1', 'venue_2'] as const).map(async (v) => (await log.topicOffsets(topics[rawTopicId(v)].name)).reduce((n, p) => n + Number(p.high), 0)));

describe('change-only ingestion on the embedded log', () => {
  it('an unchanged crawl writes only its heartbeat; a delisted market leaves, a relisted one returns; a restart goes on from the log', async () => {
    const b = await backbone();
    const listed = { v1: venue1Records(g, NOW), v2: venue2Records(g, NOW, { idBase: 9_510_000 }) };
    const server = await upstream(listed);
    cleanups.push(() => new Promise((r) => server.close(() => r())));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clock = { now: NOW };
    const store = new MemorySnapshotStore();
    const area: SportsArea = await startSportsArea({ config: { SPORTS_PUBLISH_MS: 3_600_000 }, deps: { ...b, store }, clock: () => clock.now });
    cleanups.push(() => area.stop());
    const reader = new SportsReader(store);
    const served = (observedAt: number, submarkets: number) =>
      until(async () => {
        await area.round();
        const s = await reader.current();
        return s && s.observedAt === observedAt && s.entries.length === 1 && s.entries[0]!.event.submarkets.length === submarkets ? s : null;
      });

    // A full crawl: every record, then the marker.
    let p = await pollers(b, baseUrl, clock);
    const full = await p.crawl();
    expect(full.filter((r) => r.record_type !== 'crawl_complete')).toHaveLength(listed.v1.length + listed.v2.length);
    expect(marker(full, 'venue_1').delta).toBeUndefined();
    const first = await served(NOW, 2);
    expect(first.entries[0]!.event.submarkets.map((m) => m.key).sort()).toEqual(['moneyline|full|winner', 'total|full|total|6.5']);

    // Nothing changed: each venue writes its marker alone (a copy on each of the 3 partitions), and
    // observed_at moves with it as it did when every record was written again.
    clock.now = NOW + 5 * MIN;
    let before = await rawEnds(b.log, b.topics);
    const quiet = await p.crawl();
    expect(quiet.map((r) => r.record_type)).toEqual(['crawl_complete', 'crawl_complete']);
    expect(marker(quiet, 'venue_1')).toMatchObject({ delta: true, emitted: 0, vanished: [], started_at: NOW, records: listed.v1.length });
    expect((await rawEnds(b.log, b.topics)).map((n, i) => n - before[i]!)).toEqual([3, 3]);
    await served(NOW + 5 * MIN, 2);

    // venue_1 delists its total: the heartbeat names it, and the served event loses it at once.
    const total = listed.v1.find((r) => r.native_id.includes('TOTAL'))!;
    listed.v1 = listed.v1.filter((r) => r !== total);
    clock.now = NOW + 10 * MIN;
    const delisted = await p.crawl();
    expect(delisted.map((r) => r.record_type)).toEqual(['crawl_complete', 'crawl_complete']);
    expect(marker(delisted, 'venue_1')).toMatchObject({ delta: true, emitted: 0, vanished: [`market:${total.native_id}`] });
    const without = await served(NOW + 10 * MIN, 1);
    expect(without.entries[0]!.event.submarkets.map((m) => m.key)).toEqual(['moneyline|full|winner']);

    // Listed again: it is new to the poller's memory, so it is written, and served again.
    listed.v1 = [...listed.v1, total];
    clock.now = NOW + 15 * MIN;
    const relisted = await p.crawl();
    expect(relisted.filter((r) => r.record_type !== 'crawl_complete').map((r) => r.native_id)).toEqual([total.native_id]);
    expect(marker(relisted, 'venue_1')).toMatchObject({ delta: true, emitted: 1, vanished: [] });
    await served(NOW + 15 * MIN, 2);

    // Pollers started afresh read their memory back from pollers.state: still only the heartbeat,
    // still a delta crawl of the same full crawl.
    await p.stop();
    p = await pollers(b, baseUrl, clock);
    clock.now = NOW + 20 * MIN;
    before = await rawEnds(b.log, b.topics);
    const restarted = await p.crawl();
    expect(restarted.map((r) => r.record_type)).toEqual(['crawl_complete', 'crawl_complete']);
    expect(marker(restarted, 'venue_2')).toMatchObject({ delta: true, emitted: 0, vanished: [], started_at: NOW, records: listed.v2.length });
    expect((await rawEnds(b.log, b.topics)).map((n, i) => n - before[i]!)).toEqual([3, 3]);
    const after = await served(NOW + 20 * MIN, 2);
    expect(after.entries[0]!.event.submarkets.map((m) => m.key).sort()).toEqual(['moneyline|full|winner', 'total|full|total|6.5']);

    // A content change after the restart is written, alone.
    const moneyline = listed.v2[0]!;
    listed.v2 = [{ ...moneyline, payload: JSON.stringify({ ...JSON.parse(moneyline.payload), volume: 12_345 }) }, ...listed.v2.slice(1)];
    clock.now = NOW + 25 * MIN;
    const changed = await p.crawl();
    expect(changed.filter((r) => r.record_type !== 'crawl_complete').map((r) => r.native_id)).toEqual([moneyline.native_id]);
    await p.stop();
  });
});
