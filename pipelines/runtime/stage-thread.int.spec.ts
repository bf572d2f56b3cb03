// The stage thread's failure paths: an error of a stage there reaches the runner here with its
// message, a stage the thread does not hold is refused, once the thread is closed every call
// rejects instead of waiting for an answer that cannot come, and a worker that dies unasked is
// replaced, its stages refused there until they have restored their state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPriority } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { StageThread } from './stage-thread.ts';
import type { RestoreContext, StageDef } from './types.ts';

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
