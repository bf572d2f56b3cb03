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
import { spawn, type ChildProcess } from 'node:child_process';
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
 *
 * One `sh` started at the first call runs every `taskset`: a child started from this process forks it
 * on the calling thread, the API's, and the fork's cost grows with the process (its page tables; then
 * a copy-on-write fault for each page any thread writes until the child execs). chdb starts and ends
 * pool threads all through a crawl, so a `taskset` of its own for each new thread put 10-22 ms stalls
 * on the API's thread (a CPU profile of it during a 1,000,000-market crawl, bench/crawl-latency.md);
 * the shell is small and forks cheaply.
 */
export function pinWorkerThreads(cpus: string | null, warn: (msg: string) => void = () => {}, intervalMs = 1_000): () => void {
  if (process.platform !== 'linux' || cpus === null) return () => {};
  let missing = false;
  let stopped = false;
  const pending = new Set<number>();
  let shell: ChildProcess | null = null;
  const start = (): ChildProcess => {
    const sh = spawn('sh', [], { stdio: ['pipe', 'pipe', 'ignore'] });
    let buffered = '';
    sh.stdout!.setEncoding('utf8');
    sh.stdout!.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const [tid, code] = buffered.slice(0, nl).split(' ');
        buffered = buffered.slice(nl + 1);
        pending.delete(Number(tid));
        // 127: the shell found no taskset.
        if (code === '127' && !missing) {
          missing = true;
          warn('WORKER_CPUS: taskset (util-linux) is not installed; the threads keep every CPU');
        }
      }
    });
    const gone = () => {
      if (shell === sh) shell = null;
      pending.clear();
    };
    sh.on('exit', gone);
    sh.on('error', gone);
    sh.stdin!.on('error', gone);
    // Neither the shell nor its pipes keep the process alive.
    sh.unref();
    (sh.stdin as unknown as { unref?: () => void }).unref?.();
    (sh.stdout as unknown as { unref?: () => void }).unref?.();
    return sh;
  };
  const once = () => {
    if (missing || stopped) return;
    const tids = tasksToPin(readMasks(), cpus, process.pid)
      .map((t) => t.tid)
      .filter((tid) => !pending.has(tid));
    if (tids.length === 0) return;
    shell ??= start();
    for (const tid of tids) pending.add(tid);
    shell.stdin!.write(tids.map((tid) => `taskset -p -c ${cpus} ${tid} >/dev/null 2>&1; echo "${tid} $?"\n`).join(''));
  };
  once();
  const timer = setInterval(once, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    shell?.stdin?.end();
    shell = null;
  };
}
