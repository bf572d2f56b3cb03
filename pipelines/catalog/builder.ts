// Rebuilds the catalog snapshot on a cadence (spec: "The catalog is a stored snapshot refreshed
// roughly every 30 minutes"; CATALOG_REFRESH_MS). In: crawls staged by the catalog stage.
// Out: a new snapshot published as current every refresh, old ones dropped after the retention.
// The first snapshot is built as soon as every venue has a complete crawl, or after a grace period
// with whatever venues have one, so a fresh start serves a catalog in minutes, not half an hour.
// Errors are logged and retried at the next check; the loop never throws.
import type { CatalogStore, SnapshotMeta } from './store.ts';
import type { PollerLogger } from '../venues/pollers/poller.ts';
import { silentLogger } from '../venues/pollers/poller.ts';

export interface BuilderOptions {
  store: CatalogStore;
  refreshMs: number;
  clock?: () => number;
  logger?: PollerLogger;
  /** Venues expected before the first build (default nine). */
  expectedProviders?: number;
  /** Build the first snapshot with fewer venues after this long (default 2 min). */
  firstBuildGraceMs?: number;
  /** How often to look for the first build's crawls (default 2 s). */
  checkMs?: number;
}

export class CatalogBuilder {
  private readonly o: Required<BuilderOptions>;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private building: Promise<unknown> = Promise.resolve();
  private readonly startedAt: number;
  private lastBuildAt: number | null = null;
  lastError: string | null = null;

  constructor(o: BuilderOptions) {
    // Options given as undefined take the defaults too.
    const given = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as BuilderOptions;
    this.o = { clock: Date.now, logger: silentLogger, expectedProviders: 9, firstBuildGraceMs: 120_000, checkMs: 2000, ...given };
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
    const run = this.building.catch(() => undefined).then(async () => {
      const t = this.o.clock();
      const meta = await this.o.store.buildSnapshot(t);
      this.lastBuildAt = t;
      this.o.logger.info({ snapshotId: meta.snapshotId, rows: meta.rowCount, ms: this.o.clock() - t }, 'catalog snapshot built');
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

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const now = this.o.clock();
    try {
      if (this.lastBuildAt === null && (await this.o.store.currentSnapshotId()) === null) {
        const usable = (await this.o.store.usableCrawls()).length;
        if (usable >= this.o.expectedProviders || (usable > 0 && now - this.startedAt >= this.o.firstBuildGraceMs)) await this.buildNow();
      } else if (this.lastBuildAt === null || now - this.lastBuildAt >= this.o.refreshMs) {
        await this.buildNow();
      }
      this.lastError = null;
    } catch (e) {
      this.lastError = String(e);
      this.o.logger.error({ err: String(e) }, 'catalog snapshot build failed; retrying');
    }
    const next = this.lastBuildAt === null ? this.o.checkMs : Math.max(this.o.checkMs, this.lastBuildAt + this.o.refreshMs - this.o.clock());
    this.schedule(next);
  }
}
