/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// Every paginated route seals its cursors with the one codec and the one deployment secret (lib/cursor.ts),
// so a cursor signed by this API but issued by another route is a valid signature with the wrong
// meaning. Spec ("Errors"): `400 invalid_cursor` for a "cursor from another endpoint", before any
// venue or snapshot is read. Each route's cursor is sent to each other route's `cursor`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { buildWallets } from '../../../pipelines/venues/simulator/wallet.ts';
import { build } from '../../../test/helper.ts';
import { PERMISSIONS } from '../table.ts';
import { createLiveDeps } from '../../live/io.ts';
import { catalogDeps } from '../../../pipelines/catalog/index.ts';
import { MemorySnapshotStore } from '../../../pipelines/readmodels/memory-store.ts';
import { createCursorCodec as catalogCursors } from '../../../pipelines/catalog/cursor.ts';
import { encodeCursor as sportsCursor } from './sports.ts';
import { cursorCodec } from '../../../lib/cursor.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 11 });
});
afterAll(async () => sim?.close());

describe('a cursor of another endpoint is 400 invalid_cursor on every paginated route', () => {
  it('catalog, spot prices, wallet positions and price history each refuse the others\' cursors', async () => {
    const secret = 'cursor-crossing-secret';
    const catalog = catalogDeps({ CATALOG_RETENTION_MS: 8 * 3600_000, CATALOG_CURSOR_SECRET: secret }, new MemorySnapshotStore(), 'crossing_');
    const t = await build({ env: { CATALOG_CURSOR_SECRET: secret }, deps: { live: createLiveDeps(sim.baseUrl), catalog } });
    const key = await t.createKey({ plan: 'business', permissions: [...PERMISSIONS] });
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: t.auth(key) });
      return { status: res.statusCode, body: res.json() as Record<string, any> };
    };
    const wallet = buildWallets(11)[0].proxy;
    const end = Math.floor(sim.clock.now() / 1000) * 1000 - 60_000;

    // Cursors as each route issues them: two read from the routes themselves, the rest sealed as their routes seal them.
    const spot = (await get(`/v1/crypto-prices/spot?currency=btcusdt&start_time=${end - 10_000}&end_time=${end}&limit=2`)).body.pagination.next_cursor as string;
    const positions = (await get(`/v1/marketplace/wallet/positions?address=${wallet}&limit=1`)).body.pagination.next_cursor as string;
    expect(typeof spot).toBe('string');
    expect(typeof positions).toBe('string');
    const cursors: Record<string, string> = {
      spot,
      positions,
      markets: catalogCursors(secret).encode({ snapshotId: 'snap-1', category: null, provider: null, offset: 25 }),
      sports_list: sportsCursor(secret, { r: 'sports_list', f: 'x', s: end, e: 'nba-bos-lal-2026-11-20' }),
      market_history: cursorCodec(secret).seal('market_history', ['venue_1:KX-1', '1m', 0, end, 10]),
    };
    const targets: Record<string, (c: string) => string> = {
      markets: (c) => `/v1/markets?cursor=${c}`,
      spot: (c) => `/v1/crypto-prices/spot?cursor=${c}`,
      positions: (c) => `/v1/marketplace/wallet/positions?address=${wallet}&cursor=${c}`,
    };
    for (const [target, url] of Object.entries(targets)) {
      for (const [source, c] of Object.entries(cursors)) {
        if (source === target) continue;
        const r = await get(url(encodeURIComponent(c)));
        expect(r.status, `${source} cursor on ${target}`).toBe(400);
        expect(r.body, `${source} cursor on ${target}`).toMatchObject({ code: 'invalid_cursor', param: 'cursor', status_code: 400 });
      }
      // Its own cursor is accepted (the matrix can tell): the catalog's names a snapshot this store never held, so it is stale.
      const own = await get(url(encodeURIComponent(cursors[target])));
      if (target === 'markets') expect(own.body.message).toMatch(/stale|no longer retained/);
      else expect(own.status, `${target} own cursor`).toBe(200);
    }
  });
});
