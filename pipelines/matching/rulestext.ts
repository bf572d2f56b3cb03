// Reading settlement rules from a venue's rules text. In: the free text a venue publishes on a
// market (and the venue's token for the "unknown" reason). Out: the game-line rule values (tie,
// overtime, push) and the prop rule values, each with a description quoting the venue's sentence
// and the venue's rules page as evidence; `unknown` with a reason when the text does not say.
// Only sentences a venue actually writes count ("anything else should read as unknown").
import type { PropRule, RuleValue } from './types.ts';

interface Phrase {
  value: string;
  re: RegExp;
}

const OVERTIME: Phrase[] = [
  { value: 'excluded', re: /overtime does not count|regulation (?:time|play)? ?only|excludes? overtime|ot excluded|overtime (?:is )?excluded|not including overtime/i },
  { value: 'included', re: /overtime counts|including overtime|includes? overtime|ot included|overtime (?:is )?included|extra innings count/i },
];
const TIE: Phrase[] = [
  { value: 'void', re: /ends in a tie, all bets are void|ties are refunded|void if tied|tie,? (?:the market|all bets) (?:is|are) void/i },
  { value: 'loses', re: /a tie resolves no|if tied, the market resolves to no|a tie loses/i },
  { value: 'half_payout', re: /resolves 50-50|settles? at 50\/50|paid at half/i },
  { value: 'separate_outcome', re: /tie is (?:a|its own) (?:separate )?outcome|draw is a separate outcome/i },
];
const PUSH: Phrase[] = [
  { value: 'void', re: /pushes are refunded|stake returned on a push|void on push|push(?:es)? (?:is|are) void/i },
  { value: 'loses', re: /a push resolves no|a push loses/i },
];

const URL_RE = /https?:\/\/[^\s"')]+/i;

/** Sentences end at . ! ? followed by space (a URL's dots stay inside its sentence). */
function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // '.', '!' or '?' followed by whitespace ends a sentence.
    if ((c === 46 || c === 33 || c === 63) && i + 1 < text.length && /\s/.test(text[i + 1])) {
      const s = text.slice(start, i + 1).trim();
      if (s) out.push(s);
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last) out.push(last);
  return out;
}

function findPhrase(text: string, phrases: Phrase[], about?: RegExp): { value: string; sentence: string } | undefined {
  // A phrase counts only in a sentence about the rule: "resolves 50-50" in a cancellation or push
  // sentence says nothing about ties.
  const pool = about ? sentences(text).filter((s) => about.test(s)) : sentences(text);
  for (const p of phrases) {
    for (const s of pool) if (p.re.test(s)) return { value: p.value, sentence: s };
  }
  return undefined;
}

export function evidenceUrl(text: string | null | undefined, fallback?: string): string | undefined {
  if (text) {
    const m = URL_RE.exec(text);
    if (m) return m[0].replace(/[.,;]+$/, '');
  }
  return fallback;
}

function read(text: string | null | undefined, phrases: Phrase[], rule: string, venue: string, url?: string, about?: RegExp): RuleValue {
  if (!text || !text.trim()) return { value: 'unknown', description: `${venue} publishes no rules text for this market.` };
  const hit = findPhrase(text, phrases, about);
  if (!hit) return { value: 'unknown', description: `The ${venue} rules text does not say how ${rule} is settled.` };
  const v: RuleValue = { value: hit.value, description: `${venue}: "${hit.sentence}"` };
  const ev = evidenceUrl(text, url);
  if (ev) v.evidence_url = ev;
  return v;
}

const lineCache = new Map<string, Record<'tie' | 'overtime' | 'push', RuleValue>>();

/** Tie, overtime and push as the venue's text states them (texts repeat across lines: cached). */
export function readGameLineRules(text: string | null | undefined, venue: string, url?: string): Record<'tie' | 'overtime' | 'push', RuleValue> {
  const k = `${venue}\u0000${url ?? ''}\u0000${text ?? ''}`;
  const hit = lineCache.get(k);
  if (hit) return hit;
  if (lineCache.size > 20_000) lineCache.clear();
  const v = readGameLineRulesUncached(text, venue, url);
  lineCache.set(k, v);
  return v;
}

function readGameLineRulesUncached(text: string | null | undefined, venue: string, url?: string): Record<'tie' | 'overtime' | 'push', RuleValue> {
  return {
    tie: read(text, TIE, 'a tie', venue, url, /\bti(?:e|es|ed)\b|dead heat|\bdraw\b/i),
    overtime: read(text, OVERTIME, 'overtime', venue, url, /overtime|\bot\b|regulation|extra innings/i),
    push: read(text, PUSH, 'a push', venue, url, /\bpush/i),
  };
}

const PROP_PHRASES: Partial<Record<PropRule, Phrase[]>> = {
  non_participation: [
    { value: 'void', re: /(?:does not|doesn't|fails to) (?:play|participate|take the field)[^.]*(?:void|refund)/i },
    { value: 'loses', re: /(?:does not|doesn't|fails to) (?:play|participate)[^.]*resolves? (?:to )?no/i },
  ],
  overtime: OVERTIME,
  stat_definition: [{ value: 'official_box_score', re: /official (?:box score|league statistics|stats)/i }],
  stat_corrections: [
    { value: 'ignored_after_settlement', re: /corrections? (?:made )?after settlement (?:are|is) (?:not|ignored)/i },
    { value: 'included', re: /stat corrections? (?:are|is) (?:included|honou?red)/i },
  ],
  postponement: [
    { value: 'void', re: /postponed[^.]*(?:void|refund)/i },
    { value: 'stays_open', re: /postponed[^.]*(?:remains open|stays open|until the game is played)/i },
  ],
  cancellation: [{ value: 'void', re: /cancell?ed[^.]*(?:void|refund|50-50)/i }],
  interruption: [{ value: 'void', re: /(?:abandoned|suspended|interrupted)[^.]*(?:void|refund)/i }],
};

/** The nine prop rows; `threshold` and `resolution_source` come from the record itself. */
export function readPropRules(
  text: string | null | undefined,
  venue: string,
  threshold: { line: number; printed: string } | undefined,
  url?: string,
): Record<PropRule, RuleValue> {
  const out = {} as Record<PropRule, RuleValue>;
  for (const rule of ['non_participation', 'overtime', 'stat_definition', 'stat_corrections', 'postponement', 'cancellation', 'interruption'] as const) {
    out[rule] = read(text, PROP_PHRASES[rule] ?? [], rule.replace(/_/g, ' '), venue, url);
  }
  out.threshold = threshold
    ? { value: 'over_half_point', description: `${venue} lists ${threshold.printed}, read as over ${threshold.line}.`, ...(url || evidenceUrl(text) ? { evidence_url: evidenceUrl(text, url)! } : {}) }
    : { value: 'unknown', description: `${venue} does not state the threshold.` };
  const src = evidenceUrl(text, url);
  out.resolution_source = src
    ? { value: 'official_league_data', description: `${venue} names its resolution source.`, evidence_url: src }
    : { value: 'unknown', description: `${venue} names no resolution source.` };
  return out;
}
