// GET /v1/matching-markets/sports pages served as bytes kept per (snapshot, query): what a client
// sees must be exactly what shaping the current snapshot gives, across new snapshots, queries and
// days, with an ETag that answers 304 while the page is unchanged. Snapshots are published straight
// into a memory SnapshotStore in the sports publisher's format (key event_id, SportsEntry values,
// meta.versions), so this holds the read side alone.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';
import { MemorySnapshotStore } from '../../../pipelines/readmodels/memory-store.ts';
import { FULL_MONEYLINE, SPORTS_SNAPSHOT, SportsReader, type SportsEntry } from '../../../pipelines/matching/readmodel.ts';
import { sportsEntry } from './sports-entry.testkit.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');

/** Two submarkets, each with a rule row: the list's shape options have something to keep or drop. */
const SUBMARKETS = [
  { key: FULL_MONEYLINE, market_type: 'moneyline', segment: 'full', display_name: 'Moneyline', metric: 'winner', outcomes: [], source_markets: [], settlement_equivalence: 'equivalent', rule_comparisons: [{ rule: 'tie' }] },
  { key: `total|full|total|221.5`, market_type: 'total', segment: 'full', display_name: 'Total', metric: 'points', line: 221.5, outcomes: [], source_markets: [], settlement_equivalence: 'unverified', rule_comparisons: [{ rule: 'tie' }] },
];
const entry = (away: string, home: string, start: string, title?: string) => sportsEntry(away, home, start, { title, submarkets: SUBMARKETS });

async function harness() {
  const store = new MemorySnapshotStore();
  const publish = (entries: SportsEntry[], observedAt: number) =>
    store.publish(
      SPORTS_SNAPSHOT,
      entries.map((e) => ({ key: e.event.event_id, value: e })),
      { observedAt, meta: { events: entries.length, versions: Object.fromEntries(entries.map((e, i) => [e.event.event_id, observedAt + i])) } },
    );
  const t = await build({ now: NOW, deps: { sports: { reader: new SportsReader(store) } } });
  const key = await t.createKey({ plan: 'pro', permissions: ['markets.matching.read'] });
  const get = async (qs: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/v1/matching-markets/sports${qs ? `?${qs}` : ''}`, headers: { ...t.auth(key), ...headers } });
    return { status: res.statusCode, headers: res.headers, text: res.body, body: res.body ? (res.json() as Record<string, any>) : null };
  };
  return { publish, get, t };
}

describe('GET /v1/matching-markets/sports pages kept as bytes', () => {
  it('answers 304 to the ETag of the unchanged page, and a new page once a newer snapshot changes it', async () => {
    const h = await harness();
    const a = entry('lal', 'bos', '2026-11-22T00:30:00.000Z');
    const b = entry('nyk', 'mia', '2026-11-22T01:00:00.000Z');
    await h.publish([a, b], NOW - 5000);
    const first = await h.get('limit=1');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(first.body!.data.map((e: any) => e.event_id)).toEqual(['nba-lal-bos-2026-11-21']);
    expect(first.body!.data[0].submarkets.map((s: any) => s.key)).toEqual([FULL_MONEYLINE]);
    expect(first.body!.data[0].submarkets[0].rule_comparisons).toBeUndefined();
    expect((await h.get('limit=1', { 'if-none-match': etag })).status).toBe(304);

    // The same query with other shaping is another page.
    const rules = await h.get('limit=1&include_rules=true&include_submarkets=true');
    expect(rules.body!.data[0].submarkets).toHaveLength(2);
    expect(rules.body!.data[0].submarkets[0].rule_comparisons).toEqual([{ rule: 'tie' }]);
    expect(rules.headers.etag).not.toBe(etag);
    // Its cursor continues from where the first page stopped.
    const next = await h.get(`limit=1&include_submarkets=true&cursor=${encodeURIComponent(rules.body!.pagination.next_cursor)}`);
    expect(next.body!.data.map((e: any) => e.event_id)).toEqual(['nba-nyk-mia-2026-11-21']);

    // A newer snapshot: the title of the first event changed; the same query now reads it.
    await h.publish([entry('lal', 'bos', '2026-11-22T00:30:00.000Z', 'Lakers at Celtics'), b], NOW - 1000);
    const fresh = await h.get('limit=1', { 'if-none-match': etag });
    expect(fresh.status).toBe(200);
    expect(fresh.body!.data[0].title).toBe('Lakers at Celtics');
    expect(fresh.body!.snapshot.observed_at).toBe(new Date(NOW - 1000).toISOString());
    expect(fresh.headers.etag).not.toBe(etag);
    // Same bytes as a second request of it.
    expect((await h.get('limit=1')).text).toBe(fresh.text);
  });

  it('keeps pages per Eastern day: a past scheduled_date matches nothing once the day has passed', async () => {
    const h = await harness();
    await h.publish([entry('lal', 'bos', '2026-11-22T00:30:00.000Z')], NOW - 5000);
    const today = await h.get('scheduled_date=2026-11-21');
    expect(today.body!.pagination.total).toBe(1);
    h.t.clock.set(Date.parse('2026-11-22T15:00:00Z'));
    const later = await h.get('scheduled_date=2026-11-21');
    expect(later.body!.pagination.total).toBe(0);
    expect(later.body!.data).toEqual([]);
  });
});
