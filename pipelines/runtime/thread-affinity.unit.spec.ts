// WORKER_CPUS read against the machine, and which threads get the mask.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.ts';
import { tasksToPin, workerCpus } from './thread-affinity.ts';

describe('WORKER_CPUS', () => {
  it("'auto' is every CPU but the first where there are two or more, off on one; a list as given; 'off' off", () => {
    expect(workerCpus('auto', 2)).toBe('1');
    expect(workerCpus('auto', 8)).toBe('1-7');
    expect(workerCpus('auto', 1)).toBeNull();
    expect(workerCpus('2-5,7', 8)).toBe('2-5,7');
    expect(workerCpus('off', 8)).toBeNull();
  });

  it("defaults to off, and refuses what is not a CPU list, quoting the rule", () => {
    expect(loadConfig({}).WORKER_CPUS).toBe('off');
    expect(loadConfig({ WORKER_CPUS: '1-3,5' }).WORKER_CPUS).toBe('1-3,5');
    expect(() => loadConfig({ WORKER_CPUS: 'cpu1' })).toThrow(/WORKER_CPUS must be 'off', 'auto' or a CPU list/);
    expect(() => loadConfig({ WORKER_CPUS: '1-' })).toThrow(/WORKER_CPUS/);
  });

  it('pins every thread but the main one, and none already on the list', () => {
    const tasks = [
      { tid: 100, allowed: '0-1' },
      { tid: 101, allowed: '0-1' },
      { tid: 102, allowed: '1' },
      { tid: 103, allowed: '0' },
    ];
    expect(tasksToPin(tasks, '1', 100).map((t) => t.tid)).toEqual([101, 103]);
  });

  it("compares CPU lists as sets: a thread /proc shows on '1-2' is already on '1,2' (else taskset ran for it every second)", () => {
    expect(tasksToPin([{ tid: 101, allowed: '1-2' }, { tid: 102, allowed: '0-3' }], '1,2', 100).map((t) => t.tid)).toEqual([102]);
    expect(tasksToPin([{ tid: 101, allowed: '2-3,5' }], '2,3,5', 100)).toEqual([]);
  });
});
