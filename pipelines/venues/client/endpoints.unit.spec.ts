// Per-venue endpoints: where a venue path goes, what it carries, and the request budget (GCRA).
import { describe, expect, it } from 'vitest';
import { BudgetSpent, RequestBudget, VenueEndpoints } from './endpoints.ts';

describe('VenueEndpoints', () => {
  it('sends a venue with its own base URL there, without the shared host\'s /venue_<n> prefix', () => {
    const e = new VenueEndpoints('http://sim:1/', { venue_3: { baseUrl: 'https://v3.example/api/' } });
    expect(e.url('/venue_3/markets/12?x=1')).toBe('https://v3.example/api/markets/12?x=1');
    expect(e.url('/venue_3?x=1')).toBe('https://v3.example/api?x=1');
    // Others, and a path of no venue (the simulator's sports data source), stay on the shared host.
    expect(e.url('/venue_30/markets')).toBe('http://sim:1/venue_30/markets');
    expect(e.url('/venue_1/markets')).toBe('http://sim:1/venue_1/markets');
    expect(e.url('/sportsdata/rosters')).toBe('http://sim:1/sportsdata/rosters');
    expect(VenueEndpoints.venueOf('/venue_9/x')).toBe('venue_9');
    expect(VenueEndpoints.venueOf('/venue_90/x')).toBeUndefined();
  });

  it('venueOf: /venue_ and one digit 1-9, then the end, / or ?; nothing else', () => {
    for (let n = 1; n <= 9; n++) {
      for (const tail of ['', '/', '/markets/1', '?x=1']) expect(VenueEndpoints.venueOf(`/venue_${n}${tail}`)).toBe(`venue_${n}`);
    }
    for (const p of ['/venue_0/x', '/venue_/x', '/venue_', '/venue_3x', '/venue_3-', '/venue_3#', '/venue_10', '/venue_a/x', 'venue_3/x', '//venue_3/x', '/Venue_3/x', '/venue-3/x', '/sportsdata/rosters', '']) {
      expect(VenueEndpoints.venueOf(p)).toBeUndefined();
    }
  });

  it('trims trailing slashes of every base URL; a venue given by the caller is the one used', () => {
    const e = new VenueEndpoints('http://sim:1///', { venue_2: { baseUrl: 'https://v2.example//' }, venue_4: { apiKey: 'k' } });
    expect(e.url('/venue_2/markets/9')).toBe('https://v2.example/markets/9');
    expect(e.url('/venue_2/markets/9', 'venue_2')).toBe('https://v2.example/markets/9');
    expect(e.url('/venue_4/markets/9')).toBe('http://sim:1/venue_4/markets/9');
    expect(e.url('/venue_2')).toBe('https://v2.example');
  });

  it('says which variable to set when a venue has no host at all', () => {
    expect(() => new VenueEndpoints(undefined).url('/venue_4/markets')).toThrow(/VENUE_BASE_URL or VENUE_4_BASE_URL/);
  });

  it('carries a venue\'s key as a bearer token, only to that venue', () => {
    const key = `k-${Math.random().toString(36).slice(2)}`;
    const e = new VenueEndpoints('http://sim:1', { venue_5: { apiKey: key } });
    expect(e.headers('venue_5')).toEqual({ authorization: `Bearer ${key}` });
    expect(e.headers('venue_6')).toEqual({});
    expect(e.headers(undefined)).toEqual({});
  });

  it('allOwn only when all nine venues have their own base URL', () => {
    const all = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [`venue_${n}`, { baseUrl: `https://v${n}.example` }]));
    expect(new VenueEndpoints(undefined, all).allOwn).toBe(true);
    const { venue_9: _, ...eight } = all;
    void _;
    expect(new VenueEndpoints(undefined, eight).allOwn).toBe(false);
  });

  it('admits at once without a budget; with one, refuses a wait beyond maxWaitMs without reserving', async () => {
    let now = 1_000_000;
    const e = new VenueEndpoints('http://sim:1', { venue_2: { rps: 1 } }, () => now);
    await e.admit('venue_3', { maxWaitMs: 0 });
    await e.admit('venue_2', { maxWaitMs: 0 });
    await expect(e.admit('venue_2', { maxWaitMs: 10 })).rejects.toThrow(BudgetSpent);
    await expect(e.admit('venue_2', { maxWaitMs: 10 })).rejects.toThrow(/venue_2's request budget \(1 requests\/s\)/);
    // Refusals reserved nothing: a second later the next request goes at once.
    now += 1000;
    await e.admit('venue_2', { maxWaitMs: 0 });
  });

  it('a wait ends early when the signal aborts (a poller stopping)', async () => {
    const e = new VenueEndpoints('http://sim:1', { venue_2: { rps: 0.001 } });
    await e.admit('venue_2');
    const ac = new AbortController();
    const waiting = e.admit('venue_2', { signal: ac.signal });
    ac.abort(new Error('stopping'));
    await expect(waiting).rejects.toThrow('stopping');
  });
});

describe('RequestBudget (GCRA)', () => {
  it('lets a burst of rps through, then spaces requests 1/rps apart, in the order reserved', () => {
    let now = 0;
    const b = new RequestBudget(4, () => now);
    expect([b.reserve(), b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0, 0]);
    expect(b.reserve()).toBe(250);
    expect(b.reserve()).toBe(500);
    now = 1000;
    // At 1 s the slots reserved at 250 and 500 ms are past: the next goes at once.
    expect(b.reserve()).toBe(0);
  });

  it('never admits more than rps over any window of a second, whatever the arrival pattern', () => {
    // Over random arrivals, each request sent when its slot comes: after the first burst the mean
    // rate is at most rps, and no window of a second holds more than a burst plus a second's refill.
    for (let trial = 0; trial < 50; trial++) {
      const rps = 1 + Math.floor(Math.random() * 9);
      let now = 0;
      const b = new RequestBudget(rps, () => now);
      const sent: number[] = [];
      for (let i = 0; i < 300; i++) {
        now += Math.random() < 0.5 ? 0 : Math.random() * (2000 / rps);
        const wait = b.reserve()!;
        sent.push(now + wait);
      }
      sent.sort((x, y) => x - y);
      const span = sent[sent.length - 1]! - sent[0]!;
      // The mean rate: at most rps after the first burst.
      expect(sent.length - rps).toBeLessThanOrEqual(Math.floor((span / 1000) * rps) + 1);
      // Any window of one second: at most 2 * rps (a full burst, then a second's refill).
      for (let i = 0, j = 0; i < sent.length; i++) {
        while (sent[i]! - sent[j]! >= 1000) j++;
        expect(i - j + 1).toBeLessThanOrEqual(2 * rps);
      }
    }
  });
});
