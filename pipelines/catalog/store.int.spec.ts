// The catalog read model on chdb: staging crawls, building snapshots, keyset pages, counts,
// retention. Each test has its own table prefix.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { History } from '../readmodels/history.ts';
import { openChdbHistory } from './sql.ts';
import { CatalogStore } from './store.ts';

let history: History;
beforeAll(async () => {
  history = await openChdbHistory(`catalog_store_${randomBytes(4).toString('hex')}`);
});
afterAll(async () => history.close());

const H = 3600_000;
async function newStore(retentionMs = 8 * H): Promise<CatalogStore> {
  const store = new CatalogStore({ history, prefix: `t${randomBytes(4).toString('hex')}_`, retentionMs });
  await store.migrate();
  return store;
}

const rows = (n: number, category = 'sports', tag = 'M') =>
  Array.from({ length: n }, (_, i) => ({ nativeId: `${tag}-${i}`, title: `Market ${tag} ${i}`, category }));

describe('CatalogStore', () => {
  it('builds from the last complete crawl of each venue and walks providers in token order', async () => {
    const store = await newStore();
    const c3 = CatalogStore.newCrawlId('venue_3', 1000);
    await store.stageCrawlRows('venue_3', c3, 0, rows(3, 'politics', 'C'));
    await store.completeCrawl('venue_3', c3, 1000, 1100, 3);
    const c1 = CatalogStore.newCrawlId('venue_1', 2000);
    await store.stageCrawlRows('venue_1', c1, 0, rows(2, 'sports', 'A'));
    await store.completeCrawl('venue_1', c1, 2000, 2100, 2);
    // An incomplete crawl is not used.
    const c2 = CatalogStore.newCrawlId('venue_2', 3000);
    await store.stageCrawlRows('venue_2', c2, 0, rows(4, 'crypto', 'B'));

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
      const c = CatalogStore.newCrawlId(p, 1);
      await store.stageCrawlRows(p, c, 0, rows(7, cat, p));
      await store.completeCrawl(p, c, 1, 2, 7);
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
    const c = CatalogStore.newCrawlId('venue_4', 1);
    await store.stageCrawlRows('venue_4', c, 0, rows(2));
    await store.completeCrawl('venue_4', c, 1, 2, 2);
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

  it('an empty catalog is a snapshot with observed_at unknown', async () => {
    const store = await newStore();
    const meta = await store.buildSnapshot(1);
    expect(meta).toMatchObject({ rowCount: 0, observedAt: null });
  });
});
