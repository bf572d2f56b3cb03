/* eslint-disable @typescript-eslint/no-explicit-any -- reads the venues' native JSON records loosely */
// The `wide` preset prints the variety of variants.ts on its venues; `hard` prints none of it (its
// world, and the evaluation and benchmark figures measured on it, stay as they were).
import { describe, expect, it, vi } from 'vitest';
import { createClock } from './core.ts';
import { buildSimulatorApp } from './server.ts';
import { codedName, initialName, rosterName, thresholdQuestion } from './variants.ts';
import { TEAMS } from './teams.ts';

vi.setConfig({ testTimeout: 120_000 });

async function forms(scenario: 'hard' | 'wide') {
  const sim = await buildSimulatorApp({ scenario, clock: createClock(Date.parse('2026-12-05T17:00:00Z'), { frozen: true }) });
  const s = (v: string) => sim.ctx.store(v as never);
  const v4 = s('venue_4').list('markets').filter((m: any) => m.teamOneName);
  const v6 = s('venue_6').list('markets').filter((m: any) => m.kind === 'game_line');
  const v2 = s('venue_2').list('markets').filter((m: any) => m.sportsMarketType && !/^(moneyline|spreads|totals|team_totals|first_|second_)/.test(m.sportsMarketType));
  const v3 = s('venue_3').list('markets').filter((m: any) => m.sub_category);
  const roster = [...sim.ctx.world.rosters.values()].flat();
  const codes = new Set(Object.values(TEAMS).flat().map((t) => t.code));
  const out = {
    codeBeside: v4.filter((m: any) => / \(|^[A-Z.]{2,4} |\s[A-Z.]{2,4}$/.test(String(m.teamOneName))).length,
    altInParens: v6.filter((m: any) => [...String(m.question).matchAll(/\(([A-Z.]+)\)/g)].some((x) => !codes.has(x[1]))).length,
    thresholdWords: v2.filter((m: any) => /\d\+|at least|or more/.test(String(m.question))).length,
    initials: v2.filter((m: any) => /^[A-Z]\. /.test(String(m.question))).length,
    placeholders: v3.filter((m: any) => /T12:00:00Z$|^\d{4}-\d{2}-\d{2}$/.test(String(m.starts_at))).length,
    rosterForms: roster.filter((p) => /[\u0080-\uffff]| (?:Jr\.|II|III)$/.test(p.name)).length,
  };
  await sim.app.close();
  return out;
}

describe('wide preset', () => {
  it('prints every variant form on its venues; hard prints none', async () => {
    const wide = await forms('wide');
    for (const [k, n] of Object.entries(wide)) expect(n, k).toBeGreaterThan(0);
    const hard = await forms('hard');
    expect(hard).toEqual({ codeBeside: 0, altInParens: 0, thresholdWords: 0, initials: 0, placeholders: 0, rosterForms: 0 });
  });
  it('forms read as the venues print them', () => {
    const jax = TEAMS.nfl.find((t) => t.code === 'JAX')!;
    const printed = new Set(Array.from({ length: 40 }, (_, i) => codedName(jax, i)));
    expect([...printed].some((f) => /^J[A-Z]{2} Jaguars$/.test(f))).toBe(true);
    expect([...printed].some((f) => /^Jaguars J[A-Z]{2}$/.test(f))).toBe(true);
    expect([...printed].some((f) => /^Jacksonville Jaguars \(J[A-Z]{2}\)$/.test(f))).toBe(true);
    expect(initialName('Marvin Harrison Jr.')).toBe('M. Harrison');
    expect(rosterName('Luka Doncic', 1)).toBe('Luka Dončić');
    expect(thresholdQuestion('LeBron James', 'points', 24.5, 0)).toMatch(/25\+|at least 25|25 or more/);
  });
});
