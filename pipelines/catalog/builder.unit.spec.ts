// The builder's cadence on a fake store and fake timers: the first snapshot waits for every venue
// (or the grace period), later ones come every refresh once each venue's newer listing crawl is
// staged (or a grace, then again when the late ones are), and a failing build is retried, never thrown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogBuilder } from './builder.ts';
import type { BuiltSnapshot, CatalogStore, CrawlDone } from './store.ts';

function fakeStore(usable: () => number, fail: () => boolean = () => false) {
  const builds: number[] = [];
  let current: string | null = null;
  /** What the SnapshotStore's current id becomes: null after a flush, another id after another processor's publish. */
  const setCurrent = (id: string | null) => {
    current = id;
  };
  const store = {
    async usableCrawls() {
      return Array.from({ length: usable() }, (_, i) => ({ provider: `venue_${i + 1}` }) as CrawlDone);
    },
    async currentSnapshotId() {
      return current;
    },
    async buildSnapshot(now: number): Promise<BuiltSnapshot> {
      if (fail()) throw new Error('chdb busy');
      builds.push(now);
      current = `s${builds.length}`;
      return { snapshotId: current, builtAt: now, observedAt: null, rowCount: 0, supersededAt: null, crawls: [] };
    },
  };
  return { store: store as unknown as CatalogStore, builds, setCurrent };
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

  it('regression: a processor started with an empty history beside a served catalog does not replace it with an empty one (it built at once from no crawls)', async () => {
    let venues = 0;
    const { store, builds, setCurrent } = fakeStore(() => venues);
    // Another processor (or this one before it moved to a fresh DATA_DIR) published the current catalog.
    setCurrent('served-before');
    const b = new CatalogBuilder({ store, refreshMs: 30 * 60_000, checkMs: 1_000, firstBuildGraceMs: 120_000 });
    b.start();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(builds).toEqual([]);
    // Once its own crawls are staged it builds, as a first build does.
    venues = 9;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(builds).toHaveLength(1);
    await b.stop();
  });

  it('regression: a store that lost the current snapshot (Redis flushed, or restarted without its AOF) gets one again within a check, not at the next refresh (every API replica answered 503 for up to 30 minutes)', async () => {
    const { store, builds, setCurrent } = fakeStore(() => 9);
    const b = new CatalogBuilder({ store, refreshMs: 30 * 60_000, checkMs: 1_000, lateCheckMs: 10_000 });
    b.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(builds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(builds).toHaveLength(1);
    setCurrent(null);
    await vi.advanceTimersByTimeAsync(11_000);
    expect(builds).toHaveLength(2);
    // Another processor's newer snapshot is not a loss: no build before the refresh.
    setCurrent('from-another-processor');
    await vi.advanceTimersByTimeAsync(20 * 60_000);
    expect(builds).toHaveLength(2);
    await b.stop();
  });
});

/**
 * Listing crawls on their own cadence: round k of every venue starts at k * periodMs and is
 * completely staged `doneAfterMs(k, venue)` later (Infinity: never). The store serves, per venue,
 * the newest crawl staged by now, as CatalogStore.usableCrawls does.
 */
function crawlingStore(o: { venues: number; periodMs: number; doneAfterMs: (round: number, venue: number) => number }) {
  const built: { at: number; observedAt: number | null; crawls: Record<string, number> }[] = [];
  let current: string | null = null;
  const crawlId = (venue: number, round: number) => `listing:venue_${venue}:${String(round).padStart(4, '0')}`;
  const usable = (now: number): CrawlDone[] => {
    const out: CrawlDone[] = [];
    for (let v = 1; v <= o.venues; v++) {
      let best: number | null = null;
      for (let k = 0; k * o.periodMs <= now; k++) if (k * o.periodMs + o.doneAfterMs(k, v) <= now) best = k;
      if (best !== null) {
        const started = best * o.periodMs;
        out.push({ provider: `venue_${v}`, crawl_id: crawlId(v, best), started_at: started, completed_at: started, row_count: 1 });
      }
    }
    return out;
  };
  const store = {
    async usableCrawls() {
      return usable(Date.now());
    },
    async currentSnapshotId() {
      return current;
    },
    async buildSnapshot(now: number) {
      const crawls = usable(now);
      current = `s${built.length + 1}`;
      const observedAt = crawls.length ? Math.min(...crawls.map((c) => c.started_at)) : null;
      built.push({ at: now, observedAt, crawls: Object.fromEntries(crawls.map((c) => [c.provider, c.started_at / o.periodMs])) });
      return { snapshotId: current, builtAt: now, observedAt, rowCount: crawls.length, supersededAt: null, crawls };
    },
  };
  return { store: store as unknown as CatalogStore, built };
}

describe('CatalogBuilder and the listing crawls', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());
  const MIN = 60_000;

  it('regression: a first build after the grace, without some venues, is followed by another once their crawls are staged, not at the next refresh (at SIM_SCALE=100 a fresh start served a tenth of the catalog for 30 minutes)', async () => {
    // The first round: three small venues staged after 1 minute, five after 3, the last after 5.
    const { store, built } = crawlingStore({ venues: 9, periodMs: 30 * MIN, doneAfterMs: (k, v) => (k > 0 || v <= 3 ? MIN : v <= 8 ? 3 * MIN : 5 * MIN) });
    const b = new CatalogBuilder({ store, refreshMs: 30 * MIN, checkMs: 1_000, firstBuildGraceMs: 2 * MIN, lateCheckMs: 10_000 });
    b.start();
    await vi.advanceTimersByTimeAsync(20 * MIN);
    expect(built.map((s) => Object.keys(s.crawls).length)).toEqual([3, 9]);
    expect(built[0].at).toBe(2 * MIN);
    // Not for the five alone at 3 minutes: once every venue it went without is staged.
    expect(built[1].at).toBeGreaterThanOrEqual(5 * MIN);
    expect(built[1].at).toBeLessThanOrEqual(5 * MIN + 10_000);
    await b.stop();
  });

  it('regression: a crawl round slower than the first is not missed for a whole refresh (observed_at stayed 30 minutes behind)', async () => {
    // The first round is staged after 1 minute, so the cadence's builds fall at 1, 31, 61 minutes;
    // the second round (started at 30) takes 3 minutes under load, so a build at 31 would serve
    // the first round again until 61.
    const { store, built } = crawlingStore({ venues: 9, periodMs: 30 * MIN, doneAfterMs: (k) => (k === 1 ? 3 * MIN : MIN) });
    const b = new CatalogBuilder({ store, refreshMs: 30 * MIN, checkMs: 1_000, lateCrawlGraceMs: 10 * MIN });
    b.start();
    await vi.advanceTimersByTimeAsync(40 * MIN);
    expect(built.map((s) => s.observedAt)).toEqual([0, 30 * MIN]);
    // Built once the second round is staged, not at 31 with the first round.
    expect(built[1].at).toBeGreaterThanOrEqual(33 * MIN);
    expect(built[1].at).toBeLessThan(33 * MIN + 30_000);
    await b.stop();
  });

  it('a venue whose crawl does not come within the grace does not hold back the others; the snapshot follows once it does', async () => {
    // venue_3's second round is staged 12 minutes after it started (a slow or failing venue).
    const { store, built } = crawlingStore({ venues: 9, periodMs: 30 * MIN, doneAfterMs: (k, v) => (k === 1 && v === 3 ? 12 * MIN : MIN) });
    const b = new CatalogBuilder({ store, refreshMs: 30 * MIN, checkMs: 1_000, lateCrawlGraceMs: 2 * MIN });
    b.start();
    await vi.advanceTimersByTimeAsync(45 * MIN);
    expect(built).toHaveLength(3);
    // Due at 31, waited the grace: built at 33 with the other venues' second round and venue_3's first
    // (its observed_at the oldest read behind it)...
    expect(built[1].at).toBeGreaterThanOrEqual(33 * MIN);
    expect(built[1].at).toBeLessThan(34 * MIN);
    expect(built[1].crawls).toMatchObject({ venue_1: 1, venue_3: 0 });
    expect(built[1].observedAt).toBe(0);
    // ...then again as soon as venue_3's second round is staged (42 minutes).
    expect(built[2].at).toBeGreaterThanOrEqual(42 * MIN);
    expect(built[2].at).toBeLessThan(42 * MIN + 30_000);
    expect(built[2].observedAt).toBe(30 * MIN);
    await b.stop();
  });

  it('a venue that never completes a crawl again costs one grace per refresh, no more builds', async () => {
    const { store, built } = crawlingStore({ venues: 9, periodMs: 30 * MIN, doneAfterMs: (k, v) => (k >= 1 && v === 9 ? Infinity : MIN) });
    const b = new CatalogBuilder({ store, refreshMs: 30 * MIN, checkMs: 1_000, lateCrawlGraceMs: 2 * MIN });
    b.start();
    await vi.advanceTimersByTimeAsync(100 * MIN);
    // 1, then 31 + 2, 63 + 2 (the cadence counts from each build), ...: one build each refresh.
    expect(built.length).toBeGreaterThanOrEqual(3);
    expect(built.length).toBeLessThanOrEqual(4);
    for (const s of built.slice(1)) expect(s.crawls.venue_1).toBeGreaterThanOrEqual(1);
    for (const s of built) expect(s.crawls.venue_9).toBe(0);
    await b.stop();
  });
});
