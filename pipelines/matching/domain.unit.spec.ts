// Pure domain rules: the rules-text reader (phrases only count in sentences about the rule), the
// rule matrix meaning notes and verdicts, the lifecycle machine through XState's pure transition,
// and Eastern-date handling.
import { describe, expect, it } from 'vitest';
import { readGameLineRules } from './rulestext.ts';
import { compareRow, forcedGameLineValue, verdict } from './rules.ts';
import { advance, graceEnds, persist, restore, startLifecycle, ARCHIVE_RETENTION_MS } from './lifecycle.ts';
import { matchMarkets, type EventRecord } from './match.ts';
import { canonicalize } from './canonicalize.ts';
import { easternDate, easternLocalToUtc, isPlaceholderStart, isRealDate } from './time.ts';
import { admitProp, type RosterBook } from './props.ts';

describe('rules text', () => {
  const NFL_ML = { league: 'nfl', marketType: 'moneyline', segment: 'full' } as const;
  it('reads a tie only from a sentence about ties', () => {
    const push = readGameLineRules(
      'This market includes overtime. If the result lands exactly on the line, the market resolves 50-50 and pushes are refunded. If it is canceled with no make-up game, it resolves 50-50. Rules: https://venue2.example/rules/sports',
      'venue_2',
      NFL_ML,
    );
    expect(push.tie.value).toBe('unknown');
    expect(push.push.value).toBe('void');
    expect(push.overtime).toMatchObject({ value: 'included', evidence_url: 'https://venue2.example/rules/sports' });
    const tie = readGameLineRules('Regulation time only. If the game ends in a tie, this market resolves 50-50.', 'venue_2', NFL_ML);
    expect(tie.tie.value).toBe('half_payout');
    expect(tie.overtime.value).toBe('excluded');
    expect(readGameLineRules('Ties settle at 50/50.', 'venue_3', NFL_ML).tie.value).toBe('half_payout');
    expect(readGameLineRules('If tied, the market resolves to No.', 'venue_9', NFL_ML).tie.value).toBe('loses');
    const none = readGameLineRules('', 'venue_8', NFL_ML);
    expect(none.tie).toEqual({ value: 'unknown', description: 'venue_8 publishes no rules text for this market.' });
  });
});

describe('rule matrix', () => {
  it('applies the meaning notes', () => {
    expect(forcedGameLineValue('tie', { league: 'nba', marketType: 'moneyline', segment: 'full' })?.value).toBe('not_possible');
    expect(forcedGameLineValue('tie', { league: 'nfl', marketType: 'moneyline', segment: 'full' })).toBeUndefined();
    expect(forcedGameLineValue('push', { league: 'nfl', marketType: 'spread', segment: 'full', line: -3.5 })?.value).toBe('not_applicable');
    expect(forcedGameLineValue('push', { league: 'nfl', marketType: 'spread', segment: 'full', line: -3 })).toBeUndefined();
    expect(forcedGameLineValue('overtime', { league: 'nhl', marketType: 'spread', segment: 'full', line: -1.5 })?.value).toBe('not_applicable');
    expect(forcedGameLineValue('overtime', { league: 'nhl', marketType: 'spread', segment: 'full', line: -1 })).toBeUndefined();
  });
  it('verdict: different beats unknown; unknown never means equivalent', () => {
    const v = (value: string) => ({ provider: 'venue_1' as const, market_id: 'm', value, description: '' });
    expect(compareRow([v('void'), v('loses'), v('unknown')])).toBe('different');
    expect(compareRow([v('void'), v('unknown')])).toBe('unverified');
    expect(compareRow([v('void'), v('void')])).toBe('equivalent');
    const row = (comparison: 'equivalent' | 'different' | 'unverified') => ({ rule: 'r', label: 'r', comparison, source_values: [] });
    expect(verdict([row('unverified'), row('different')])).toBe('different');
    expect(verdict([row('unverified'), row('equivalent')])).toBe('unverified');
    expect(verdict([row('equivalent')])).toBe('equivalent');
  });
});

function record(over: Partial<EventRecord['signals']> = {}, start = Date.parse('2026-11-22T00:30:00Z'), league = 'nba', sources = 2): EventRecord {
  const sm = { key: 'moneyline|full|winner', source_markets: Array.from({ length: sources }, (_, i) => ({ provider: `venue_${i + 1}`, market_id: `m${i}` })) };
  return {
    event: { event_id: `${league}-lal-bos-2026-11-21`, league, scheduled_date: '2026-11-21', scheduled_start: new Date(start).toISOString(), submarkets: sources ? [sm] : [] } as never,
    strictPropKeys: [],
    lookupIds: [],
    marketIds: [],
    startMs: start,
    signals: { settledProviders: [], cancelled: false, openMarkets: 2, ...over },
  };
}

describe('lifecycle (XState pure transition)', () => {
  const t0 = Date.parse('2026-11-21T15:00:00Z');
  it('archives after the Eastern one-day grace and removes after 30 days; survives persist/restore', () => {
    let s = startLifecycle({ now: t0, record: record() });
    expect(s.state).toBe('current');
    expect(s.actions).toContain('publish');
    const grace = graceEnds('2026-11-21');
    expect(new Date(grace).toISOString()).toBe('2026-11-23T05:00:00.000Z');
    s = advance(restore(persist(s.snapshot)), { type: 'TICK', now: grace - 1 });
    expect(s.state).toBe('current');
    s = advance(s.snapshot, { type: 'TICK', now: grace });
    expect(s.state).toBe('archived');
    s = advance(restore(persist(s.snapshot)), { type: 'TICK', now: grace + ARCHIVE_RETENTION_MS });
    expect(s.state).toBe('removed');
    expect(s.actions).toContain('remove');
  });
  it('a cancellation signal archives at once', () => {
    const s = startLifecycle({ now: t0, record: record() });
    expect(advance(s.snapshot, { type: 'OBSERVE', now: t0, record: record({ cancelled: true }) }).state).toBe('archived');
    expect(advance(s.snapshot, { type: 'OBSERVE', now: t0, record: record({ cancelled: false }) }).state).toBe('current');
  });
  it('venue_2 settling the full-game moneyline 50-50 signals a cancellation, except in the nfl (a tie); a void on another venue does not', () => {
    const v2 = (league: string, prices: string[], smt = 'moneyline') =>
      canonicalize(
        'venue_2',
        {
          id: '9', conditionId: '0x9', slug: `${league}-lal-bos-2026-11-22`, question: 'Lakers vs. Celtics', outcomes: JSON.stringify(['Lakers', 'Celtics']), clobTokenIds: JSON.stringify(['9a', '9b']),
          outcomePrices: JSON.stringify(prices), umaResolutionStatus: 'resolved', sportsMarketType: smt, gameStartTime: '2026-11-22 00:30:00+00', active: false, closed: true,
          events: [{ id: '71009', slug: `${league}-lal-bos-2026-11-22`, title: 'Lakers vs. Celtics' }],
        },
        t0,
      ).markets;
    const signal = (ms: ReturnType<typeof v2>) => matchMarkets(ms).map((e) => e.signals.cancelled);
    expect(signal(v2('nba', ['0.5', '0.5']))).toEqual([true]);
    expect(signal(v2('nba', ['1', '0']))).toEqual([false]);
    const tie = canonicalize(
      'venue_2',
      {
        id: '8', conditionId: '0x8', slug: 'nfl-lar-sf-2026-11-22', question: 'Rams vs. 49ers', outcomes: JSON.stringify(['Rams', '49ers']), clobTokenIds: JSON.stringify(['8a', '8b']),
        outcomePrices: JSON.stringify(['0.5', '0.5']), umaResolutionStatus: 'resolved', sportsMarketType: 'moneyline', gameStartTime: '2026-11-22 00:30:00+00', active: false, closed: true,
        events: [{ id: '71008', slug: 'nfl-lar-sf-2026-11-22', title: 'Rams vs. 49ers' }],
      },
      t0,
    ).markets;
    expect(tie).toHaveLength(1);
    expect(signal(tie)).toEqual([false]);
    const [m] = v2('nba', ['0.5', '0.5']);
    expect(signal([{ ...m, provider: 'venue_3', source: { ...m.source, provider: 'venue_3' } }])).toEqual([false]);
  });
  it('a started game keeps its fullest mapping; delisting before the start does not archive', () => {
    const start = Date.parse('2026-11-22T00:30:00Z');
    let s = startLifecycle({ now: t0, record: record({}, start, 'nba', 3) });
    s = advance(s.snapshot, { type: 'OBSERVE', now: start + 60_000, record: record({}, start, 'nba', 2) });
    expect(s.snapshot.context.body?.submarkets[0].source_markets).toHaveLength(3);
    expect(advance(startLifecycle({ now: t0, record: record() }).snapshot, { type: 'GONE', now: t0 }).state).toBe('current');
    expect(advance(s.snapshot, { type: 'GONE', now: start + 3600_000 }).state).toBe('archived');
  });
});

describe('time and props', () => {
  it('Eastern dates, placeholders, real dates', () => {
    expect(easternDate(Date.parse('2026-11-22T03:30:00Z'))).toBe('2026-11-21');
    expect(new Date(easternLocalToUtc('2026-07-04', '13:05')!).toISOString()).toBe('2026-07-04T17:05:00.000Z');
    expect(isPlaceholderStart(Date.parse('2026-11-22T04:59:00Z'))).toBe(true); // 23:59 EST
    expect(isRealDate('2026-02-29')).toBe(false);
    expect(isRealDate('2028-02-29')).toBe(true);
  });
  it('admits only half-point lines of admitted stats with one athlete on fresh rosters', () => {
    const now = Date.parse('2026-11-21T15:00:00Z');
    const book: RosterBook = {
      source: 'sds',
      staleAfterMs: 86_400_000,
      rosters: new Map([
        ['nfl:kc', { league: 'nfl', team: 'kc', readAt: now, players: [{ athleteId: '1', name: 'Patrick Mahomes' }] }],
        ['nfl:buf', { league: 'nfl', team: 'buf', readAt: now, players: [{ athleteId: '2', name: 'Josh Allen' }] }],
      ]),
    };
    const p = { league: 'nfl' as const, away: 'kc', home: 'buf', player: 'Patrick Mahomes', stat: 'passing_yards', line: 249.5, start: now + 3600_000, date: '2026-11-21', observedAt: now };
    expect(admitProp(p, book)).toEqual({ stat: 'passing_yards', playerKey: 'sds_nfl_1', playerName: 'Patrick Mahomes' });
    expect(admitProp({ ...p, line: 250 }, book)).toBeUndefined();
    expect(admitProp({ ...p, stat: 'season_passing_yards' }, book)).toBeUndefined();
    expect(admitProp({ ...p, observedAt: p.start + 49 * 3600_000 }, book)).toBeUndefined();
    expect(admitProp({ ...p, observedAt: now + 2 * 86_400_000 }, book)).toBeUndefined(); // stale rosters
    expect(admitProp({ ...p, home: 'mia' }, book)).toBeUndefined(); // missing roster
    expect(admitProp(p, undefined)).toBeUndefined();
  });
});
