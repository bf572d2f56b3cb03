// Listings the simulator did not print: team codes in every position with each league's alternate
// codes, the `N+` threshold family of player props, players printed as initial and surname (and
// with suffixes or accents), and placeholder start times. Every record below is written by hand in
// a venue's documented wire form (pipelines/venues/simulator/FORMATS.md); every expectation comes
// from the spec's identity rules, not from any simulator output.
import { describe, expect, it } from 'vitest';
import { canonicalizeVenue3 } from '../venues/adapters/venue_3/canonical.ts';
import { canonicalizeVenue4 } from '../venues/adapters/venue_4/canonical.ts';
import { canonicalize } from './canonicalize.ts';
import { matchMarkets, submarketKey } from './match.ts';
import { admitProp, readPropTitle, type RosterBook } from './props.ts';
import { resolveTeam, type League } from './teams.ts';
import type { CanonicalMarket } from './types.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');

describe('team codes: alternates in every position', () => {
  // Alternate codes leagues, reference sites and books print beside the common one (ESPN, the
  // leagues' own feeds, Pro-Football-Reference, Retrosheet).
  const ALTERNATES: [League, string, string, string][] = [
    ['nfl', 'jax', 'Jaguars', 'JAC'],
    ['nfl', 'bal', 'Ravens', 'BLT'],
    ['nfl', 'cle', 'Browns', 'CLV'],
    ['nfl', 'hou', 'Texans', 'HST'],
    ['nfl', 'ari', 'Cardinals', 'ARZ'],
    ['nfl', 'lar', 'Rams', 'LA'],
    ['nfl', 'was', 'Commanders', 'WSH'],
    ['nba', 'was', 'Wizards', 'WSH'],
    ['nba', 'phx', 'Suns', 'PHO'],
    ['nba', 'bkn', 'Nets', 'BRK'],
    ['nba', 'uta', 'Jazz', 'UTAH'],
    ['mlb', 'cws', 'White Sox', 'CHW'],
    ['mlb', 'nyy', 'Yankees', 'NYA'],
    ['mlb', 'chc', 'Cubs', 'CHN'],
    ['mlb', 'sd', 'Padres', 'SDP'],
    ['mlb', 'wsh', 'Nationals', 'WSN'],
    ['nhl', 'lak', 'Kings', 'LA'],
    ['nhl', 'njd', 'Devils', 'NJ'],
    ['nhl', 'tbl', 'Lightning', 'TB'],
    ['nhl', 'mtl', 'Canadiens', 'MON'],
    ['wnba', 'con', 'Sun', 'CONN'],
    ['wnba', 'lva', 'Aces', 'LV'],
  ];
  it.each(ALTERNATES)('%s %s: "%s" with %s in parentheses, before and after', (league, key, nick, code) => {
    for (const form of [`${nick} (${code})`, `${code} ${nick}`, `${nick} ${code}`, `${code} - ${nick}`, `${nick} [${code}]`]) expect(resolveTeam(league, form)?.key, form).toBe(key);
  });
  it('a code the registry does not list is read when it abbreviates the named team; another team\'s code refuses', () => {
    expect(resolveTeam('nfl', 'Giants (NY)')?.key).toBe('nyg');
    expect(resolveTeam('nfl', 'Jacksonville Jaguars (JAX)')?.key).toBe('jax');
    expect(resolveTeam('nba', 'Lakers (LAC)')).toBeUndefined();
    expect(resolveTeam('nfl', 'Giants (NYJ)')).toBeUndefined();
    expect(resolveTeam('mlb', 'Giants (NYG)')).toBeUndefined();
    expect(resolveTeam('nba', 'Kansas City')).toBeUndefined();
    // A lower-case word beside a name is no code.
    expect(resolveTeam('nba', 'Celtics ws')).toBeUndefined();
  });
  it('a game whose venues print different codes in different positions is one game', () => {
    const start = Date.parse('2026-11-23T18:00:00Z');
    const v3 = canonicalizeVenue3(
      { id: 'v3-1', sub_category: 'NFL', title: 'Jaguars (JAC) @ Titans (TEN)', starts_at: '2026-11-23T18:00:00Z', status: 'open', type: 'moneyline', outcomes: [{ token: 'a', name: 'Jaguars (JAC)' }, { token: 'b', name: 'Titans (TEN)' }] },
      NOW,
    );
    const v4 = canonicalizeVenue4(
      { marketHash: '0xabc', sportXeventId: 'L1', leagueLabel: 'NFL', type: 'MONEYLINE', teamOneName: 'JAX Jaguars', teamTwoName: 'TEN Titans', outcomeOneName: 'JAX Jaguars', outcomeTwoName: 'TEN Titans', gameTime: start / 1000, status: 'ACTIVE' },
      NOW,
    );
    expect(v3.map((m) => [m.away, m.home])).toEqual([['jax', 'ten']]);
    expect(v4.map((m) => [m.away, m.home])).toEqual([['jax', 'ten']]);
    const events = matchMarkets([...v3, ...v4]);
    expect(events.filter((e) => e.event.submarkets.length).map((e) => e.event.submarkets[0].source_markets.map((s) => s.provider))).toEqual([['venue_3', 'venue_4']]);
  });
});

const BOOK: RosterBook = {
  source: 'sds',
  staleAfterMs: 86_400_000,
  rosters: new Map([
    ['nba:lal', { league: 'nba', team: 'lal', readAt: NOW, players: [{ athleteId: '1', name: 'LeBron James' }, { athleteId: '3', name: 'Luka Dončić' }, { athleteId: '5', name: 'Jaxson Hayes' }] }],
    ['nba:bos', { league: 'nba', team: 'bos', readAt: NOW, players: [{ athleteId: '2', name: 'Jaylen Brown' }, { athleteId: '4', name: 'Jayson Tatum' }, { athleteId: '6', name: 'Jrue Holiday' }] }],
    ['nfl:ari', { league: 'nfl', team: 'ari', readAt: NOW, players: [{ athleteId: '7', name: 'Marvin Harrison Jr.' }, { athleteId: '8', name: 'Kyler Murray' }] }],
    ['nfl:sf', { league: 'nfl', team: 'sf', readAt: NOW, players: [{ athleteId: '9', name: 'Christian McCaffrey' }, { athleteId: '10', name: 'Kyle Juszczyk' }] }],
  ]),
};

describe('players: initials, suffixes, accents', () => {
  const base: { league: League; away: string; home: string; stat: string; line: number; start: number; date: string; observedAt: number } = { league: 'nba', away: 'lal', home: 'bos', stat: 'points', line: 24.5, start: NOW + 3600_000, date: '2026-11-21', observedAt: NOW };
  const who = (player: string, p: Partial<typeof base> = {}) => admitProp({ ...base, ...p, player }, BOOK)?.playerKey;
  it('an initial and surname resolve when exactly one player of the two rosters fits', () => {
    expect(who('L. James')).toBe('sds_nba_1');
    expect(who('L James')).toBe('sds_nba_1');
    expect(who('James, L.')).toBe('sds_nba_1');
    expect(who('J. Tatum')).toBe('sds_nba_4');
  });
  it('two players fitting an initial refuse; a wrong initial refuses', () => {
    // Jaxson Hayes (away) and Jalen Hayes (home) both fit "J. Hayes".
    const twoJ: RosterBook = { ...BOOK, rosters: new Map(BOOK.rosters).set('nba:bos', { league: 'nba', team: 'bos', readAt: NOW, players: [{ athleteId: '11', name: 'Jalen Hayes' }] }) };
    expect(admitProp({ ...base, player: 'J. Hayes' }, twoJ)).toBeUndefined();
    expect(who('K. James')).toBeUndefined();
  });
  it('suffixes and accents do not keep a player apart', () => {
    expect(who('Marvin Harrison', { league: 'nfl', away: 'ari', home: 'sf', stat: 'receiving_yards', line: 64.5 })).toBe('sds_nfl_7');
    expect(who('M. Harrison Jr.', { league: 'nfl', away: 'ari', home: 'sf', stat: 'receiving_yards', line: 64.5 })).toBe('sds_nfl_7');
    expect(who('Luka Doncic')).toBe('sds_nba_3');
    expect(who('L. Dončić')).toBe('sds_nba_3');
  });
});

describe('thresholds: N+, at least N, N or more are over N-0.5', () => {
  it('reads the threshold family from titles', () => {
    expect(readPropTitle('LeBron James: 25+ points')).toEqual({ player: 'LeBron James', stat: 'points', line: 24.5, printed: '25+' });
    expect(readPropTitle('LeBron James: Points O/U 24.5')).toMatchObject({ player: 'LeBron James', stat: 'Points', line: 24.5 });
    expect(readPropTitle('Will LeBron James score at least 25 points?')).toMatchObject({ player: 'LeBron James', stat: 'points', line: 24.5 });
    expect(readPropTitle('LeBron James: 25 or more points')).toMatchObject({ player: 'LeBron James', stat: 'points', line: 24.5 });
  });
  it("one venue's yes/no `N+` question joins the other venues' `over N-0.5` market", () => {
    const start = Date.parse('2026-11-22T00:30:00Z');
    const v2 = (id: string, question: string, outcomes: string[], line: number | null) =>
      canonicalize('venue_2',
        {
          id, conditionId: `0x${id}`, slug: `nba-lal-bos-2026-11-22-${id}`, question, outcomes: JSON.stringify(outcomes), clobTokenIds: JSON.stringify([`${id}a`, `${id}b`]),
          sportsMarketType: 'points', line, gameStartTime: '2026-11-22 00:30:00+00', active: true, closed: false,
          events: [{ id: '71001', slug: 'nba-lal-bos-2026-11-22', title: 'Lakers vs. Celtics' }],
        },
        NOW,
        BOOK,
      ).markets;
    const over = v2('1', 'LeBron James: Points O/U 24.5', ['Over', 'Under'], 24.5);
    const forms = [v2('2', 'LeBron James: 25+ Points', ['Yes', 'No'], null), v2('3', 'Will LeBron James score at least 25 points?', ['Yes', 'No'], null), v2('4', 'L. James: 25 or more points', ['Yes', 'No'], null)];
    const v1 = canonicalize('venue_1',
      { ticker: 'KXNBAPTS-26NOV21LALBOS-LALLJAMES23-25', event_ticker: 'KXNBAPTS-26NOV21LALBOS', title: 'LeBron James: 25+ points', status: 'active', custom_strike: { player: 'LeBron James', threshold: '25+' }, _event: { strike_date: new Date(start).toISOString() } },
      NOW,
      BOOK,
    ).markets;
    expect(over).toHaveLength(1);
    for (const f of [...forms, v1]) {
      expect(f).toHaveLength(1);
      expect(submarketKey(f[0])).toBe(submarketKey(over[0]));
      expect(f[0].source.outcomes.map((o) => o.canonical_outcome_key)).toEqual(['over', 'under']);
    }
  });
});

describe("venue_7's `N+` prop lines are over N-0.5", () => {
  const start = Date.parse('2026-11-22T00:30:00Z');
  const overUnder = () =>
    canonicalize('venue_2',
      {
        id: '1', conditionId: '0x1', slug: 'nba-lal-bos-2026-11-22-1', question: 'LeBron James: Points O/U 24.5', outcomes: JSON.stringify(['Over', 'Under']), clobTokenIds: JSON.stringify(['1a', '1b']),
        sportsMarketType: 'points', line: 24.5, gameStartTime: '2026-11-22 00:30:00+00', active: true, closed: false,
        events: [{ id: '71001', slug: 'nba-lal-bos-2026-11-22', title: 'Lakers vs. Celtics' }],
      },
      NOW,
      BOOK,
    ).markets;
  // One venue_7 event (FORMATS.md "venue_7") whose points market lists the given lines.
  const v7 = (lines: { line: unknown; selections: string[] }[], name = 'LeBron James Points') =>
    canonicalize('venue_7',
      {
        event_id: 30000001, name: 'Lakers at Celtics', sport: 'basketball', league: 'NBA', start: new Date(start).toISOString(), state: 'open',
        markets: [{ id: '30000001:101', event_id: 30000001, type_id: 101, name, lines: lines.map((l) => ({ line: l.line, favourite: false, selections: l.selections.map((n, k) => ({ id: k + 1, name: n })) })) }],
      },
      NOW,
      BOOK,
    ).markets;

  it.each([
    ['`N+` against Under', [{ line: 25, selections: ['LeBron James 25+ Points', 'LeBron James Under 25 Points'] }], undefined, '30000001:101:25'],
    ['`at least N`', [{ line: 25, selections: ['LeBron James at least 25 Points', 'LeBron James Under 25 Points'] }], undefined, '30000001:101:25'],
    ['`N or more` with no line value', [{ line: null, selections: ['LeBron James 25 or more Points', 'LeBron James Under 25 Points'] }], undefined, '30000001:101:25'],
    ['Yes/No with `N+` as its line value', [{ line: '25+', selections: ['Yes', 'No'] }], 'LeBron James: 25+ Points', '30000001:101:25+'],
    ['Yes/No with `N+` in the market name', [{ line: 25, selections: ['Yes', 'No'] }], 'LeBron James 25+ Points', '30000001:101:25'],
    ['under side first', [{ line: 25, selections: ['LeBron James Under 25 Points', 'LeBron James 25+ Points'] }], undefined, '30000001:101:25'],
  ])("%s joins the other venues' over 24.5", (_, lines, name, marketId) => {
    const [over] = overUnder();
    const got = v7(lines, name);
    expect(got).toHaveLength(1);
    expect(got[0].line).toBe(24.5);
    expect(got[0].source.market_id).toBe(marketId);
    expect(submarketKey(got[0])).toBe(submarketKey(over));
    const sides = got[0].source.outcomes.map((o) => [o.label, o.canonical_outcome_key]);
    const overLabel = lines[0].selections.find((n) => !/under|^no$/i.test(n));
    expect(sides.find(([, k]) => k === 'over')?.[0]).toBe(overLabel);
    expect(sides.map(([, k]) => k).sort()).toEqual(['over', 'under']);
  });
  it('an over line printed as a whole number is not `N+` (a whole-number threshold is not admitted); the usual over line is read as before', () => {
    const [over] = overUnder();
    const got = v7([
      { line: 24.5, selections: ['LeBron James Over 24.5 Points', 'LeBron James Under 24.5 Points'] },
      { line: 25, selections: ['LeBron James Over 25 Points', 'LeBron James Under 25 Points'] },
    ]);
    expect(got.map((m) => [m.source.market_id, m.line])).toEqual([['30000001:101:24.5', 24.5]]);
    expect(submarketKey(got[0])).toBe(submarketKey(over));
  });
  it('a Yes/No line with no threshold anywhere, or one side unread, gives nothing', () => {
    expect(v7([{ line: null, selections: ['Yes', 'No'] }])).toEqual([]);
    expect(v7([{ line: 25, selections: ['LeBron James 25+ Points', 'LeBron James 25+ Points'] }])).toEqual([]);
    expect(v7([{ line: 25, selections: ['LeBron James 25+ Points', 'Maybe'] }])).toEqual([]);
  });
});

describe('placeholder start times', () => {
  const v3 = (id: string, starts_at: string): CanonicalMarket[] =>
    canonicalizeVenue3({ id, sub_category: 'MLB', title: 'Yankees @ Red Sox', starts_at, status: 'open', type: 'moneyline', outcomes: [{ token: `${id}a`, name: 'Yankees' }, { token: `${id}b`, name: 'Red Sox' }] }, NOW);
  it('noon UTC, a date alone, and local midnight name the day, not the start', () => {
    for (const s of ['2026-11-21T12:00:00Z', '2026-11-21', '2026-11-21T00:00:00', '2026-11-21 TBD', '2026-11-21T00:00:00-08:00']) {
      const [m] = v3('x', s);
      expect([m?.scheduledDate, m?.scheduledStart], s).toEqual(['2026-11-21', null]);
    }
    expect(v3('x', '2026-11-21T23:05:00Z')[0].scheduledStart).toBe(Date.parse('2026-11-21T23:05:00Z'));
  });
  it('a placeholder start joins the real game of its day instead of making a doubleheader', () => {
    const exact = v3('a', '2026-11-21T23:05:00Z');
    const noon = canonicalizeVenue4(
      { marketHash: '0xdef', sportXeventId: 'L2', leagueLabel: 'MLB', type: 'MONEYLINE', teamOneName: 'New York Yankees', teamTwoName: 'Boston Red Sox', outcomeOneName: 'New York Yankees', outcomeTwoName: 'Boston Red Sox', gameTime: Date.parse('2026-11-21T12:00:00Z') / 1000, status: 'ACTIVE' },
      NOW,
    );
    const events = matchMarkets([...exact, ...noon]);
    expect(events).toHaveLength(1);
    expect(events[0].event.scheduled_start).toBe('2026-11-21T23:05:00.000Z');
    expect(events[0].event.submarkets[0].source_markets.map((s) => s.provider)).toEqual(['venue_3', 'venue_4']);
  });
});
