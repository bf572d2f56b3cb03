// The rolling 60-second window (spec: "Rate limit": "limited to rate_limit_per_min requests over
// a rolling 60 seconds; the budget recovers continuously as earlier requests age out"), as a
// sliding log. Pure: in, the log of admitted request times and the request time; out, the verdict.
// The Redis store runs the same algorithm in Lua over a sorted set (redis-store.ts).
//
// A request at `now` is admitted iff fewer than `limit` admitted requests lie in
// (now - 60 s, now]. Hence no half-open 60 s interval ever holds more than `limit` admitted
// requests: the guarantee "no key ever gets more than its limit in any 60 s window".

export const WINDOW_MS = 60_000;

export interface WindowVerdict {
  admitted: boolean;
  /** Requests in the window after this one (admitted or not). */
  count: number;
  /** Epoch ms when the oldest request in the window ages out. */
  resetAt: number;
}

/**
 * The admitted request times of one key, oldest first. A deque over an array (head index,
 * compacted now and then) so ageing out is O(1) even for custom limits with large logs.
 */
export class SlidingLog {
  times: number[] = [];
  head = 0;
  get size(): number {
    return this.times.length - this.head;
  }
  oldest(): number {
    return this.times[this.head];
  }
}

/** Drops the entries at or before `now` - 60 s from `log` (compacting now and then); returns its head. */
function ageOut(log: SlidingLog, now: number): number {
  const cutoff = now - WINDOW_MS;
  const t = log.times;
  let h = log.head;
  while (h < t.length && t[h] <= cutoff) h++;
  if (h > 1024 && h * 2 > t.length) {
    log.times = t.slice(h);
    h = 0;
  }
  log.head = h;
  return h;
}

/** Drops aged-out entries from `log` and appends `now` when admitted. */
export function chargeWindow(log: SlidingLog, now: number, limit: number): WindowVerdict {
  const h = ageOut(log, now);
  const times = log.times;
  const size = times.length - h;
  if (size >= limit) {
    // An empty log is full only under a limit of 0 (a stored account from before the admin refused it).
    return { admitted: false, count: size, resetAt: size > 0 ? times[h] + WINDOW_MS : now + WINDOW_MS };
  }
  // Keep the log sorted even if a controlled clock steps back.
  let i = times.length;
  while (i > h && times[i - 1] > now) i--;
  if (i === times.length) times.push(now);
  else times.splice(i, 0, now);
  return { admitted: true, count: size + 1, resetAt: times[h] + WINDOW_MS };
}

/**
 * The window as it stands at `now`, charging nothing (a forbidden request reports it): requests in
 * (now - 60 s, now] and when the oldest of them ages out (`now` when there is none: nothing to wait for).
 */
export function peekWindow(log: SlidingLog | undefined, now: number): { count: number; resetAt: number } {
  if (log === undefined) return { count: 0, resetAt: now };
  // Ageing out what has aged out charges nothing: the next charge would drop the same entries.
  const h = ageOut(log, now);
  const t = log.times;
  // Entries stamped after `now` (a controlled clock stepped back) are in the window too, as chargeWindow counts them.
  return h < t.length ? { count: t.length - h, resetAt: t[h] + WINDOW_MS } : { count: 0, resetAt: now };
}
