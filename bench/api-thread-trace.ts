// Why the API's thread was off its CPU, from the kernel's scheduler trace (Linux ftrace, as root).
// In: a thread id (a round child's pid: its main thread is the API's) and, after the round, the
// window's bounds on CLOCK_MONOTONIC (process.hrtime). Out: the thread's waits of over 2 ms inside
// the window by kind, each kind's total and longest: asleep on a futex (a lock or condition variable
// shared with another thread of the process), asleep in epoll (nothing to do), asleep elsewhere,
// preempted (runnable, another task on its CPU), uninterruptible (D: disk, page-in).
//
// Why: the API thread's longest stalls in a crawl (loop delay max 25-180 ms) take no CPU time and are
// no preemption (bench/crawl-latency.md), so neither a CPU profile nor /proc's counters can say what
// they are; the scheduler's switch events with the kernel stack at each switch-out do. An ftrace
// instance of its own (tracefs/instances/...) filtered to the one thread, the mono clock so that
// its times compare with process.hrtime, a stack trace at each switch-out to tell a futex from epoll.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const TRACEFS = '/sys/kernel/tracing';
export const OFF_CPU_KINDS = ['futex', 'epoll', 'sleep', 'preempted', 'uninterruptible'] as const;
export type OffCpuKind = (typeof OFF_CPU_KINDS)[number];
export type OffCpu = Record<OffCpuKind, { totalMs: number; count: number; longestMs: number }>;

/** Starts tracing thread `tid`; stop() reads its waits of over minMs between start and end (seconds, CLOCK_MONOTONIC) and removes the instance, once. */
export function traceThread(tid: number): { stop(window: { start: number; end: number }, minMs?: number): OffCpu } {
  if (!existsSync(path.join(TRACEFS, 'README'))) execFileSync('mount', ['-t', 'tracefs', 'nodev', TRACEFS]);
  const dir = path.join(TRACEFS, 'instances', `pm-api-${tid}`);
  if (!existsSync(dir)) mkdirSync(dir);
  const put = (file: string, value: string) => writeFileSync(path.join(dir, file), value);
  put('buffer_size_kb', '200000');
  put('trace_clock', 'mono');
  put('events/sched/sched_switch/filter', `prev_pid == ${tid} || next_pid == ${tid}`);
  put('events/sched/sched_switch/trigger', `stacktrace if prev_pid == ${tid}`);
  put('events/sched/sched_switch/enable', '1');
  put('tracing_on', '1');
  let done: OffCpu | null = null;
  return {
    // Once: a second call (a cleanup after a round that gave no figures) answers the first's.
    stop(window, minMs = 2) {
      if (done) return done;
      put('tracing_on', '0');
      const text = readFileSync(path.join(dir, 'trace'), 'utf8');
      put('events/sched/sched_switch/enable', '0');
      put('events/sched/sched_switch/trigger', `!stacktrace if prev_pid == ${tid}`);
      rmdirSync(dir);
      done = offCpu(text, tid, window, minMs);
      return done;
    },
  };
}

const SWITCH = /\s(\d+\.\d+): sched_switch: prev_comm=.* prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+) ==> next_comm=.* next_pid=(\d+) /;

/** The waits of `tid` in an ftrace text (sched_switch with stack traces), within the window, by kind. */
export function offCpu(text: string, tid: number, window: { start: number; end: number }, minMs = 2): OffCpu {
  const out = Object.fromEntries(OFF_CPU_KINDS.map((k) => [k, { totalMs: 0, count: 0, longestMs: 0 }])) as OffCpu;
  let left: { t: number; state: string; stack: string[] } | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith(' =>')) {
      left?.stack.push(line.slice(4).trim());
      continue;
    }
    const m = SWITCH.exec(line);
    if (!m) continue;
    const t = Number(m[1]);
    if (Number(m[2]) === tid) left = { t, state: m[3]!, stack: [] };
    else if (Number(m[4]) === tid && left) {
      const ms = (t - left.t) * 1000;
      if (left.t >= window.start && left.t <= window.end && ms > minMs) {
        const k = kindOf(left.state, left.stack);
        out[k].totalMs += ms;
        out[k].count++;
        out[k].longestMs = Math.max(out[k].longestMs, ms);
      }
      left = null;
    }
  }
  return out;
}

function kindOf(state: string, stack: string[]): OffCpuKind {
  if (state.startsWith('R')) return 'preempted';
  if (state.startsWith('D')) return 'uninterruptible';
  const s = stack.join(' ');
  return /futex/.test(s) ? 'futex' : /epoll/.test(s) ? 'epoll' : 'sleep';
}
