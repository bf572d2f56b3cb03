// Kept readings of rules texts: an answer the reader keeps is the answer reading the text again
// would give, for every text of the corpus (test/fixtures/rules) on the markets it is placed on and
// on others, from every venue and evidence url, asked again and again in any order, and after the
// text was let go (a full reader drops the least recently used text) or its parse was (a reader keeps
// the parses of the texts read last only). Kept across a restart: a reading restored from its record
// (matching.state, KeptReadings) is the reading a fresh reader gives, and a reader of another version
// reads every text again.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseText, readRule, type MarketScope, type ParsedText, type ReadRule } from './rulesreader.ts';
import { MAX_TEXTS, readerVersion, RulesTextReader, toRuleValue } from './rulestext.ts';
import { KeptReadings, READING_PREFIX } from './stages/canonicalize.ts';
import type { OutRecord } from '../runtime/types.ts';
import type { RawRecord } from '../topics.ts';
import { loadCorpus } from './ruleseval.ts';
import type { RuleValue } from './types.ts';

const corpus = loadCorpus();
// The passes over the whole corpus get a guard against a hang, not a speed check: the corpus grows by
// a batch at a time, and the time moves with the machine and what runs beside the file. The first pass
// took 49 s alone, 149 s in a CI run beside the other files (2026-11-28), 324 s in a fresh-clone CI
// on a 2.1 GHz machine (2026-11-29), past the 300 s it had.
const HANG_GUARD_MS = 900_000;
const parsed = new Map<string, ParsedText>();
const parsedOf = (text: string) => {
  let p = parsed.get(text);
  if (!p) parsed.set(text, (p = parseText(text)));
  return p;
};

// The reader's own answer, nothing kept: readRule on the text parsed for this call's text alone.
const straight = (text: string, rule: ReadRule, venue: string, m: MarketScope, url?: string): RuleValue => toRuleValue(readRule(parsedOf(text), rule, m), rule, venue, text, url);
const GAME: ReadRule[] = ['tie', 'overtime', 'push'];
const PROP: ReadRule[] = ['non_participation', 'overtime', 'stat_definition', 'stat_corrections', 'postponement', 'cancellation', 'interruption'];

interface Ask {
  text: string;
  venue: string;
  m: MarketScope;
  url?: string;
  threshold?: { line: number; printed: string };
}

/** Seeded, so a failure names the same ask again. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every corpus row on its own market, and on another market of the corpus, from two venues and three urls (none, empty, one). */
function asks(seed: number): Ask[] {
  const rnd = rng(seed);
  const venues = [`venue_${randomUUID().slice(0, 8)}`, `venue_${randomUUID().slice(0, 8)}`];
  const urls = [undefined, '', `https://${randomUUID().slice(0, 8)}.example/rules`];
  const scopes = [...new Map(corpus.rows.map((r) => [`${r.league}|${r.marketType}|${r.segment}`, { league: r.league, marketType: r.marketType, segment: r.segment }])).values()];
  const out: Ask[] = [];
  for (const [i, r] of corpus.rows.entries()) {
    const text = corpus.texts.get(r.text)!.text;
    for (const m of [{ league: r.league, marketType: r.marketType, segment: r.segment }, scopes[Math.floor(rnd() * scopes.length)]]) {
      const ask: Ask = { text, venue: venues[i % 2], m, url: urls[i % 3] };
      if (m.marketType === 'player_prop' && r.line !== undefined) ask.threshold = { line: r.line, printed: `${r.line + 0.5}+` };
      out.push(ask);
    }
  }
  return out;
}

/** The asks three times over, shuffled: each asked again after others were. */
function repeated<T>(list: T[], seed: number): T[] {
  const rnd = rng(seed);
  const all = [...list, ...list, ...list];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all;
}

/** The answer to an ask from the reader itself, each rule read straight (the two record rows of a
 * prop from a reader that kept nothing). */
function expected(a: Ask): Record<string, RuleValue> {
  if (a.m.marketType !== 'player_prop') return Object.fromEntries(GAME.map((rule) => [rule, straight(a.text, rule, a.venue, a.m, a.url)]));
  const fresh = new RulesTextReader().propRules(a.text, a.venue, a.threshold, a.m, a.url);
  return { ...Object.fromEntries(PROP.map((rule) => [rule, straight(a.text, rule, a.venue, a.m, a.url)])), threshold: fresh.threshold, resolution_source: fresh.resolution_source };
}

const ask = (reader: RulesTextReader, a: Ask) => (a.m.marketType === 'player_prop' ? reader.propRules(a.text, a.venue, a.threshold, a.m, a.url) : reader.gameLineRules(a.text, a.venue, a.m, a.url));

/** Every ask of the list three times over in a shuffled order, each answer the reader's own. */
function checkAll(reader: RulesTextReader, list: Ask[], seed: number): void {
  const want = list.map(expected);
  for (const i of repeated(list.map((_, k) => k), seed)) {
    const a = list[i];
    // Same rows in the same order (the records' bodies are serialized from them).
    expect(ask(reader, a), JSON.stringify({ ...a, text: a.text.slice(0, 60) })).toStrictEqual(want[i]);
  }
}

describe('kept readings of rules texts', () => {
  it('answers as the reader does, over the corpus on many markets, asked again in any order', () => {
    const reader = new RulesTextReader();
    const list = asks(20261126);
    // The corpus places texts on markets that read them differently: a key that left out any of
    // these would hand one market's reading to another.
    expect(new Set(list.map((a) => a.m.league)).size).toBeGreaterThan(3);
    expect(new Set(list.map((a) => a.m.segment)).size).toBeGreaterThan(3);
    checkAll(reader, list, 7);
  }, HANG_GUARD_MS);

  it('answers the same after letting a text go (a reader of a few texts, the corpus through it)', () => {
    const reader = new RulesTextReader(5);
    const list = asks(11).filter((_, i) => i % 9 === 0);
    expect(new Set(list.map((a) => a.text)).size).toBeGreaterThan(20);
    checkAll(reader, list, 3);
    // 14 s in a CI run alone, 64 s with CI beside other work (load 21).
  }, HANG_GUARD_MS);

  it('answers the same after letting a parse go (a reader that keeps one parse, its readings all kept)', () => {
    const reader = new RulesTextReader(MAX_TEXTS, 1);
    const list = asks(13).filter((_, i) => i % 9 === 4);
    const texts = new Set(list.map((a) => a.text)).size;
    expect(texts).toBeGreaterThan(20);
    checkAll(reader, list, 5);
    // Readings asked anew of texts parsed before were read from a second parse, not a kept one.
    expect(reader.parses).toBeGreaterThan(texts);
  }, HANG_GUARD_MS);

  it('keeps one reading per text and market: asked again, the same values, frozen', () => {
    const reader = new RulesTextReader();
    const venue = `venue_${randomUUID().slice(0, 8)}`;
    const row = corpus.rows.find((r) => r.marketType !== 'player_prop')!;
    const text = corpus.texts.get(row.text)!.text;
    const m: MarketScope = { league: row.league, marketType: row.marketType, segment: row.segment };
    const first = reader.gameLineRules(text, venue, m);
    expect(reader.gameLineRules(text, venue, m)).toBe(first);
    expect(() => {
      (first as Record<string, RuleValue>).tie = { value: 'loses', description: 'changed' };
    }).toThrow(TypeError);
    expect(() => {
      (first.tie as { value: string }).value = 'loses';
    }).toThrow(TypeError);
    // Another venue, url or market is another reading.
    expect(reader.gameLineRules(text, `${venue}x`, m)).not.toBe(first);
    expect(reader.gameLineRules(text, venue, m, 'https://x.example/r')).not.toBe(first);
    expect(reader.gameLineRules(text, venue, { ...m, segment: m.segment === 'full' ? 'half:1' : 'full' })).not.toBe(first);
  });

  it('reads no rules text as unknown for every rule, and names the venue', () => {
    const reader = new RulesTextReader();
    const venue = `venue_${randomUUID().slice(0, 8)}`;
    const m: MarketScope = { league: 'nfl', marketType: 'moneyline', segment: 'full' };
    for (const text of [undefined, null, '', '   ']) {
      const g = reader.gameLineRules(text, venue, m);
      for (const rule of GAME) expect(g[rule as keyof typeof g]).toEqual({ value: 'unknown', description: `${venue} publishes no rules text for this market.` });
      const p = reader.propRules(text, venue, undefined, { ...m, marketType: 'player_prop' });
      for (const rule of PROP) expect(p[rule as keyof typeof p].value).toBe('unknown');
      expect(p.threshold.value).toBe('unknown');
    }
  });
});

/** The records a stage would leave on matching.state, by key (the last of each; a removal deletes). */
function compacted(out: OutRecord[], into = new Map<string, RawRecord>()): Map<string, RawRecord> {
  for (const r of out) {
    expect(r.topic).toBe('matching.state');
    if (r.value === null) into.delete(r.key!);
    else into.set(r.key!, r.value as RawRecord);
  }
  return into;
}

/** A restart: a new reader (nothing read) with the records restored through a stage's KeptReadings. */
function restarted(records: Map<string, RawRecord>, version: string): { reader: RulesTextReader; kept: KeptReadings } {
  const reader = new RulesTextReader();
  const kept = new KeptReadings(reader, version);
  for (const [k, v] of records) kept.restore(k, v);
  return { reader, kept };
}

describe('readings kept across a restart (matching.state, by the text digest and the reader version)', () => {
  // Every corpus row on its own market and on another: every text of the corpus, its readings from
  // two venues and three urls.
  const list = asks(20261128);
  const texts = new Set(list.map((a) => a.text)).size;
  let records: Map<string, RawRecord>;
  let fresh: unknown[];

  it('restores readings equal to a fresh reading, reading no text again', () => {
    const before = new RulesTextReader();
    const kept = new KeptReadings(before, 'v1');
    fresh = list.map((a) => ask(before, a));
    records = compacted(kept.writes([]));
    expect(texts).toBeGreaterThan(1000);
    expect(records.size).toBe(texts);
    for (const k of records.keys()) expect(k).toMatch(/^reading\|v1\|[A-Za-z0-9_-]{43}$/);

    const { reader: after, kept: keptAfter } = restarted(records, 'v1');
    expect(after.size.restored).toBe(texts);
    for (const [i, a] of list.entries()) {
      const got = ask(after, a);
      const where = JSON.stringify({ ...a, text: a.text.slice(0, 60) });
      // Deep equal, evidence included, and the same rows in the same order (bodies serialize them).
      expect(got, where).toStrictEqual(fresh[i]);
      expect(JSON.stringify(got), where).toBe(JSON.stringify(fresh[i]));
      expect(Object.isFrozen(got) && Object.values(got).every(Object.isFrozen), where).toBe(true);
    }
    expect(after.parses).toBe(0);
    expect(after.restoredHits).toBe(texts);
    // Asked nothing new: nothing to write again.
    expect(keptAfter.writes([])).toEqual([]);
  }, HANG_GUARD_MS);

  it('reads every text again under another version, and removes the old version\'s records', () => {
    const { reader, kept } = restarted(records, 'v2');
    expect(reader.size.restored).toBe(0);
    for (const [i, a] of list.entries()) expect(ask(reader, a)).toStrictEqual(fresh[i]);
    expect(reader.parses).toBe(texts);
    const left = compacted(kept.writes([]), new Map(records));
    expect([...left.keys()].every((k) => k.startsWith(`${READING_PREFIX}v2|`))).toBe(true);
    expect(left.size).toBe(texts);
  }, HANG_GUARD_MS);

  it('writes a text again when it is read for a new market, and keeps no more texts than its bound', () => {
    const reader = new RulesTextReader();
    const kept = new KeptReadings(reader, 'v1', 3);
    const some = [...new Map(list.map((a) => [a.text, a])).values()].slice(0, 5);
    ask(reader, some[0]!);
    const first = kept.writes([]);
    expect(first).toHaveLength(1);
    // The same ask again writes nothing; the same text on another venue is a new reading.
    ask(reader, some[0]!);
    expect(kept.writes([])).toEqual([]);
    ask(reader, { ...some[0]!, venue: `${some[0]!.venue}x` });
    const again = kept.writes([]);
    expect(again.map((r) => r.key)).toEqual(first.map((r) => r.key));
    expect(JSON.parse((again[0]!.value as RawRecord).payload)).toHaveLength(2);
    // Five texts through a bound of three: the two asked for least recently are removed.
    const state = compacted([...first, ...again]);
    for (const a of some.slice(1)) compacted(kept.writes((ask(reader, a), [])), state);
    expect(state.size).toBe(3);
    expect(kept.size).toBe(3);
  });

  it('versions the reader by its code and lexicon, the same at every call', () => {
    expect(readerVersion()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(readerVersion()).toBe(readerVersion());
  });
});
