// The API thread's waits read from an ftrace text: kinds by state and kernel stack, the window, the floor.
import { describe, expect, it } from 'vitest';
import { offCpu } from './api-thread-trace.ts';

const TID = 4242;
const out = (t: number, state: string, stack: string[]) =>
  [`            node-${TID}    [000] d..2.   ${t.toFixed(6)}: sched_switch: prev_comm=node prev_pid=${TID} prev_prio=120 prev_state=${state} ==> next_comm=swapper/0 next_pid=0 next_prio=120`, `            node-${TID}    [000] d..2.   ${t.toFixed(6)}: <stack trace>`, ...[' => trace_event_raw_event_sched_switch', ' => __schedule', ...stack.map((f) => ` => ${f}`)]].join('\n');
const into = (t: number, from = 'swapper/0', fromPid = 0) => `          <idle>-0       [000] d..2.   ${t.toFixed(6)}: sched_switch: prev_comm=${from} prev_pid=${fromPid} prev_prio=120 prev_state=R ==> next_comm=node next_pid=${TID} next_prio=120`;
const FUTEX = ['futex_do_wait', '__futex_wait', 'do_futex', '__x64_sys_futex'];
const EPOLL = ['schedule_hrtimeout_range_clock', 'do_epoll_wait', '__x64_sys_epoll_pwait'];

describe('offCpu', () => {
  const trace = [
    out(100.0, 'S', EPOLL), into(100.05), // 50 ms asleep in epoll
    out(100.1, 'S', FUTEX), into(100.212), // 112 ms on a futex
    out(100.3, 'S', FUTEX), into(100.301), // 1 ms on a futex: under the floor
    out(100.4, 'R+', ['irqentry_exit_to_user_mode']), into(100.412, 'node', 99), // 12 ms preempted
    out(100.5, 'D', ['io_schedule', 'submit_bio_wait']), into(100.506), // 6 ms uninterruptible
    out(100.6, 'S', ['anon_pipe_read', 'vfs_read']), into(100.61), // 10 ms asleep elsewhere
    out(100.7, 'S', FUTEX), into(100.74), // 40 ms on a futex, after the window
    // another thread's switches are not this one's
    `            node-99    [001] d..2.   100.800000: sched_switch: prev_comm=node prev_pid=99 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120`,
  ].join('\n');

  it('sorts each wait over the floor by kind, inside the window only', () => {
    const r = offCpu(trace, TID, { start: 99.9, end: 100.65 });
    expect(r.futex).toEqual({ totalMs: expect.closeTo(112, 6), count: 1, longestMs: expect.closeTo(112, 6) });
    expect(r.epoll.count).toBe(1);
    expect(r.epoll.longestMs).toBeCloseTo(50, 6);
    expect(r.preempted.longestMs).toBeCloseTo(12, 6);
    expect(r.uninterruptible.longestMs).toBeCloseTo(6, 6);
    expect(r.sleep.longestMs).toBeCloseTo(10, 6);
  });

  it('counts every futex wait of the window, the longest apart', () => {
    const r = offCpu(trace, TID, { start: 99.9, end: 101 });
    expect(r.futex.count).toBe(2);
    expect(r.futex.totalMs).toBeCloseTo(152, 6);
    expect(r.futex.longestMs).toBeCloseTo(112, 6);
  });

  it('a window with no switches of the thread is empty', () => {
    const r = offCpu(trace, TID, { start: 200, end: 300 });
    expect(Object.values(r).every((k) => k.count === 0 && k.totalMs === 0)).toBe(true);
  });
});
