// The builder's cadence on a fake store and fake timers: the first snapshot waits for every venue
// (or the grace period), later ones come every refresh, and a failing build is retried, never thrown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogBuilder } from './builder.ts';
import type { CatalogStore, CrawlDone, SnapshotMeta } from './store.ts';

function fakeStore(usable: () => number, fail: () => boolean = () => false) {
  const builds: number[] = [];
  let current: string | null = null;
  const store = {
    async usableCrawls() {
      return Array.from({ length: usable() }, (_, i) => ({ provider: `venue_${i + 1}` }) as CrawlDone);
    },
    async currentSnapshotId() {
      return current;
    },
    async buildSnapshot(now: number): Promise<SnapshotMeta> {
      if (fail()) throw new Error('chdb busy');
      builds.push(now);
      current = `s${builds.length}`;
      return { snapshotId: current, builtAt: now, observedAt: null, rowCount: 0, supersededAt: null };
    },
  };
  return { store: store as unknown as CatalogStore, builds };
}

describe('CatalogBuilder', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('builds first when all nine venues have a complete crawl, then every refresh', async () => {
    let venues = 3;
    const { store, builds } = fakeStore(() => venues);
    const b = new CatalogBuilder({ store, refreshMs: 60_000, firstBuildGraceMs: 120_000, checkMs: 1_000 });
    b.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(builds).toEqual([]);
    venues = 9;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(builds).toHaveLength(1);
    const first = builds[0];
    await vi.advanceTimersByTimeAsync(59_000);
    expect(builds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(builds).toHaveLength(2);
    expect(builds[1] - first).toBeGreaterThanOrEqual(60_000);
    await b.stop();
  });

  it('builds with fewer venues after the grace period, never with none', async () => {
    let venues = 0;
    const { store, builds } = fakeStore(() => venues);
    const b = new CatalogBuilder({ store, refreshMs: 600_000, firstBuildGraceMs: 30_000, checkMs: 1_000 });
    b.start();
    await vi.advanceTimersByTimeAsync(40_000);
    expect(builds).toEqual([]);
    venues = 2;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(builds).toHaveLength(1);
    await b.stop();
  });

  it('a failing build is logged and retried', async () => {
    let failures = 2;
    const errors: object[] = [];
    const { store, builds } = fakeStore(() => 9, () => failures-- > 0);
    const b = new CatalogBuilder({ store, refreshMs: 600_000, checkMs: 1_000, logger: { info() {}, warn() {}, error: (o) => void errors.push(o) } });
    b.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(errors).toHaveLength(2);
    expect(builds).toHaveLength(1);
    expect(b.lastError).toBeNull();
    await b.stop();
  });

  it('regression: options passed as undefined take the defaults (an undefined logger broke the error path)', async () => {
    let failures = 1;
    const { store, builds } = fakeStore(() => 9, () => failures-- > 0);
    const b = new CatalogBuilder({ store, refreshMs: 600_000, checkMs: 1_000, logger: undefined, clock: undefined });
    b.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(builds).toHaveLength(1);
    await b.stop();
  });
});
