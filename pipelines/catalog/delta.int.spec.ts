// Change-only listing crawls against the catalog on chdb: for random sequences of listings (adds,
// changes, removals, relists) two pollers crawl the same venue over HTTP, one writing every record of
// every crawl, one change-only (a full crawl now and then, delta crawls between); each crawl's raw
// records go through the catalog stage into its own CatalogStore, and after every crawl the
// snapshots both build must serve the same rows, totals and observed_at. Also: a delta crawl whose
// marker is staged before its records is not used until they are.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import type { History } from '../readmodels/history.ts';
import type { RawRecord } from '../topics.ts';
import { PROVIDERS, type Provider } from '../../lib/vocabulary.ts';
import { VenuePoller, LISTING_FEED, type RawSink } from '../venues/pollers/poller.ts';
import type { ListingStep } from '../venues/adapters/listing.ts';
import { stageRaw } from './stage.ts';
import { CatalogStore, type SnapshotMeta } from './store.ts';

/** A market of the fake venue: venue_3 lists markets, venue_5 questions of several outcome markets. */
interface Listed {
  id: string;
  title: string;
  open: boolean;
  /** venue_5: labels of the question's outcomes. */
  outcomes: string[];
}

/**
 * A fake venue's listings, one per test (and per property run), served under a path prefix of its
 * own: a run that outlives its test (a property still shrinking past the test's timeout) cannot change
 * what another test's pollers read.
 */
interface FakeVenue {
  scope: string;
  world: Record<string, Listed[]>;
  /** Pages from this one on answer 503 (a crawl abandoned half way); null: none do. */
  failFrom: number | null;
}
const venues = new Map<string, FakeVenue>();
function fakeVenue(world: Record<string, Listed[]>): FakeVenue {
  const v: FakeVenue = { scope: randomBytes(6).toString('hex'), world, failFrom: null };
  venues.set(v.scope, v);
  return v;
}
let server: Server;
let baseUrl = '';
let history: History;

const PAGE = 3;

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const [, scope = '', venue = ''] = u.pathname.split('/');
    const v = venues.get(scope);
    const page = Number(u.searchParams.get('page') ?? 0);
    const all = v?.world[venue] ?? [];
    if (!v || (v.failFrom !== null && page >= v.failFrom)) {
      res.statusCode = 503;
      res.end();
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ items: all.slice(page * PAGE, page * PAGE + PAGE), more: (page + 1) * PAGE < all.length }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  history = await ChdbHistory.open(path.join(tmpdir(), `pm-chdb-${process.pid}`), `catalog_delta_${randomBytes(4).toString('hex')}`);
});
afterAll(async () => {
  await history.close();
  await new Promise((r) => server.close(r));
});

/** The venue's listing as its documented record shapes (normalize.ts reads them). */
function payload(provider: Provider, m: Listed): { recordType: string; payload: unknown } {
  if (provider === 'venue_5')
    return {
      recordType: 'question',
      payload: { id: m.id, title: m.title, state: m.open ? 'open' : 'closed', outcomes: m.outcomes.map((l) => ({ outcome_id: `${m.id}-${l}`, label: l, state: 'open' })) },
    };
  return { recordType: 'market', payload: { id: m.id, title: m.title, status: m.open ? 'open' : 'closed', category: 'politics' } };
}

const steps = (v: FakeVenue, provider: Provider): ListingStep[] => [
  {
    name: 'list',
    first: () => ({ path: `/${v.scope}/${provider}`, query: { page: 0 } }),
    parse(body, req) {
      const b = body as { items: Listed[]; more: boolean };
      const page = Number(req.query.page);
      return {
        records: b.items.map((m) => ({ nativeId: m.id, ...payload(provider, m) })),
        next: b.more ? { path: req.path, query: { page: page + 1 } } : null,
      };
    },
  },
];

async function newStore(): Promise<CatalogStore> {
  const store = new CatalogStore({ history, prefix: `t${randomBytes(4).toString('hex')}_`, retentionMs: 8 * 3600_000 });
  await store.migrate();
  return store;
}

/** One mode's pollers (one per venue) on a shared clock, and the raw records they wrote. */
function pollers(v: FakeVenue, providers: Provider[], clock: () => number, fullEveryMs: number | undefined, pageAttempts?: number) {
  const written: RawRecord[] = [];
  const sink: RawSink = async (_p, recs) => void written.push(...recs);
  const ps = providers.map(
    (provider) =>
      new VenuePoller({
        provider,
        baseUrl,
        sink,
        crawlIntervalMs: 60_000,
        deadlineMs: 5_000,
        clock,
        pageAttempts,
        feeds: [{ name: LISTING_FEED, steps: steps(v, provider), intervalMs: 60_000, fullEveryMs }],
      }),
  );
  return { ps, written };
}

/** Everything a snapshot serves: every row in walk order, its totals per category and provider, its meta. */
async function served(store: CatalogStore, meta: SnapshotMeta) {
  const rows: string[] = [];
  let after = null;
  // A walk ends within the snapshot's own page count: a cursor that does not move on fails here,
  // with the property's seed, rather than as a hang at the test's timeout.
  const pages = Math.ceil(meta.rowCount / 50) + 1;
  for (let n = 0; ; n++) {
    if (n >= pages) throw new Error(`walk of snapshot ${meta.snapshotId} (${meta.rowCount} rows) still had a cursor after ${n} pages: ${String(after)}`);
    const page = await store.page({ snapshotId: meta.snapshotId, category: null, provider: null, after, limit: 50 });
    rows.push(...page.rows.map((r) => `${r.id}|${r.provider}|${r.title}|${r.category}`));
    after = page.next;
    if (after === null) break;
  }
  const totals: Record<string, number> = {};
  for (const c of ['politics', 'sports', 'unknown', null]) for (const p of [...PROVIDERS, null]) totals[`${c}|${p}`] = await store.total(meta.snapshotId, c, p);
  return { rows, totals, rowCount: meta.rowCount, observedAt: meta.observedAt };
}

/** One step of a venue's listing between two crawls. */
type Op = { kind: 'add' | 'change' | 'remove' | 'relist' | 'close' | 'outcome'; venue: 0 | 1; pick: number; tag: number };
const op = fc.record({
  kind: fc.constantFrom<Op['kind']>('add', 'add', 'change', 'remove', 'relist', 'close', 'outcome'),
  venue: fc.constantFrom<0 | 1>(0, 1),
  pick: fc.nat(),
  tag: fc.nat(999),
});

function apply(o: Op, v: FakeVenue, venue: Provider, removed: Listed[]): void {
  const list = v.world[venue]!;
  const at = list.length > 0 ? o.pick % list.length : -1;
  switch (o.kind) {
    case 'add':
      list.splice(at < 0 ? 0 : at, 0, { id: `${venue}-m${o.tag}-${randomBytes(2).toString('hex')}`, title: `Market ${o.tag}`, open: true, outcomes: ['Yes', 'No'] });
      break;
    case 'change':
      if (at >= 0) list[at] = { ...list[at]!, title: `Renamed ${o.tag}` };
      break;
    case 'close':
      if (at >= 0) list[at] = { ...list[at]!, open: !list[at]!.open };
      break;
    case 'outcome':
      // venue_5: a question loses or gains an outcome market (one raw record, several catalog rows).
      if (at >= 0) list[at] = { ...list[at]!, outcomes: list[at]!.outcomes.length > 1 ? list[at]!.outcomes.slice(1) : ['Yes', `O${o.tag}`] };
      break;
    case 'remove':
      if (at >= 0) removed.push(...list.splice(at, 1));
      break;
    case 'relist':
      // Back as it was, or changed while away.
      if (removed.length > 0) {
        const back = removed.splice(o.pick % removed.length, 1)[0]!;
        list.push(o.tag % 2 === 0 ? back : { ...back, title: `Back ${o.tag}` });
      }
      break;
  }
}

describe('change-only listing crawls and the catalog (chdb)', () => {
  it('serve exactly the snapshots full crawls serve, for random sequences of listings', async () => {
    const providers: Provider[] = ['venue_3', 'venue_5'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { maxLength: 5 }), { minLength: 4, maxLength: 10 }), fc.integer({ min: 2, max: 5 }), async (crawls, fullEvery) => {
        const v = fakeVenue(Object.fromEntries(providers.map((p) => [p, Array.from({ length: 4 }, (_, i) => ({ id: `${p}-s${i}`, title: `Start ${i}`, open: true, outcomes: ['Yes', 'No'] }))])));
        const removed: Record<string, Listed[]> = Object.fromEntries(providers.map((p) => [p, []]));
        let now = 1_700_000_000_000;
        const clock = () => now;
        // A full crawl every `fullEvery` crawls; delta crawls between.
        const full = pollers(v, providers, clock, undefined);
        const delta = pollers(v, providers, clock, fullEvery * 60_000 - 1);
        try {
          const [fullStore, deltaStore] = [await newStore(), await newStore()];
          let deltaCrawls = 0;
          for (const ops of crawls) {
            for (const o of ops) apply(o, v, providers[o.venue]!, removed[providers[o.venue]!]!);
            now += 60_000;
            for (const mode of [full, delta]) {
              mode.written.length = 0;
              for (const p of mode.ps) expect(await p.crawlOnce(LISTING_FEED)).toBe(true);
            }
            deltaCrawls += delta.written.filter((r) => r.record_type === 'crawl_complete' && r.payload.includes('"delta":true')).length;
            const metas: SnapshotMeta[] = [];
            for (const [mode, store] of [
              [full, fullStore],
              [delta, deltaStore],
            ] as const) {
              const { rows, crawls: done } = stageRaw(mode.written);
              await store.stageCrawlRows(rows);
              await store.completeCrawls(done);
              metas.push(await store.buildSnapshot(now + 1_000));
            }
            expect(await served(deltaStore, metas[1]!)).toEqual(await served(fullStore, metas[0]!));
          }
          // The change-only side wrote fewer records whenever it had delta crawls.
          if (crawls.length > fullEvery) expect(deltaCrawls).toBeGreaterThan(0);
        } finally {
          for (const mode of [full, delta]) await Promise.all(mode.ps.map((p) => p.stop()));
          venues.delete(v.scope);
        }
      }),
      {
        numRuns: 12,
        // A failure is reported (shrunk as far as time allows) before the test's own timeout, so no
        // run goes on in the background once the test has ended.
        interruptAfterTimeLimit: 180_000,
        // Always among the runs: a market removed, then relisted in a later delta crawl of the same chain.
        examples: [
          [
            [[], [{ kind: 'remove', venue: 0, pick: 0, tag: 1 }], [{ kind: 'relist', venue: 0, pick: 0, tag: 3 }], [{ kind: 'outcome', venue: 1, pick: 1, tag: 4 }], []],
            5,
          ],
          // A venue whose listing goes empty in a full crawl, then lists a market again in a delta
          // crawl of the chain that full crawl starts (found by the property, seed -1690887894).
          [
            [
              [{ kind: 'remove', venue: 0, pick: 0, tag: 0 }],
              [],
              [
                { kind: 'remove', venue: 0, pick: 0, tag: 0 },
                { kind: 'remove', venue: 0, pick: 627020008, tag: 436 },
                { kind: 'outcome', venue: 0, pick: 2048986834, tag: 405 },
                { kind: 'add', venue: 1, pick: 405927603, tag: 113 },
                { kind: 'remove', venue: 0, pick: 1440015683, tag: 336 },
              ],
              [],
              [{ kind: 'relist', venue: 0, pick: 1754604660, tag: 91 }],
            ],
            3,
          ],
        ],
      },
    );
  }, 240_000);

  it('uses a delta crawl only once the records it wrote are staged, and keeps the chain from the last full crawl', async () => {
    const provider: Provider = 'venue_3';
    const v = fakeVenue({ [provider]: Array.from({ length: 5 }, (_, i) => ({ id: `m${i}-${randomBytes(2).toString('hex')}`, title: `Start ${i}`, open: true, outcomes: [] })) });
    const world = v.world;
    let now = 1_700_000_000_000;
    const { ps, written } = pollers(v, [provider], () => now, 3_600_000);
    const store = await newStore();
    const crawl = async () => {
      written.length = 0;
      now += 60_000;
      expect(await ps[0]!.crawlOnce(LISTING_FEED)).toBe(true);
      return stageRaw(written);
    };
    const first = await crawl();
    await store.stageCrawlRows(first.rows);
    await store.completeCrawls(first.crawls);
    const before = await store.buildSnapshot(now);
    expect(before.rowCount).toBe(5);

    world[provider]![0] = { ...world[provider]![0]!, title: 'Renamed' };
    world[provider]!.splice(1, 1);
    const second = await crawl();
    expect(second.crawls[0]).toMatchObject({ delta: 1, emitted: 1, row_count: 4, vanished: [`market:${first.rows[1]!.native_id}`] });
    // The marker first (records and markers travel on different partitions): not usable yet.
    await store.completeCrawls(second.crawls);
    const early = await store.buildSnapshot(now + 1);
    expect([early.rowCount, early.observedAt]).toEqual([5, before.observedAt]);
    await store.stageCrawlRows(second.rows);
    const later = await store.buildSnapshot(now + 2);
    expect([later.rowCount, later.observedAt]).toEqual([4, now]);
    const page = await store.page({ snapshotId: later.snapshotId, category: null, provider: null, after: null, limit: 10 });
    expect(page.rows.map((r) => r.title).sort()).toEqual(['Renamed', 'Start 2', 'Start 3', 'Start 4']);
    // An unchanged crawl writes only its marker; the full crawl's rows are still needed, so still staged.
    const third = await crawl();
    expect(third.rows).toEqual([]);
    await store.completeCrawls(third.crawls);
    const last = await store.buildSnapshot(now + 3);
    expect([last.rowCount, last.observedAt]).toEqual([4, now]);
    await ps[0]!.stop();
  });

  it('writes again what a crawl that did not complete wrote, and names what it wrote and is gone as vanished', async () => {
    const provider: Provider = 'venue_3';
    const v = fakeVenue({ [provider]: Array.from({ length: 7 }, (_, i) => ({ id: `m${i}-${randomBytes(2).toString('hex')}`, title: `Start ${i}`, open: true, outcomes: [] })) });
    const world = v.world;
    let now = 1_700_000_000_000;
    const full = pollers(v, [provider], () => now, undefined, 1);
    const delta = pollers(v, [provider], () => now, 3_600_000, 1);
    const [fullStore, deltaStore] = [await newStore(), await newStore()];
    const crawlBoth = async (expected: boolean) => {
      now += 60_000;
      for (const [mode, store] of [
        [full, fullStore],
        [delta, deltaStore],
      ] as const) {
        mode.written.length = 0;
        expect(await mode.ps[0]!.crawlOnce(LISTING_FEED)).toBe(expected);
        const { rows, crawls } = stageRaw(mode.written);
        await store.stageCrawlRows(rows);
        await store.completeCrawls(crawls);
      }
      const [a, b] = [await fullStore.buildSnapshot(now + 1), await deltaStore.buildSnapshot(now + 1)];
      expect(await served(deltaStore, b)).toEqual(await served(fullStore, a));
      return a;
    };
    await crawlBoth(true);
    // The first page changes (a renamed market, a new one), then the crawl fails on the second page.
    const changed = world[provider]![0]!.id;
    world[provider]![0] = { ...world[provider]![0]!, title: 'Renamed' };
    world[provider]!.splice(1, 0, { id: `new-${randomBytes(2).toString('hex')}`, title: 'New', open: true, outcomes: [] });
    v.failFrom = 1;
    try {
      await crawlBoth(false);
    } finally {
      v.failFrom = null;
    }
    expect(delta.written.map((r) => r.native_id)).toContain(changed);
    // Gone before the next crawl completes.
    const gone = world[provider]!.splice(1, 1)[0]!.id;
    const after = await crawlBoth(true);
    expect(after.rowCount).toBe(7);
    expect(delta.written.filter((r) => r.record_type === 'market').map((r) => r.native_id)).toEqual([changed]);
    const marker = JSON.parse(delta.written.find((r) => r.record_type === 'crawl_complete')!.payload) as { vanished: string[]; emitted: number };
    expect(marker).toMatchObject({ emitted: 1, vanished: [`market:${gone}`] });
    for (const mode of [full, delta]) await mode.ps[0]!.stop();
  });
});
