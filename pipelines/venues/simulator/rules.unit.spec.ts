// The simulator's rules texts read back as the values its world chose: every game line of every
// venue in a hard world, read by the matching rules reader for that line's market (the texts carry
// asides about other periods, leagues and teasers, and negations, so this holds only when the
// reader keeps to the clauses whose scope holds the market).
import { describe, expect, it } from 'vitest';
import { readGameLineRules, readPropRules } from '../../matching/rulestext.ts';
import { forcedGameLineValue } from '../../matching/rules.ts';
import type { MarketType } from '../../matching/types.ts';
import { lineRulesText, propRulesText } from './rules.ts';
import { buildWorld, lineRules, propRules } from './world.ts';

describe('simulator rules texts', () => {
  // Each reads every line of a generated world (thousands of texts): seconds on a loaded machine.
  it('read back as the world values for every venue and line kind', () => {
    const world = buildWorld({ seed: 7, anchorDay: '2026-11-21', preset: 'hard', days: 3 });
    let read = 0;
    const kinds = new Set<string>();
    for (const g of world.games) {
      for (const l of g.lines) {
        if (l.kind === 'player_prop') continue;
        for (const v of l.venues) {
          const truth = lineRules(v, g, l);
          const market = { league: g.league, marketType: l.kind as MarketType, segment: l.segment };
          const got = readGameLineRules(lineRulesText(v, g, l, truth, 'Lead sentence.'), v, market);
          for (const rule of ['tie', 'overtime', 'push'] as const) {
            if (forcedGameLineValue(rule, { ...market, ...(l.line === undefined ? {} : { line: l.line }) })) continue;
            expect({ v, kind: l.kind, segment: l.segment, rule, value: got[rule].value }).toEqual({ v, kind: l.kind, segment: l.segment, rule, value: truth[rule] });
            read++;
            kinds.add(`${v}|${rule}|${truth[rule]}`);
          }
        }
      }
    }
    expect(read).toBeGreaterThan(1000);
    // Every venue's overtime wording, both tie and push wordings where the world uses them.
    for (const k of ['venue_4|overtime|excluded', 'venue_7|overtime|excluded', 'venue_1|tie|loses', 'venue_2|tie|half_payout', 'venue_1|push|loses', 'venue_4|push|void']) expect(kinds).toContain(k);
  }, 60_000);
  it("read a player prop's overtime as the world value: a venue whose game-line sentence speaks of the final score prints one for props", () => {
    const world = buildWorld({ seed: 7, anchorDay: '2026-11-21', preset: 'hard', days: 3 });
    const venues = new Set<string>();
    for (const g of world.games) {
      for (const l of g.lines) {
        if (l.kind !== 'player_prop') continue;
        for (const v of l.venues) {
          const got = readPropRules(propRulesText(v, g, l, 'Lead sentence.'), v, undefined, { league: g.league, marketType: 'player_prop', segment: l.segment });
          expect({ v, value: got.overtime.value }).toEqual({ v, value: propRules(v).overtime });
          venues.add(v);
        }
      }
    }
    expect([...venues].sort()).toEqual(['venue_1', 'venue_2', 'venue_7']);
  }, 60_000);
});
