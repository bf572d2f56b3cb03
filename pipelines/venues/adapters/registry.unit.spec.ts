// The venue registry: every venue the service knows is one adapter in one folder, found by its token,
// and a tenth venue is one more folder and one more registry line (shown with a venue that exists
// only in tests, testkit/venue_10). The generic readers (the catalog's rows and buckets, the listing
// walk) then serve it with no change anywhere else.
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../../lib/vocabulary.ts';
import { catalogRows } from '../../catalog/normalize.ts';
import { adapterFor, VENUES, type VenueAdapter, type VenueRegistry } from './index.ts';
import type { ListedRecord, PageRequest } from './listing.ts';
import { venue10 } from './testkit/venue_10/index.ts';

/** The service's registry with the tenth venue: the one line a new venue adds. */
const withTenth: VenueRegistry = { ...VENUES, venue_10: venue10 };

/** Walks a venue's listing steps over a venue that answers with `serve`, as a crawl does. */
function walk(adapter: VenueAdapter, serve: (req: PageRequest) => unknown): { records: ListedRecord[]; requests: PageRequest[] } {
  const records: ListedRecord[] = [];
  const requests: PageRequest[] = [];
  for (const step of adapter.listingSteps()) {
    for (let req: PageRequest | null = step.first(); req && requests.length < 100; ) {
      requests.push(req);
      const page = step.parse(serve(req), req);
      records.push(...page.records);
      req = page.next;
    }
  }
  return { records, requests };
}

describe('venue registry', () => {
  it('holds one adapter per provider token, under its own token', () => {
    expect(Object.keys(VENUES).sort()).toEqual([...PROVIDERS].sort());
    for (const p of PROVIDERS) expect(adapterFor(p).provider).toBe(p);
  });

  it('refuses a token it does not hold, quoting it', () => {
    expect(() => adapterFor('venue_10')).toThrow('"venue_10"');
  });

  it('every adapter reads its listing under its own path and gives nothing for records it does not list', () => {
    for (const a of Object.values(withTenth)) {
      const steps = [...a.listingSteps(), ...a.sportsSteps()];
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) expect(s.first().path.startsWith(`/${a.provider}/`)).toBe(true);
      expect(a.listingRows('no-such-record-type', { id: '1' })).toEqual([]);
      expect(a.listingQuotes('no-such-record-type', { id: '1' })).toEqual([]);
      expect(Array.isArray(a.categoryWords({}))).toBe(true);
    }
  });
});

describe('a tenth venue: one folder and one registry line', () => {
  const pages: Record<string, unknown> = {
    '': { markets: [{ id: 'm-1', name: 'Will it rain in Lisbon?', open: true, topic: 'Weather', yes: 0.3 }, { id: 'm-2', name: 'Lakers at Celtics', open: true, topic: 'NBA', yes: 0.55 }], next: 'c2' },
    c2: { markets: [{ id: 'm-3', name: 'Settled already', open: false, topic: 'Politics', yes: 1 }], next: null },
  };
  const tenth = adapterFor('venue_10', withTenth);

  it('is found by the registry that lists it', () => {
    expect(tenth).toBe(venue10);
  });

  it('its listing is walked from the first page to the last', () => {
    const { records, requests } = walk(tenth, (req) => pages[String(req.query.cursor ?? '')]);
    expect(records.map((r) => r.nativeId)).toEqual(['m-1', 'm-2', 'm-3']);
    expect(requests.map((r) => r.query.cursor ?? null)).toEqual([null, 'c2']);
  });

  it('the catalog reads its rows and buckets its words with no change of its own', () => {
    const rows = walk(tenth, (req) => pages[String(req.query.cursor ?? '')]).records.flatMap((r) => catalogRows(tenth, r.recordType, r.payload));
    expect(rows).toEqual([
      { nativeId: 'm-1', title: 'Will it rain in Lisbon?', category: 'weather', listed: true },
      { nativeId: 'm-2', title: 'Lakers at Celtics', category: 'sports', listed: true },
      { nativeId: 'm-3', title: 'Settled already', category: 'politics', listed: false },
    ]);
  });

  it('its open markets show their quotes, its settled ones none', () => {
    expect(tenth.listingQuotes('market', { id: 'm-2', open: true, yes: 0.55 })).toEqual([
      { marketId: 'm-2', outcomes: [['yes', { price: 0.55, bid: null, ask: null, last: null }], ['no', { price: 0.45, bid: null, ask: null, last: null }]], venueTime: null, aliases: [] },
    ]);
    expect(tenth.listingQuotes('market', { id: 'm-3', open: false, yes: 1 })).toEqual([]);
  });
});
