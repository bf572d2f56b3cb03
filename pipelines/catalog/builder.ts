// Rebuilds the catalog snapshot on a cadence (spec: "The catalog is a stored snapshot refreshed
// roughly every 30 minutes"; CATALOG_REFRESH_MS). In: crawls staged by the catalog stage.
// Out: a new snapshot published as current every refresh, old ones dropped after the retention.
// The first snapshot is built as soon as every venue has a complete crawl, or after a grace period
// with whatever venues have one (then again once the others' are staged), so a fresh start serves a
// catalog in minutes, not half an hour;
// the same holds for a process started beside a catalog already served (never a build from no crawl).
// Later builds follow the listing crawls, which run on their own cadence (CATALOG_CRAWL_MS, by
// default the same 30 minutes): a build that falls due while a venue's newer crawl is still being
// read or staged waits for it (up to lateCrawlGraceMs), so a round slower than the first is not
// missed for a whole refresh; a build that went ahead without some venue's newer crawl is followed
// by another as soon as those crawls are staged. Until then clients get the last snapshot, with
// its observed_at. A store that lost the current snapshot (Redis flushed, or restarted without its
// append-only file) is given a new one within currentCheckMs, not at the next refresh.
// Errors are logged and retried at the next check; the loop never throws.
import { PROVIDERS } from '../../lib/vocabulary.ts';
import type { CatalogStore, SnapshotMeta } from './store.ts';
import type { PollerLogger } from '../venues/pollers/poller.ts';
import { silentLogger } from '../venues/pollers/poller.ts';

export interface BuilderOptions {
  store: CatalogStore;
  refreshMs: number;
  clock?: () => number;
  logger?: PollerLogger;
  /** Venues expected before the first build (default the nine provider tokens). */
  providers?: readonly string[];
  /** Build the first snapshot with fewer venues after this long (default 2 min). */
  firstBuildGraceMs?: number;
  /** How often to look for the first build's crawls (default 2 s). */
  checkMs?: number;
  /**
   * How long a due build waits for a venue's crawl newer than the one the last snapshot used
   * (default 5 min); after it, the build goes ahead with that venue's previous crawl.
   */
  lateCrawlGraceMs?: number;
  /** How often a waiting build looks for the late crawls (default 10 s: each look counts staged rows). */
  lateCheckMs?: number;
  /**
   * How often, between builds, the store is asked whether it still has a current snapshot (default
   * 10 s, one GET on Redis): a store that lost it (flushed, restarted without its append-only file)
   * is given one at once instead of at the next refresh, while every API replica answers 503.
   */
  currentCheckMs?: number;
}

export class CatalogBuilder {
  private readonly o: Required<BuilderOptions>;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private building: Promise<unknown> = Promise.resolve();
  private readonly startedAt: number;
  private lastBuildAt: number | null = null;
  /** Per venue, the newest crawl the last snapshot was built from. */
  private builtFrom = new Map<string, string>();
  /** Venues the last build went ahead without (their newer crawl was late): built again once all of them are staged. */
  private behind = new Set<string>();
  lastError: string | null = null;

  constructor(o: BuilderOptions) {
    // Options given as undefined take the defaults too.
    const given = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as BuilderOptions;
    this.o = { clock: Date.now, logger: silentLogger, providers: PROVIDERS, firstBuildGraceMs: 120_000, checkMs: 2000, lateCrawlGraceMs: 300_000, lateCheckMs: 10_000, currentCheckMs: 10_000, ...given };
    this.startedAt = this.o.clock();
  }

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.building.catch(() => undefined);
  }

  /** Builds now (serialized with the cadence's own builds). */
  buildNow(): Promise<SnapshotMeta> {
    return this.build([]);
  }

  /** `late`: venues whose newer crawl this build goes ahead without (a catch-up build follows once they are staged). */
  private build(late: readonly string[]): Promise<SnapshotMeta> {
    const run = this.building.catch(() => undefined).then(async () => {
      const t = this.o.clock();
      const before = this.builtFrom;
      const meta = await this.o.store.buildSnapshot(t);
      this.lastBuildAt = t;
      this.builtFrom = new Map(meta.crawls.map((c) => [c.provider, c.crawl_id]));
      // A late crawl staged while the build ran is in this snapshot already.
      this.behind = new Set(late.filter((p) => this.builtFrom.get(p) === before.get(p)));
      const behind = this.behind.size > 0 ? { behind: [...this.behind] } : {};
      this.o.logger.info({ snapshotId: meta.snapshotId, rows: meta.rowCount, observedAt: meta.observedAt, ...behind, ms: this.o.clock() - t }, 'catalog snapshot built');
      return meta;
    });
    this.building = run;
    return run;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.tick().catch(() => this.schedule(this.o.checkMs));
    }, ms);
    this.timer.unref?.();
  }

  /** Of `venues`, those with no staged crawl newer than the one the last snapshot used. */
  private async lateVenues(venues: Iterable<string>): Promise<string[]> {
    const newest = new Map((await this.o.store.usableCrawls()).map((c) => [c.provider, c.crawl_id]));
    return [...venues].filter((p) => (newest.get(p) ?? '') <= (this.builtFrom.get(p) ?? ''));
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const now = this.o.clock();
    let waiting = false;
    try {
      if (this.lastBuildAt === null) {
        // This process's first build, whether or not a catalog is served already (by another
        // processor, or by this one before a restart): from every venue's crawl, or after the grace
        // from those it has; never from none (a processor started on an empty history replaced the
        // served catalog with an empty one). A restart on its own history builds at once.
        // One that went ahead without some venues after the grace is followed by another once their
        // crawls are staged (the `behind` catch-up), not at the next refresh: at SIM_SCALE=100 the
        // small venues' crawls land first and the large ones minutes later.
        const usable = new Set((await this.o.store.usableCrawls()).map((c) => c.provider));
        const missing = this.o.providers.filter((p) => !usable.has(p));
        if (missing.length === 0 || (usable.size > 0 && now - this.startedAt >= this.o.firstBuildGraceMs)) await this.build(missing);
      } else if ((await this.o.store.currentSnapshotId()) === null) {
        // Built before, yet the store has none now: it lost its content. Another processor's newer
        // snapshot is not a loss (only null is).
        this.o.logger.warn({ lastBuildAt: this.lastBuildAt }, 'catalog snapshot missing from the store; building again');
        await this.build([]);
      } else {
        const dueAt = this.lastBuildAt + this.o.refreshMs;
        if (now >= dueAt || this.behind.size > 0) {
          // Due: every venue of the last snapshot should have a newer crawl. Before that, only a
          // catch-up for the venues the last build went without.
          const late = await this.lateVenues(now >= dueAt ? this.builtFrom.keys() : this.behind);
          if (late.length === 0) await this.build([]);
          else if (now >= dueAt + this.o.lateCrawlGraceMs) await this.build(late);
          else if (now >= dueAt) waiting = true;
        }
      }
      this.lastError = null;
    } catch (e) {
      this.lastError = String(e);
      this.o.logger.error({ err: String(e) }, 'catalog snapshot build failed; retrying');
    }
    const untilDue = this.lastBuildAt === null ? 0 : this.lastBuildAt + this.o.refreshMs - this.o.clock();
    const next =
      this.lastBuildAt === null
        ? this.o.checkMs
        : waiting
          ? this.o.lateCheckMs
          : Math.max(this.o.checkMs, Math.min(this.o.currentCheckMs, this.behind.size > 0 ? Math.min(this.o.lateCheckMs, untilDue) : untilDue));
    this.schedule(next);
  }
}
