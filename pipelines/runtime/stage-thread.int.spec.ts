// The stage thread's failure paths: an error of a stage there reaches the runner here with its
// message, a stage the thread does not hold is refused, once the thread is closed every call
// rejects instead of waiting for an answer that cannot come, and a worker that dies unasked is
// replaced, its stages refused there until they have restored their state. And the sports snapshot
// sink there publishes, through the runner's store, the documents it publishes on this thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPriority } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { StageThread } from './stage-thread.ts';
import type { InRecord, RestoreContext, StageDef, StageOutput } from './types.ts';
import { sportsSnapshotStage } from '../matching/stages/sports-snapshot.ts';
import { SPORTS_PRICES_SNAPSHOT, SPORTS_SNAPSHOT } from '../matching/readmodel.ts';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import { feeScheduleKey } from '../venues/adapters/venue_1/fee-book.ts';
import { randomName } from '../../test/services/index.ts';

describe('stage thread', () => {
  let thread: StageThread;
  beforeAll(async () => {
    thread = await StageThread.open({ tickMs: 60_000 });
  });
  afterAll(async () => {
    await thread?.close();
  });

  const local = (name: string): StageDef => ({ name, inputs: ['canonical.markets'], handle: () => ({}), tick: { ms: 1, run: () => ({}) } });

  it('refuses a stage it does not hold, naming it', async () => {
    const name = `nope-${Math.random().toString(36).slice(2, 8)}`;
    await expect(Promise.resolve(thread.def(local(name)).handle([], { stage: name, topic: 'canonical.markets', partition: 0 }))).rejects.toThrow(name);
  });

  it("answers the matching stage's handle and tick there: a tombstone of an unknown market changes nothing", async () => {
    const def = thread.def(local('matching'));
    const key = `venue_2:${Math.floor(Math.random() * 1e9)}`;
    const rec = { topic: 'canonical.markets' as const, topicName: 'canonical.markets', partition: 0, offset: '0', key, value: null, timestamp: 0, headers: {} };
    // The runner's context may carry its History (functions, sessions): none of it crosses over.
    const ctx = { stage: 'matching', topic: 'canonical.markets' as const, partition: 0, history: { query: async () => [] } as never };
    await expect(Promise.resolve(def.handle([rec], ctx))).resolves.toEqual({});
    const out = await def.tick!.run(Date.now());
    expect(out.records ?? []).toEqual([]);
  });

  it('holds the sports snapshot sink: its publish there, stored, is the documents of the same sink here', async () => {
    const now = Date.parse('2026-12-31T23:00:00Z');
    const series = `KX${randomName('s').replace(/\W/g, '').toUpperCase()}`;
    const marketId = `${series}-26DEC31LALBOS-LAL`;
    const eventId = `nba-lal-bos-${randomName('e')}`;
    const rec = <T extends InRecord['topic']>(topic: T, key: string, value: unknown, offset: number): InRecord =>
      ({ topic, topicName: topic, partition: 0, offset: String(offset), key, value, timestamp: now, headers: {} }) as InRecord;
    const quotes = { outcomes: [{ outcome_id: 'yes', bid: 0.38, ask: 0.39 }], as_of: null, as_of_kind: 'unknown', fees: { availability: 'unavailable', source: 'series_fee_schedule', charge_basis: null, taker: null } };
    const market = { provider: 'venue_1', source: { market_id: marketId }, observedAt: now, quotes };
    const event = { event_id: eventId, scheduled_start: null, scheduled_date: '2026-12-31', submarkets: [{ source_markets: [{ provider: 'venue_1', market_id: marketId }] }] };
    const raw = (payload: unknown) => ({ venue: 'venue_1', record_type: 'x', native_id: 'x', read_started_at: now, payload: JSON.stringify(payload), read_id: null, source_url: null });
    const batches: InRecord[][] = [
      [rec('canonical.markets', `venue_1:${marketId}`, { provider: 'venue_1', market_id: marketId, title: 't', status: 'open', read_started_at: now, body: JSON.stringify({ kind: 'sports_matching', market, nativeKey: 'n', readId: null }) }, 3)],
      [rec('matched.events', eventId, { event_id: eventId, league: 'nba', sport: 'basketball', title: 't', scheduled_date: '2026-12-31', scheduled_start: null, participant_keys: [], population: 'current', submarket_count: 1, observed_at: now, body: JSON.stringify(event) }, 7)],
      [rec('matching.state', 'crawl|venue_1', raw({ lastCrawlStart: now - 5_000, lastReadStart: now - 4_000, applied: [] }), 1)],
      [rec('reference.fee_schedules', feeScheduleKey('venue_1', series), raw({ series: { ticker: series, fee_type: 'quadratic', fee_multiplier: 0.07 }, series_fee_change_arr: [] }), 2)],
    ];
    // Both as their runners would run them: restored (from an empty log), every batch, a tick.
    const empty: RestoreContext = { readCompacted: async () => {}, committed: async () => new Map(), readRange: async () => {} };
    const here = sportsSnapshotStage({ tickMs: 60_000, clock: () => now });
    const there = thread.def(sportsSnapshotStage({ tickMs: 60_000 }), () => now);
    const stored = async (def: StageDef) => {
      await def.restore!(empty);
      for (const b of batches) expect(await def.handle(b, { stage: def.name, topic: b[0]!.topic, partition: 0 })).toEqual({});
      const out: StageOutput = await def.tick!.run(now);
      const store = new MemorySnapshotStore();
      for (const p of out.publishes ?? []) await store.publish(p.name, p.entries, { ...p.options, id: 'same' });
      return Promise.all(
        [SPORTS_SNAPSHOT, SPORTS_PRICES_SNAPSHOT].map(async (name) => ({ info: await store.current(name), entries: await store.range(name, 'same', 0, 10) })),
      );
    };
    const mine = await stored(here);
    expect(mine[0]!.entries.map((e) => e.key)).toEqual([eventId]);
    expect(mine[1]!.entries).toEqual([{ key: eventId, value: { quotes: [expect.objectContaining({ market_id: marketId, fees: expect.objectContaining({ availability: 'published' }) })] } }]);
    expect(await stored(there)).toEqual(mine);
  });

  it.runIf(process.platform === 'linux')('runs at the nice value it is given, the main thread at its own', async () => {
    const before = getPriority();
    const t = await StageThread.open({ tickMs: 60_000, nice: 7 });
    try {
      expect(t.priority).toBe(7);
      expect(getPriority()).toBe(before);
    } finally {
      await t.close();
    }
  });

  it('rejects every call once the thread is gone', async () => {
    const t = await StageThread.open({ tickMs: 60_000 });
    const def = t.def(local('matching'));
    await t.close();
    await expect(Promise.resolve(def.tick!.run(Date.now()))).rejects.toThrow(/stage thread/);
  });

  it('replaces a worker that died unasked, and refuses a stage there until it has restored', async () => {
    const t = await StageThread.open({ tickMs: 60_000 });
    try {
      const def = t.def({ ...local('matching'), restore: async () => {} });
      // The log as a restore reads it: empty here.
      const empty: RestoreContext = { readCompacted: async () => {}, committed: async () => new Map(), readRange: async () => {} };
      await def.restore!(empty);
      await expect(Promise.resolve(def.tick!.run(Date.now()))).resolves.toEqual(expect.anything());
      // Ended from outside, as a crash inside it would end it.
      await (t as unknown as { worker: Worker }).worker.terminate();
      const end = Date.now() + 30_000;
      while (t.restarts() === 0 || (t as unknown as { failed?: Error }).failed) {
        if (Date.now() > end) throw new Error('the stage thread was not started again');
        await new Promise((r) => setTimeout(r, 50));
      }
      await expect(Promise.resolve(def.tick!.run(Date.now()))).rejects.toThrow(/restores its state first/);
      await def.restore!(empty);
      await expect(Promise.resolve(def.tick!.run(Date.now()))).resolves.toEqual(expect.anything());
    } finally {
      await t.close();
    }
  }, 60_000);
});
