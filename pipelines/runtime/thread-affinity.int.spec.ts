// pinWorkerThreads in a child process of its own (so the test runner's threads keep their CPUs), with a
// worker thread and libuv's pool running: every thread but the main one ends on the list, the main
// thread keeps every CPU (Linux with two or more CPUs and util-linux's taskset).
import { execFileSync, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const here = path.dirname(new URL(import.meta.url).pathname);

describe.runIf(process.platform === 'linux' && availableParallelism() >= 2 && hasTaskset)('pinWorkerThreads', () => {
  it('keeps every thread but the main one on the CPUs given, the main thread on all', () => {
    const child = `
      import { Worker } from 'node:worker_threads';
      import { pbkdf2 } from 'node:crypto';
      import { pinWorkerThreads, readMasks } from ${JSON.stringify(path.join(here, 'thread-affinity.ts'))};
      const w = new Worker('setInterval(() => {}, 1000)', { eval: true });
      await new Promise((r) => w.once('online', r));
      await new Promise((r) => pbkdf2('x', 'y', 1, 8, 'sha256', r)); // libuv's pool started
      const before = readMasks().find((t) => t.tid === process.pid).allowed;
      pinWorkerThreads('1', (m) => console.error(m), 50);
      await new Promise((r) => setTimeout(r, 1500));
      console.log(JSON.stringify({ pid: process.pid, before, masks: readMasks() }));
      process.exit(0);
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { pid: number; before: string; masks: Array<{ tid: number; allowed: string }> };
    const main = out.masks.find((t) => t.tid === out.pid)!;
    const others = out.masks.filter((t) => t.tid !== out.pid);
    expect(others.length).toBeGreaterThan(4);
    expect(others.filter((t) => t.allowed !== '1')).toEqual([]);
    expect(main.allowed).toBe(out.before);
    expect(main.allowed).not.toBe('1');
  });

  it('forks one shell for every thread it pins, not a taskset from this process for each: a fork of a large process stalls the thread that asks', () => {
    const child = `
      import cp from 'node:child_process';
      import { syncBuiltinESMExports } from 'node:module';
      import { Worker } from 'node:worker_threads';
      let forks = 0;
      for (const name of ['spawn', 'execFile', 'exec', 'fork']) {
        const orig = cp[name];
        cp[name] = (...a) => (forks++, orig(...a));
      }
      syncBuiltinESMExports();
      const { pinWorkerThreads, readMasks } = await import(${JSON.stringify(path.join(here, 'thread-affinity.ts'))});
      const workers = [];
      const more = async (n) => {
        for (let i = 0; i < n; i++) {
          const w = new Worker('setInterval(() => {}, 1000)', { eval: true });
          await new Promise((r) => w.once('online', r));
          workers.push(w);
        }
      };
      await more(3);
      pinWorkerThreads('1', (m) => console.error(m), 50);
      await new Promise((r) => setTimeout(r, 500));
      await more(3); // threads that start later, as chdb's pools do
      await new Promise((r) => setTimeout(r, 1500));
      console.log(JSON.stringify({ pid: process.pid, forks, masks: readMasks() }));
      process.exit(0);
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { pid: number; forks: number; masks: Array<{ tid: number; allowed: string }> };
    const others = out.masks.filter((t) => t.tid !== out.pid);
    expect(others.length).toBeGreaterThan(6);
    expect(others.filter((t) => t.allowed !== '1')).toEqual([]);
    expect(out.forks).toBe(1);
  });
});
