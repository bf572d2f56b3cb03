// The pipeline's native threads at the workers' priority (Linux). In: a nice value (WORKER_NICE).
// Out: every thread of the process that neither Node, libuv nor V8 started (chdb's ClickHouse pools:
// ThreadPool, MergeMutate, BgSchPool, ...) set to that nice value, now and every intervalMs after,
// since the pools start threads as they need them.
//
// Why: WORKER_NICE lowers the priority of the workers' JavaScript threads (ts-worker.mjs), but chdb's
// threads are created by its library and kept the process's: during a 1,000,000-market crawl they
// took 0.9 s of CPU in a 15 s window at nice 0, beside the API thread's 1.4 s (bench/crawl-latency.md),
// competing with it on equal terms for the history worker's work. Node's, libuv's and V8's threads are
// left alone: V8's also collect and compile for the API's thread, and libuv's run its file and gzip work.
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

export interface TaskInfo {
  tid: number;
  /** The thread's name (/proc/<pid>/task/<tid>/comm: at most 15 characters). */
  comm: string;
  nice: number;
}

/** Names of the threads Node, libuv and V8 start (Node 20 leaves its own unnamed: the process's name). */
const RUNTIME_THREAD = /^(node|libuv|v8 |v8:|signalinspector|inspector)/i;

/** The threads to set to `nice`: not the runtime's, not `mainTid`, and not already at or past it. */
export function tasksToNice(tasks: readonly TaskInfo[], nice: number, mainTid: number): TaskInfo[] {
  return tasks.filter((t) => t.tid !== mainTid && !RUNTIME_THREAD.test(t.comm) && t.nice < nice);
}

/**
 * One file of each of this process's threads (/proc/self/task/<tid>/<file>), read by `parse` (none
 * where there is no /proc; a thread that ended meanwhile, or that `parse` gives undefined, is left out).
 */
export function readTaskFiles<T>(file: string, parse: (text: string, tid: number) => T | undefined): T[] {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const tid of tids) {
    let text: string;
    try {
      text = readFileSync(`/proc/self/task/${tid}/${file}`, 'utf8');
    } catch {
      continue; // The thread ended meanwhile.
    }
    const v = parse(text, Number(tid));
    if (v !== undefined) out.push(v);
  }
  return out;
}

/** This process's threads, from /proc (none where there is no /proc). */
export function readTasks(): TaskInfo[] {
  return readTaskFiles('stat', (stat, tid) => {
    // "tid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { tid, comm: stat.slice(stat.indexOf('(') + 1, close), nice: Number(fields[16]) };
  });
}

/**
 * Sets the native threads to `nice` now and every intervalMs (an unref'd timer); returns the stop.
 * Linux only (a nice value belongs to a thread there); a no-op elsewhere or for nice <= 0.
 */
export function niceNativeThreads(nice: number, intervalMs = 5_000): () => void {
  if (process.platform !== 'linux' || nice <= 0) return () => {};
  const once = () => {
    for (const t of tasksToNice(readTasks(), nice, process.pid)) {
      try {
        setPriority(t.tid, nice);
      } catch {
        // Not permitted or gone: the thread keeps its priority.
      }
    }
  };
  once();
  const timer = setInterval(once, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
