// Measuring the rules reader on the corpus of real rules texts (test/fixtures/rules): each row
// places a text on a venue market with the hand-decided value of every rule the text states for
// it. In: the corpus and a part (development or evaluation). Out: per rule, stated values read
// right, read wrong and reported unknown, silent texts reported known, and the verdicts of groups
// of rows placed on the same market. Pure apart from reading the fixture files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readRule, type ReadRule } from './rulesreader.ts';
import { compareRow, forcedGameLineValue, verdict } from './rules.ts';
import type { League } from './teams.ts';
import type { Comparison, MarketType, RuleComparison, Segment } from './types.ts';

export interface CorpusText {
  id: string;
  kind: string;
  source: string;
  text: string;
}
export interface CorpusRow {
  id: string;
  text: string;
  league: League;
  marketType: MarketType;
  segment: Segment;
  line?: number;
  /** rule -> hand-decided value; a rule of the market type not listed is silent. */
  values: Record<string, { value: string; reason: string }>;
}
export interface SplitPart {
  seed: number;
  development: string[];
  evaluation: string[];
}
export interface Corpus {
  texts: Map<string, CorpusText>;
  rows: CorpusRow[];
  /** The first batch's split, and the blind batch's own split (drawn once when that batch was added). */
  split: SplitPart & {
    blind?: SplitPart & { extra_development?: string[]; evaluation_now_development?: boolean };
  } & {
    /** A later blind batch: every text is evaluation, valued before the reader read it. */
    [name in LaterBlindBatch]?: { evaluation: string[]; evaluation_now_development?: boolean };
  };
}

/** The blind batches after the first, in the order they were added (`split.json`'s `blind2` ...): a new
 * batch is one more name here. */
export const LATER_BLIND_BATCHES = ['blind2', 'blind3', 'blind4', 'blind5', 'blind6', 'blind7', 'blind8', 'blind9', 'blind10', 'blind11', 'blind12', 'blind13', 'blind14', 'blind15', 'blind16', 'blind17', 'blind18', 'blind19', 'blind20', 'blind21', 'blind22', 'blind23', 'blind24', 'blind25', 'blind26', 'blind27', 'blind28', 'blind29', 'blind30', 'blind31', 'blind32', 'blind33', 'blind34', 'blind35', 'blind36', 'blind37', 'blind38', 'blind39', 'blind40', 'blind41', 'blind42', 'blind43', 'blind44', 'blind45', 'blind46'] as const;
export type LaterBlindBatch = (typeof LATER_BLIND_BATCHES)[number];

/** The development and evaluation parts of the first batch, and of the blind batch (whose extra
 * development texts were added after its split, valued before the reader read them). The blind
 * batch's evaluation part is `blind-former-evaluation` once it was declared development (its misses
 * were seen after its one blind measurement); `blind2-evaluation` is the later blind batch, and
 * `blind2-former-evaluation` the same texts once they were declared development in turn; every later
 * batch likewise (`blind3-*` ... `blind24-*`). */
export type Part =
  | 'development'
  | 'evaluation'
  | 'blind-development'
  | 'blind-extra-development'
  | 'blind-evaluation'
  | 'blind-former-evaluation'
  | `${LaterBlindBatch}-evaluation`
  | `${LaterBlindBatch}-former-evaluation`;
export const PARTS: readonly Part[] = [
  'development',
  'evaluation',
  'blind-development',
  'blind-extra-development',
  'blind-evaluation',
  'blind-former-evaluation',
  ...LATER_BLIND_BATCHES.flatMap((name) => [`${name}-evaluation`, `${name}-former-evaluation`] as const),
];

/** The text ids of one part (empty when the corpus has no blind batch). */
export function partTexts(c: Corpus, part: Part): string[] {
  if (part === 'development' || part === 'evaluation') return c.split[part];
  const blind = c.split.blind;
  if (!blind) return [];
  for (const name of LATER_BLIND_BATCHES)
    if (part === `${name}-evaluation` || part === `${name}-former-evaluation`) {
      const b = c.split[name];
      return b && (part === `${name}-former-evaluation`) === (b.evaluation_now_development === true) ? b.evaluation : [];
    }
  if (part === 'blind-extra-development') return blind.extra_development ?? [];
  if (part === 'blind-development') return blind.development;
  // The blind evaluation part is reported under one name only: what it is now.
  const former = blind.evaluation_now_development === true;
  if (part === 'blind-former-evaluation') return former ? blind.evaluation : [];
  return former ? [] : blind.evaluation;
}

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/rules/', import.meta.url));

export function loadCorpus(dir = FIXTURES): Corpus {
  const t = JSON.parse(readFileSync(`${dir}/texts.json`, 'utf8')) as { texts: CorpusText[] };
  const p = JSON.parse(readFileSync(`${dir}/placements.json`, 'utf8')) as { rows: [string, string, League, MarketType, Segment, number | null, Record<string, string>][] };
  const split = JSON.parse(readFileSync(`${dir}/split.json`, 'utf8')) as Corpus['split'];
  const rows = p.rows.map(([id, text, league, marketType, segment, line, vals]) => {
    const values: CorpusRow['values'] = {};
    for (const [rule, s] of Object.entries(vals)) {
      const [value, ...reason] = s.split('|');
      values[rule] = { value: value.trim(), reason: reason.join('|').trim() };
    }
    return { id, text, league, marketType, segment, ...(line === null ? {} : { line }), values };
  });
  return { texts: new Map(t.texts.map((x) => [x.id, x])), rows, split };
}

/** Seeded shuffle (mulberry32): the split is drawn once and recorded in split.json. */
export function drawSplit(textIds: string[], seed: number): { development: string[]; evaluation: string[] } {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ids = [...textIds];
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  const half = Math.ceil(ids.length / 2);
  return { development: ids.slice(0, half).sort(), evaluation: ids.slice(half).sort() };
}

const GAME_RULES: ReadRule[] = ['tie', 'overtime', 'push'];
const PROP_RULES_READ: ReadRule[] = ['non_participation', 'overtime', 'cancellation'];

/** The rules a row is measured on: those of its market type the meaning notes leave open. */
export function rulesOf(r: CorpusRow): ReadRule[] {
  if (r.marketType === 'player_prop') return PROP_RULES_READ;
  return GAME_RULES.filter((rule) => !forcedGameLineValue(rule, r));
}

export interface RuleCounts {
  stated: number;
  right: number;
  wrong: number;
  unknown: number;
  silent: number;
  silentKnown: number;
}
export interface Miss {
  row: string;
  rule: string;
  expected: string;
  got: string;
  evidence?: string;
}
export interface EvalResult {
  rows: number;
  texts: number;
  byRule: Record<string, RuleCounts>;
  overall: RuleCounts;
  verdicts: { groups: number; right: number; oppositeEquivalent: number };
  misses: Miss[];
}

const empty = (): RuleCounts => ({ stated: 0, right: 0, wrong: 0, unknown: 0, silent: 0, silentKnown: 0 });

/** One row's value per rule: what the reader reads, and what the hand decided ('unknown' when silent). */
function valuesOf(c: Corpus, r: CorpusRow): { read: Record<string, string>; hand: Record<string, string>; evidence: Record<string, string | undefined> } {
  const text = c.texts.get(r.text)!.text;
  const read: Record<string, string> = {};
  const hand: Record<string, string> = {};
  const evidence: Record<string, string | undefined> = {};
  for (const rule of rulesOf(r)) {
    const got = readRule(text, rule, r);
    read[rule] = got.value;
    evidence[rule] = got.evidence;
    hand[rule] = r.values[rule]?.value ?? 'unknown';
  }
  return { read, hand, evidence };
}

function verdictOf(values: Record<string, string>[], rules: string[]): { verdict: Comparison; rows: RuleComparison[] } {
  const rows = rules.map((rule) => {
    const source_values = values.map((v, i) => ({ provider: 'venue_1' as const, market_id: `row_${i}`, value: v[rule] ?? 'unknown', description: '' }));
    return { rule, label: rule, comparison: compareRow(source_values), source_values };
  });
  return { verdict: verdict(rows), rows };
}

/** Rows on the same market shape (league, type, segment; the line only as far as the meaning notes read it). */
const groupKey = (r: CorpusRow) =>
  [r.league, r.marketType, r.segment, r.line === undefined ? '' : Math.abs(Math.abs(r.line) % 1) === 0.5 ? 'half' : 'whole', r.league === 'nhl' && r.marketType === 'spread' && Math.abs(r.line ?? 0) > 1 ? 'big' : ''].join('|');

export function evaluate(c: Corpus, part: Part): EvalResult {
  const ids = new Set(partTexts(c, part));
  const rows = c.rows.filter((r) => ids.has(r.text));
  const byRule: Record<string, RuleCounts> = {};
  const overall = empty();
  const misses: Miss[] = [];
  const vals = new Map(rows.map((r) => [r.id, valuesOf(c, r)]));
  for (const r of rows) {
    const { read, hand, evidence } = vals.get(r.id)!;
    for (const rule of rulesOf(r)) {
      const k = (byRule[rule] ??= empty());
      const exp = hand[rule];
      const got = read[rule];
      for (const n of [k, overall]) {
        if (exp === 'unknown') {
          n.silent++;
          if (got !== 'unknown') n.silentKnown++;
        } else {
          n.stated++;
          if (got === exp) n.right++;
          else if (got === 'unknown') n.unknown++;
          else n.wrong++;
        }
      }
      if (got !== exp) misses.push({ row: r.id, rule, expected: exp, got, evidence: evidence[rule] });
    }
  }
  // Verdict groups: every pair of rows (of different texts) on the same market shape.
  const groups = new Map<string, CorpusRow[]>();
  for (const r of rows) groups.set(groupKey(r), [...(groups.get(groupKey(r)) ?? []), r]);
  const verdicts = { groups: 0, right: 0, oppositeEquivalent: 0 };
  for (const g of groups.values()) {
    for (let i = 0; i < g.length; i++) {
      for (let j = i + 1; j < g.length; j++) {
        if (g[i].text === g[j].text) continue;
        const rules = rulesOf(g[i]);
        const a = vals.get(g[i].id)!;
        const b = vals.get(g[j].id)!;
        const want = verdictOf([a.hand, b.hand], rules);
        const got = verdictOf([a.read, b.read], rules);
        verdicts.groups++;
        if (want.verdict === got.verdict) verdicts.right++;
        const opposite = rules.some((rule) => a.hand[rule] !== 'unknown' && b.hand[rule] !== 'unknown' && a.hand[rule] !== b.hand[rule]);
        if (opposite && got.verdict === 'equivalent') verdicts.oppositeEquivalent++;
      }
    }
  }
  return { rows: rows.length, texts: ids.size, byRule, overall, verdicts, misses };
}
