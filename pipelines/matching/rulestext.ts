// Reading settlement rules from a venue's rules text. In: the free text a venue publishes on a
// market, the market it is published on (league, market type, segment) and the venue's token.
// Out: the game-line rule values (tie, overtime, push) and the prop rule values, each known value
// with a description quoting the clause it came from and the venue's rules page as evidence;
// `unknown` with a reason when no clause that applies to the market says, or when clauses that
// apply contradict each other. The reading itself (sentences, clauses, scope, negation, the
// lexicon) is rulesreader.ts.
import { parseText, readRule, type MarketScope, type ParsedText, type ReadRule, type Reading } from './rulesreader.ts';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
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
 * Readings of rules texts, kept. Texts repeat across the markets of a venue (one template per kind,
 * names filled in) and across polls of one market, and reading a text's sentences and clauses is the
 * canonicalizer's costliest step, so a text is parsed once, and each set of rule values asked of it
 * (the game lines' three, a prop's nine) is read once per everything that set depends on: the venue,
 * the evidence url, the market scope and, for a prop, its threshold. The values are shared, so they
 * are frozen. Keyed by the text itself (the record's own string, not a copy). Bounded by the number
 * of texts, least recently used out first: a game's texts stop being read when it leaves the
 * listings, while a template read on every poll stays. A crawl's first reads are all new (a text
 * names its own teams and lines): at scale 100, 3,353 texts gave 11,491 (rule, scope) readings in the
 * first 25 s, each of which parsed its text again before the parse was kept per text (the reader was
 * 27% of the main thread then, bench/crawl-latency.md, 2026-11-23).
 */
export const MAX_TEXTS = 40_000;

/**
 * Parsed texts, kept for the texts parsed or read last only. A parse (the text's sentences as
 * clauses: each clause's words, flags and scope sets) holds about 7 KB of heap, far more than the
 * text's readings, and every reading a market needs of its text is asked within the records that
 * bring the text (a record's game lines, its props), so a parse let go is rarely needed again:
 * over 14 listing crawls of scale 1 a minute apart, 3,175 texts were parsed 3,175 times with 256
 * parses kept as with all of them, and the heap the canonicalize stage kept fell from 41-43 MB to
 * 17-19 MB, the same records written, the same CPU (bench/rules-reader-memory.ts, 2026-11-28). A
 * reading asked of a text whose parse was let go parses it again (the same parse: parseText reads
 * the text alone).
 */
export const MAX_PARSED = 256;

// The scope fields a reading depends on, all of them: a field added to MarketScope and not listed
// here fails to compile, so no two scopes that read differently can share a kept reading.
const SCOPE_FIELDS = ['league', 'marketType', 'segment'] as const satisfies readonly (keyof MarketScope)[];
type UnkeyedScopeField = Exclude<keyof MarketScope, (typeof SCOPE_FIELDS)[number]>;
const everyScopeFieldKeyed: [UnkeyedScopeField] extends [never] ? true : UnkeyedScopeField = true;
void everyScopeFieldKeyed;

type GameLineRules = Readonly<Record<'tie' | 'overtime' | 'push', RuleValue>>;
type PropRules = Readonly<Record<PropRule, RuleValue>>;
interface Threshold {
  line: number;
  printed: string;
}

/** Rule value sets of a text, by what else they depend on (readingKey). */
type TextReadings = Map<string, GameLineRules | PropRules>;

/** A text's readings, with the digest of the text once known (what its kept record is named by). */
interface TextEntry {
  readings: TextReadings;
  digest?: string;
}

/**
 * Bumped by hand when a reading comes to depend on something outside the files readerVersion
 * digests (nothing does: rulesreader.ts imports types only, and rulestext.ts the lexicon through it).
 */
const READER_EPOCH = 1;

let version: string | undefined;

/**
 * The version of the reader, for the readings kept across a restart: a digest of the reader's own
 * code (rulesreader.ts, this file) and of its lexicon (rules-lexicon/*.json), read from the files at
 * the first call. Digesting the sources rather than trusting a constant someone must remember to bump
 * means any change to the code or the lexicon (a rules round changes both) reads every text again;
 * a change to a comment does too, which costs one cold read and nothing else. About 1 ms, once. The
 * bundles (bin/build-workers.ts) give each module its own source file's URL, and a launcher starts
 * through tsx when a source is newer than its bundle, so the files digested are the code that runs.
 */
export function readerVersion(): string {
  if (version) return version;
  const h = createHash('sha256').update(`epoch ${READER_EPOCH}\u0000`);
  const lexicon = new URL('./rules-lexicon/', import.meta.url);
  const files = [
    new URL('./rulesreader.ts', import.meta.url),
    new URL('./rulestext.ts', import.meta.url),
    ...readdirSync(lexicon)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => new URL(f, lexicon)),
  ];
  for (const f of files) h.update(f.pathname.slice(f.pathname.lastIndexOf('/') + 1)).update('\u0000').update(readFileSync(f)).update('\u0000');
  return (version = h.digest('base64url').slice(0, 22));
}

/** The digest a text's kept record is named by: of the text exactly as published (the readings quote it). */
export const textDigest = (text: string): string => createHash('sha256').update(text).digest('base64url');

// An empty url reads as no url (evidenceUrl and the rows treat both as absent), so both share a key.
const readingKey = (kind: string, venue: string, market: MarketScope, url: string | undefined, extra = ''): string =>
  `${kind}\u0000${venue}\u0000${url ?? ''}\u0000${SCOPE_FIELDS.map((f) => market[f]).join('|')}${extra}`;

const freeze = <T extends Record<string, RuleValue>>(rows: T): Readonly<T> => {
  for (const v of Object.values(rows)) Object.freeze(v);
  return Object.freeze(rows);
};

const noText = (venue: string): RuleValue => ({ value: 'unknown', description: `${venue} publishes no rules text for this market.` });

/** One reading of one rule, straight from the reader. */
function readOne(parsed: ParsedText, text: string, rule: ReadRule, venue: string, market: MarketScope, url?: string): RuleValue {
  return toRuleValue(readRule(parsed, rule, market), rule, venue, text, url);
}

const PROP_READ: ReadRule[] = ['non_participation', 'overtime', 'stat_definition', 'stat_corrections', 'postponement', 'cancellation', 'interruption'];

/** The prop rows as read from a text (or from none). */
function propRows(parsed: ParsedText | undefined, text: string | null | undefined, venue: string, threshold: Threshold | undefined, market: MarketScope, url?: string): Record<PropRule, RuleValue> {
  const out = {} as Record<PropRule, RuleValue>;
  for (const rule of PROP_READ) out[rule as PropRule] = parsed ? readOne(parsed, text!, rule, venue, market, url) : noText(venue);
  out.threshold = threshold
    ? { value: 'over_half_point', description: `${venue} lists ${threshold.printed}, read as over ${threshold.line}.`, ...(url || evidenceUrl(text) ? { evidence_url: evidenceUrl(text, url)! } : {}) }
    : { value: 'unknown', description: `${venue} does not state the threshold.` };
  const src = evidenceUrl(text, url);
  out.resolution_source = src
    ? { value: 'official_league_data', description: `${venue} names its resolution source.`, evidence_url: src }
    : { value: 'unknown', description: `${venue} names no resolution source.` };
  return out;
}

/** A text's readings as its kept record holds them (readingsRecord's JSON). */
export type ReadingsRecord = [string, Record<string, RuleValue>][];

/**
 * Rules texts read for markets, each reading kept (at most `maxTexts` texts, least recently used
 * out first), each text's parse kept while it is among the `maxParsed` texts parsed or read last.
 *
 * Kept across a restart when `keeping` is on (the canonicalize stage, which writes and restores the
 * records): the texts asked for since the last `touched()` are told with their digest, and readings
 * restored from a record (`restore`) are what a text of that digest gets when first asked for, so a
 * text read before the restart is not read again, whether the record that brings it changed or not.
 * A restored reading is the JSON of what a read returned (strings only, in the same order), so it is
 * equal to a fresh reading (rulestext.unit.spec.ts).
 */
export class RulesTextReader {
  private readonly texts: LRUCache<string, TextEntry>;
  private readonly parsed: LRUCache<string, ParsedText>;
  /** Readings restored from records, by digest, until a text of that digest is asked for. */
  private readonly restored: LRUCache<string, TextReadings>;
  /** Texts asked for since the last `touched()` (only while keeping). */
  private readonly asked = new Set<TextEntry>();
  /** Texts parsed, the first time and again (a new reading of a text whose parse was let go). */
  parses = 0;
  /** Texts whose readings came from a restored record. */
  restoredHits = 0;
  /** Whether the texts asked for are told (the canonicalize stage turns it on). */
  keeping = false;

  constructor(maxTexts = MAX_TEXTS, maxParsed = MAX_PARSED) {
    this.texts = new LRUCache({ max: maxTexts, dispose: (e) => this.asked.delete(e) });
    this.parsed = new LRUCache({ max: maxParsed });
    this.restored = new LRUCache({ max: maxTexts });
  }

  private readingsOf(text: string): TextEntry {
    let e = this.texts.get(text);
    if (!e) {
      let readings: TextReadings | undefined;
      let digest: string | undefined;
      if (this.keeping || this.restored.size) {
        digest = textDigest(text);
        readings = this.restored.get(digest);
        if (readings) {
          this.restored.delete(digest);
          this.restoredHits++;
        }
      }
      e = { readings: readings ?? new Map(), ...(digest ? { digest } : {}) };
      this.texts.set(text, e);
    }
    if (this.keeping) {
      e.digest ??= textDigest(text); // read before keeping was turned on
      this.asked.add(e);
    }
    return e;
  }

  private parsedOf(text: string): ParsedText {
    let p = this.parsed.get(text);
    if (!p) {
      p = parseText(text);
      this.parses++;
      this.parsed.set(text, p);
    }
    return p;
  }

  /** Tie, overtime and push as the venue's text states them for this market. */
  gameLineRules(text: string | null | undefined, venue: string, market: MarketScope, url?: string): GameLineRules {
    if (!text || !text.trim()) return { tie: noText(venue), overtime: noText(venue), push: noText(venue) };
    const e = this.readingsOf(text);
    const k = readingKey('game', venue, market, url);
    let rows = e.readings.get(k) as GameLineRules | undefined;
    if (!rows) {
      const parsed = this.parsedOf(text);
      rows = freeze({
        tie: readOne(parsed, text, 'tie', venue, market, url),
        overtime: readOne(parsed, text, 'overtime', venue, market, url),
        push: readOne(parsed, text, 'push', venue, market, url),
      });
      e.readings.set(k, rows);
    }
    return rows;
  }

  /** The nine prop rows; `threshold` and `resolution_source` come from the record itself. */
  propRules(text: string | null | undefined, venue: string, threshold: Threshold | undefined, market: MarketScope, url?: string): PropRules {
    if (!text || !text.trim()) return propRows(undefined, text, venue, threshold, market, url);
    const e = this.readingsOf(text);
    const k = readingKey('prop', venue, market, url, threshold ? `\u0000${threshold.line}\u0000${threshold.printed}` : '');
    let rows = e.readings.get(k) as PropRules | undefined;
    if (!rows) {
      rows = freeze(propRows(this.parsedOf(text), text, venue, threshold, market, url));
      e.readings.set(k, rows);
    }
    return rows;
  }

  /**
   * The texts asked for since the last call, each with its digest and how many readings it holds
   * (they only grow: a text whose count is the one written has nothing new). Empty unless keeping.
   */
  touched(): { digest: string; count: number; record: () => string }[] {
    if (!this.asked.size) return [];
    const out = [...this.asked].map((e) => ({ digest: e.digest!, count: e.readings.size, record: () => JSON.stringify([...e.readings] satisfies ReadingsRecord) }));
    this.asked.clear();
    return out;
  }

  /**
   * Readings of the text of `digest`, from its record (JSON of ReadingsRecord), for when a text of
   * that digest is first asked for; how many. A text held already keeps its own; a record that does
   * not parse is not kept (the text is read again: undefined).
   */
  restore(digest: string, record: string): number | undefined {
    let rows: ReadingsRecord;
    try {
      rows = JSON.parse(record) as ReadingsRecord;
    } catch {
      return undefined;
    }
    this.restored.set(digest, new Map(rows.map(([k, r]) => [k, freeze(r) as GameLineRules | PropRules])));
    return rows.length;
  }

  /** Texts held (read, or given their restored readings) and restored readings not asked for yet. */
  get size(): { texts: number; restored: number } {
    return { texts: this.texts.size, restored: this.restored.size };
  }
}

/** The process's reader: canonicalization reads every rules text through it. */
const reader = new RulesTextReader();

/** Tie, overtime and push as the venue's text states them for this market. */
export function readGameLineRules(text: string | null | undefined, venue: string, market: MarketScope, url?: string): GameLineRules {
  return reader.gameLineRules(text, venue, market, url);
}

/** The nine prop rows; `threshold` and `resolution_source` come from the record itself. */
export function readPropRules(text: string | null | undefined, venue: string, threshold: Threshold | undefined, market: MarketScope, url?: string): PropRules {
  return reader.propRules(text, venue, threshold, market, url);
}

/** The process's reader: the canonicalize stage keeps its readings across a restart (canonicalize.ts). */
export function processReader(): RulesTextReader {
  return reader;
}
