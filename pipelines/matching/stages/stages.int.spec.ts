// The matching stages under the stage runner on the embedded log, with Avro through the embedded
// registry: raw topics in, canonical.markets / lifecycle.states / matched.events out, the sports
// snapshot published by its sink; a delisting is pruned one complete crawl later; a restart resumes
// the lifecycle from its compacted topic. Each test runs twice: the stages on this thread, and the
// canonicalizer, the matching round and the snapshot sink on a stage thread (a new one per start, as after a restart).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RawRecord, TopicMap } from '../../topics.ts';
import { MemorySnapshotStore } from '../../readmodels/memory-store.ts';
import type { Serde } from '../../serde/index.ts';
import type { Log } from '../../log/types.ts';
import { startSportsArea, type SportsArea } from '../area.ts';
import { StageThread } from '../../runtime/stage-thread.ts';
import { SPORTS_RETAIN_MS } from './sports-snapshot.ts';
import { SportsPricesReader, SportsReader, SPORTS_PRICES_SNAPSHOT, SPORTS_SNAPSHOT } from '../readmodel.ts';
import { READ_MODEL_STAGES } from '../../runtime/stages.ts';
import { replay } from '../../runtime/replay.ts';
import { stagesBackbone } from './stages.testkit.ts';
import { crawlComplete, venue1Records, venue2Records, type GameSpec } from '../fixtures.ts';
import type { RawRecord as Raw } from '../../topics.ts';
import { startSimulator } from '../../venues/simulator/server.ts';
import { VenueEndpoints } from '../../venues/client/endpoints.ts';
import { FeeSchedulePoller } from '../../venues/pollers/fee-schedules.ts';
import { submarketPrices } from '../prices.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const backbone = () => stagesBackbone(cleanups);

/** The stages with ticks far apart: each test runs its rounds itself (area.round()). */
class Stages {
  area: SportsArea | null = null;
  thread: StageThread | undefined;
  constructor(
    private readonly log: Log,
    private readonly serde: Serde,
    private readonly topics: TopicMap,
    private readonly store: MemorySnapshotStore,
    private readonly clock: { now: number },
  ) {}
  async start(): Promise<void> {
    this.thread = threaded ? await StageThread.open({ tickMs: 3_600_000 }) : undefined;
    this.area = await startSportsArea({ config: { SPORTS_PUBLISH_MS: 3_600_000 }, deps: { log: this.log, serde: this.serde, topics: this.topics, store: this.store }, clock: () => this.clock.now, thread: this.thread });
  }
  publish(): Promise<void> {
    return this.area!.round();
  }
  async stop(): Promise<void> {
    await this.area?.stop();
    await this.thread?.close();
    this.area = null;
    this.thread = undefined;
  }
}

function processor(log: Log, serde: Serde, topics: TopicMap, store: MemorySnapshotStore, clock: { now: number }) {
  return new Stages(log, serde, topics, store, clock);
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

/** venue_2 records quoting their first outcome (the fixtures carry no quotes). */
const quotedVenue2 = (records: RawRecord[]): RawRecord[] =>
  records.map((r) => ({ ...r, payload: JSON.stringify({ ...JSON.parse(r.payload), bestBid: 0.44, bestAsk: 0.46 }) }));

const g: GameSpec = { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z'), total: 6.5 };

let threaded = false;

describe.each([
  ['on this thread', false],
  ['the canonicalizer, matching and the snapshot sink on a stage thread', true],
])('matching stages on the embedded log, %s', (_where, onThread) => {
  beforeAll(() => {
    threaded = onThread;
  });
  it('publishes matched events from raw topics, prunes delistings after the next complete crawl, and resumes its lifecycle after a restart', async () => {
    const { log, topics, serde, send } = await backbone();
    const store = new MemorySnapshotStore();
    const clock = { now: NOW };
    let p = processor(log, serde, topics, store, clock);
    await p.start();
    cleanups.push(() => p.stop());
    await send([...venue1Records(g, NOW, {}, 'c1'), ...venue2Records(g, NOW, { idBase: 9_400_000 }, 'c1'), crawlComplete('venue_1', 'c1', NOW), crawlComplete('venue_2', 'c1', NOW)]);
    const reader = new SportsReader(store);
    const first = await until(async () => {
      await p.publish();
      const s = await reader.current();
      return s && s.entries.length === 1 && s.entries[0].event.submarkets.length === 2 ? s : null;
    });
    expect(first.entries[0].event.event_id).toBe('nhl-tor-mtl-2026-11-23');
    expect(first.observedAt).toBe(NOW);

    // venue_1 stops listing the total; two complete crawls later it has left the submarket.
    const t2 = NOW + 60_000;
    clock.now = t2;
    const v1NoTotal = (at: number, id: string) => venue1Records(g, at, {}, id).filter((r) => !r.native_id.includes('TOTAL'));
    await send([...v1NoTotal(t2, 'c2'), crawlComplete('venue_1', 'c2', t2)]);
    const t3 = t2 + 60_000;
    clock.now = t3;
    await send([...v1NoTotal(t3, 'c3'), crawlComplete('venue_1', 'c3', t3)]);
    await until(async () => {
      await p.publish();
      const s = await reader.current();
      return s && s.entries[0]?.event.submarkets.length === 1;
    });

    // venue_2 settles the moneyline 50-50: archived at once.
    await send(venue2Records(g, t3, { idBase: 9_400_000, closed: true, resolved: true, prices: ['0.5', '0.5'] }, 'c2'));
    await until(async () => {
      await p.publish();
      const s = await reader.current();
      return s?.entries[0]?.population === 'archived';
    });
    // A crawl a little over SPORTS_RETAIN_MS later publishes again (observed_at moves), and the first snapshot, superseded
    // since then, is gone: sports snapshots are not kept for the store's 10-minute default (which at
    // a publish every 250 ms held thousands of copies).
    const archivedId = (await reader.current())!.id;
    clock.now = t3 + SPORTS_RETAIN_MS + 1_000;
    await send([...venue2Records(g, clock.now, { idBase: 9_400_000, closed: true, resolved: true, prices: ['0.5', '0.5'] }, 'c3'), crawlComplete('venue_2', 'c3', clock.now)]);
    await until(async () => {
      await p.publish();
      return (await store.current(SPORTS_SNAPSHOT))!.id !== archivedId;
    });
    expect(await store.snapshot(SPORTS_SNAPSHOT, first.id)).toBeNull();
    // Its state is on the compacted topic.
    const off = await log.topicOffsets(topics['lifecycle.states'].name);
    expect(off.reduce((n, o) => n + Number(o.high), 0)).toBeGreaterThan(0);

    // Restart: a fresh processor (fresh store) resumes the archived state from the topic although
    // no new raw record says anything about the game.
    await p.stop();
    cleanups.pop();
    const store2 = new MemorySnapshotStore();
    p = processor(log, serde, topics, store2, clock);
    await p.start();
    cleanups.push(() => p.stop());
    await p.publish();
    const after = await new SportsReader(store2).current();
    expect(after?.entries.map((e) => [e.event.event_id, e.population])).toEqual([['nhl-tor-mtl-2026-11-23', 'archived']]);
    expect((await store2.current(SPORTS_SNAPSHOT))?.count).toBe(1);
  });

  // Regression: the pollers' delta mode re-emits only changed records between full crawls; the
  // unchanged ones were read again all the same, so observed_at must move with the delta crawl, and
  // what a delta crawl names as vanished leaves at once.
  it('a delta crawl moves observed_at for unchanged records and drops what it names as vanished', async () => {
    const { log, topics, serde, send } = await backbone();
    const store = new MemorySnapshotStore();
    const clock = { now: NOW };
    const p = processor(log, serde, topics, store, clock);
    await p.start();
    cleanups.push(() => p.stop());
    const v1 = venue1Records(g, NOW, {}, 'c1');
    await send([...v1, ...venue2Records(g, NOW, { idBase: 9_410_000 }, 'c1'), crawlComplete('venue_1', 'c1', NOW), crawlComplete('venue_2', 'c1', NOW)]);
    const reader = new SportsReader(store);
    await until(async () => {
      await p.publish();
      const s = await reader.current();
      return s && s.entries.length === 1 && s.entries[0].event.submarkets.length === 2 ? s : null;
    });

    // Delta crawls of both venues five minutes on: nothing changed, venue_1's total vanished.
    const t2 = NOW + 5 * 60_000;
    clock.now = t2;
    const total = v1.find((r) => r.native_id.includes('TOTAL'))!;
    const delta = (venue: string, id: string, vanished: string[]): Raw => ({
      ...crawlComplete(venue, id, t2),
      payload: JSON.stringify({ feed: 'sports', started_at: NOW, delta: true, emitted: 0, vanished }),
    });
    await send([delta('venue_1', 'd1', [`${total.record_type}:${total.native_id}`]), delta('venue_2', 'd2', [])]);
    const after = await until(async () => {
      await p.publish();
      const s = await reader.current();
      // The two venues' markers sit on two topics: wait until both are read.
      return s && s.entries[0]?.event.submarkets.length === 1 && s.observedAt === t2 ? s : null;
    });
    expect(after.observedAt).toBe(t2);
    expect(after.entries[0].event.submarkets.map((m) => m.key)).toEqual(['moneyline|full|winner']);
  });

  it('publishes the quotes of served events beside the sports snapshot and restores them after a restart', async () => {
    const { log, topics, serde, send } = await backbone();
    const store = new MemorySnapshotStore();
    const clock = { now: NOW };
    let p = processor(log, serde, topics, store, clock);
    await p.start();
    cleanups.push(() => p.stop());
    await send([...venue1Records(g, NOW, {}, 'q1'), ...quotedVenue2(venue2Records(g, NOW, { idBase: 9_430_000 }, 'q1')), crawlComplete('venue_1', 'q1', NOW), crawlComplete('venue_2', 'q1', NOW)]);
    const quotesOf = async (s: MemorySnapshotStore) => (await new SportsPricesReader(s).current())?.quotesFor(['nhl-tor-mtl-2026-11-23']);
    const before = await until(async () => {
      await p.publish();
      const q = await quotesOf(store);
      return q?.size === 2 ? q : null;
    });
    // The moneyline quotes its first outcome; the second is the complement (1 - 0.46, 1 - 0.44).
    expect(before.get('venue_2:9430000')?.outcomes.map((o) => [o.bid, o.ask])).toEqual([
      [0.44, 0.46],
      [0.54, 0.56],
    ]);
    expect(before.get('venue_2:9430000')?.fees.availability).toBe('zero');
    expect(before.get('venue_2:9430000')?.observed_at).toBe(NOW);
    // A fresh processor with a fresh store (not durable: its sink is rebuilt from the log) publishes
    // the same quotes again from canonical.markets.
    await p.stop();
    cleanups.pop();
    const store2 = new MemorySnapshotStore();
    p = processor(log, serde, topics, store2, clock);
    await p.start();
    cleanups.push(() => p.stop());
    await p.publish();
    expect(await quotesOf(store2)).toEqual(before);
  });

  // venue_1's listing carries no fees: the fee schedule poller reads its series' schedules (the
  // simulator's KXNFLGAME: quadratic 0.07, a change to 0.05 scheduled for 2027-01-01) into
  // reference.fee_schedules, and the sink prices venue_1's quotes with the schedule in effect.
  it("venue_1's quotes carry the fees of the polled schedule, its scheduled change applies at its time without another poll, and a restart restores them", async () => {
    const { log, topics, serde, send } = await backbone();
    const sim = await startSimulator({ seed: 7, scale: 0, scenario: 'default' });
    cleanups.push(() => sim.close());
    const change = Date.parse('2027-01-01T00:00:00Z');
    const readAt = change - 20_000;
    const store = new MemorySnapshotStore();
    const clock = { now: readAt };
    let p = processor(log, serde, topics, store, clock);
    await p.start();
    cleanups.push(() => p.stop());
    const nfl: GameSpec = { league: 'nfl', away: 'buf', home: 'bal', start: Date.parse('2027-01-03T18:00:00Z') };
    // Buffalo's market: YES ask 80 cents; Baltimore's market quotes nothing.
    const v1 = venue1Records(nfl, readAt, {}, 'f1').map((r) =>
      r.native_id.endsWith('-BUF') ? { ...r, payload: JSON.stringify({ ...JSON.parse(r.payload), yes_bid: 78, yes_ask: 80, no_bid: 20, no_ask: 22 }) } : r,
    );
    const buf = v1.find((r) => r.native_id.endsWith('-BUF'))!.native_id;
    await send([...v1, ...quotedVenue2(venue2Records(nfl, readAt, { idBase: 9_440_000 }, 'f1')), crawlComplete('venue_1', 'f1', readAt), crawlComplete('venue_2', 'f1', readAt)]);
    const eventId = 'nfl-buf-bal-2027-01-03';
    const v1Quote = async (s: MemorySnapshotStore) => (await (await new SportsPricesReader(s).current())?.quotesFor([eventId]))?.get(`venue_1:${buf}`);
    // Before any schedule is read: unavailable, as the listing alone says.
    const before = await until(async () => {
      await p.publish();
      return v1Quote(store);
    });
    expect(before.fees.availability).toBe('unavailable');

    const producer = await log.producer();
    cleanups.push(() => producer.close());
    const poller = new FeeSchedulePoller({ endpoints: new VenueEndpoints(sim.baseUrl), producer, serde, topics, intervalMs: 3_600_000, deadlineMs: 5_000, series: ['KXNFLGAME', 'KXNFLTOTAL'] });
    await poller.runRound();
    await poller.stop();
    const published = await until(async () => {
      await p.publish();
      const q = await v1Quote(store);
      return q?.fees.availability === 'published' ? q : null;
    });
    expect(published.fees).toEqual({ availability: 'published', source: 'series_fee_schedule', charge_basis: 'contracts', taker: { model: 'quadratic', rate: 0.07, exponent: 1, rounding: { direction: 'up', increment: 0.01 } } });
    // The effective price include_prices serves: 0.07 x 0.8 x 0.2 = 0.0112, up to the cent 0.02 -> 0.82.
    const effective = async (s: MemorySnapshotStore, now: number) => {
      const entry = (await new SportsReader(s).current())!.entries.find((e) => e.event.event_id === eventId)!;
      const sm = entry.event.submarkets.find((x) => x.key === 'moneyline|full|winner')!;
      const quotes = (await (await new SportsPricesReader(s).current())!.quotesFor([eventId]))!;
      const prices = submarketPrices(sm, (id) => quotes.get(id), now, 60_000);
      return prices.outcomes.flatMap((o) => o.quotes).find((q) => q.provider === 'venue_1' && q.market_id === buf && q.outcome_id === 'yes');
    };
    expect(await effective(store, clock.now)).toMatchObject({ fee_availability: 'published', ask: 0.8, fee: 0.02, effective_ask: 0.82 });

    // The change's time passes; nothing is read again: 0.05 x 0.16 = 0.008, up to 0.01 -> 0.81.
    clock.now = change + 10_000;
    await p.publish();
    expect((await v1Quote(store))?.fees.taker?.rate).toBe(0.05);
    expect(await effective(store, clock.now)).toMatchObject({ fee: 0.01, effective_ask: 0.81 });

    // A fresh processor with a fresh store: the schedule comes back from the log.
    await p.stop();
    const store2 = new MemorySnapshotStore();
    // The cleanup registered above stops whichever processor `p` is then.
    p = processor(log, serde, topics, store2, clock);
    await p.start();
    await p.publish();
    expect((await v1Quote(store2))?.fees.taker?.rate).toBe(0.05);
  });

  it('bin/replay --from earliest rebuilds the sports snapshot: the same entries before and after a reset and replay', async () => {
    const { log, topics, serde, send } = await backbone();
    const store = new MemorySnapshotStore();
    const clock = { now: NOW };
    const p = processor(log, serde, topics, store, clock);
    await p.start();
    await send([...venue1Records(g, NOW, {}, 'r1'), ...quotedVenue2(venue2Records(g, NOW, { idBase: 9_420_000 }, 'r1')), crawlComplete('venue_1', 'r1', NOW), crawlComplete('venue_2', 'r1', NOW)]);
    await p.publish();
    await p.stop();
    const answer = async () => {
      const s = await new SportsReader(store).current();
      const prices = await (await new SportsPricesReader(store).current())?.quotesFor(['nhl-tor-mtl-2026-11-23']);
      return { observedAt: s?.observedAt, entries: s?.entries.map((e) => [e.event, e.population, e.lookupIds, e.strictPropKeys]), prices: [...(prices ?? [])] };
    };
    const before = await answer();
    expect(before.entries).toHaveLength(1);
    expect(before.prices.map(([id]) => id)).toEqual(['venue_2:9420000', 'venue_2:9420002']);
    // The operator's replay of the read-model stages (bin/replay.ts): the sports snapshot is dropped and rebuilt.
    const sink = READ_MODEL_STAGES.find((x) => x.name === 'sink.sports-snapshot')!;
    const result = await replay([sink], { log, serde, topics, store }, 'earliest');
    expect(result.plan.snapshotNames).toEqual([SPORTS_SNAPSHOT, SPORTS_PRICES_SNAPSHOT]);
    expect(await answer()).toEqual(before);
  });
});
