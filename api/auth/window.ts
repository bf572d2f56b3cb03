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

/** Mutates `log` (ascending times): drops aged-out entries and appends `now` when admitted. */
export function chargeWindow(log: number[], now: number, limit: number): WindowVerdict {
  const cutoff = now - WINDOW_MS;
  let drop = 0;
  while (drop < log.length && log[drop] <= cutoff) drop++;
  if (drop > 0) log.splice(0, drop);
  if (log.length >= limit) {
    return { admitted: false, count: log.length, resetAt: log[0] + WINDOW_MS };
  }
  // Keep the log sorted even if a controlled clock steps back.
  if (log.length > 0 && log[log.length - 1] > now) {
    let i = log.length;
    while (i > 0 && log[i - 1] > now) i--;
    log.splice(i, 0, now);
  } else {
    log.push(now);
  }
  return { admitted: true, count: log.length, resetAt: log[0] + WINDOW_MS };
}
