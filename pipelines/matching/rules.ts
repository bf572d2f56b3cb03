// Settlement rules: the spec's "Rule matrix" and its verdict rules. In: the rule values each
// canonicalizer read from its venue's rule text, plus the line's league, segment and line. Out: the
// rule rows (`rule_comparisons`) and `settlement_equivalence` of a submarket. Pure.
//
// The meaning notes are applied here, before comparing, because they follow from the game itself
// rather than from any venue's wording: "only the nfl can end a full game level", "`push` is
// `not_applicable` for moneylines and for every half-point line", and "`overtime` is
// `not_applicable` for an nhl puck line of more than one goal".
import type { League } from './teams.ts';
import {
  GAME_LINE_RULES,
  PROP_RULES,
  type CanonicalMarket,
  type Comparison,
  type MarketType,
  type RuleComparison,
  type RuleSourceValue,
  type RuleValue,
  type Segment,
} from './types.ts';

const LABELS: Record<string, string> = {
  tie: 'Tie (game ends level)',
  overtime: 'Overtime',
  push: 'Push (result lands on the line)',
  non_participation: 'Player does not participate',
  stat_definition: 'Statistic definition',
  threshold: 'Threshold',
  stat_corrections: 'Stat corrections',
  postponement: 'Postponement',
  cancellation: 'Cancellation',
  interruption: 'Interruption',
  resolution_source: 'Resolution source',
};

export const unknownValue = (why: string): RuleValue => ({ value: 'unknown', description: why });

export function isHalfPoint(line: number): boolean {
  return Math.abs(Math.abs(line % 1) - 0.5) < 1e-9;
}

interface LineShape {
  league: League;
  marketType: MarketType;
  segment: Segment;
  line?: number;
}

/** The game-line value a rule must take regardless of what the venue wrote, or undefined. */
export function forcedGameLineValue(rule: string, m: LineShape): RuleValue | undefined {
  const isFull = m.segment === 'full';
  if (rule === 'tie') {
    if (m.marketType !== 'moneyline')
      return { value: 'not_possible', description: 'A spread or total settles on the score against its line; a level game is not a separate result.' };
    if (isFull && m.league !== 'nfl')
      return { value: 'not_possible', description: `A full ${m.league} game is played on until there is a winner.` };
    return undefined;
  }
  if (rule === 'push') {
    if (m.marketType === 'moneyline') return { value: 'not_applicable', description: 'A moneyline has no line to land on.' };
    if (m.line !== undefined && isHalfPoint(m.line))
      return { value: 'not_applicable', description: `A half-point line (${Math.abs(m.line)}) cannot be landed on.` };
    return undefined;
  }
  if (rule === 'overtime') {
    if (m.league === 'nhl' && m.marketType === 'spread' && m.line !== undefined && Math.abs(m.line) > 1)
      return { value: 'not_applicable', description: 'An nhl game tied after regulation is decided by exactly one goal, so overtime cannot decide a puck line beyond one goal.' };
    if (m.segment === 'half:1' || m.segment === 'quarter:1' || m.segment === 'quarter:2' || m.segment === 'quarter:3')
      return { value: 'not_applicable', description: 'This segment ends before any overtime.' };
    return undefined;
  }
  return undefined;
}

/** The rule values of one venue market with the meaning notes applied. */
export function effectiveRules(m: CanonicalMarket): Record<string, RuleValue> {
  const out: Record<string, RuleValue> = {};
  const names = m.marketType === 'player_prop' ? PROP_RULES : GAME_LINE_RULES;
  for (const rule of names) {
    const forced = m.marketType === 'player_prop' ? undefined : forcedGameLineValue(rule, m);
    out[rule] = forced ?? m.rules[rule] ?? unknownValue(`The ${m.provider} rules text does not state this rule.`);
  }
  return out;
}

/** One row: different beats unverified beats equivalent ("Unknown never means equivalent"). */
export function compareRow(values: RuleSourceValue[]): Comparison {
  const known = values.filter((v) => v.value !== 'unknown');
  if (new Set(known.map((v) => v.value)).size > 1) return 'different';
  if (known.length < values.length) return 'unverified';
  return 'equivalent';
}

/** Verdict rules for `settlement_equivalence`. */
export function verdict(rows: RuleComparison[]): Comparison {
  if (rows.some((r) => r.comparison === 'different')) return 'different';
  if (rows.some((r) => r.comparison === 'unverified')) return 'unverified';
  return 'equivalent';
}

export function ruleMatrix(markets: CanonicalMarket[]): { rows: RuleComparison[]; verdict: Comparison } {
  if (markets.length === 0) return { rows: [], verdict: 'unverified' };
  const names = markets[0].marketType === 'player_prop' ? PROP_RULES : GAME_LINE_RULES;
  const eff = markets.map((m) => effectiveRules(m));
  const rows: RuleComparison[] = names.map((rule) => {
    const source_values: RuleSourceValue[] = markets.map((m, i) => {
      const v = eff[i][rule];
      const sv: RuleSourceValue = { provider: m.provider, market_id: m.source.market_id, value: v.value, description: v.description };
      // "evidence_url (present only for known values)".
      if (v.value !== 'unknown' && v.evidence_url) sv.evidence_url = v.evidence_url;
      return sv;
    });
    return { rule, label: LABELS[rule] ?? rule, comparison: compareRow(source_values), source_values };
  });
  return { rows, verdict: verdict(rows) };
}
