/* eslint-disable @typescript-eslint/no-explicit-any -- venue and API JSON is read loosely in tests and benches */
// GET /v1/markets/{market_id} for one market asked in every accepted form at once, on every venue:
// the requests of one turn share their venue reads, the parse, the body built from them (builtOnce)
// and its JSON text, and each must still get exactly what it gets when it asks alone (spec: the
// endpoint's resolution rules; a venue_7 pair and its three-part lines, a venue_9 parent and its
// pairs, a venue_8 market and its group, a venue_5 outcome and its question read the same venue
// answers but are different markets). Ids are found from each venue's own listing.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../../pipelines/venues/simulator/server.ts';
import { simulatorForSuite, liveApp, simJson } from '../../live/testkit.ts';

let sim: Simulator;
simulatorForSuite(11, (s) => (sim = s));

/**
 * The body without the times of each read: when the request read (observed_at) and, for a book the
 * simulator stamps with the time it is read, the book's own time (pricing.as_of of a quote).
 */
const unstamped = (b: any) =>
  b?.pricing
    ? {
        ...b,
        pricing: { ...b.pricing, observed_at: undefined, as_of: b.pricing.as_of_kind === 'quote' ? typeof b.pricing.as_of : b.pricing.as_of },
        trading_fees: { ...b.trading_fees, observed_at: undefined },
      }
    : b;

/** Every accepted form (and a few refused ones) of one market per venue, from the venues' listings. */
async function forms(): Promise<Record<string, string[]>> {
  const [m1] = (await simJson(sim, '/venue_1/markets?category=Sports&limit=1')).markets;
  const [m2] = (await simJson(sim, '/venue_2/markets?limit=1')) as any[];
  const [m3] = (await simJson(sim, '/venue_3/v1/markets?per_page=1')).data;
  const [m4] = (await simJson(sim, '/venue_4/markets/active?pageSize=1')).data.markets;
  const [q5] = (await simJson(sim, '/venue_5/questions?take=1')).questions;
  const [m6] = (await simJson(sim, '/venue_6/api/markets?page_size=1')).items;
  const e7 = (await simJson(sim, '/venue_7/events?count=5')).events.find((e: any) => e.markets.some((m: any) => m.lines.length > 1)) ?? (await simJson(sim, '/venue_7/events?count=1')).events[0];
  const mk7 = e7.markets.find((m: any) => m.lines.length > 1) ?? e7.markets[0];
  const [m8] = (await simJson(sim, '/venue_8/v0/markets?limit=1')) as any[];
  const p9 = (await simJson(sim, '/venue_9/parents?limit=1')).data[0];
  const hash4 = String(m4.marketHash);
  return {
    venue_1: [m1.ticker, `${m1.ticker.toLowerCase()}?provider=v1`, `venue_1:${m1.ticker}`, `${m1.ticker}?provider=venue_1`],
    venue_2: [`venue_2:${m2.id}`, `${m2.id}?provider=venue_2`, m2.id, m2.slug, `venue_2:${m2.slug}`, `${m2.conditionId}?provider=venue_2`, `venue_2:${m2.conditionId}`],
    venue_3: [`venue_3:${m3.id}`, `${m3.id}?provider=venue_3`, `${m3.id}?provider=V3`, String(m3.id)],
    venue_4: [hash4, `0x${hash4.slice(2).toUpperCase()}`, `venue_4:${hash4}`],
    venue_5: [`venue_5:${q5.outcomes[0].outcome_id}`, `${q5.outcomes[0].outcome_id}?provider=venue_5`, `venue_5:${q5.outcomes[1].outcome_id}`, `${q5.question_id}?provider=venue_5`],
    venue_6: [`venue_6:${m6.id}`, `${m6.id.toLowerCase()}?provider=venue_6`, `${m6.id}?provider=venue-6`, m6.id],
    venue_7: [
      `venue_7:${mk7.id}`,
      `${mk7.id}?provider=venue_7`,
      ...mk7.lines.filter((l: any) => l.line !== null).map((l: any) => `venue_7:${mk7.id}:${l.line}`),
      `venue_7:${mk7.id}:999.5`,
    ],
    venue_8: [`venue_8:${m8.slug}`, `${m8.slug}?provider=venue_8`, ...(m8.groupSlugs ?? []).slice(0, 1).map((g: string) => `${g}?provider=venue_8`)],
    venue_9: [`venue_9:${p9.id}`, `${p9.id}?provider=venue_9`, ...p9.children.slice(0, 2).map((c: any) => `venue_9:${c.pair}`), `${p9.children[0].pair}?provider=venue_9`, p9.children[0].pair],
  };
}

describe('market detail: one market in every accepted form at once, venues 1-9', () => {
  it('every request gets exactly the status and body it gets alone', async () => {
    const { get } = await liveApp(sim);
    const byVenue = await forms();
    const urls = Object.values(byVenue)
      .flat()
      .map((f) => `/v1/markets/${f}`);
    // Each form three times, all venues interleaved, in one turn.
    const asked = [...urls, ...urls.slice().reverse(), ...urls];
    const together = await Promise.all(asked.map((u) => get(u)));
    const alone = new Map<string, { status: number; body: any }>();
    for (const u of urls) alone.set(u, await get(u));
    // The listings' forms resolve (the refused ones are in the list on purpose and checked equal below).
    for (const [venue, fs] of Object.entries(byVenue)) expect(alone.get(`/v1/markets/${fs[0]}`)!.status, venue).toBe(200);
    // Different markets of one venue answer stay different: venue_7 lines, venue_9 children, venue_5 outcomes.
    const names = (u: string) => alone.get(u)!.body.outcomes?.map((o: any) => o.outcome_id).join(',');
    expect(alone.get(`/v1/markets/${byVenue.venue_9[0]}`)!.body.provider_id).not.toBe(alone.get(`/v1/markets/${byVenue.venue_9[2]}`)!.body.provider_id);
    expect(names(`/v1/markets/${byVenue.venue_5[0]}`)).toBeDefined();
    together.forEach((r, i) => {
      const a = alone.get(asked[i])!;
      expect([asked[i], r.status, unstamped(r.body)]).toEqual([asked[i], a.status, unstamped(a.body)]);
    });
  });
});
