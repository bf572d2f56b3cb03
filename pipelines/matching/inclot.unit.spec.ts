// Rules text changes matching only where the spec keys a submarket by it (`:incl_ot` on second
// halves, fourth quarters and team totals), and only from a clause that applies to the market: a
// second-half spread of venue_4 whose text says "full game include overtime; second-half wagers do
// not" is regulation, the same text on the full-game spread leaves the key alone, and an aside
// about fourth quarters or a teaser never moves a second-half line.
import { describe, expect, it } from 'vitest';
import { canonicalizeVenue4 } from '../venues/adapters/venue_4/canonical.ts';

const rec = (type: string, rules: string) => ({
  leagueLabel: 'NBA',
  type,
  teamOneName: 'Los Angeles Lakers',
  teamTwoName: 'Boston Celtics',
  gameTime: Math.floor(Date.parse('2026-11-21T00:30:00Z') / 1000),
  status: 'ACTIVE',
  rules,
  marketHash: `0x${type.length}abc`,
  sportXeventId: 'L123',
  outcomeOneName: 'Los Angeles Lakers -2.5',
  outcomeTwoName: 'Boston Celtics +2.5',
  line: -2.5,
});

describe(':incl_ot from the clause that applies', () => {
  it('a second-half line reads the second-half clause, not the full-game one', () => {
    const text = 'All wagers on the full game include overtime; second-half wagers do not include overtime.';
    const [h2] = canonicalizeVenue4(rec('SECOND_HALF_SPREAD', text), 0);
    expect(h2.segment).toBe('half:2');
    expect(h2.inclOt).toBe(false);
    expect(h2.rules.overtime).toMatchObject({ value: 'excluded', description: 'venue_4: "second-half wagers do not include overtime"' });
    const [full] = canonicalizeVenue4(rec('SPREAD', text), 0);
    expect(full.rules.overtime?.value).toBe('included');
  });
  it('asides about other periods and teasers leave a second-half line as its own clause says', () => {
    const [h2] = canonicalizeVenue4(rec('SECOND_HALF_SPREAD', 'Wagers on the second half include overtime. Bets on the 4th quarter do NOT include scores in overtime. A two-team teaser resulting in a tie is a loss.'), 0);
    expect(h2.inclOt).toBe(true);
    const [silent] = canonicalizeVenue4(rec('SECOND_HALF_SPREAD', 'Bets on the 4th quarter do NOT include scores in overtime.'), 0);
    expect(silent.rules.overtime?.value).toBe('unknown');
    expect(silent.inclOt).toBe(false);
  });
});
