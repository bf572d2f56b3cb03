// The stage thread's failure paths: an error of a stage there reaches the runner here with its
// message, a stage the thread does not hold is refused, and once the thread is gone every call
// rejects instead of waiting for an answer that cannot come.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPriority } from 'node:os';
import { StageThread } from './stage-thread.ts';
import type { StageDef } from './types.ts';

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
});
