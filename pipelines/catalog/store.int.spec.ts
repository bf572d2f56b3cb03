// The catalog read model on chdb (always) and on a ClickHouse server (where CLICKHOUSE_URL is set):
// staging crawls, building snapshots, keyset pages, counts, retention. Each test has its own table
// prefix.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { History } from '../readmodels/history.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { ClickhouseHistory } from '../readmodels/clickhouse-history.ts';
import { clickhouseUrlForTests } from '../runtime/test-services.ts';
import { CatalogStore, newCrawlId, type CatalogRowInput } from './store.ts';
import type { Provider } from '../../lib/vocabulary.ts';

const chUrl = await clickhouseUrlForTests();
const modes: Array<[string, (db: string) => Promise<History>]> = [['chdb', (db) => ChdbHistory.open(path.join(tmpdir(), `pm-chdb-${process.pid}`), db)]];
if (chUrl) modes.push(['clickhouse server', (db) => ClickhouseHistory.open(chUrl, db)]);

let history: History;

const H = 3600_000;
async function newStore(retentionMs = 8 * H): Promise<CatalogStore> {
  const store = new CatalogStore({ history, prefix: `t${randomBytes(4).toString('hex')}_`, retentionMs });
  await store.migrate();
  return store;
}

/** Stages one crawl of a venue; `complete` writes its end marker. */
async function crawl(store: CatalogStore, provider: Provider, startedAt: number, rs: CatalogRowInput[], complete = true, unlisted = 0) {
  const crawlId = newCrawlId(provider, startedAt);
  const staged = rs.map((r) => ({ provider, crawl_id: crawlId, record_id: r.nativeId, native_id: r.nativeId, title: r.title, category: r.category, listed: 1 as const }));
  for (let i = 0; i < unlisted; i++) staged.push({ provider, crawl_id: crawlId, record_id: `X-${i}`, native_id: `X-${i}`, title: 'parlay', category: 'sports', listed: 0 as never });
  await store.stageCrawlRows(staged);
  if (complete) await store.completeCrawls([{ provider, crawl_id: crawlId, started_at: startedAt, completed_at: startedAt + 100, row_count: staged.length }]);
  return crawlId;
}

const rows = (n: number, category = 'sports', tag = 'M') =>
  Array.from({ length: n }, (_, i) => ({ nativeId: `${tag}-${i}`, title: `Market ${tag} ${i}`, category }));

describe.each(modes)('CatalogStore on %s', (_mode, open) => {
  beforeAll(async () => {
    history = await open(`catalog_store_${randomBytes(4).toString('hex')}`);
  });
  afterAll(async () => history.close());

  it('builds from the last complete crawl of each venue and walks providers in token order', async () => {
    const store = await newStore();
    await crawl(store, 'venue_3', 1000, rows(3, 'politics', 'C'));
    await crawl(store, 'venue_1', 2000, rows(2, 'sports', 'A'), true, 2);
    // An unfinished crawl is not used.
    await crawl(store, 'venue_2', 3000, rows(4, 'crypto', 'B'), false);

    const meta = await store.buildSnapshot(5000);
    expect(meta.rowCount).toBe(5);
    expect(meta.observedAt).toBe(1000);
    expect(await store.currentSnapshotId()).toBe(meta.snapshotId);
    const page = await store.page({ snapshotId: meta.snapshotId, category: null, provider: null, after: null, limit: 10 });
    expect(page.rows.map((r) => r.id)).toEqual(['venue_1:A-0', 'venue_1:A-1', 'venue_3:C-0', 'venue_3:C-1', 'venue_3:C-2']);
    expect(page.next).toBeNull();
    expect(await store.total(meta.snapshotId, 'politics', null)).toBe(3);
    expect(await store.total(meta.snapshotId, 'politics', 'venue_1')).toBe(0);
  });

  it('pages by keyset without repeats or gaps, with and without filters', async () => {
    const store = await newStore();
    for (const [p, cat] of [['venue_1', 'sports'], ['venue_2', 'politics'], ['venue_5', 'sports']] as const) {
      await crawl(store, p, 1, rows(7, cat, p));
    }
    const { snapshotId } = await store.buildSnapshot(10);
    for (const [category, provider, expected] of [[null, null, 21], ['sports', null, 14], ['sports', 'venue_5', 7], [null, 'venue_2', 7]] as const) {
      const seen: string[] = [];
      let after = null;
      for (;;) {
        const page = await store.page({ snapshotId, category, provider, after, limit: 3 });
        seen.push(...page.rows.map((r) => r.id));
        if (!page.next) break;
        after = page.next;
      }
      expect(seen.length).toBe(expected);
      expect(new Set(seen).size).toBe(expected);
      expect(await store.total(snapshotId, category, provider)).toBe(expected);
    }
  });

  it('keeps a superseded snapshot for the retention, then drops it', async () => {
    const store = await newStore(H);
    await crawl(store, 'venue_4', 1, rows(2));
    const first = await store.buildSnapshot(1000);
    const second = await store.buildSnapshot(2000);
    expect(await store.retainedSnapshot(first.snapshotId, 2000 + H)).not.toBeNull();
    expect(await store.retainedSnapshot(first.snapshotId, 2001 + H)).toBeNull();
    await store.buildSnapshot(3000 + H);
    expect((await store.listSnapshots()).map((s) => s.snapshotId)).not.toContain(first.snapshotId);
    expect((await store.listSnapshots()).map((s) => s.snapshotId)).toContain(second.snapshotId);
    // A rebuild uses the same crawl while no newer one completed.
    expect((await store.listSnapshots()).at(-1)?.rowCount).toBe(2);
  });

  it('uses a crawl only once all its records are staged, and the newest such crawl', async () => {
    const store = await newStore();
    const old = await crawl(store, 'venue_6', 1000, rows(2, 'sports', 'OLD'));
    const id = newCrawlId('venue_6', 2000);
    // The end marker says 3 records, but only 2 have arrived so far.
    await store.stageCrawlRows(rows(2, 'culture', 'NEW').map((r) => ({ provider: 'venue_6', crawl_id: id, record_id: r.nativeId, native_id: r.nativeId, title: r.title, category: r.category, listed: 1 as const })));
    await store.completeCrawls([{ provider: 'venue_6', crawl_id: id, started_at: 2000, completed_at: 2100, row_count: 3 }]);
    expect((await store.usableCrawls()).map((c) => c.crawl_id)).toEqual([old]);
    await store.stageCrawlRows([{ provider: 'venue_6', crawl_id: id, record_id: 'NEW-2', native_id: 'NEW-2', title: 't', category: 'culture', listed: 1 }]);
    const meta = await store.buildSnapshot(5000);
    expect(meta.rowCount).toBe(3);
    expect(meta.observedAt).toBe(2000);
    expect(await store.total(meta.snapshotId, 'culture', 'venue_6')).toBe(3);
  });

  it('an empty catalog is a snapshot with observed_at unknown', async () => {
    const store = await newStore();
    const meta = await store.buildSnapshot(1);
    expect(meta).toMatchObject({ rowCount: 0, observedAt: null });
  });
});
