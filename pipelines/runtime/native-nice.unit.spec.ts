// Which threads niceNativeThreads sets: chdb's (any thread the runtime did not start), below the
// target only, never the main thread or Node's, libuv's and V8's; and on Linux, that it does.
import { describe, expect, it } from 'vitest';
import { niceNativeThreads, readTasks, tasksToNice, type TaskInfo } from './native-nice.ts';

describe('tasksToNice', () => {
  it('picks the native pools below the target, not the runtime threads, the main thread or threads niced already', () => {
    const tasks: TaskInfo[] = [
      { tid: 1, comm: 'node', nice: 0 },
      { tid: 2, comm: 'node', nice: 0 },
      { tid: 3, comm: 'ThreadPool', nice: 0 },
      { tid: 4, comm: 'MergeMutate', nice: 0 },
      { tid: 5, comm: 'BgSchPool', nice: 10 },
      { tid: 6, comm: 'MemoryWorker', nice: -20 },
      { tid: 7, comm: 'libuv-worker', nice: 0 },
      { tid: 8, comm: 'V8 DefaultWorke', nice: 0 },
      { tid: 9, comm: 'QueryPipelineEx', nice: 19 },
    ];
    expect(tasksToNice(tasks, 10, 1).map((t) => t.tid)).toEqual([3, 4, 6]);
  });
});

describe.runIf(process.platform === 'linux')('niceNativeThreads on Linux', () => {
  it('reads this process\'s threads with their names and nice values, and leaves the runtime\'s alone', () => {
    const before = readTasks();
    expect(before.find((t) => t.tid === process.pid)).toMatchObject({ tid: process.pid });
    const stop = niceNativeThreads(10, 60_000);
    stop();
    const after = new Map(readTasks().map((t) => [t.tid, t]));
    for (const t of before) if (t.comm === 'node' && after.has(t.tid)) expect(after.get(t.tid)!.nice, t.comm).toBe(t.nice);
  });
});
