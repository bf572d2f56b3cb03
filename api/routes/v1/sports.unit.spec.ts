// The two sports routes through app.inject, fed by native venue records through the real
// canonicalizers, matcher, lifecycle and read model (no log: the matching stages' objects are
// driven directly in one call chain, stages/inline.ts, with a memory SnapshotStore). Every expectation is written from the spec.
// Response bodies are read as loose JSON (the shapes are what the assertions check).
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';
import { MemorySnapshotStore } from '../../../pipelines/readmodels/memory-store.ts';
import { InlineSports } from '../../../pipelines/matching/stages/inline.ts';
import { SportsReader } from '../../../pipelines/matching/readmodel.ts';
import {
  rosterRecords,
  venue1Records,
  venue2Records,
  venue2Slug,
  venue3Records,
  venue4Records,
  type GameSpec,
} from '../../../pipelines/matching/fixtures.ts';
import type { RawRecord } from '../../../pipelines/topics.ts';
import type { Roster, RosterBook } from '../../../pipelines/matching/props.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const H = 3600_000;

async function harness(now = NOW) {
  const store = new MemorySnapshotStore();
  const clock = { now };
  const proc = new InlineSports(store, () => clock.now);
  const t = await build({ now, deps: { sports: { reader: new SportsReader(store) } } });
  const key = await t.createKey({ plan: 'pro', permissions: ['markets.matching.read'] });
  const get = async (url: string) => {
    const res = await t.app.inject({ url, headers: t.auth(key) });
    return { status: res.statusCode, body: res.json() as Record<string, any> };
  };
  const feed = async (records: RawRecord[]) => {
    proc.ingest(records);
    await proc.publish();
  };
  const setNow = (ms: number) => {
    clock.now = ms;
    t.clock.set(ms);
  };
  return { proc, get, feed, setNow, clock };
}

const lalBos: GameSpec = { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-22T00:30:00Z'), spread: { team: 'bos', size: 4.5 }, total: 221.5 };

function allVenues(g: GameSpec, at: number): RawRecord[] {
  return [...venue1Records(g, at), ...venue2Records(g, at), ...venue3Records(g, at), ...venue4Records(g, at)];
}

describe('GET /v1/matching-markets/sports', () => {
  it('groups one game across venues into one event with the spec key, order and outcome mapping', async () => {
    const h = await harness();
    await h.feed(allVenues(lalBos, NOW));
    const { status, body } = await h.get('/v1/matching-markets/sports?include_submarkets=true');
    expect(status).toBe(200);
    expect(body.pagination).toMatchObject({ limit: 25, total: 1, has_more: false });
    expect(body.snapshot.observed_at).toBe(new Date(NOW).toISOString());
    const ev = body.data[0];
    expect(ev).toMatchObject({
      event_id: 'nba-lal-bos-2026-11-21',
      league: 'nba',
      scheduled_date: '2026-11-21',
      scheduled_start: '2026-11-22T00:30:00.000Z',
      participants: [
        { key: 'lal', role: 'away' },
        { key: 'bos', role: 'home' },
      ],
    });
    expect(ev.submarkets.map((s: any) => s.key)).toEqual(['moneyline|full|winner', 'spread|full|spread:bos|4.5', 'total|full|total|221.5']);
    const ml = ev.submarkets[0];
    expect(ml.outcomes.map((o: any) => o.key)).toEqual(['winner:lal', 'winner:bos']);
    // venue_1 lists one binary market per team, so it appears once per team.
    expect(ml.source_markets.map((s: any) => s.provider)).toEqual(['venue_1', 'venue_1', 'venue_2', 'venue_3', 'venue_4']);
    const v1 = ml.source_markets.find((s: any) => s.market_id.endsWith('-LAL'));
    expect(v1.outcomes).toEqual([
      { canonical_outcome_key: 'winner:lal', label: 'Yes', outcome_id: 'yes', side: 'yes' },
      { canonical_outcome_key: 'winner:bos', label: 'No', outcome_id: 'no', side: 'no' },
    ]);
    const v4 = ml.source_markets.find((s: any) => s.provider === 'venue_4');
    expect(v4.outcomes.map((o: any) => o.outcome_id)).toEqual(['outcomeOne', 'outcomeTwo']);
    const v2 = ml.source_markets.find((s: any) => s.provider === 'venue_2');
    expect(v2.market_slug).toBe('nba-lal-bos-2026-11-22');
    // Spread: favourite named in the key, signed line, cover side first.
    const sp = ev.submarkets[1];
    expect(sp).toMatchObject({ market_type: 'spread', line: -4.5, subject: { type: 'team', key: 'bos' } });
    expect(sp.outcomes.map((o: any) => o.key)).toEqual(['cover:bos', 'not_cover:bos']);
    expect(sp.source_markets.map((s: any) => s.provider)).toEqual(['venue_1', 'venue_2', 'venue_4']);
    // Rules only with include_rules; verdict always.
    for (const s of ev.submarkets) {
      expect(s.rule_comparisons).toBeUndefined();
      expect(['equivalent', 'different', 'unverified']).toContain(s.settlement_equivalence);
    }
    expect(ev.submarkets[2].outcomes.map((o: any) => o.key)).toEqual(['over', 'under']);
  });

  it('settlement_equivalence follows the verdict rules; include_rules adds the three rows', async () => {
    const h = await harness();
    await h.feed(allVenues(lalBos, NOW));
    const { body } = await h.get('/v1/matching-markets/sports?include_submarkets=true&include_rules=true');
    const [ml, sp, tot] = body.data[0].submarkets;
    expect(ml.rule_comparisons.map((r: any) => r.rule)).toEqual(['tie', 'overtime', 'push']);
    // nba full game: a tie is not possible, push is not applicable on a moneyline, every venue's
    // text says overtime counts -> equivalent.
    expect(ml.settlement_equivalence).toBe('equivalent');
    expect(ml.rule_comparisons[0].source_values.every((v: any) => v.value === 'not_possible')).toBe(true);
    // half-point lines cannot push.
    expect(sp.rule_comparisons[2].source_values.every((v: any) => v.value === 'not_applicable')).toBe(true);
    expect(tot.settlement_equivalence).toBe('equivalent');
    const ot = ml.rule_comparisons[1].source_values.find((v: any) => v.provider === 'venue_2');
    expect(ot).toMatchObject({ value: 'included', evidence_url: 'https://venue2.example/rules/sports' });
    // include_rules is not bound to cursors; it is just a shape option.
    const off = await h.get('/v1/matching-markets/sports?include_submarkets=true&include_rules=false');
    expect(off.body.data[0].submarkets[0].rule_comparisons).toBeUndefined();
  });

  it('nfl full-game moneyline: venues disagreeing on a tie give different; a venue without rules text gives unverified', async () => {
    const h = await harness();
    const g: GameSpec = { league: 'nfl', away: 'kc', home: 'buf', start: Date.parse('2026-11-22T18:00:00Z'), total: 47.5 };
    await h.feed([
      ...venue1Records(g, NOW), // "A tie resolves No." -> loses
      ...venue2Records(g, NOW), // "resolves 50-50" -> half_payout
      ...venue3Records(g, NOW),
    ]);
    const { body } = await h.get('/v1/matching-markets/sports?include_rules=true');
    const ml = body.data[0].submarkets[0];
    expect(ml.key).toBe('moneyline|full|winner');
    expect(ml.settlement_equivalence).toBe('different');
    const tie = ml.rule_comparisons.find((r: any) => r.rule === 'tie');
    expect(tie.comparison).toBe('different');
    expect(tie.source_values.find((v: any) => v.provider === 'venue_1').value).toBe('loses');
    expect(tie.source_values.find((v: any) => v.provider === 'venue_2').value).toBe('half_payout');

    const h2 = await harness();
    await h2.feed([...venue1Records(g, NOW, { rules: '' }), ...venue3Records(g, NOW)]);
    const r2 = await h2.get('/v1/matching-markets/sports?include_rules=true');
    const ml2 = r2.body.data[0].submarkets[0];
    expect(ml2.settlement_equivalence).toBe('unverified');
    const unknown = ml2.rule_comparisons[1].source_values.find((v: any) => v.provider === 'venue_1');
    expect(unknown.value).toBe('unknown');
    expect(unknown.evidence_url).toBeUndefined();
    expect(unknown.description).toMatch(/venue_1/);
  });

  it('a submarket needs two venues; include_submarkets=false keeps only full-game moneyline events', async () => {
    const h = await harness();
    // venue_1 and venue_2 list only the total of this game between them... venue_2 and venue_3 the moneyline.
    const g: GameSpec = { league: 'nhl', away: 'nyr', home: 'bos', start: Date.parse('2026-11-22T00:00:00Z'), total: 5.5 };
    await h.feed([...venue1Records(g, NOW).filter((r) => r.native_id.includes('TOTAL')), ...venue3Records(g, NOW)]);
    const narrow = await h.get('/v1/matching-markets/sports');
    expect(narrow.body.data).toEqual([]);
    expect(narrow.body.pagination.total).toBe(0);
    const wide = await h.get('/v1/matching-markets/sports?include_submarkets=true');
    expect(wide.body.data).toHaveLength(1);
    expect(wide.body.data[0].submarkets.map((s: any) => s.key)).toEqual(['total|full|total|5.5']);
  });

  it('a late Eastern game keeps its Eastern date although its UTC date (and venue_2 slug) is the next day', async () => {
    const h = await harness();
    const g: GameSpec = { league: 'nba', away: 'gsw', home: 'lac', start: Date.parse('2026-11-22T03:30:00Z'), total: 230.5 }; // 22:30 ET Nov 21
    await h.feed([...venue1Records(g, NOW), ...venue2Records(g, NOW)]);
    const { body } = await h.get('/v1/matching-markets/sports?scheduled_date=2026-11-21');
    expect(body.data.map((e: any) => e.event_id)).toEqual(['nba-gsw-lac-2026-11-21']);
    expect(body.data[0].scheduled_date).toBe('2026-11-21');
    expect(venue2Slug(g)).toBe('nba-gsw-lac-2026-11-22');
    const next = await h.get('/v1/matching-markets/sports?scheduled_date=2026-11-22');
    expect(next.body.data).toEqual([]);
    // The slug sent as event_id is a venue identifier: 400 naming source_id.
    const bad = await h.get('/v1/matching-markets/sports/lookup?event_id=nba-gsw-lac-2026-11-22');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/source_id/);
    const ok = await h.get('/v1/matching-markets/sports/lookup?source_id=venue_2:nba-gsw-lac-2026-11-22');
    expect(ok.body.lookups['venue_2:nba-gsw-lac-2026-11-22'].event_ids).toEqual(['nba-gsw-lac-2026-11-21']);
  });

  it('splits an mlb doubleheader by start time into two events, soonest first', async () => {
    const h = await harness(Date.parse('2026-07-04T12:00:00Z'));
    const g1: GameSpec = { league: 'mlb', away: 'nyy', home: 'bos', start: Date.parse('2026-07-04T17:05:00Z'), dh: 1, total: 8.5 };
    const g2: GameSpec = { ...g1, start: Date.parse('2026-07-04T22:40:00Z'), dh: 2 };
    const at = Date.parse('2026-07-04T12:00:00Z');
    await h.feed([...venue1Records(g1, at), ...venue1Records(g2, at), ...venue2Records(g1, at), ...venue2Records(g2, at)]);
    const { body } = await h.get('/v1/matching-markets/sports?league=mlb&participant=NYY');
    expect(body.data.map((e: any) => [e.event_id, e.scheduled_start])).toEqual([
      ['mlb-nyy-bos-2026-07-04', '2026-07-04T17:05:00.000Z'],
      ['mlb-nyy-bos-g2-2026-07-04', '2026-07-04T22:40:00.000Z'],
    ]);
    // Each game's venue_2 market landed in its own game.
    const slugs = body.data.map((e: any) => e.submarkets[0].source_markets.find((s: any) => s.provider === 'venue_2').market_slug);
    expect(slugs).toEqual(['mlb-nyy-bos-2026-07-04', 'mlb-nyy-bos-2026-07-04-2']);
  });

  it('a postponed game keeps its event_id and takes the new scheduled_date', async () => {
    const h = await harness();
    const g: GameSpec = { league: 'nba', away: 'den', home: 'mil', start: Date.parse('2026-11-22T01:00:00Z'), total: 225.5 };
    await h.feed([...venue1Records(g, NOW, {}, 'c1'), ...venue2Records(g, NOW, { idBase: 9_100_000 }, 'c1')]);
    const moved = { ...g, start: g.start + 24 * H };
    // Same venue ids republished with the new start (venue_1 tickers keep the original date).
    const later = NOW + 60_000;
    h.setNow(later);
    const v1 = venue1Records(g, later, {}, 'c2').map((r) => {
      if (r.record_type !== 'event') return r;
      const p = JSON.parse(r.payload);
      return { ...r, payload: JSON.stringify({ ...p, strike_date: new Date(moved.start).toISOString() }) };
    });
    await h.feed([...v1, ...venue2Records(moved, later, { idBase: 9_100_000 }, 'c2')]);
    const { body } = await h.get('/v1/matching-markets/sports');
    expect(body.data.map((e: any) => [e.event_id, e.scheduled_date])).toEqual([['nba-den-mil-2026-11-21', '2026-11-22']]);
  });

  it('a venue_2 50-50 cancellation leaves the default list at once and stays under include_settled; nfl stays until its date passes', async () => {
    const h = await harness();
    const g: GameSpec = { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-24T00:00:00Z') }; // future-dated
    await h.feed([...venue1Records(g, NOW), ...venue2Records(g, NOW, { idBase: 9_200_000 })]);
    expect((await h.get('/v1/matching-markets/sports')).body.data).toHaveLength(1);
    await h.feed([...venue2Records(g, NOW + 1000, { idBase: 9_200_000, closed: true, resolved: true, prices: ['0.5', '0.5'] })]);
    const def = await h.get('/v1/matching-markets/sports');
    expect(def.body.data).toEqual([]);
    const all = await h.get('/v1/matching-markets/sports?include_settled=true');
    expect(all.body.data.map((e: any) => e.event_id)).toEqual(['nhl-tor-mtl-2026-11-23']);
    const lk = await h.get('/v1/matching-markets/sports/lookup?event_id=nhl-tor-mtl-2026-11-23');
    expect(lk.body.lookups['nhl-tor-mtl-2026-11-23'].event_ids).toEqual([]);

    const n = await harness();
    const nfl: GameSpec = { league: 'nfl', away: 'dal', home: 'phi', start: Date.parse('2026-11-23T18:00:00Z') };
    await n.feed([...venue1Records(nfl, NOW), ...venue2Records(nfl, NOW, { idBase: 9_300_000 })]);
    await n.feed([...venue2Records(nfl, NOW + 1000, { idBase: 9_300_000, closed: true, resolved: true, prices: ['0.5', '0.5'] })]);
    expect((await n.get('/v1/matching-markets/sports')).body.data.map((e: any) => e.event_id)).toEqual(['nfl-dal-phi-2026-11-23']);
    // After the date plus the one-day grace, it is archived.
    n.setNow(Date.parse('2026-11-25T05:00:01Z'));
    await n.proc.publish();
    expect((await n.get('/v1/matching-markets/sports')).body.data).toEqual([]);
    expect((await n.get('/v1/matching-markets/sports?include_settled=true')).body.data).toHaveLength(1);
    // 30 days later it is removed from every request.
    n.setNow(Date.parse('2026-12-26T05:00:01Z'));
    await n.proc.publish();
    expect((await n.get('/v1/matching-markets/sports?include_settled=true')).body.data).toEqual([]);
  });

  it('player props: matched with a roster, removed on a roster gap without touching game lines; policy rules', async () => {
    const g: GameSpec = { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-22T00:30:00Z'), total: 221.5 };
    const props = {
      v1: [{ player: 'LeBron James', stat: 'points', threshold: 25, series: 'PTS' }],
      v2: [{ player: 'LeBron James', stat: 'points', line: 24.5 }],
    };
    const book = (withBos: boolean): RosterBook => {
      const rosters = new Map<string, Roster>([['nba:lal', { league: 'nba', team: 'lal', readAt: NOW, players: [{ athleteId: '123456', name: 'LeBron James' }] }]]);
      if (withBos) rosters.set('nba:bos', { league: 'nba', team: 'bos', readAt: NOW, players: [{ athleteId: '222', name: 'Jayson Tatum' }] });
      return { source: 'sds', staleAfterMs: 86_400_000, rosters };
    };
    const h = await harness();
    h.proc.rosters(rosterRecords(book(true)));
    await h.feed([...venue1Records(g, NOW, { props: props.v1 }), ...venue2Records(g, NOW, { props: props.v2 })]);
    const same = await h.get('/v1/matching-markets/sports?include_submarkets=true&player_prop_match=same_prop');
    const prop = same.body.data[0].submarkets.find((s: any) => s.market_type === 'player_prop');
    expect(prop).toMatchObject({ key: 'player_prop|full|sds_nba_123456:points|24.5', line: 24.5, subject: { type: 'player', key: 'sds_nba_123456' } });
    expect(prop.rule_comparisons).toHaveLength(9);
    expect(prop.outcomes.map((o: any) => o.key)).toEqual(['over', 'under']);
    // strict needs a fully equivalent profile; the venues' texts agree here.
    const strict = await h.get('/v1/matching-markets/sports?include_submarkets=true');
    const strictProp = strict.body.data[0].submarkets.find((s: any) => s.market_type === 'player_prop');
    expect(strictProp === undefined || strictProp.settlement_equivalence === 'equivalent').toBe(true);
    // The prop's own identifier finds its game (which has another matched submarket).
    const v1prop = prop.source_markets.find((s: any) => s.provider === 'venue_1').market_id;
    const lk = await h.get(`/v1/matching-markets/sports/lookup?source_id=venue_1:${v1prop}`);
    expect(lk.body.lookups[`venue_1:${v1prop}`].event_ids).toEqual(['nba-lal-bos-2026-11-21']);

    const gap = await harness();
    gap.proc.rosters(rosterRecords(book(false)));
    await gap.feed([...venue1Records(g, NOW, { props: props.v1 }), ...venue2Records(g, NOW, { props: props.v2 })]);
    const r = await gap.get('/v1/matching-markets/sports?include_submarkets=true&player_prop_match=same_prop');
    expect(r.body.data[0].submarkets.map((s: any) => s.market_type)).toEqual(['moneyline', 'total']);
  });

  it('filters compose, soonest start first, pagination.total, cursors bound to the filter set but not include_rules', async () => {
    const h = await harness();
    const games: GameSpec[] = [
      { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-22T00:30:00Z') },
      { league: 'nba', away: 'nyk', home: 'mia', start: Date.parse('2026-11-22T00:00:00Z') },
      { league: 'nhl', away: 'bos', home: 'tor', start: Date.parse('2026-11-22T00:10:00Z') },
      { league: 'nba', away: 'den', home: 'phx', start: Date.parse('2026-11-22T03:00:00Z') },
    ];
    await h.feed(games.flatMap((g) => [...venue1Records(g, NOW), ...venue2Records(g, NOW)]));
    const all = await h.get('/v1/matching-markets/sports');
    expect(all.body.data.map((e: any) => e.event_id)).toEqual([
      'nba-nyk-mia-2026-11-21',
      'nhl-bos-tor-2026-11-21',
      'nba-lal-bos-2026-11-21',
      'nba-den-phx-2026-11-21',
    ]);
    const bos = await h.get('/v1/matching-markets/sports?participant=bos');
    expect(bos.body.pagination.total).toBe(2);
    const nbaBos = await h.get('/v1/matching-markets/sports?participant=BOS&league=NBA');
    expect(nbaBos.body.data.map((e: any) => e.event_id)).toEqual(['nba-lal-bos-2026-11-21']);

    const p1 = await h.get('/v1/matching-markets/sports?league=nba&limit=2');
    expect(p1.body.pagination).toMatchObject({ limit: 2, total: 3, has_more: true });
    const c = encodeURIComponent(p1.body.pagination.next_cursor);
    const p2 = await h.get(`/v1/matching-markets/sports?league=nba&limit=2&cursor=${c}&include_rules=true`);
    expect(p2.status).toBe(200);
    expect(p2.body.data.map((e: any) => e.event_id)).toEqual(['nba-den-phx-2026-11-21']);
    expect(p2.body.pagination).toMatchObject({ has_more: false, total: 3 });
    expect(p2.body.pagination.next_cursor).toBeUndefined();
    const wrong = await h.get(`/v1/matching-markets/sports?league=nhl&limit=2&cursor=${c}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('invalid_cursor');
    const forged = await h.get(`/v1/matching-markets/sports?cursor=abc.def`);
    expect(forged.body.code).toBe('invalid_cursor');
  });

  it('rejects bad values with 400', async () => {
    const h = await harness();
    await h.feed(allVenues(lalBos, NOW));
    const cases: [string, string][] = [
      ['participant=bos,lal', 'participant'],
      ['player_prop_match=same_prop', 'player_prop_match'],
      ['include_submarkets=false&player_prop_match=strict', 'player_prop_match'],
      ['scheduled_date=2026-02-30', 'scheduled_date'],
      ['league=mls', 'league'],
      ['limit=101', 'limit'],
      ['include_rules=yes', 'include_rules'],
      ['event_id=nba-lal-bos-2026-11-21', 'event_id'],
    ];
    for (const [q, param] of cases) {
      const r = await h.get(`/v1/matching-markets/sports?${q}`);
      expect(r.status, q).toBe(400);
      expect(JSON.stringify(r.body), q).toContain(param);
    }
    // A past date in the default population matches nothing.
    const past = await h.get('/v1/matching-markets/sports?scheduled_date=2026-11-20');
    expect(past.body.data).toEqual([]);
  });
});

describe('GET /v1/matching-markets/sports/lookup', () => {
  it('finds events by canonical id and by every source_id form, keyed as sent, each event once', async () => {
    const h = await harness();
    await h.feed(allVenues(lalBos, NOW));
    const list = await h.get('/v1/matching-markets/sports?include_submarkets=true');
    const ml = list.body.data[0].submarkets[0];
    const v1 = ml.source_markets.find((s: any) => s.provider === 'venue_1');
    const v2 = ml.source_markets.find((s: any) => s.provider === 'venue_2');
    const v3 = ml.source_markets.find((s: any) => s.provider === 'venue_3');
    const v4 = ml.source_markets.find((s: any) => s.provider === 'venue_4');
    const ids = [
      `source_id=${encodeURIComponent(` VENUE_1 : ${v1.market_id.toLowerCase()} `)}`,
      `source_id=venue_1:${v1.event_id}`,
      `source_id=venue_2:${v2.market_id}`,
      `source_id=venue_2:${v2.market_slug}`,
      `source_id=venue_2:${v2.outcomes[0].outcome_id}`,
      `source_id=venue_2:0x${(Number(v2.market_id)).toString(16).padStart(64, '0')}`,
      `source_id=venue_3:${v3.outcomes[1].outcome_id}`,
      `source_id=venue_4:${v4.market_id}`,
      `source_id=venue_4:${v4.event_id}`,
      'event_id=NBA-LAL-BOS-2026-11-21',
      'source_id=venue_2:999',
    ];
    const r = await h.get(`/v1/matching-markets/sports/lookup?${ids.join('&')}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].submarkets.length).toBe(3); // include_submarkets defaults to true here
    const keys = Object.keys(r.body.lookups);
    expect(keys).toHaveLength(ids.length);
    for (const k of keys) expect(r.body.lookups[k].event_ids).toEqual(k === 'venue_2:999' ? [] : ['nba-lal-bos-2026-11-21']);
    expect(r.body.lookups[` VENUE_1 : ${v1.market_id.toLowerCase()} `]).toBeDefined();
    expect(r.body.pagination).toBeUndefined();
    const narrow = await h.get('/v1/matching-markets/sports/lookup?event_id=nba-lal-bos-2026-11-21&include_submarkets=false');
    expect(narrow.body.data[0].submarkets.map((s: any) => s.key)).toEqual(['moneyline|full|winner']);
  });

  it('lists every problem in errors[]', async () => {
    const h = await harness();
    await h.feed(allVenues(lalBos, NOW));
    const q = [
      'source_id=12345',
      'source_id=venue_10:1',
      'source_id=venue_2:1,venue_2:2',
      'source_id=venue_1:yes',
      'source_id=venue_4:outcomeTwo',
      'source_id=venue_7:2',
      'event_id=venue_1:KXNBAGAME-26NOV21LALBOS',
      'event_id=KXNBAGAME-26NOV21LALBOS',
    ].join('&');
    const r = await h.get(`/v1/matching-markets/sports/lookup?${q}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_parameter');
    expect(r.body.errors).toHaveLength(8);
    expect(r.body.message).toBe(r.body.errors.find((e: any) => e.param === 'event_id' || e.param === 'source_id').message);
    for (const e of r.body.errors) expect(e.message).toContain(JSON.stringify(e.value));
    // Which ids name no market on their own is each venue's own rule (its adapter).
    const said = (v: string): string => r.body.errors.find((e: any) => e.value === v)?.message ?? '';
    expect(said('venue_1:yes')).toMatch(/is a side name/);
    expect(said('venue_4:outcomeTwo')).toMatch(/is a side name/);
    expect(said('venue_7:2')).toMatch(/venue_7 outcome ids are small market-scoped integers/);
    const none = await h.get('/v1/matching-markets/sports/lookup');
    expect(none.status).toBe(400);
    const many = await h.get(`/v1/matching-markets/sports/lookup?${Array.from({ length: 101 }, (_, i) => `source_id=venue_2:${i}`).join('&')}`);
    expect(many.status).toBe(400);
    expect(many.body.message).toMatch(/100/);
    const hundred = await h.get(`/v1/matching-markets/sports/lookup?${Array.from({ length: 100 }, (_, i) => `source_id=venue_2:${i}`).join('&')}`);
    expect(hundred.status).toBe(200);
    const listParam = await h.get('/v1/matching-markets/sports/lookup?event_id=nba-lal-bos-2026-11-21&limit=5');
    expect(listParam.status).toBe(400);
    const pol = await h.get('/v1/matching-markets/sports/lookup?event_id=nba-lal-bos-2026-11-21&include_submarkets=false&player_prop_match=same_prop');
    expect(pol.status).toBe(400);
  });

  it('"at most 100 unique identifiers across event_id and source_id": counted across both, repeats counted once; none at all is missing_parameter', async () => {
    const h = await harness();
    await h.feed(allVenues(lalBos, NOW));
    const ev = (n: number) => Array.from({ length: n }, (_, i) => `event_id=nba-aa${i}-bb-2026-11-21`);
    const src = (n: number) => Array.from({ length: n }, (_, i) => `source_id=venue_2:${i}`);
    const across = await h.get(`/v1/matching-markets/sports/lookup?${[...ev(60), ...src(41)].join('&')}`);
    expect(across.status).toBe(400);
    expect(across.body).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/100/) });
    const atLimit = await h.get(`/v1/matching-markets/sports/lookup?${[...ev(60), ...src(40)].join('&')}`);
    expect(atLimit.status).toBe(200);
    // The same identifier sent again is not another one; it is reported once, as sent.
    const repeated = await h.get(`/v1/matching-markets/sports/lookup?${[...ev(60), ...src(40), 'source_id=venue_2:0', 'event_id=nba-aa0-bb-2026-11-21'].join('&')}`);
    expect(repeated.status).toBe(200);
    expect(Object.keys(repeated.body.lookups)).toHaveLength(100);
    const none = await h.get('/v1/matching-markets/sports/lookup?include_settled=true');
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'missing_parameter', status_code: 400 });
    expect(['event_id', 'source_id']).toContain(none.body.param);
  });
});
