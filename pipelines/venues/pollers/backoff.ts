// Backoff on venue faults: exponential, bounded, and honouring Retry-After.
// In: how many faults in a row, the fault's Retry-After. Out: how long to wait before the next try.
// Pure; the poller supplies the random source so tests are deterministic.

export interface BackoffPolicy {
  /** First delay after one fault. */
  baseMs: number;
  /** Upper bound of the exponential part. */
  maxMs: number;
  /** Upper bound on an honoured Retry-After (a venue asking for an hour is not waited on for an hour). */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 60_000, maxRetryAfterMs: 300_000 };

/**
 * Delay before attempt number `faults` + 1: full-jitter exponential (between half and all of
 * base * 2^(faults-1), capped), and never shorter than the venue's Retry-After.
 */
export function backoffDelay(faults: number, retryAfterMs: number | undefined, policy: BackoffPolicy = DEFAULT_BACKOFF, rand: () => number = Math.random): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, Math.min(30, faults - 1)));
  const jittered = Math.round(exp / 2 + (rand() * exp) / 2);
  if (retryAfterMs === undefined) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, policy.maxRetryAfterMs));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, now: number): number | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(v)) return parseInt(v, 10) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
