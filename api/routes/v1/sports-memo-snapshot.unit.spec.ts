// The sports list's page memo holds one snapshot's pages: a page shaped from a snapshot must never be
// served as another snapshot's page. A priced page (include_prices=true) waits for its quotes between
// reading the snapshot and storing its bytes; a newer snapshot that becomes current in that wait must
// not find the older snapshot's page stored under its own query. Readers here are plain objects, so
// the test decides exactly when each snapshot is current and when each quote read answers.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';
import { indexSnapshot, type LoadedSnapshot, type PricesView } from '../../../pipelines/matching/readmodel.ts';
import { sportsEntry as entry } from './sports-entry.testkit.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');


describe('sports list page memo across a snapshot publish', () => {
  it('a priced page of the older snapshot, finished after a newer one became current, is never served for the newer one', async () => {
    const s1 = indexSnapshot('s1', NOW - 5000, [entry('lal', 'bos', '2026-11-22T00:30:00.000Z')]);
    const s2 = indexSnapshot('s2', NOW - 1000, [entry('nyk', 'mia', '2026-11-22T01:00:00.000Z')]);
    let current: LoadedSnapshot = s1;
    // The first quote read waits until the test lets it go; every later one answers at once.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const firstAsked = new Promise<void>((r) => (asked = r));
    let reads = 0;
    const view: PricesView = {
      id: 'p1',
      async quotesFor() {
        if (reads++ === 0) {
          asked();
          await gate;
        }
        return new Map();
      },
    };
    const sports = { reader: { current: async () => current }, prices: { current: async () => view } };
    const t = await build({ now: NOW, deps: { sports } });
    const key = await t.createKey({ plan: 'pro', permissions: ['markets.matching.read'] });
    const get = (qs = 'include_prices=true') => t.app.inject({ url: `/v1/matching-markets/sports?${qs}`, headers: t.auth(key) });
    const ids = (res: { json(): any }) => res.json().data.map((e: any) => e.event_id);

    // A reads s1 and waits for its quotes.
    const a = get();
    await firstAsked;
    // s2 is published; B reads it and is answered.
    current = s2;
    const b = await get();
    expect(ids(b)).toEqual(['nba-nyk-mia-2026-11-21']);
    // A finishes with s1's page (its read began before the publish: that is its answer).
    release();
    expect(ids(await a)).toEqual(['nba-lal-bos-2026-11-21']);
    // Every later request of the same query, same second and same prices snapshot is s2's page.
    const c = await get();
    expect(c.statusCode).toBe(200);
    expect(ids(c)).toEqual(['nba-nyk-mia-2026-11-21']);
    expect(c.json().snapshot.observed_at).toBe(new Date(NOW - 1000).toISOString());
    expect(c.headers.etag).toBe(b.headers.etag);
  });

  it('a cursor page asked again after a publish is the newer snapshot\'s page after the cursor, priced or not: no event repeated or skipped', async () => {
    const a = entry('lal', 'bos', '2026-11-22T00:00:00.000Z');
    const b = entry('nyk', 'mia', '2026-11-22T01:00:00.000Z');
    const c = entry('den', 'phx', '2026-11-22T02:00:00.000Z');
    const x = entry('chi', 'det', '2026-11-22T00:30:00.000Z');
    let current: LoadedSnapshot = indexSnapshot('s1', NOW - 5000, [a, b, c]);
    const view: PricesView = { id: 'p1', quotesFor: async () => new Map() };
    const sports = { reader: { current: async () => current }, prices: { current: async () => view } };
    const t = await build({ now: NOW, deps: { sports } });
    const key = await t.createKey({ plan: 'pro', permissions: ['markets.matching.read'] });
    const get = (qs: string) => t.app.inject({ url: `/v1/matching-markets/sports?${qs}`, headers: t.auth(key) });
    const ids = (res: { json(): any }) => res.json().data.map((e: any) => e.event_id.split('-').slice(1, 3).join('-'));
    for (const priced of ['', '&include_prices=true']) {
      current = indexSnapshot(`s1${priced}`, NOW - 5000, [a, b, c]);
      const p1 = await get(`limit=1${priced}`);
      expect(ids(p1)).toEqual(['lal-bos']);
      const cursor = encodeURIComponent(p1.json().pagination.next_cursor);
      // Page 2 of s1, kept in the memo.
      expect(ids(await get(`limit=1&cursor=${cursor}${priced}`))).toEqual(['nyk-mia']);
      // A newer snapshot lists a game between the first and the second.
      current = indexSnapshot(`s2${priced}`, NOW - 1000, [a, x, b, c]);
      const p2 = await get(`limit=1&cursor=${cursor}${priced}`);
      expect(ids(p2)).toEqual(['chi-det']);
      expect(p2.json().pagination).toMatchObject({ total: 4, has_more: true });
      expect(p2.json().snapshot.observed_at).toBe(new Date(NOW - 1000).toISOString());
      const p3 = await get(`limit=2&cursor=${encodeURIComponent(p2.json().pagination.next_cursor)}${priced}`);
      expect(ids(p3)).toEqual(['nyk-mia', 'den-phx']);
      expect(p3.json().pagination.has_more).toBe(false);
    }
  });
});
