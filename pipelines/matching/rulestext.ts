// Reading settlement rules from a venue's rules text. In: the free text a venue publishes on a
// market, the market it is published on (league, market type, segment) and the venue's token.
// Out: the game-line rule values (tie, overtime, push) and the prop rule values, each known value
// with a description quoting the clause it came from and the venue's rules page as evidence;
// `unknown` with a reason when no clause that applies to the market says, or when clauses that
// apply contradict each other. The reading itself (sentences, clauses, scope, negation, the
// lexicon) is rulesreader.ts.
import { parseText, readRule, type MarketScope, type ParsedText, type ReadRule, type Reading } from './rulesreader.ts';
import type { PropRule, RuleValue } from './types.ts';

export type { MarketScope } from './rulesreader.ts';

const URL_RE = /https?:\/\/[^\s"')]+/i;

export function evidenceUrl(text: string | null | undefined, fallback?: string): string | undefined {
  if (text) {
    const m = URL_RE.exec(text);
    if (m) return m[0].replace(/[.,;]+$/, '');
  }
  return fallback;
}

const RULE_WORDS: Record<string, string> = {
  tie: 'a tie',
  overtime: 'overtime',
  push: 'a push',
  non_participation: 'a player who does not take part',
  cancellation: 'a cancelled game',
  postponement: 'a postponed game',
  interruption: 'an interrupted game',
  stat_definition: 'the statistic',
  stat_corrections: 'stat corrections',
};

/** A reading as the spec's rule value: known values quote their clause, unknown ones say why. */
export function toRuleValue(r: Reading, rule: string, venue: string, text: string | null | undefined, url?: string): RuleValue {
  if (r.value === 'unknown') {
    if (r.why === 'contradiction') {
      const said = (r.others ?? []).map((o) => `"${o.evidence}" (${o.value})`).join(' and ');
      return { value: 'unknown', description: `The ${venue} rules text contradicts itself on ${RULE_WORDS[rule] ?? rule} for this market: ${said}.` };
    }
    if (r.why === 'hedged') {
      const said = r.others?.[0]?.evidence ?? '';
      return { value: 'unknown', description: `The ${venue} rules text only qualifies ${RULE_WORDS[rule] ?? rule} for this market ("${said}"), it does not state it.` };
    }
    return { value: 'unknown', description: `The ${venue} rules text does not say how ${RULE_WORDS[rule] ?? rule} is settled for this market.` };
  }
  const v: RuleValue = { value: r.value, description: `${venue}: "${r.evidence}"` };
  const ev = evidenceUrl(text, url);
  if (ev) v.evidence_url = ev;
  return v;
}

/**
 * What one rule reads as in a venue's text for one kind of market. Texts repeat across the markets
 * of a venue (one template per kind, names filled in) and across polls of one market, and reading a
 * text's sentences and clauses is the canonicalizer's costliest step, so a text is parsed once and
 * each (rule, venue, evidence url, market scope) of it is read once; the values are never changed by
 * their users. Keyed by the text itself (the record's own string, not a copy), bounded by the number
 * of texts: cleared when full. A crawl's first reads are all new (a text names its own teams and
 * lines): at scale 100, 3,353 texts gave 11,491 (rule, scope) readings in the first 25 s, each of
 * which parsed its text again before the parse was kept per text (the reader was 27% of the main
 * thread then, bench/crawl-latency.md, 2026-11-23).
 */
const MAX_TEXTS = 40_000;
const readCache = new Map<string, { parsed: ParsedText; values: Map<string, RuleValue> }>();

function read(text: string | null | undefined, rule: ReadRule, venue: string, market: MarketScope, url?: string): RuleValue {
  if (!text || !text.trim()) return { value: 'unknown', description: `${venue} publishes no rules text for this market.` };
  let entry = readCache.get(text);
  if (!entry) {
    if (readCache.size >= MAX_TEXTS) readCache.clear();
    entry = { parsed: parseText(text), values: new Map() };
    readCache.set(text, entry);
  }
  const k = `${rule}\u0000${venue}\u0000${url ?? ''}\u0000${market.league}|${market.marketType}|${market.segment}`;
  const hit = entry.values.get(k);
  if (hit) return hit;
  const v = toRuleValue(readRule(entry.parsed, rule, market), rule, venue, text, url);
  entry.values.set(k, v);
  return v;
}

/** Tie, overtime and push as the venue's text states them for this market. */
export function readGameLineRules(
  text: string | null | undefined,
  venue: string,
  market: MarketScope,
  url?: string,
): Record<'tie' | 'overtime' | 'push', RuleValue> {
  return {
    tie: read(text, 'tie', venue, market, url),
    overtime: read(text, 'overtime', venue, market, url),
    push: read(text, 'push', venue, market, url),
  };
}

const PROP_READ: ReadRule[] = ['non_participation', 'overtime', 'stat_definition', 'stat_corrections', 'postponement', 'cancellation', 'interruption'];

/** The nine prop rows; `threshold` and `resolution_source` come from the record itself. */
export function readPropRules(
  text: string | null | undefined,
  venue: string,
  threshold: { line: number; printed: string } | undefined,
  market: MarketScope,
  url?: string,
): Record<PropRule, RuleValue> {
  const out = {} as Record<PropRule, RuleValue>;
  for (const rule of PROP_READ) out[rule as PropRule] = read(text, rule, venue, market, url);
  out.threshold = threshold
    ? { value: 'over_half_point', description: `${venue} lists ${threshold.printed}, read as over ${threshold.line}.`, ...(url || evidenceUrl(text) ? { evidence_url: evidenceUrl(text, url)! } : {}) }
    : { value: 'unknown', description: `${venue} does not state the threshold.` };
  const src = evidenceUrl(text, url);
  out.resolution_source = src
    ? { value: 'official_league_data', description: `${venue} names its resolution source.`, evidence_url: src }
    : { value: 'unknown', description: `${venue} names no resolution source.` };
  return out;
}
