// GET /v1/markets through the HTTP API (app.inject), on a catalog built in chdb. Every test has its
// own table prefix and its own SnapshotStore pointer name.
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';
import { ChdbHistory } from '../../../pipelines/readmodels/chdb-history.ts';
import { MemorySnapshotStore } from '../../../pipelines/readmodels/memory-store.ts';
import { RedisSnapshotStore } from '../../../pipelines/readmodels/redis-store.ts';
import type { SnapshotStore } from '../../../pipelines/readmodels/snapshots.ts';
import { redisUrlForTests } from '../../../pipelines/runtime/test-services.ts';
import { catalogDeps, createCatalog } from '../../../pipelines/catalog/index.ts';
import { newCrawlId, type CatalogStore, type StagedRow } from '../../../pipelines/catalog/store.ts';
import { createCursorCodec } from '../../../pipelines/catalog/cursor.ts';
import { PROVIDERS, type Provider } from '../table.ts';
import { catalogMemoHolding } from './markets-list.ts';

const redisUrl = await redisUrlForTests();
let history: ChdbHistory;
beforeAll(async () => {
  history = await ChdbHistory.open(path.join(tmpdir(), `pm-chdb-${process.pid}`), `markets_${randomBytes(4).toString('hex')}`);
});
afterAll(async () => history.close());

const H = 3600_000;
const T0 = Date.parse('2026-11-21T20:00:00.000Z');
const SECRET = 'test-cursor-secret';

async function setup(opts: { retentionMs?: number; snapshots?: SnapshotStore } = {}) {
  const prefix = `t${randomBytes(4).toString('hex')}_`;
  const { store, deps } = createCatalog(
    { CATALOG_RETENTION_MS: opts.retentionMs ?? 8 * H, CATALOG_CURSOR_SECRET: SECRET },
    history,
    opts.snapshots ?? new MemorySnapshotStore(),
    prefix,
  );
  await store.migrate();
  const t = await build({ deps: { catalog: deps }, now: T0 + 10 * 60_000 });
  const key = await t.createKey({ plan: 'business', permissions: ['markets.read'] });
  const get = async (qs: string) => {
    const res = await t.app.inject({ url: `/v1/markets${qs ? `?${qs}` : ''}`, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() };
  };
  return { store, deps, t, get, prefix, key };
}

/**
 * A second API instance, built separately, that reads the catalog only from `snapshots` (no History
 * at all), as an API replica of the stack reads only Redis.
 */
async function replica(snapshots: SnapshotStore, prefix: string, now: number) {
  const t = await build({ deps: { catalog: catalogDeps({ CATALOG_RETENTION_MS: 8 * H, CATALOG_CURSOR_SECRET: SECRET }, snapshots, prefix) }, now });
  const key = await t.createKey({ plan: 'business', permissions: ['markets.read'] });
  return async (qs: string) => {
    const res = await t.app.inject({ url: `/v1/markets${qs ? `?${qs}` : ''}`, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() };
  };
}

/** One finished listing crawl of a venue: `listed` rows plus `unlisted` ones (parlays, closed). */
async function crawl(store: CatalogStore, provider: Provider, startedAt: number, listed: Array<[string, string]>, unlisted: string[] = []) {
  const crawlId = newCrawlId(provider, startedAt);
  const rows: StagedRow[] = [
    ...listed.map(([nativeId, category]) => ({ provider, crawl_id: crawlId, record_id: nativeId, native_id: nativeId, title: `Title of ${nativeId}`, category, listed: 1 as const })),
    ...unlisted.map((nativeId) => ({ provider, crawl_id: crawlId, record_id: nativeId, native_id: nativeId, title: 'parlay', category: 'sports', listed: 0 as const })),
  ];
  await store.stageCrawlRows(rows);
  await store.completeCrawls([{ provider, crawl_id: crawlId, started_at: startedAt, completed_at: startedAt + 1000, row_count: rows.length }]);
}

const ids = (n: number, tag: string, category: string): Array<[string, string]> =>
  Array.from({ length: n }, (_, i) => [`${tag}-${String(i).padStart(3, '0')}`, category]);

/** A catalog over several venues, listed here out of token order on purpose. */
async function seed(store: CatalogStore) {
  await crawl(store, 'venue_9', T0 + 60_000, ids(5, '0xNINE', 'crypto'));
  await crawl(store, 'venue_2', T0 + 30_000, [...ids(20, 'TWO-S', 'sports'), ...ids(10, 'TWO-P', 'politics')]);
  await crawl(store, 'venue_1', T0, [...ids(12, 'KXNBA', 'sports'), ...ids(3, 'KXFED', 'economics')], ['KXMVENBASINGLEGAME-S1', 'KXMVENBASINGLEGAME-S2']);
  await crawl(store, 'venue_5', T0 + 90_000, ids(4, 'FIVE', 'unknown'));
  return store.buildSnapshot(T0 + 5 * 60_000);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

async function walk(get: (qs: string) => Promise<{ status: number; body: Json }>, qs: string) {
  const rows: Json[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const r = await get([qs, cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&'));
    expect(r.status).toBe(200);
    rows.push(...r.body.data);
    pages++;
    if (!r.body.pagination.has_more) {
      expect(r.body.pagination.next_cursor).toBeUndefined();
      return { rows, pages, last: r.body };
    }
    cursor = r.body.pagination.next_cursor;
    expect(typeof cursor).toBe('string');
  }
}

describe('GET /v1/markets', () => {
  it('answers 503 service_unavailable before the first snapshot', async () => {
    const { get } = await setup();
    const r = await get('');
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('service_unavailable');
  });

  it('walks providers in token order, 25 a page by default, every row exactly once', async () => {
    const { store, get } = await setup();
    await seed(store);
    const first = await get('');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toMatchObject({ limit: 25, total: 54, has_more: true });
    expect(first.body.data).toHaveLength(25);
    expect(first.body.data[0]).toEqual({ id: 'venue_1:KXFED-000', provider: 'venue_1', title: 'Title of KXFED-000', category: 'economics' });
    // Fields in the spec's order (toEqual does not look at it).
    expect(Object.keys(first.body)).toEqual(['data', 'snapshot', 'pagination']);
    expect(Object.keys(first.body.data[0])).toEqual(['id', 'provider', 'title', 'category']);
    expect(Object.keys(first.body.pagination)).toEqual(['limit', 'total', 'has_more', 'next_cursor']);
    const { rows, pages } = await walk(get, '');
    expect(pages).toBe(3);
    expect(rows).toHaveLength(54);
    expect(new Set(rows.map((r) => r.id)).size).toBe(54);
    const order = rows.map((r) => PROVIDERS.indexOf(r.provider));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (const r of rows) expect(r.id.startsWith(`${r.provider}:`)).toBe(true);
  });

  it('excludes venue_1 multi-leg parlays from the rows and from pagination.total', async () => {
    const { store, get } = await setup();
    await seed(store);
    const { rows, last } = await walk(get, 'provider=venue_1&limit=100');
    expect(last.pagination.total).toBe(15);
    expect(rows).toHaveLength(15);
    expect(rows.some((r) => r.id.includes('KXMVE'))).toBe(false);
  });

  it('composes category and provider filters; total counts the filtered set', async () => {
    const { store, get } = await setup();
    await seed(store);
    const sports = await walk(get, 'category=sports&limit=7');
    expect(sports.last.pagination.total).toBe(32);
    expect(sports.rows).toHaveLength(32);
    expect(sports.rows.every((r) => r.category === 'sports')).toBe(true);
    expect(sports.rows[0].provider).toBe('venue_1');

    const both = await walk(get, 'category=sports&provider=venue_2&limit=6');
    expect(both.rows).toHaveLength(20);
    expect(both.last.pagination.total).toBe(20);
    expect(both.rows.every((r) => r.category === 'sports' && r.provider === 'venue_2')).toBe(true);

    const none = await get('category=weather&provider=venue_2');
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0, has_more: false } });
    expect(none.body.pagination.next_cursor).toBeUndefined();

    // Enumerations match case-insensitively.
    const upper = await get('category=SPORTS&provider=VENUE_2&limit=100');
    expect(upper.status).toBe(200);
    expect(upper.body.pagination.total).toBe(20);
  });

  it('validates limit 1..100', async () => {
    const { store, get } = await setup();
    await seed(store);
    for (const bad of ['0', '101', 'abc', '-1', '2.5']) {
      const r = await get(`limit=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
    }
    const max = await get('limit=100');
    expect(max.body.data).toHaveLength(54);
    expect(max.body.pagination).toMatchObject({ limit: 100, has_more: false });
    const one = await get('limit=1');
    expect(one.body.data).toHaveLength(1);
  });

  it('rejects alternate provider spellings listing the nine tokens, with param provider', async () => {
    const { store, get } = await setup();
    await seed(store);
    for (const bad of ['v1', 'venue1', 'venue-1', 'VENUE 1', 'venue_10', 'kalshi']) {
      const r = await get(`provider=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_parameter');
      expect(r.body.param).toBe('provider');
      expect(r.body.message).toContain(JSON.stringify(bad));
      for (const p of PROVIDERS) expect(r.body.message).toContain(p);
    }
    const cat = await get('category=sport');
    expect(cat.status).toBe(400);
    expect(cat.body).toMatchObject({ code: 'invalid_parameter', param: 'category' });
  });

  it('binds cursors to both filters: replay under another filter set is 400 invalid_cursor', async () => {
    const { store, get } = await setup();
    await seed(store);
    const first = await get('category=sports&limit=5');
    const c = encodeURIComponent(first.body.pagination.next_cursor);
    for (const qs of [`cursor=${c}`, `cursor=${c}&category=politics`, `cursor=${c}&category=sports&provider=venue_2`, `cursor=${c}&provider=venue_1`]) {
      const r = await get(qs);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    }
    expect((await get(`cursor=${c}&category=sports`)).status).toBe(200);
    expect((await get(`cursor=${c}&category=SPORTS&limit=3`)).status).toBe(200);
  });

  it('lists every parameter problem in errors[], the message describing the first', async () => {
    const { store, get } = await setup();
    await seed(store);
    const r = await get('limit=0&category=sport&provider=v1');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_parameter');
    expect(r.body.errors.map((e: Json) => [e.param, e.value])).toEqual([
      ['limit', '0'],
      ['category', 'sport'],
      ['provider', 'v1'],
    ]);
    expect(r.body.message).toBe(r.body.errors[0].message);
    for (const e of r.body.errors) expect(e.message).toContain(JSON.stringify(e.value));
  });

  it('rejects a signed cursor whose payload was edited (another offset, another filter, another snapshot)', async () => {
    const { store, get } = await setup();
    await seed(store);
    const first = await get('category=sports&limit=5');
    const real = first.body.pagination.next_cursor as string;
    const [payload, mac] = real.split('.');
    const text = Buffer.from(payload, 'base64url').toString();
    const edits = [text.replace(/,5\]$/, ',30]'), text.replace('"sports"', '"politics"'), text.replace(/^\[1,"markets","[^"]+"/, '[1,"markets","another-snapshot"')];
    for (const edited of edits) {
      expect(edited).not.toBe(text);
      const forged = `${Buffer.from(edited).toString('base64url')}.${mac}`;
      const r = await get(`category=${edited.includes('politics') ? 'politics' : 'sports'}&cursor=${encodeURIComponent(forged)}`);
      expect(r.status, edited).toBe(400);
      expect(r.body, edited).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    }
    expect((await get(`category=sports&cursor=${encodeURIComponent(real)}`)).status).toBe(200);
  });

  it('rejects malformed and forged cursors', async () => {
    const { store, get } = await setup();
    const meta = await seed(store);
    const forged = createCursorCodec('another-secret').encode({ snapshotId: meta.snapshotId, category: null, provider: null, offset: 3 });
    for (const bad of ['abc', 'x.y', forged, Buffer.from('{"offset":25}').toString('base64url')]) {
      const r = await get(`cursor=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_cursor');
      expect(r.body.message).toContain(JSON.stringify(bad));
    }
  });

  it('keeps serving a cursor from its own snapshot after a rebuild, then 400 stale once retention passes', async () => {
    const { store, t, get } = await setup({ retentionMs: H });
    const old = await seed(store);
    const first = await get('limit=10');
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    // A new crawl of venue_1 adds a market and a new snapshot is built.
    await crawl(store, 'venue_1', T0 + 20 * 60_000, [...ids(12, 'KXNBA', 'sports'), ...ids(4, 'KXFED', 'economics')]);
    const fresh = await store.buildSnapshot(T0 + 30 * 60_000);
    expect(fresh.snapshotId).not.toBe(old.snapshotId);
    t.clock.set(T0 + 31 * 60_000);
    expect((await get('')).body.pagination.total).toBe(55);
    const cont = await get(`cursor=${cursor}`);
    expect(cont.status).toBe(200);
    // Still the old snapshot: its total and its observed_at.
    expect(cont.body.pagination.total).toBe(54);
    expect(cont.body.snapshot.observed_at).toBe(new Date(T0).toISOString());
    expect(cont.body.data[0].id).toBe('venue_1:KXNBA-007');

    t.clock.set(T0 + 30 * 60_000 + H + 1);
    const stale = await get(`cursor=${cursor}`);
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('invalid_cursor');
    expect(stale.body.message).toMatch(/restart from page 1/);
    // The janitor drops it at the next build; still the stale message.
    await store.buildSnapshot(T0 + 30 * 60_000 + H + 2);
    const dropped = await get(`cursor=${cursor}`);
    expect(dropped.body.message).toMatch(/no longer retained; restart from page 1/);
  });

  it('reports snapshot.observed_at as when the oldest underlying read began, null when unknown', async () => {
    const { store, get } = await setup();
    await seed(store);
    const r = await get('limit=1');
    expect(r.body.snapshot).toEqual({ observed_at: '2026-11-21T20:00:00.000Z' });
    expect(Object.keys(r.body)).toEqual(['data', 'snapshot', 'pagination']);

    const empty = await setup();
    await empty.store.buildSnapshot(T0);
    const e = await empty.get('');
    expect(e.status).toBe(200);
    expect(e.body).toEqual({ data: [], snapshot: { observed_at: null }, pagination: { limit: 25, total: 0, has_more: false } });
  });

  it.skipIf(!redisUrl)('publishes the current snapshot id in Redis, where every API process reads it', async () => {
    const redis = new RedisSnapshotStore({ url: redisUrl!, namespace: `t${randomBytes(4).toString('hex')}:` });
    try {
      const { store, get, prefix } = await setup({ snapshots: redis });
      expect((await get('')).status).toBe(503);
      const meta = await seed(store);
      const r = await get('limit=5');
      expect(r.status).toBe(200);
      expect(r.body.pagination.total).toBe(54);
      expect((await redis.current(`${prefix}catalog`))?.id).toBe(meta.snapshotId);
      const cont = await get(`cursor=${encodeURIComponent(r.body.pagination.next_cursor)}&limit=5`);
      expect(cont.body.data[0].id).toBe('venue_1:KXNBA-002');
    } finally {
      await redis.close();
    }
  });

  it('a second app built separately, reading only the same SnapshotStore, serves every page and cursor of the catalog', async () => {
    const snapshots = new MemorySnapshotStore();
    const { store, get, prefix } = await setup({ snapshots });
    await seed(store);
    const other = await replica(snapshots, prefix, T0 + 10 * 60_000);
    for (const qs of ['', 'limit=7', 'category=sports&limit=5', 'provider=venue_2&category=politics', 'limit=100']) {
      const mine = await walk(get, qs);
      const theirs = await walk(other, qs);
      expect(theirs.rows).toEqual(mine.rows);
      expect(theirs.last).toEqual(mine.last);
    }
    // A cursor issued by one instance continues on the other.
    const first = await get('category=sports&limit=10');
    const cont = await other(`category=sports&limit=10&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(cont.status).toBe(200);
    expect(cont.body.data[0].id).toBe('venue_1:KXNBA-010');
  });

  it.skipIf(!redisUrl)('an API instance with only Redis (no History) serves the catalog another process built', async () => {
    const namespace = `t${randomBytes(4).toString('hex')}:`;
    const writer = new RedisSnapshotStore({ url: redisUrl!, namespace });
    const reader = new RedisSnapshotStore({ url: redisUrl!, namespace });
    let name = '';
    try {
      const { store, get, prefix } = await setup({ snapshots: writer });
      name = `${prefix}catalog`;
      const other = await replica(reader, prefix, T0 + 10 * 60_000);
      expect((await other('')).status).toBe(503);
      await seed(store);
      const mine = await walk(get, 'limit=9');
      const theirs = await walk(other, 'limit=9');
      expect(theirs.rows).toHaveLength(54);
      expect(theirs.rows).toEqual(mine.rows);
      expect(theirs.last.snapshot).toEqual({ observed_at: '2026-11-21T20:00:00.000Z' });
      const filtered = await walk(other, 'provider=venue_2&category=sports&limit=6');
      expect(filtered.rows.map((r: Json) => r.id)).toEqual(ids(20, 'TWO-S', 'sports').map(([id]) => `venue_2:${id}`));
    } finally {
      if (name) await writer.dropSnapshots(name);
      await writer.close();
      await reader.close();
    }
  });

  it('sends each snapshot page with an ETag and a Cache-Control for its life; If-None-Match answers 304 until the snapshot changes', async () => {
    const { store, t, key } = await setup();
    await seed(store);
    const url = (qs: string) => `/v1/markets?${qs}`;
    const first = await t.app.inject({ url: url('limit=10'), headers: t.auth(key) });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    // Built at T0 + 5 min, next build expected 30 min later; the request is at T0 + 10 min.
    expect(first.headers['cache-control']).toBe(`private, max-age=${25 * 60}`);
    const again = await t.app.inject({ url: url('limit=10'), headers: { ...t.auth(key), 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A 304 carries what the 200 would have (RFC 9110 15.4.5) and is an authenticated response (spec: "Limits").
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(String(again.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(again.headers['x-ratelimit-limit']).toBe(first.headers['x-ratelimit-limit']);
    expect(again.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect(again.headers['x-request-id']).toEqual(expect.any(String));
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    // A list of tags and the weak/strong forms match too (If-None-Match uses weak comparison).
    const listed = await t.app.inject({ url: url('limit=10'), headers: { ...t.auth(key), 'if-none-match': `"nope", ${etag.slice(2)}` } });
    expect(listed.statusCode).toBe(304);
    // Another page (here: another limit) is another representation.
    const other = await t.app.inject({ url: url('limit=11'), headers: { ...t.auth(key), 'if-none-match': etag } });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
    // A cursor's page never changes while its snapshot is retained.
    const cursor = encodeURIComponent(first.json().pagination.next_cursor);
    const next = await t.app.inject({ url: url(`limit=10&cursor=${cursor}`), headers: t.auth(key) });
    expect(next.headers['cache-control']).toBe(`private, max-age=${8 * 3600}, immutable`);
    // A new snapshot with the same rows but a newer observed_at: page 1 changes, so no 304.
    await crawl(store, 'venue_1', T0 + 20 * 60_000, [...ids(12, 'KXNBA', 'sports'), ...ids(3, 'KXFED', 'economics')], ['KXMVENBASINGLEGAME-S1', 'KXMVENBASINGLEGAME-S2']);
    await store.buildSnapshot(T0 + 30 * 60_000);
    t.clock.set(T0 + 31 * 60_000);
    const fresh = await t.app.inject({ url: url('limit=10'), headers: { ...t.auth(key), 'if-none-match': etag } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().snapshot.observed_at).toBe(new Date(T0 + 30_000).toISOString());
    // The old snapshot's cursor page: retained for 8 h from its retirement at T0 + 30 min.
    const old = await t.app.inject({ url: url(`limit=10&cursor=${cursor}`), headers: t.auth(key) });
    expect(old.statusCode).toBe(200);
    expect(old.headers['cache-control']).toBe(`private, max-age=${8 * 3600 - 60}, immutable`);
    expect(old.headers.etag).toBe(next.headers.etag);
  });

  it('keeps encoded pages of the current snapshot only; a retired snapshot\'s cursor page is encoded again, the same bytes and ETag', async () => {
    const { store, deps, t, key } = await setup();
    const old = await seed(store);
    const inject = (qs: string, headers: Record<string, string> = {}) => t.app.inject({ url: `/v1/markets?${qs}`, headers: { ...t.auth(key), ...headers } });
    const first = await inject('limit=10');
    const c1 = encodeURIComponent(first.json().pagination.next_cursor);
    const page2 = await inject(`limit=10&cursor=${c1}`);
    const c2 = encodeURIComponent(page2.json().pagination.next_cursor);
    const sports = await inject('limit=7&category=sports');
    expect(catalogMemoHolding(deps)).toEqual({ snapshotId: old.snapshotId, pages: 3 });

    await crawl(store, 'venue_1', T0 + 20 * 60_000, [...ids(12, 'KXNBA', 'sports'), ...ids(4, 'KXFED', 'economics')]);
    const fresh = await store.buildSnapshot(T0 + 30 * 60_000);
    t.clock.set(T0 + 31 * 60_000);
    expect((await inject('limit=10')).json().pagination.total).toBe(55);
    // The retired snapshot's pages are gone from the memo; the new page 1 is the one held.
    expect(catalogMemoHolding(deps)).toEqual({ snapshotId: fresh.snapshotId, pages: 1 });

    // Pages of the retired snapshot, served before and not: the same bytes as when it was current,
    // twice over, and none of them kept.
    for (let i = 0; i < 2; i++) {
      const again = await inject(`limit=10&cursor=${c1}`);
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(page2.body);
      expect(again.headers.etag).toBe(page2.headers.etag);
      const gz = await inject(`limit=10&cursor=${c1}`, { 'accept-encoding': 'gzip' });
      expect(gunzipSync(gz.rawPayload).toString()).toBe(page2.body);
      expect((await inject(`limit=10&cursor=${c1}`, { 'if-none-match': page2.headers.etag as string })).statusCode).toBe(304);
      const third = await inject(`limit=10&cursor=${c2}`);
      expect(third.statusCode).toBe(200);
      expect(third.json().pagination.total).toBe(54);
      expect(third.json().data[0].id).toBe('venue_2:TWO-P-005');
    }
    expect(catalogMemoHolding(deps)).toEqual({ snapshotId: fresh.snapshotId, pages: 1 });
    // A filtered page 1 now is the new snapshot's (its own bytes), kept beside the other.
    const sportsNow = await inject('limit=7&category=sports');
    expect(sportsNow.json().pagination.total).toBe(sports.json().pagination.total);
    expect(catalogMemoHolding(deps)).toEqual({ snapshotId: fresh.snapshotId, pages: 2 });
  });

  it('answers a cursor of the earlier keyset encoding as stale: restart from page 1', async () => {
    const { store, get } = await setup();
    const meta = await seed(store);
    // The version 1 layout, signed with the service's secret, as a client may still hold one.
    const payload = Buffer.from(JSON.stringify([1, 'markets', meta.snapshotId, null, null, 1, 'venue_1:KXNBA-003'])).toString('base64url');
    const { createHmac } = await import('node:crypto');
    const v1 = `${payload}.${createHmac('sha256', SECRET).update(payload).digest().subarray(0, 16).toString('base64url')}`;
    const r = await get(`cursor=${encodeURIComponent(v1)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    expect(r.body.message).toMatch(/no longer retained; restart from page 1/);
  });

  it('answers a cursor as stale once its snapshot is gone from the store, even where its page was already served', async () => {
    const snapshots = new MemorySnapshotStore();
    const { store, get, prefix } = await setup({ snapshots });
    await seed(store);
    const first = await get('limit=10');
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    expect((await get(`limit=10&cursor=${cursor}`)).status).toBe(200);
    // A replay clears the read model (SnapshotStore.dropSnapshots).
    await snapshots.dropSnapshots(`${prefix}catalog`);
    const gone = await get(`limit=10&cursor=${cursor}`);
    expect(gone.status).toBe(400);
    expect(gone.body).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    expect(gone.body.message).toMatch(/no longer retained; restart from page 1/);
  });
});
