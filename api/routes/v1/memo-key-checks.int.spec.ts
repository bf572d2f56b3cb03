// Work shared or remembered on the request path never skips the key check (spec: "Authentication",
// "Limits"): a catalog or sports page served from the page memo or answered 304 to If-None-Match,
// and a market detail answered from a venue read shared with other requests, is still a request of
// its key: refused without the route's permission, with a revoked key or with no key, counted in the
// key's rolling 60-second window (429 rate_limited with Retry-After past the plan's limit, the
// X-RateLimit-* headers on every charged answer) and in the account's monthly usage.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from '../../../test/helper.ts';
import { billingPeriod } from '../../auth/plans.ts';
import type { Permission } from '../table.ts';
import { ChdbHistory } from '../../../pipelines/readmodels/chdb-history.ts';
import { MemorySnapshotStore } from '../../../pipelines/readmodels/memory-store.ts';
import { createCatalog } from '../../../pipelines/catalog/index.ts';
import { newCrawlId } from '../../../pipelines/catalog/store.ts';
import { indexSnapshot } from '../../../pipelines/matching/readmodel.ts';
import { sportsEntry } from './sports-entry.testkit.ts';
import { startSimulator, type Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { createLiveDeps } from '../../live/io.ts';
import { simJson } from '../../live/testkit.ts';

const T0 = Date.parse('2026-11-21T20:00:00.000Z');
const NOW = T0 + 10 * 60_000;
let history: ChdbHistory;
let sim: Simulator;
beforeAll(async () => {
  history = await ChdbHistory.open(path.join(tmpdir(), `pm-chdb-${process.pid}`), `memokeys_${randomBytes(4).toString('hex')}`);
  sim = await startSimulator({ seed: 11 });
});
afterAll(async () => {
  await history?.close();
  await sim?.close();
});

/** A catalog of 30 venue_2 rows built into its first snapshot. */
async function catalogDepsBuilt() {
  const { store, deps } = createCatalog({ CATALOG_RETENTION_MS: 8 * 3600_000, CATALOG_CURSOR_SECRET: 'test-cursor-secret' }, history, new MemorySnapshotStore(), `t${randomBytes(4).toString('hex')}_`);
  await store.migrate();
  const crawlId = newCrawlId('venue_2', T0);
  const rows = Array.from({ length: 30 }, (_, i) => ({ provider: 'venue_2' as const, crawl_id: crawlId, record_id: `m-${i}`, native_id: `m-${i}`, title: `Title ${i}`, category: 'sports', listed: 1 as const }));
  await store.stageCrawlRows(rows);
  await store.completeCrawls([{ provider: 'venue_2', crawl_id: crawlId, started_at: T0, completed_at: T0 + 1000, row_count: rows.length }]);
  await store.buildSnapshot(T0 + 5 * 60_000);
  return deps;
}


async function keyOf(t: TestApp, plan: 'free' | 'pro', permissions: Permission[]) {
  const account = `acct_memo_${randomBytes(5).toString('hex')}`;
  await t.authDeps.admin.ensureAccount(account, plan);
  const { key, record } = await t.authDeps.admin.create({ accountId: account, permissions });
  return { key, account, id: record.id };
}

/**
 * The key rules on one snapshot route whose page is kept: ten requests of a Free key (the page from
 * the memo, or 304 to its ETag) are counted, the eleventh is 429; a key without the permission, a
 * revoked key and no key are refused even when the client holds the page's ETag.
 */
async function snapshotRouteKeyRules(t: TestApp, url: string, permission: Permission, other: Permission) {
  const send = (key: string | null, headers: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { ...(key === null ? {} : t.auth(key)), ...headers } });

  const warm = await keyOf(t, 'pro', [permission]);
  const page = await send(warm.key);
  expect(page.statusCode).toBe(200);
  const etag = page.headers.etag as string;
  expect(etag).toMatch(/^W\//);
  const held = { 'if-none-match': etag };

  const free = await keyOf(t, 'free', [permission]);
  const period = billingPeriod(t.clock.now);
  const before = await t.authDeps.store.usage(free.account, period);
  for (let i = 0; i < 10; i++) {
    const r = await send(free.key, i % 2 === 0 ? held : {});
    expect(r.statusCode, `request ${i + 1}`).toBe(i % 2 === 0 ? 304 : 200);
    expect(r.headers['x-ratelimit-limit']).toBe('10');
    expect(Number(r.headers['x-ratelimit-remaining'])).toBeLessThanOrEqual(9 - i);
  }
  expect((await t.authDeps.store.usage(free.account, period)) - before).toBe(10);
  for (const h of [held, {}]) {
    const over = await send(free.key, h);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'rate_limited', status_code: 429 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.headers.etag).toBeUndefined();
  }
  // The window rolls on: a minute later the held page is 304 again.
  t.clock.advance(61_000);
  expect((await send(free.key, held)).statusCode).toBe(304);

  const lacking = await keyOf(t, 'pro', [other]);
  const forbidden = await send(lacking.key, held);
  expect(forbidden.statusCode).toBe(403);
  expect(forbidden.json()).toMatchObject({ code: 'forbidden', status_code: 403 });
  expect(forbidden.json().message).toContain(`"${permission}"`);

  await t.authDeps.admin.revoke(warm.id);
  const revoked = await send(warm.key, held);
  expect(revoked.statusCode).toBe(401);
  expect(revoked.json()).toMatchObject({ code: 'invalid_api_key', status_code: 401 });

  const none = await send(null, held);
  expect(none.statusCode).toBe(401);
  expect(none.json()).toMatchObject({ code: 'missing_api_key', status_code: 401 });
  expect(none.headers.etag).toBeUndefined();
}

describe('memos and shared reads never skip the key check, the rate window or the usage count', () => {
  it('GET /v1/markets: memo hits and 304s', async () => {
    const t = await build({ deps: { catalog: await catalogDepsBuilt() }, now: NOW });
    await snapshotRouteKeyRules(t, '/v1/markets?limit=5', 'markets.read', 'markets.matching.read');
  });

  it('GET /v1/matching-markets/sports: memo hits and 304s', async () => {
    const snap = indexSnapshot('s1', NOW - 5000, [sportsEntry('lal', 'bos'), sportsEntry('nyk', 'mia')]);
    const t = await build({ deps: { sports: { reader: { current: async () => snap } } }, now: Date.parse('2026-11-21T15:00:00Z') });
    await snapshotRouteKeyRules(t, '/v1/matching-markets/sports?limit=1', 'markets.matching.read', 'markets.read');
  });

  it('GET /v1/markets/{market_id}: requests sharing one venue read are each checked and counted', async () => {
    const t = await build({ deps: { live: createLiveDeps(sim.baseUrl) } });
    const [m] = (await simJson(sim, '/venue_3/v1/markets?per_page=1')).data;
    const url = `/v1/markets/venue_3:${m.id}`;
    const free = await keyOf(t, 'free', ['markets.read']);
    const lacking = await keyOf(t, 'pro', ['events.read']);
    const revoked = await keyOf(t, 'pro', ['markets.read']);
    await t.authDeps.admin.revoke(revoked.id);
    const period = billingPeriod(t.clock.now);
    // Twelve of the Free key and three refused ones, all in one turn: one venue read at most.
    const sends = [
      ...Array.from({ length: 12 }, () => t.app.inject({ url, headers: t.auth(free.key) })),
      t.app.inject({ url, headers: t.auth(lacking.key) }),
      t.app.inject({ url, headers: t.auth(revoked.key) }),
      t.app.inject({ url }),
    ];
    const res = await Promise.all(sends);
    const codes = res.slice(0, 12).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(2);
    for (const r of res.slice(0, 12)) {
      expect(r.headers['x-ratelimit-limit']).toBe('10');
      if (r.statusCode === 429) {
        expect(r.json()).toMatchObject({ code: 'rate_limited', status_code: 429 });
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      } else expect(r.json().id).toBe(`venue_3:${m.id}`);
    }
    expect(await t.authDeps.store.usage(free.account, period)).toBe(10);
    expect([res[12].statusCode, res[12].json().code]).toEqual([403, 'forbidden']);
    expect([res[13].statusCode, res[13].json().code]).toEqual([401, 'invalid_api_key']);
    expect([res[14].statusCode, res[14].json().code]).toEqual([401, 'missing_api_key']);
  });
});
