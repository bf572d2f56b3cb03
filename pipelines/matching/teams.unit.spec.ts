import { describe, expect, it } from 'vitest';
import { LEAGUE_LIST, TEAMS, resolveTeam } from './teams.ts';

describe('team registry', () => {
  it('has every team of the five leagues with unique keys per league', () => {
    expect(TEAMS.nba).toHaveLength(30);
    expect(TEAMS.nfl).toHaveLength(32);
    expect(TEAMS.mlb).toHaveLength(30);
    expect(TEAMS.nhl).toHaveLength(32);
    expect(TEAMS.wnba.length).toBeGreaterThanOrEqual(13);
    for (const l of LEAGUE_LIST) {
      const keys = TEAMS[l].map((t) => t.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const k of keys) expect(k).toMatch(/^[a-z]+$/);
      // every team resolves from its own name, nickname and every code
      for (const t of TEAMS[l]) {
        expect(resolveTeam(l, t.name)?.key).toBe(t.key);
        for (const c of t.codes) {
          const hit = resolveTeam(l, c);
          if (hit) expect(hit.key).toBe(t.key);
        }
      }
    }
  });

  it('resolves venue name forms and refuses ambiguous ones', () => {
    expect(resolveTeam('nba', 'GS')?.key).toBe('gsw');
    expect(resolveTeam('nba', 'golden-state-warriors')?.key).toBe('gsw');
    expect(resolveTeam('nba', 'LA Lakers')?.key).toBe('lal');
    expect(resolveTeam('nba', 'Los Angeles')).toBeUndefined();
    expect(resolveTeam('nfl', 'New York')).toBeUndefined();
    expect(resolveTeam('nba', 'New York')?.key).toBe('nyk');
    expect(resolveTeam('mlb', 'St Louis Cardinals')?.key).toBe('stl');
    expect(resolveTeam('nhl', 'Montréal')?.key).toBe('mtl');
    expect(resolveTeam('nfl', 'Niners')?.key).toBe('sf');
  });
});
