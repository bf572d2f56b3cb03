// When a feed's first crawl after a start is due. The listing feed reads every listed record of a
// venue (14,342 at SIM_SCALE=1, about 1,000,000 at 100) for a catalog documented as a snapshot
// refreshed roughly every 30 minutes (spec "Freshness model"); crawled again at every start, a
// restart two minutes after a complete crawl wrote the whole listing into the raw topics once more,
// where the sports crawls after the restart waited behind it in the canonicalizer (bench/soak.md).
// So the feed's cadence goes on across a restart: its first crawl comes when the interval since its
// last complete crawl began is over. Pure; the start on record is the poller's PollerState's.

/**
 * Milliseconds a feed's first crawl after a start waits. `lastCompleteStartedAt`: when the feed's last
 * complete crawl began, as recorded; null or undefined without one (a fresh log, only crawls that did
 * not complete, a record this code cannot read): 0, at once. A start on record after `now` (a clock
 * set back, another host's clock) is not trusted: 0. Otherwise what is left of the interval, never
 * more than the interval.
 */
export function firstCrawlDelay(lastCompleteStartedAt: number | null | undefined, now: number, intervalMs: number): number {
  if (lastCompleteStartedAt === null || lastCompleteStartedAt === undefined || !Number.isFinite(lastCompleteStartedAt)) return 0;
  if (!Number.isFinite(now) || !(intervalMs > 0)) return 0;
  const since = now - lastCompleteStartedAt;
  if (since < 0) return 0;
  return Math.max(0, Math.min(intervalMs, intervalMs - since));
}
