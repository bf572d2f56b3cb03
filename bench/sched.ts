// Linux schedstat of a process's threads: nanoseconds on a CPU (run) and runnable but waiting for
// one (wait). On a shared machine the wait says how much of a slow phase was the cores, not the code.
import { readdirSync, readFileSync } from 'node:fs';

/** One thread (`tid`) or every thread of `pid`; zeros where /proc is not readable (not Linux). */
export function schedOf(pid: number, tid?: number): { run: number; wait: number } {
  let tids: number[];
  try {
    tids = tid !== undefined ? [tid] : readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return { run: 0, wait: 0 };
  }
  let run = 0;
  let wait = 0;
  for (const t of tids) {
    try {
      const [a, b] = readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ').map(Number);
      run += a!;
      wait += b!;
    } catch {
      // a thread gone meanwhile
    }
  }
  return { run, wait };
}
