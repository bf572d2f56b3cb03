// Every thread of the process but the main one (the API's event loop) kept off the first CPU (Linux).
// In: WORKER_CPUS ('off', 'auto' or a CPU list in taskset's syntax). Out: every other thread (the
// worker threads, V8's platform threads, libuv's pool, chdb's pools) allowed only those CPUs, now and
// every intervalMs after, since the pools start threads as they need them.
//
// Why: during a 1,000,000-market crawl the API's p99 was 2.4-4.5x its idle p99 with the workers at
// nice 10, chdb's pools reniced and even at SCHED_IDLE (bench/crawl-latency.md): what the API's thread
// waited for was a core, taken by threads a nice value does not hold back for long enough. Pinning only
// the workers and chdb's pools did not help (V8's threads still ran the pipeline's collections on the
// API's core); every thread but the main one on CPU 1 brought the crawl's p99 to 1.25-1.59x the idle
// one on a quiet machine (2026-11-27 16:46-17:25 UTC; the crawl at about 0.79 of its pace, one core for
// the pipeline). The main thread keeps every CPU. Node has no call for a thread's affinity, so util-linux's `taskset` sets it.
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readTaskFiles } from './native-nice.ts';

/** The CPU list the threads get, or null (off): 'auto' is every CPU but the first where there are two or more. */
export function workerCpus(setting: string, cpus = availableParallelism()): string | null {
  if (setting === 'off' || setting === '') return null;
  if (setting === 'auto') return cpus < 2 ? null : cpus === 2 ? '1' : `1-${cpus - 1}`;
  return setting;
}

export interface TaskMask {
  tid: number;
  /** /proc/<pid>/task/<tid>/status `Cpus_allowed_list`. */
  allowed: string;
}

/** The CPUs a list names ('0-2,5' -> 0,1,2,5), sorted: /proc writes ranges where a setting may list each. */
function cpuSet(list: string): string {
  const cpus = new Set<number>();
  for (const part of list.split(',')) {
    const [a, b = a] = part.split('-').map(Number);
    for (let c = a!; c <= b!; c++) cpus.add(c);
  }
  return [...cpus].sort((x, y) => x - y).join(',');
}

/** The threads to set: not the main one, and not already on `cpus` (compared as sets of CPUs). */
export function tasksToPin(tasks: readonly TaskMask[], cpus: string, mainTid: number): TaskMask[] {
  const want = cpuSet(cpus);
  return tasks.filter((t) => t.tid !== mainTid && cpuSet(t.allowed) !== want);
}

/** This process's threads and their CPU lists, from /proc (none where there is no /proc). */
export function readMasks(): TaskMask[] {
  return readTaskFiles('status', (status, tid) => {
    const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(status);
    return m ? { tid, allowed: m[1]! } : undefined;
  });
}

/**
 * Keeps every thread but the main one on `cpus` (a list from workerCpus), now and every intervalMs (an
 * unref'd timer); returns the stop. Linux only, a no-op elsewhere or for null. Without `taskset` it
 * says so once through `warn` and stops trying.
 */
export function pinWorkerThreads(cpus: string | null, warn: (msg: string) => void = () => {}, intervalMs = 1_000): () => void {
  if (process.platform !== 'linux' || cpus === null) return () => {};
  let missing = false;
  const pending = new Set<number>();
  const once = () => {
    if (missing) return;
    for (const t of tasksToPin(readMasks(), cpus, process.pid)) {
      if (pending.has(t.tid)) continue;
      pending.add(t.tid);
      execFile('taskset', ['-p', '-c', cpus, String(t.tid)], (err) => {
        pending.delete(t.tid);
        if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT' && !missing) {
          missing = true;
          warn('WORKER_CPUS: taskset (util-linux) is not installed; the threads keep every CPU');
        }
      });
    }
  };
  once();
  const timer = setInterval(once, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
