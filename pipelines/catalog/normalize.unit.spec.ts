import { describe, expect, it } from 'vitest';
import { normalizeListing } from './normalize.ts';
import { stageRaw } from './stage.ts';
import type { RawRecord } from '../topics.ts';

describe('normalizeListing', () => {
  it('venue_1: open markets listed; parlays and closed markets not', () => {
    expect(normalizeListing('venue_1', 'market', { ticker: 'KXNBAGAME-26NOV21LALBOS-LAL', title: 'Los Angeles L at Boston Winner?', status: 'active', category: 'Sports' })).toEqual([
      { nativeId: 'KXNBAGAME-26NOV21LALBOS-LAL', title: 'Los Angeles L at Boston Winner?', category: 'sports', listed: true },
    ]);
    const parlay = { ticker: 'KXMVENBASINGLEGAME-S2026A1-8F2', title: 'yes LAL, yes BOS', status: 'active', category: 'Sports', mve_collection_ticker: 'KXMVENBASINGLEGAME', mve_selected_legs: [{ event_ticker: 'E', market_ticker: 'M', side: 'yes' }] };
    expect(normalizeListing('venue_1', 'market', parlay)[0].listed).toBe(false);
    expect(normalizeListing('venue_1', 'market', { ticker: 'KXBTCD-1', title: 't', status: 'closed', category: 'Crypto' })[0]).toMatchObject({ listed: false, category: 'crypto' });
  });
  it('venue_2: active and not closed; tags give the category', () => {
    const rows = normalizeListing('venue_2', 'market', { id: '9000123', question: 'Lakers vs. Celtics', active: true, closed: false, tags: [{ slug: 'sports' }, { slug: 'nba' }] });
    expect(rows).toEqual([{ nativeId: '9000123', title: 'Lakers vs. Celtics', category: 'sports', listed: true }]);
    expect(normalizeListing('venue_2', 'market', { id: '1', question: 'q', active: true, closed: true, tags: [] })[0].listed).toBe(false);
  });
  it('venue_4: named by the two outcome labels (and the game for lines, the question for binaries)', () => {
    expect(normalizeListing('venue_4', 'market', { marketHash: '0xab', status: 'ACTIVE', type: 'MONEYLINE', outcomeOneName: 'Los Angeles Lakers', outcomeTwoName: 'Boston Celtics', teamOneName: 'Los Angeles Lakers', teamTwoName: 'Boston Celtics', sportLabel: 'Basketball' })).toEqual([
      { nativeId: '0xab', title: 'Los Angeles Lakers vs Boston Celtics', category: 'sports', listed: true },
    ]);
    expect(normalizeListing('venue_4', 'market', { marketHash: '0xac', status: 'ACTIVE', type: 'OVER_UNDER', outcomeOneName: 'Over 47.5', outcomeTwoName: 'Under 47.5', teamOneName: 'Buffalo Bills', teamTwoName: 'Kansas City Chiefs', sportLabel: 'Football' })[0].title).toBe('Buffalo Bills vs Kansas City Chiefs: Over 47.5 / Under 47.5');
    expect(normalizeListing('venue_4', 'market', { marketHash: '0xad', status: 'INACTIVE', type: 'BINARY', outcomeOneName: 'Yes: Above 180', outcomeTwoName: 'No: Above 180', teamOneName: 'Will NVDA close above 180?', teamTwoName: '', sportLabel: null })[0]).toEqual({
      nativeId: '0xad', title: 'Will NVDA close above 180?', category: 'unknown', listed: false,
    });
  });
  it('venue_5: a question gives one row per outcome market', () => {
    const q = { question_id: 104211, title: 'Boston Celtics vs Los Angeles Lakers', topic: 'NBA', state: 'open', outcomes: [
      { outcome_id: 48120033, label: 'Los Angeles Lakers', state: 'open' },
      { outcome_id: 48120034, label: 'Boston Celtics', state: 'closed' },
    ] };
    expect(normalizeListing('venue_5', 'question', q)).toEqual([
      { nativeId: '48120033', title: 'Boston Celtics vs Los Angeles Lakers: Los Angeles Lakers', category: 'sports', listed: true },
      { nativeId: '48120034', title: 'Boston Celtics vs Los Angeles Lakers: Boston Celtics', category: 'sports', listed: false },
    ]);
  });
  it('venue_7: an event gives its markets, ids event:market', () => {
    const e = { event_id: 30000412, name: 'Lakers at Celtics', sport: 'basketball', state: 'open', markets: [{ id: '30000412:1', name: 'Match Odds', state: 'open' }, { id: '30000412:2', name: 'Handicap', state: 'suspended' }] };
    expect(normalizeListing('venue_7', 'event', e).map((r) => [r.nativeId, r.title, r.listed])).toEqual([
      ['30000412:1', 'Lakers at Celtics: Match Odds', true],
      ['30000412:2', 'Lakers at Celtics: Handicap', false],
    ]);
  });
  it('venue_8 by slug, venue_9 by parent:child pair', () => {
    expect(normalizeListing('venue_8', 'market', { id: 'a8', slug: 'will-x', question: 'Will X?', isResolved: false, groupSlugs: [] })).toEqual([{ nativeId: 'will-x', title: 'Will X?', category: 'unknown', listed: true }]);
    const p = { id: '0xP', title: 'LAL vs BOS', tags: ['NBA'], children: [{ id: '0xC', pair: '0xP:0xC', title: 'Los Angeles Lakers', status: 'trading' }, { id: '0xD', title: 'Boston Celtics', status: 'paused' }] };
    expect(normalizeListing('venue_9', 'parent', p).map((r) => [r.nativeId, r.title, r.listed])).toEqual([
      ['0xP:0xC', 'LAL vs BOS: Los Angeles Lakers', true],
      ['0xP:0xD', 'LAL vs BOS: Boston Celtics', false],
    ]);
  });
  it('venue_3 and venue_6', () => {
    expect(normalizeListing('venue_3', 'market', { id: 1000201, title: 'Los Angeles Lakers @ Boston Celtics', category: 'Sports', status: 'open' })[0]).toMatchObject({ nativeId: '1000201', listed: true, category: 'sports' });
    expect(normalizeListing('venue_6', 'market', { id: '01JD', title: 'LAL @ BOS', question: 'Lakers (LAL) vs Celtics (BOS): winner', status: 'open', category: 'sports' })[0]).toMatchObject({ title: 'Lakers (LAL) vs Celtics (BOS): winner', listed: true });
  });
  it('garbage gives nothing', () => {
    expect(normalizeListing('venue_3', 'market', null)).toEqual([]);
    expect(normalizeListing('venue_3', 'market', { title: 'no id' })).toEqual([]);
  });
});

describe('stageRaw', () => {
  const rec = (o: Partial<RawRecord>): RawRecord => ({ venue: 'venue_1', record_type: 'market', native_id: 'X', read_started_at: 1000, payload: '{}', read_id: 'listing:venue_1:01ABC', source_url: null, ...o });
  it('stages listing records, records finished crawls, ignores other feeds', () => {
    const out = stageRaw([
      rec({ native_id: 'KX-1', payload: JSON.stringify({ ticker: 'KX-1', title: 'A', status: 'active', category: 'Politics' }) }),
      rec({ native_id: 'KX-2', payload: '{"ticker":' }),
      rec({ native_id: 'KX-3', read_id: 'sports:venue_1:01ABC', payload: JSON.stringify({ ticker: 'KX-3', status: 'active' }) }),
      rec({ record_type: 'crawl_complete', native_id: 'listing:venue_1:01ABC', read_started_at: 900, payload: JSON.stringify({ feed: 'listing', records: 2, completed_at: 2000 }) }),
    ]);
    expect(out.rows).toEqual([
      { provider: 'venue_1', crawl_id: 'listing:venue_1:01ABC', record_id: 'market:KX-1', native_id: 'KX-1', title: 'A', category: 'politics', listed: 1 },
      // A record that cannot be read still counts towards completeness, never listed.
      { provider: 'venue_1', crawl_id: 'listing:venue_1:01ABC', record_id: 'market:KX-2', native_id: '#record:market:KX-2', title: '', category: 'unknown', listed: 0 },
    ]);
    expect(out.crawls).toEqual([{ provider: 'venue_1', crawl_id: 'listing:venue_1:01ABC', started_at: 900, completed_at: 2000, row_count: 2, delta: 0, emitted: 0, vanished: [] }]);
  });

  it("keeps a delta crawl's marker: what it emitted and what vanished, started at its own read", () => {
    const marker = { feed: 'listing', records: 5, started_at: 100, completed_at: 2000, delta: true, emitted: 1, vanished: ['market:KX-9', 7] };
    const out = stageRaw([rec({ record_type: 'crawl_complete', native_id: 'listing:venue_1:01ABC', read_started_at: 900, payload: JSON.stringify(marker) })]);
    // started_at is the crawl's own start (observed_at), not the marker's start of the last full crawl.
    expect(out.crawls).toEqual([{ provider: 'venue_1', crawl_id: 'listing:venue_1:01ABC', started_at: 900, completed_at: 2000, row_count: 5, delta: 1, emitted: 1, vanished: ['market:KX-9'] }]);
  });
});
