// The rules reader: what a venue's rules text states about one rule for one market. In: the free
// text, the market it is published on (league, market type, segment) and the rule. Out: the
// value, the clause it came from, or `unknown` with the reason (silent, or clauses that contradict).
//
// How it reads: the text is split into sentences and each sentence into clauses at ";", ":",
// ", but", "except", "unless" and ", not". A heading (the words before a sentence's first colon, or a
// question) states no rule but scopes what follows it: sentences after it that do not name a
// dimension themselves take it from the heading, until the next heading ("Quarter and half markets:
// ... . Overtime is not included."; "What is a 60 Minute Line? ... this does not include overtime").
// A clause with a withdrawing qualifier ("usually", "depending on the market") states nothing, and a
// parenthetical example ("(e.g. Including Overtime)") is not read. A clause's scope
// (leagues, segments, market types; or a market outside the spec such as a teaser or European
// hockey) comes from the scope lexicon; a clause without a word of some dimension takes that
// dimension from the clause before it in the same sentence ("Quarter markets ...; overtime does
// not count"). A clause about one side of a market only (the favourite, the over) settles nothing for
// the market as a whole. Only clauses whose scope holds the market are read. An exception clause ("except
// those that are quarter specific", ", not the 4th quarter") takes the market out of the clause
// it follows, and for overtime states the opposite value there. Among the clauses that apply, the
// most specific scope wins (a fourth-quarter sentence over "all wagers include overtime"); clauses
// of the same specificity that disagree give `unknown`. An exception that states a value of its own
// ("except 2nd half markets which do include overtime") is read as that statement, never turned
// into the opposite, and one that refers to other markets only in general ("unless a different game
// period is specified") takes nothing out: the two ways an exception could make opposite rules read
// alike. A sentence naming another market ends a market heading's reach, and a bare follow-up
// ("Push rules apply.") speaks of what the sentence before it spoke of.
//
// What guides and prediction markets add: a hedged clause that refers back ("...; this is the case
// at most books", "This is usually so.") takes the statement before it back too, and a hedged clause
// claims its scope only when it speaks of the rule outside a condition. Words inside a leading
// condition ("if a bet does not include overtime, ...") name a case, not a value. A contrast
// ("unlike full-game wagers, ...") names other markets and is not read for scope; ", but not for X",
// "markets other than X" and "X are the exception" are exceptions. "This applies only to markets
// which include overtime" gives the statement before it that scope; "this does not apply to ..."
// leaves it holding no market. A sentence naming the final score and no market of its own speaks of
// the whole game, not of the market heading above it (one whose subject is the result, "The result is
// determined by ...", is the heading market's result), and for a full-game player prop a clause
// naming the full game is no narrower than one naming player props, while a clause about the final
// score naming no market of its own says nothing for a player prop (it settles on a statistic).
// FAQs and tables: a bare "Yes"/"No" answers the question or label before it; "|" splits a table
// row's cells into clauses, a line end or a bullet ends a sentence, and a header row's labels are
// written into each row. Phrases that hold a value word but state nothing ("considered a
// push" for overtime, "can push") are in each rule's `ignore` list. Every word the reader knows is in
// ./rules-lexicon (one file per rule), not in this code; a phrase may name a word class ("@settle *
// @regulation"), so one frame reads every pairing of the class's words.
// Structure over strings: an elliptical clause with its own subject ("Moneylines include overtime,
// quarter lines do not"; "..., but full-game lines do") denies or repeats the statement before it for
// that subject, inside a sentence as across two; a closing "X excepted" is an exception; a condition
// may open with "should", "in the event", "in case", "provided" as with "if"; an exception naming the
// rule's case and no market ("void unless the player plays") is the statement's condition, and one
// naming overtime and no market ("all goals except those in overtime") denies the inclusion for it;
// "What happens if <case>?" carries the case into its answer, and "They do." / "It does not." answer
// a yes/no question. A clause naming only leagues or sports outside the spec applies to none of ours,
// whatever markets it lists. "Quarter lines never do" denies as "do not" does; an appositive that
// defines a market (", the sum of the 3rd and 4th quarters,") names no market of its own; a
// parenthesis opening with a condition is a case as a whole; a question that is only a case ("And if
// the teams are still level after overtime?") carries it into its answer; "... holds for every market"
// reaches every market; an example in parentheses opened by an article and naming a sport is not the
// clause's league. "..., but only in markets that include overtime" restricts the statement before it
// as "this applies only to ..." does, and "..., while 2nd-half markets DO" after a denial repeats the
// statement for its own subject. A clause naming markets and no period does not decide overtime for a
// quarter: "all wagers on the side and the total include overtime" leaves a quarter unknown.
// Polarity and scope in general: a value word denied inside its own verb group ("stakes are not
// refunded", "neither won nor lost") states nothing for a rule that has no opposite value, and "include
// neither overtime nor ..." denies the inclusion; a period after "after"/"beyond"/"past" names the time
// past it; a regulation basis extended right after by overtime ("regulation time, any extra innings
// included") is one statement that overtime counts; "Except in the NHL, ..." holds for the other
// leagues; ", and totals include overtime" after a statement is a statement of its own whose subject
// takes nothing from the first; a label answered market by market ("Overtime: yes for game lines, no
// for quarter lines") gives each market its answer; "when they do" refers back inside a sentence too.
// Scope in the wording of labels and products: a market named before a dash labels its entry as a colon
// does ("Match betting – ... . Overtime is included ..." speaks of the money line only); a heading
// naming one market product the scope lexicon does not know ("Last point market:") heads a market
// outside the spec; "all bets" in the entry of a heading about a market outside the spec are that
// market's bets; a clause naming markets and no period decides overtime for no half or quarter.
// Pages and sections for something else: a text opening "<sport> (except <leagues>)" is a section for
// the other leagues (for none of ours when the sport's league of ours is excepted); a text saying "this
// page covers <X> only" of something naming no league, sport or market of ours applies to none of our
// markets; "Regular time: the ..." defines a term and states no rule, as "Overtime (in hockey) is extra
// time added ..." does, and so does every sentence of a section headed as definitions ("Important
// definitions: ...", up to a heading of rules, a numbered item or a league heading); "no one wins or loses" denies
// the value word it coordinates. A short heading naming only a league or sport outside the spec
// ("Soccer.") opens a section for none of ours, and a text naming only such sports that sends "other
// sports" to "their own rules" applies to none of our markets; nor does a text that heads the rules of
// such a sport ("Handball rules:") and names no league or sport of ours. A combination bet named after
// "in" or "for" in a clause coordinated after a statement (", and in parlays the leg counts as 1") is
// that clause's own subject: the single bet's statement before it stands.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { League } from './teams.ts';
import type { MarketType, Segment } from './types.ts';

export interface MarketScope {
  league: League;
  marketType: MarketType;
  segment: Segment;
}

interface LexEntry {
  phrase: string;
  value?: string;
  source: string;
  standalone?: boolean;
  priority?: number;
  dim?: string;
  values?: string[];
  /** Words that keep a topic phrase from naming its topic when they stand in its gap or in the two
   * words before it ("a postponed game not played within two days" is postponement, not the
   * cancellation that "the game is not played" names). On an ignore entry, words that take it back when
   * they stand in its gap ("only ..., and ... in overtime count" is no market on overtime alone). */
  unless?: string[];
  /** Words that, standing right after a value phrase, take it back: "settled on regulation" is
   * regulation only, "settled on regulation and overtime" is not. On a topic phrase, the one word right
   * after it: "the game does not start on the scheduled day" is a delay, not a game that never starts. */
  unless_after?: string[];
  /** Words that, standing right before a phrase, take it back: "the most popular bets" is a
   * superlative, not "most bets" (a hedge over some markets). */
  unless_before?: string[];
  /** Words one of which the clause must hold for a value phrase to count: "dead heat rules apply"
   * settles a tie only in a clause that names the game ending level ("ends level", "tied"). */
  with?: string[];
  /** A value said through a team winning the game ("if the team backed wins in overtime, the bet wins"):
   * it speaks of the bet on the winner, the money line, and of no total or spread beside it. */
  winner?: boolean;
  /** A phrase naming a case ("if the game is tied after overtime"), whose value is what the case says of the
   * market when the consequence voids the bets (a `with` word after the condition): read inside the clause's
   * condition, where a value phrase otherwise states nothing. */
  case?: boolean;
}
interface RuleLexicon {
  topics: LexEntry[];
  values: LexEntry[];
  /** Phrases that hold a value word but state nothing for the rule ("considered a push" is no
   * statement about overtime). */
  ignore?: LexEntry[];
  negation?: Record<string, string>;
  /** The value a bare "Yes" or "No" gives a label naming only the rule ("Overtime: No"). */
  answers?: { yes: string; no: string };
}

export const READ_RULES = [
  'tie',
  'overtime',
  'push',
  'non_participation',
  'cancellation',
  'postponement',
  'interruption',
  'stat_definition',
  'stat_corrections',
] as const;
export type ReadRule = (typeof READ_RULES)[number];

function load<T>(name: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`./rules-lexicon/${name}.json`, import.meta.url)), 'utf8')) as T;
}

interface Compiled<E> {
  entry: E;
  tokens: string[];
}
const compile = <E extends { phrase: string }>(list: E[]): Compiled<E>[] =>
  list
    .map((entry) => ({ entry, tokens: entry.phrase.split(/\s+/).flatMap((p) => (p === '*' || p === '^' || CLASS_REF.test(p) ? [p] : tokenize(p).map((t) => t.word))) }))
    .sort((a, b) => b.tokens.length - a.tokens.length);

/** "@settle" in a phrase stands for any member of the word class `settle` (classes.json): one frame
 * ("@settle * @regulation") reads every pairing of its classes' words, not only the pairings a venue
 * happened to print. */
const CLASS_REF = /^@[a-z_]+$/;
/** Each class's members as word lists, longest first (so "regulation time" is tried before "regulation"). */
const CLASSES = new Map<string, string[][]>();

for (const [name, members] of Object.entries(load<{ classes: Record<string, { members: string[] }> }>('classes').classes)) {
  CLASSES.set(
    `@${name}`,
    members.members.map((m) => tokenize(m).map((t) => t.word)).sort((a, b) => b.length - a.length),
  );
}
const SCOPE = compile(load<{ entries: LexEntry[] }>('scope').entries);
/** Scope entries by their first word, longest first (the order readScope tries them in). */
const SCOPE_BY_FIRST = new Map<string, Compiled<LexEntry>[]>();
/** Scope entries held to a clause's start ("^ result": a clause whose subject is the result, "Results are those of regulation"), their
 * tokens without the anchor, longest first. */
const SCOPE_AT_START: Compiled<LexEntry>[] = [];
for (const c of SCOPE) {
  if (c.tokens[0] === '^') SCOPE_AT_START.push({ entry: c.entry, tokens: c.tokens.slice(1) });
  else if (c.tokens.length) SCOPE_BY_FIRST.set(c.tokens[0], [...(SCOPE_BY_FIRST.get(c.tokens[0]) ?? []), c]);
}
/** The scope entries that may start at a word: those starting with it, then one-word entries it is the plural of. */
const scopeCandidates = (w: string): Compiled<LexEntry>[] => {
  const exact = SCOPE_BY_FIRST.get(w) ?? [];
  if (!w.endsWith('s')) return exact;
  const singular = (SCOPE_BY_FIRST.get(w.slice(0, -1)) ?? []).filter((c) => c.tokens.length === 1);
  return singular.length ? [...exact, ...singular] : exact;
};
/** Each league's sport, as the leagues a sport word names ("basketball": the NBA and the WNBA). */
const SPORT_OF = new Map<string, Set<string>>();
for (const c of SCOPE) {
  if (c.entry.dim !== 'sport') continue;
  for (const v of c.entry.values ?? []) SPORT_OF.set(v, new Set([...(SPORT_OF.get(v) ?? []), ...(c.entry.values ?? [])]));
}
const HEDGE_FILE = load<{ phrases: LexEntry[]; withdraw: LexEntry[]; generic_exception: LexEntry[]; deferring_exception: LexEntry[] }>('hedges');
const HEDGES = compile(HEDGE_FILE.phrases);
const WITHDRAW = compile(HEDGE_FILE.withdraw);
const LEXICON = Object.fromEntries(
  READ_RULES.map((r) => {
    const l = load<RuleLexicon>(r);
    return [r, { topics: compile(l.topics), values: compile(l.values), ignore: compile(l.ignore ?? []), negation: l.negation, answers: l.answers }];
  }),
) as Record<ReadRule, { topics: Compiled<LexEntry>[]; values: Compiled<LexEntry>[]; ignore: Compiled<LexEntry>[]; negation?: Record<string, string>; answers?: { yes: string; no: string } }>;

/** Words by which an exception refers to other markets in general ("a different period", "another
 * market") rather than naming one. */
const GENERIC_EXCEPTION = new Set(HEDGE_FILE.generic_exception.map((e) => e.phrase));
/** Forms by which an exception only defers to other rules ("unless these American football rules or the
 * Market Information say otherwise", "except where stated otherwise"): the league or market it names owns
 * those rules; it is no case the exception takes out. */
const DEFERRING_EXCEPTION = compile(HEDGE_FILE.deferring_exception);
const defers = (words: string[]): boolean => DEFERRING_EXCEPTION.some((d) => findAll(words, d.tokens).length > 0);
const NEGATION_CUES = new Set(['not', 'no', 'never', 'without', 'nor', 'neither']);
const GAP = 4;

// ---------------------------------------------------------------- tokens

interface Tok {
  word: string;
  start: number;
  end: number;
}

/** Lower-case word tokens (with their place in the text) and the separators ; : , ( ). */
export function tokenize(text: string): Tok[] {
  const s = text
    .toLowerCase()
    // "prórroga", "órgão": an accented letter is its base letter (one character for one, so offsets stay on the text).
    .replace(/[\u00c0-\u024f]/g, (ch) => {
      const base = ch.normalize('NFD')[0];
      return /[a-z]/.test(base) ? base : ch;
    })
    .replace(/[\u2018\u2019`]/g, "'")
    // Wording of the same number, kept the same length so offsets stay on the text.
    .replace(/\$0\.50|50-50|50\/50|\b50 ?%|\b50 cents\b|\b50\u00a2|\bfifty[- ]fifty\b|\bfifty (?:percent|per cent)\b/g, (m) => 'f'.padEnd(m.length, '5'))
    // A flattened table's cells ("Market: Full Game Total | Overtime: No") are clauses of one row.
    .replace(/\|/g, ';');
  const out: Tok[] = [];
  const re = /[a-z0-9_]+(?:'[a-z]+)?|[;:,()&]/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    // "regulation & overtime" is "regulation and overtime".
    let w = m[0] === '&' ? 'and' : m[0];
    const start = m.index;
    // A colon between digits writes a score or a time ("settled on the 125:124", "at 8:31 p.m."), not a
    // label before its clause.
    if (w === ':' && /\d/.test(s[start - 1] ?? '') && /\d/.test(s[start + 1] ?? '')) continue;
    // A colon inside a quoted name ("a market such as 'Jalen Brunson: points O/U 24.5' (...): it resolves ...")
    // is part of the name, not a label before a clause of its own.
    if (w === ':' && quotedAt(s, start)) continue;
    const end = start + w.length;
    if (/^f5{2,}$/.test(w)) w = 'fifty_fifty';
    // "settles at $0" is a price of nothing, as "settles at zero" ("$0.40" is a price of its own).
    if (w === '0' && s[start - 1] === '$' && !/^\.\d*[1-9]/.test(s.slice(end))) w = 'zero';
    if (w.endsWith("n't")) {
      out.push({ word: w === "can't" ? 'can' : w === "won't" ? 'will' : w.slice(0, -3), start, end }, { word: 'not', start, end });
      continue;
    }
    if (w.includes("'")) w = w.replace(/'s$/, '').replace(/'/g, '');
    if (w === 'cancelled') w = 'canceled';
    // "OT" is overtime wherever it stands, so every phrase naming overtime names it too ("regulation
    // plus any OT"); "SO" is the shootout only in capitals in mixed-case text ("OT/SO"), since "so" is a word.
    if (w === 'ot') w = 'overtime';
    else if (w === 'so' && text.slice(start, end) === 'SO' && text !== text.toUpperCase()) w = 'shootout';
    // "NO" in capitals in mixed-case text with a number right after it ("the spread bet on NO -3",
    // "WAS 10.8 - NO 22.2") is a team's abbreviation or a contract's side with its line or price, not a denial.
    else if (w === 'no' && text.slice(start, end) === 'NO' && text !== text.toUpperCase() && /^\s*[-+\u2212]?\s*\d/.test(text.slice(end))) w = 'no_name';
    out.push({ word: w, start, end });
  }
  // "over time" is overtime; "over" alone is a side of a total.
  for (let i = 0; i + 1 < out.length; i++) {
    if (out[i].word === 'over' && out[i + 1].word === 'time') {
      out.splice(i, 2, { word: 'overtime', start: out[i].start, end: out[i + 1].end });
    }
  }
  return out;
}

/** Whether position i of a sentence stands inside a quotation: an opening quote (after a space or
 * parenthesis) before it and a closing one (before a space, punctuation or the end) after it, with no quote
 * mark between either and i. */
function quotedAt(s: string, i: number): boolean {
  return /(?:^|[\s(])['"\u201c][^'"\u201c\u201d]*$/.test(s.slice(0, i)) && /^[^'"\u201c\u201d]*['"\u201d](?=[\s).,;:!?]|$)/.test(s.slice(i + 1));
}

const isWord = (t: Tok) => /^[a-z0-9_]/.test(t.word);

interface Hit {
  start: number;
  end: number; // exclusive
  gap: string[];
}

/** Every place the phrase occurs in the words ("*" skips up to four words; a leading "^" holds the
 * phrase to the start of the clause: "^ some" is a clause about some markets, not "some bets may"). */
function findAll(words: string[], phrase: string[]): Hit[] {
  if (phrase[0] === '^') return findAll(words, phrase.slice(1)).filter((h) => h.start === 0);
  const hits: Hit[] = [];
  for (let i = 0; i < words.length; i++) {
    const h = step(words, phrase, i, 0, []);
    if (h) hits.push({ ...h, start: i });
  }
  return hits;
}

function step(words: string[], phrase: string[], i: number, p: number, gap: string[]): Hit | undefined {
  if (p === phrase.length) return { start: -1, end: i, gap };
  // "is also a push", "is also considered no action": "also" inside a phrase adds a case to what its
  // words say (never at a phrase's start, so "also" alone names nothing).
  if (p > 0 && words[i] === 'also' && phrase[p] !== 'also' && phrase[p] !== '*') {
    const h = step(words, phrase, i + 1, p, gap);
    if (h) return h;
  }
  if (phrase[p] === '*') {
    for (let g = 0; g <= GAP && i + g <= words.length; g++) {
      const h = step(words, phrase, i + g, p + 1, [...gap, ...words.slice(i, i + g)]);
      if (h) return h;
    }
    return undefined;
  }
  const members = CLASSES.get(phrase[p]);
  if (members) {
    for (const m of members) {
      if (!wordsAt(words, i, m) || partOfNumber(words, i + m.length, m[m.length - 1])) continue;
      const h = step(words, phrase, i + m.length, p + 1, gap);
      if (h) return h;
    }
    return undefined;
  }
  return words[i] === phrase[p] && !partOfNumber(words, i + 1, phrase[p]) ? step(words, phrase, i + 1, p + 1, gap) : undefined;
}

/** Whether a phrase's number ends where the text's number goes on: "odds 1" is not the "1" of "odds
 * 1.50" (tokens "1", "50"), though it is that of "odds 1.00". */
function partOfNumber(words: string[], next: number, last: string): boolean {
  return /^\d+$/.test(last) && /^\d+$/.test(words[next] ?? '') && !/^0+$/.test(words[next]);
}

// ---------------------------------------------------------------- sentences and clauses

/** A clause's place in its sentence: 'so' draws a consequence of the clause before (", so the market resolves No"). */
type ClauseKind = 'first' | 'semi' | 'colon' | 'but' | 'except' | 'not' | 'so';

interface Scope {
  /** A list of markets named item by item ("sides, totals, moneylines, 2nd half wagers"): the clause
   * holds a market when one item does; the league words of the clause hold for every item. */
  alternatives?: Pick<Scope, 'segments' | 'markets' | 'blocking'>[];
  leagues?: Set<string>;
  sports?: Set<string>;
  complement: boolean;
  blocking: boolean;
  segments?: Set<string>;
  markets?: Set<string>;
}

export interface Clause {
  kind: ClauseKind;
  text: string;
  words: string[];
  scope: Scope;
  /** Dimensions the clause names itself (not taken from the clause before it). */
  /** `gameLines`: the clause names the game's lines ("game lines", "all game and second half lines"), the
   * markets on the game's result and score (money line, spread, totals), not a player's props. */
  own: { league: boolean; segment: boolean; market: boolean; blocking: boolean; result?: boolean; foreign?: boolean; every?: boolean; side?: boolean; gameLines?: boolean };
  /** A qualifier withdraws the statement ("usually exclude", "may count depending on the market"). */
  withdrawn: boolean;
  /** Withdrawn only because it asks whether ("this article explains whether overtime points count"):
   * a question hedges no statement; the text's answer is read. */
  asking?: boolean;
  /** A reason given after a statement ("..., since only the fourth quarter's points count"): it takes no
   * topic from the statement, so it states a value only where it names the rule itself. */
  reason?: boolean;
  /** Per word: inside a leading condition ("if a bet does not include overtime, ..."), which names a
   * case and states no value. */
  conditional: boolean[];
  /** For the first clause of a sentence answering the question before it ("Does overtime count?
   * Yes."), the question's words. */
  asked?: { text: string; words: string[]; conditional: boolean[] };
  /** The first clause of a sentence opening a numbered item ("2. Definitions: ..."). */
  item?: boolean;
  /** An exception said in a sentence of its own ("... . Match betting is the exception."): it
   * excepts from every statement of the sentence before, not only from that sentence's last clause. */
  trailing?: boolean;
}

const ABBREV = /\b(incl|excl|vs|approx|e\.g|eg|i\.e)\./gi;

/** Marks that open a list item: each item is a sentence of its own ("• OT stats: count • Shootout: no"). */
const BULLETS = new Set(['\u2022', '\u25aa', '\u25cf', '\u2023', '\u00b7']);

/** Quote marks that may close a quoted sentence. */
const CLOSING_QUOTES = new Set(["'", '"', '\u2019', '\u201d']);

/** Sentences end at . ! ? before a space (a URL's dots and "incl." stay inside); a question is a heading. */
export function sentenceList(text: string): { text: string; question: boolean }[] {
  const masked = text.replace(ABBREV, (m) => m.slice(0, -1) + '\u0000');
  const out: { text: string; question: boolean }[] = [];
  let start = 0;
  for (let i = 0; i <= masked.length; i++) {
    const c = masked[i];
    // A line end closes a sentence too: a table row or a list item printed on a line of its own.
    // "every Will X win? contract settles at $0": a question quoted as a title inside a sentence goes on in lower
    // case; a field label after a question ("... Winner? rulesPrimary: ...") still opens a sentence.
    const goesOn = c === '?' && /^ [a-z]+(?=[\s,;])/.test(masked.slice(i + 1));
    const end = i === masked.length || c === '\n' || BULLETS.has(c) || ((c === '.' || c === '!' || c === '?') && !goesOn && (i + 1 === masked.length || /\s/.test(masked[i + 1])));
    // "'Overtime does not count for my bet.' False for full-game bets: ...": a quoted sentence ends at
    // its closing quote (a quoted question stays inside the sentence it stands in).
    const quoted = !end && (c === '.' || c === '!') && CLOSING_QUOTES.has(masked[i + 1]) && (i + 2 === masked.length || /\s/.test(masked[i + 2]));
    if (!end && !quoted) continue;
    if (quoted) i++;
    const s = text.slice(start, Math.min(i + (BULLETS.has(c) ? 0 : 1), text.length)).trim();
    // "4. Ties in two-way markets: ..." numbers the sentence after it; the number ends no sentence.
    if (/^\d+\.$/.test(s)) continue;
    if (s) out.push({ text: s, question: s.endsWith('?') });
    start = i + 1;
  }
  return out;
}

/** The sentences that state rules (questions dropped). */
export function sentences(text: string): string[] {
  return sentenceList(text)
    .filter((s) => !s.question)
    .map((s) => s.text);
}

/** Words that, before a period, name the time past it ("after the fourth quarter", "beyond the ninth inning"). */
const PAST_PERIOD = new Set(['after', 'beyond', 'past']);
const afterPeriod = (words: string[], i: number) => PAST_PERIOD.has(words[i - 1]) || (words[i - 1] === 'the' && PAST_PERIOD.has(words[i - 2]));

/** Words naming the money a share is taken of ("half the stake", "half of your bet"). */
const STAKE_NOUNS = new Set(['stake', 'stakes', 'bet', 'bets', 'wager', 'wagers', 'money', 'amount']);
const SHARE_VERBS = new Set(['wins', 'loses', 'won', 'lost']);
/** "half a point", "half of the points": a share of a pool's point or of a line's point, not the half. */
const POINT_NOUNS = new Set(['point', 'points']);
const SETTLED = new Set(['lost', 'won', 'paid', 'settled', 'refunded', 'returned']);

/** "half the bet wins at the odds and half loses", "the other half is lost": a dead heat's share of
 * the stake (or "half a point", a pool's share of a point), not the first or second half of the game. */
function shareOfStake(words: string[], i: number): boolean {
  if (words[i] !== 'half' || ORDINALS.has(words[i - 1])) return false;
  let k = i + 1;
  if (words[k] === 'of') k++;
  if (['the', 'your', 'a', 'its', 'their', 'each'].includes(words[k])) k++;
  // "half bets" and "half wagers" are bets on a half: a share takes "the", "your" or "of" first.
  // "half of your assigned confidence points": up to two words may qualify the points or the stake.
  if (k > i + 1 && [k, k + 1, k + 2].some((j) => STAKE_NOUNS.has(words[j]) || POINT_NOUNS.has(words[j]))) return true;
  return words[i - 1] === 'other' || SHARE_VERBS.has(words[i + 1]) || (words[i + 1] === 'is' && SETTLED.has(words[i + 2]));
}

/** Whether the words between "all" and a market noun name what every market of is meant: a league or a
 * sport ("all ice hockey markets") or the full game ("all full-game markets"). */
function everyMarketOf(between: string[]): boolean {
  if (between.every((w) => scopeCandidates(w).some((c) => c.entry.dim === 'league' || c.entry.dim === 'sport'))) return true;
  return scopeCandidates(between[0] ?? '').some((c) => c.entry.dim === 'segment' && c.tokens.length === between.length && c.tokens.every((t, k) => t === between[k]) && c.entry.values?.length === 1 && c.entry.values[0] === 'full');
}

function readScope(words: string[]): { scope: Scope; own: Clause['own'] } {
  const scope: Scope = { complement: false, blocking: false };
  const own: Clause['own'] = { league: false, segment: false, market: false, blocking: false };
  const add = (k: 'leagues' | 'sports' | 'segments' | 'markets', vs: string[]) => {
    const set = scope[k] ?? new Set<string>();
    for (const v of vs) set.add(v);
    scope[k] = set;
  };
  const sides = new Set<string>();
  let otherLeague = false;
  // The sports the clause names (by their leagues), to tell a list of sports from one sport.
  const sportsNamed = new Set<string>();
  let overtimeLabel = false;
  // "..., and that holds for every market": said of every market, the statement reaches beyond the
  // markets it named on the way.
  const reachAll = words.some((w, k) => REACH.has(w) && (words[k + 1] === 'for' || words[k + 1] === 'to') && EVERY.has(words[k + 2]) && MARKET_NOUNS.has(words[k + 3]));
  let everyEnd = -1;
  let lastSegmentEnd = -1;
  // "game lines and team totals include overtime": the full game's lines named beside another market.
  let gameLinesBeside = false;
  for (let i = 0; i < words.length; ) {
    // "All markets, second-half markets included, are settled on ...": markets said to be included in
    // "all markets" are among them, not the clause's scope.
    // The same after "all <sport> markets" ("all ice hockey markets, player statistics included, are ...")
    // and after "all full-game markets" ("all full-game markets (live betting included) are settled ...").
    if (i === everyEnd || (i > 1 && MARKET_NOUNS.has(words[i - 1]) && words.slice(Math.max(0, i - 5), i - 1).includes('all') && everyMarketOf(words.slice(words.lastIndexOf('all', i - 1) + 1, i - 1)))) {
      const q = words.indexOf('included', i);
      if (q > i && q - i <= 4 && !words.slice(i, q).some((w) => PREDICATE_VERBS.has(w) || NEGATION_CUES.has(w))) {
        i = q + 1;
        continue;
      }
    }
    // "every pick on him is scored as void, More or Less": a closing "More or Less" names the two
    // selections of a pick the statement holds for alike (as "whether More or Less was selected" does),
    // not the total market that "more or less on the full game" or "more or less than" a figure names.
    if (i === words.length - 3 && i > 0 && words[i] === 'more' && words[i + 1] === 'or' && words[i + 2] === 'less') break;
    let matched = 0;
    // An entry held to the clause's start ("^ result") is tried there first.
    const anchored = i === 0 ? SCOPE_AT_START.filter((a) => a.tokens[0] === words[0] || (a.tokens.length === 1 && `${a.tokens[0]}s` === words[0])) : [];
    for (const c of [...anchored, ...scopeCandidates(words[i])]) {
      // "if he did not enter the game at all, bets on him are returned": the "all" of "at all" (its comma
      // dropped by the tokenizer) is no "all bets".
      if (c.entry.dim === 'all' && words[i - 1] === 'at') continue;
      // A scope word also names its plural ("run lines", "team totals").
      if (wordsAtOrPlural(words, i, c.tokens)) {
        matched = c.tokens.length;
        const e = c.entry;
        const vs = e.values ?? [];
        if (e.dim === 'league' || e.dim === 'sport') {
          // "the handicap, similar to football's", "as in football": a sport named to compare with is
          // not the sport the clause speaks of.
          if (!comparedAt(words, i)) {
            add(e.dim === 'league' ? 'leagues' : 'sports', vs);
            if (e.dim === 'sport') sportsNamed.add(vs.join('/'));
            own.league = true;
          }
        } else if (e.dim === 'complement') {
          // "non-NFL", "other than the NHL": the complement of the league named after it; "non-starting
          // players" names no league.
          const at = i + c.tokens.length;
          if (namesLeagueAt(words, at) || (words[at] === 'the' && namesLeagueAt(words, at + 1))) {
            scope.complement = true;
            own.league = true;
          } else if (c.tokens.length === 1 && c.tokens[0] === 'non') {
            // "scoring is non-spread": a market denied by "non" is no market the clause speaks of.
            const denied = scopeCandidates(words[at] ?? '').find((d) => d.entry.dim === 'market' && wordsAtOrPlural(words, at, d.tokens));
            if (denied) matched += denied.tokens.length;
          }
        } else if (e.dim === 'other_league') {
          // "In national and international ice hockey championships": international competitions named
          // beside the national ones are every competition, not the international ones alone.
          if (!(c.tokens[0] === 'international' && (words[i - 1] === 'and' || words[i - 1] === 'or') && DOMESTIC.has(words[i - 2]))) otherLeague = true;
        } else if (e.dim === 'blocking') {
          // "the win/draw/lose bet and the under/over are settled on regulation": a market outside the
          // spec coordinated with one of ours leaves the statement standing for ours.
          // "settled on the result after regular playing time (60 minutes)": a length in its plural
          // right after a name of regulation restates that length, it is not the 60-minute market.
          if (!coordinatedWithMarket(words, i + c.tokens.length) && !restatesRegulation(words, i, c.tokens)) {
            scope.blocking = true;
            own.blocking = true;
          }
        } else if (e.dim === 'segment') {
          // "points scored after the fourth quarter" names the time after that period (overtime),
          // not the period: the clause is not about fourth-quarter markets.
          // "eight and a half innings", "a day and a half": a number and a half is a count, not the half.
          // "the 2nd half counts the 3rd and 4th quarters and any overtime", "the 1st half is the 1st and
          // 2nd quarters": periods named after a verb that follows a period and says what it is made of
          // are its parts, not the clause's scope.
          const parts = lastSegmentEnd >= 0 && COMPOSED_OF.has(words[lastSegmentEnd]);
          if (!afterPeriod(words, i) && !(c.tokens.length === 1 && shareOfStake(words, i)) && !countedHalf(words, i, c.tokens) && !parts) {
            add('segments', vs);
            own.segment = true;
            lastSegmentEnd = i + c.tokens.length;
            const end = i + c.tokens.length;
            if (vs.length === 1 && vs[0] === 'full' && MARKET_NOUNS.has(c.tokens[c.tokens.length - 1]) && (words[end] === 'and' || words[end] === 'or')) gameLinesBeside = true;
            // "Game lines", "all game and second half lines": a sportsbook's name for the markets on the
            // game's result and score, listed apart from its props. "Full-game lines" names the period
            // the lines are on, "pre-game" and "in-game lines" the time they are offered: neither is that name.
            if (c.tokens[0] === 'game' && !BEFORE_OTHER_GAME_LINES.has(words[i - 1]) && (c.tokens[c.tokens.length - 1] === 'lines' || words[end] === 'lines' || words[end] === 'line')) own.gameLines = true;
          }
        } else if (e.dim === 'market') {
          add('markets', vs);
          // "Game total: nine innings only, as for the team totals": a market named as one the statement also
          // holds for is added to the markets the clause speaks of (the label's game total), not its own
          // subject (code, `inherit`).
          if (!alsoForMarketAt(words, i)) {
            own.market = true;
            // "The full-game winner": a market named with its period names that period too.
            if (c.tokens[0] === 'full' && (c.tokens[1] === 'game' || c.tokens[1] === 'match')) {
              add('segments', ['full']);
              own.segment = true;
            }
            if (labelledWithOvertime(words, i + c.tokens.length)) overtimeLabel = true;
          }
        } else if (e.dim === 'result') {
          own.result = true;
          // "The match result, the handicap and the total include overtime": a result named in a list
          // of markets is the result market, the money line.
          if (c.tokens[0] !== '^' && inMarketList(words, i, i + c.tokens.length, !!scope.markets?.size)) {
            add('markets', ['moneyline']);
            own.market = true;
          }
        } else if (e.dim === 'side') {
          // "If the favourite wins by exactly the handicap" names the result, a margin, not one side's
          // bet: the case it states holds for both sides.
          if (!(MARGIN_VERBS.has(words[i + c.tokens.length]) && words[i + c.tokens.length + 1] === 'by')) for (const v of vs) sides.add(v);
        } else if (e.dim === 'all') {
          // "All bets", "all markets": a subject that covers every market does not take a heading's
          // market, period or condition (it still stands in the heading's league section).
          own.segment = own.market = own.blocking = true;
          own.every = true;
          everyEnd = i + c.tokens.length;
          // "all markets that include overtime": the noun is read again, so a class of markets named by
          // what the rule does to them ("markets that include", "markets marked") still blocks.
          matched = c.tokens.length - 1;
        }
        break;
      }
    }
    // "Second-half bets (winner, handicap, under/over)": "winner" in a list of markets is the winner
    // market, the money line (alone, "the winner of the shootout" names none).
    // "Winner: if the Kings win, ...": a clause that is only the word is a market's label.
    if (!matched && RESULT_MARKET_WORDS.has(words[i]) && (inMarketList(words, i, i + 1, !!scope.markets?.size) || namedAsMarket(words, i) || words.length === 1)) {
      add('markets', ['moneyline']);
      own.market = true;
    }
    i += matched || 1;
  }
  // "All bets on a game, including bets on the second half and on the fourth quarter, are settled ...",
  // "All bets include overtime, including bets on the second half": the periods of the inset are named
  // beside the game's own bets, not instead of them; the full game stays in the clause's scope.
  if (everyEnd >= 0 && scope.segments?.size && !scope.segments.has('full') && words.some((w, k) => k >= everyEnd && (w === 'including' || w === 'incl') && (MARKET_NOUNS.has(words[k + 1]) || (words[k + 1] === 'those' && words[k + 2] === 'on')))) {
    add('segments', ['full']);
  }
  // "NHL: game lines and team totals include overtime": the game's lines ("game lines", "match bets")
  // coordinated with a market of their own kind keep naming the game's lines, the money line, the
  // spread and the total; the market beside them is added to them, it does not narrow them.
  if (gameLinesBeside && scope.markets?.size) add('markets', ['moneyline', 'spread', 'total']);
  // "Total (incl. overtime): ...": a market labelled as including overtime is the full game's (a quarter
  // or a half has no overtime of its own); a period named beside it keeps its own scope.
  if (overtimeLabel && !own.segment) {
    add('segments', ['full']);
    own.segment = true;
  }
  // "Player goal and point markets count overtime": "player", what the market counts and a market noun
  // name a player's market as "player props" does.
  if (!scope.markets?.has('player_prop') && namesPlayerMarket(words)) {
    add('markets', ['player_prop']);
    own.market = true;
  }
  if (reachAll) {
    scope.markets = undefined;
    scope.segments = undefined;
  }
  // "If the line is on regular time, goals in overtime are not counted": a condition naming a market by
  // the basis it is offered on is a kind of market of its own, as a label is ("lines marked
  // 'regulation only'"); the statement is that kind's, not every market's.
  if (conditionNamesBasis(words) || conditionNamesThreeOutcomes(words)) {
    scope.blocking = true;
    own.blocking = true;
  }
  // A league outside the spec blocks the clause unless it names one of ours beside it ("NHL / NCAA"), or
  // a list of sports names two of ours beside it ("baseball, football, basketball, hockey and soccer
  // events"): a sport outside the spec listed among ours leaves the statement standing for ours. One
  // sport of ours with a qualifier outside the spec ("the European basketball governing body") stays
  // outside.
  if (otherLeague && !scope.leagues?.size && sportsNamed.size < 2) {
    scope.blocking = true;
    own.blocking = true;
    own.foreign = true;
  }
  // A clause about one side only ("if the bet is on the favorite, you lose half") does not settle the
  // market's rule, which holds for both sides; "the over or under" names both.
  if (sides.has('over') !== sides.has('under') || sides.has('favorite') !== sides.has('underdog')) {
    // Blocked by one side alone: the statement is that side's, not a section's (see parseSections).
    if (!scope.blocking) own.side = true;
    scope.blocking = true;
    own.blocking = true;
  }
  return { scope, own };
}

/** Verbs saying what a period is made of ("counts", "is", "comprises"). */
const COMPOSED_OF = new Set(['is', 'are', 'count', 'counts', 'include', 'includes', 'comprise', 'comprises', 'cover', 'covers', 'span', 'spans', 'means']);

/** Number words before "and a half" ("eight and a half innings", "4 and a half"). */
const COUNT_WORDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'day', 'hour', 'inning', 'minute']);
/** Whether a segment entry matched at i is the "half" of "<number> and a half": a count of innings, days or
 * hours ("after nine innings, eight and a half if the home team leads"), not the half market. */
function countedHalf(words: string[], i: number, tokens: string[]): boolean {
  const h = i + tokens.indexOf('half');
  if (h < i || words[h - 1] !== 'a' || words[h - 2] !== 'and') return false;
  const n = words[h - 3] ?? '';
  return /^\d+$/.test(n) || COUNT_WORDS.has(n);
}

/** Words before "game lines" that make them lines of a period or of a time of offer ("full-game lines",
 * "pre-game lines", "in-game lines"), not the game's lines as a kind of market. */
const BEFORE_OTHER_GAME_LINES = new Set(['full', 'entire', 'whole', 'pre', 'in']);

/** Competitions at home, named beside international ones ("national and international championships"). */
const DOMESTIC = new Set(['national', 'domestic']);

/** Words by which a label says what a market includes ("Total (incl. overtime)", "Handicap (including extra time)"). */
const LABEL_INCLUDES = new Set(['incl', 'inc', 'including']);
const OVERTIME_MEMBERS = CLASSES.get('@overtime_periods') ?? [];
/** Whether a market noun ending at word i is labelled as including overtime. */
const labelledWithOvertime = (words: string[], i: number) => LABEL_INCLUDES.has(words[i]) && (words[i + 1] === 'ot' || OVERTIME_MEMBERS.some((o) => wordsAt(words, i + 1, o)));

/** Words a label names overtime by ("incl. OT and shoot-outs", "incl. overtime and penalties"): the class's and these. */
const LABEL_OVERTIME_WORDS = new Set(['ot', 'shootout', 'shootouts', 'shoot', 'outs', 'out', 'penalties', 'the', 'any', ...OVERTIME_MEMBERS.flat()]);
/** Whether the words end with a market labelled as including overtime ("match winner incl. overtime and
 * shoot-outs"): a market named, its label word, then only what overtime is made of. */
function endsWithOvertimeLabel(words: string[]): boolean {
  let k = words.length - 1;
  while (k >= 0 && !LABEL_INCLUDES.has(words[k])) k--;
  if (k < 1 || !labelledWithOvertime(words, k) || !namesMarketAt(words, k - 1)) return false;
  return words.slice(k + 1).every((w) => w === 'and' || w === 'or' || LABEL_OVERTIME_WORDS.has(w));
}

/** Verbs by which a market bears a label ("labelled", "marked as"), and adverbs before them ("clearly labelled"). */
const LABEL_VERBS = new Set(['labelled', 'labeled', 'marked', 'designated', 'denoted', 'titled']);
const LABEL_ADVERBS = new Set(['clearly', 'explicitly', 'expressly', 'specifically']);
/** Whether the words say that only markets labelled as including overtime count it ("only markets clearly
 * labelled 'including extra time'", "only bets marked as incl. OT"). */
function onlyLabelledIncluded(words: string[]): boolean {
  for (let k = 0; k < words.length; k++) {
    if (words[k] !== 'only' || !MARKET_NOUNS.has(words[k + 1] ?? '')) continue;
    let j = k + 2;
    if (LABEL_ADVERBS.has(words[j])) j++;
    if (!LABEL_VERBS.has(words[j])) continue;
    j++;
    if (words[j] === 'as') j++;
    if (labelledWithOvertime(words, j)) return true;
  }
  return false;
}

const STAT_JOINERS = new Set(['and', 'or']);
/** Nouns naming a player by his role, before what his market counts ("player points bets", "a batter's hits bet"). */
const PLAYER_ROLES = new Set(['player', 'batter', 'hitter', 'pitcher', 'skater', 'goalie', 'quarterback']);
/** Whether the words hold "player" (or a role, "a batter's"), then what a player's market counts (class `stat_noun`, joined by
 * "and" or "or") and a market noun: "player goal and point markets", "player shots bets". */
function namesPlayerMarket(words: string[]): boolean {
  const stats = CLASSES.get('@stat_noun')!;
  for (let k = 0; k < words.length; k++) {
    if (!PLAYER_ROLES.has(words[k])) continue;
    // "a batter's hits bet": the role in its possessive.
    let i = words[k + 1] === 's' ? k + 2 : k + 1;
    let counted = 0;
    for (;;) {
      const st = stats.find((x) => wordsAt(words, i, x));
      if (!st) break;
      i += st.length;
      counted++;
      if (!STAT_JOINERS.has(words[i]) || !stats.some((x) => wordsAt(words, i + 1, x))) break;
      i++;
    }
    if (counted && MARKET_NOUNS.has(words[i])) return true;
  }
  return false;
}

/** Whether `tokens` stand in `words` from word i on (never for an i before the first word). */
function wordsAt(words: readonly string[], i: number, tokens: readonly string[]): boolean {
  return i >= 0 && tokens.every((t, j) => words[i + j] === t);
}

/** wordsAt, the last token also in its plural ("quarter" for "quarters"). */
function wordsAtOrPlural(words: readonly string[], i: number, tokens: readonly string[]): boolean {
  return i >= 0 && tokens.every((t, j) => words[i + j] === t || (j === tokens.length - 1 && words[i + j] === `${t}s`));
}

/** Words that, right before a league or sport, name it as a term of comparison. */
const COMPARISONS = [['similar', 'to'], ['as', 'in'], ['unlike'], ['differs', 'from'], ['differ', 'from'], ['different', 'from'], ['compared', 'to'], ['compared', 'with'], ['than', 'in']];
function comparedAt(words: string[], i: number): boolean {
  const at = words[i - 1] === 'the' ? i - 1 : i;
  // "Basketball, like baseball, has no draw": a sport after "like" that follows another sport is compared
  // with (the subject is the first); "sports like hockey" gives examples and stays the clause's sport.
  if (words[at - 1] === 'like' && at >= 2 && namesLeagueAt(words, at - 2)) return true;
  return COMPARISONS.some((c) => wordsAt(words, at - c.length, c));
}

/** Words that, right before a market, name it as one the statement holds for as well ("nine innings only,
 * as for the team totals", "as with the moneyline", "the same as for totals"). "As for" opening a clause
 * names its subject ("As for team totals, extra innings count") and adds nothing. */
const ALSO_FOR = [['as', 'with'], ['same', 'as'], ['same', 'as', 'for']];
function alsoForMarketAt(words: string[], i: number): boolean {
  const at = words[i - 1] === 'the' ? i - 1 : i;
  if (at >= 3 && words[at - 2] === 'as' && words[at - 1] === 'for') return true;
  return ALSO_FOR.some((c) => wordsAt(words, at - c.length, c));
}

/** The markets a clause naming none as its subject takes from before it, with those it names as holding
 * the statement as well ("as for the team totals"). With no market before it, the clause holds for the
 * markets it names that way and no others (not every market). */
function withAlsoFor(c: { scope: Scope }, prev: Scope): Scope['markets'] {
  if (!c.scope.markets?.size) return prev.markets;
  return prev.markets ? new Set([...prev.markets, ...c.scope.markets]) : c.scope.markets;
}

/** Nouns of a game's result ("the 60-minute result", "the score of 60 minutes"). */
const RESULT_NOUNS = new Set(['result', 'results', 'score', 'scores']);
/** Whether the entry matched at i is a length read in its plural ("60 minutes" for the entry "60
 * minute") right after a name of regulation ("regular playing time (60 minutes)", "the regular 60
 * minutes") or before "of" and one ("the 60 minutes of regular time"): the length of regulation
 * restated, not the 60-minute market. */
function restatesRegulation(words: string[], i: number, tokens: string[]): boolean {
  const last = tokens[tokens.length - 1];
  const after = i + tokens.length;
  // "Settled on the 60-minute result": the result of the regular length, not a 60-minute market.
  if (last === 'minute' && words[after - 1] === 'minute' && RESULT_NOUNS.has(words[after])) return true;
  if (last !== 'minute' || words[i + tokens.length - 1] !== 'minutes') return false;
  const regulation = CLASSES.get('@regulation') ?? [];
  // "the regular 60 minutes of play": a word naming regulation may also stand before the length.
  if (REGULATION_ADJECTIVES.has(words[i - 1])) return true;
  // "Settled on the result of 60 minutes": the length the result is taken at.
  if (words[i - 1] === 'of' && RESULT_NOUNS.has(words[i - 2])) return true;
  // "The total goals count only the 60 minutes": what a market counts is a length of play.
  if (words[i - 1] === 'only' || (words[i - 1] === 'the' && words[i - 2] === 'only')) return true;
  return regulation.some((r) => wordsAt(words, i - r.length, r) || (words[after] === 'of' && wordsAt(words, after + 1 + (words[after + 1] === 'the' ? 1 : 0), r)));
}
/** Words naming regulation before a length ("the regular 60 minutes", "the normal 60 minutes"). */
const REGULATION_ADJECTIVES = new Set(['regular', 'regulation', 'normal', 'standard', 'usual']);

/** Words that place a tie at a moment of the game ("level after regular time", "tied at the end of regulation"). */
const TIE_MOMENTS = [['after'], ['following'], ['at', 'the', 'end', 'of'], ['at', 'the', 'close', 'of'], ['at', 'end', 'of'], ['at']];
/** Whether the words name a tie at the end of the regular length and no later ("the game ends level after
 * regular time", "if the teams are level at the end of regulation"), not one "after regulation and
 * overtime": the tie of a market settled on regulation, which the game may still break in overtime. */
function tieAtRegulation(words: string[]): boolean {
  const regulation = CLASSES.get('@regulation')!;
  const joiners = CLASSES.get('@joiner')!;
  for (const h of topicHits('tie', words))
    for (let k = h.start + 1; k <= h.end + 2 && k < words.length; k++)
      for (const moment of TIE_MOMENTS) {
        if (!wordsAt(words, k, moment)) continue;
        const at = k + moment.length + (words[k + moment.length] === 'the' ? 1 : 0);
        const r = regulation.find((x) => wordsAt(words, at, x));
        if (r && !joiners.some((j) => wordsAt(words, at + r.length, j))) return true;
      }
  return false;
}

const THREE = new Set(['three', '3']);
const OUTCOME_FILLERS = new Set(['possible', 'outcomes', 'outcome', 'results', 'options', 'selections']);
const OFFERED = new Set(['given', 'offered', 'listed', 'available', 'shown', 'quoted']);
/** Whether the words hold a condition on a market with three outcomes ("if three are given", "when 3
 * possible outcomes are offered"): the three-way market, outside the spec, as a label naming it is. */
function conditionNamesThreeOutcomes(words: string[]): boolean {
  for (let k = 0; k < words.length; k++) {
    if (!opensCase(words[k]) || !THREE.has(words[k + 1])) continue;
    let i = k + 2;
    while (OUTCOME_FILLERS.has(words[i])) i++;
    if ((words[i] === 'are' || words[i] === 'is') && OFFERED.has(words[i + 1])) return true;
  }
  return false;
}

const BASIS_NOUNS = new Set(['line', 'lines', 'market', 'markets', 'bet', 'bets', 'wager', 'wagers']);
const BASIS_DETERMINERS = new Set(['the', 'a', 'your', 'this']);
/** Whether the words hold a condition ("if", "when") whose subject is a line, market or bet and whose
 * predicate is the basis it is on or for: "if the line is on regular time", "when bets are for regulation". */
function conditionNamesBasis(words: string[]): boolean {
  for (let k = 0; k < words.length; k++) {
    if (!opensCase(words[k])) continue;
    let i = k + 1;
    if (BASIS_DETERMINERS.has(words[i])) i++;
    if (!BASIS_NOUNS.has(words[i]) || (words[i + 1] !== 'is' && words[i + 1] !== 'are') || (words[i + 2] !== 'on' && words[i + 2] !== 'for')) continue;
    const at = i + 3;
    if (CLASSES.get('@regulation')!.some((r) => wordsAt(words, at, r))) return true;
  }
  return false;
}

/** Words that may join two coordinated market names ("the three-way bet and the total"). */
const MARKET_JOINERS = new Set(['and', 'or', 'the', 'a', 'an']);

/** Whether the words from i join what stands before them to one of our markets by "and" or "or"
 * ("... bet and the under/over"): coordinated market names, each said of the same statement. */
function coordinatedWithMarket(words: string[], i: number): boolean {
  let k = i;
  let joined = false;
  while (k < words.length && (MARKET_JOINERS.has(words[k]) || MARKET_NOUNS.has(words[k]))) {
    if (words[k] === 'and' || words[k] === 'or') joined = true;
    k++;
  }
  return joined && k - i <= 4 && namesMarketAt(words, k);
}

/** Participles by which a clause says overtime is played ("overtime is played", "extra time is held"). */
const PLAYED = new Set(['played', 'held', 'contested', 'staged']);
/** Whether the words say that the rule's topic is played ("overtime is played in most leagues"): a
 * description of the sport, no statement of how a market settles. */
function describesPlay(rule: ReadRule, words: string[]): boolean {
  return topicHits(rule, words).some((h) => {
    // "One overtime period usually lasts five minutes": the period's length, a frequency word between.
    let e = h.end;
    if (words[e] === 'period' || words[e] === 'periods') e++;
    while (FREQUENCY_WORDS.has(words[e])) e++;
    return ((words[e] === 'is' || words[e] === 'are') && PLAYED.has(words[e + 1])) || LASTS.has(words[e]);
  });
}
/** Verbs by which a clause gives a period's length ("overtime lasts five minutes"). */
const LASTS = new Set(['lasts', 'last']);
/** Frequency words that may stand between a period and what is said of how it is played. */
const FREQUENCY_WORDS = new Set(['usually', 'typically', 'normally', 'generally', 'often', 'always']);

/** Words that name the winner market when listed among markets. */
const RESULT_MARKET_WORDS = new Set(['winner', 'winners']);
/** Nouns by which a venue names a kind of bet before its name ("the game type 'Winner'", "the bet type Winner"). */
const MARKET_LABEL_NOUNS = new Set(['type', 'market', 'play', 'option']);
/** "The game type 'Winner' includes overtime", "the winner bet": a result word right after a noun naming a
 * kind of bet, or "winner" before one, is that bet's name, the money line. */
function namedAsMarket(words: string[], i: number): boolean {
  if (MARKET_LABEL_NOUNS.has(words[i - 1]) && (words[i - 2] === 'game' || words[i - 2] === 'bet' || words[i - 2] === 'the' || words[i - 2] === 'betting')) return true;
  // "These count both for the winner bet and for the total of runs": the bet named by its result.
  return words[i] === 'winner' && WINNER_BET_NOUNS.has(words[i + 1]);
}
/** Nouns after "winner" that make it a bet's name ("the winner bet", "the winner market"). */
const WINNER_BET_NOUNS = new Set(['bet', 'bets', 'market', 'markets', 'wager', 'wagers']);

/** Whether the words from `start` to `end` stand in a list of markets: a market follows them
 * after joining words only ("the match result, the puck line and ..."), or one was named before them
 * and "and" or "or" joins them on ("the handicap and the match result"). */
function inMarketList(words: string[], start: number, end: number, marketBefore: boolean): boolean {
  // "the match result (1 or 2), the handicap and ...": the two outcomes in the result's own parenthesis
  // label it (a "1, X, 2" is the three-way result and is not skipped), they are not the list's next item.
  let from = end;
  if (TWO_WAY_CODES.has(words[from] ?? '')) {
    from++;
    while ((words[from] === 'or' || words[from] === 'and') && TWO_WAY_CODES.has(words[from + 1] ?? '')) from += 2;
    if (!TWO_WAY_CODES.has(words[from - 1]) || words[from] === 'x' || words[from] === '0') from = end;
  }
  let k = from;
  while (k < words.length && MARKET_JOINERS.has(words[k]) && k - from < 2) k++;
  if (scopeCandidates(words[k] ?? '').some((c) => c.entry.dim === 'market' && wordsAtOrPlural(words, k, c.tokens))) return true;
  let b = start - 1;
  if (words[b] === 'the') b--;
  return marketBefore && (words[b] === 'and' || words[b] === 'or');
}

/** A two-way result's outcome codes, as a parenthesis after "match result" lists them ("(1 or 2)"). */
const TWO_WAY_CODES = new Set(['1', '2']);

/** Verbs of a side's result that a margin follows ("the favourite wins by exactly 3"). */
const MARGIN_VERBS = new Set(['wins', 'win', 'won', 'loses', 'lose', 'lost', 'beats']);

/** Verbs by which a clause says its statement reaches markets ("holds for every market", "applies to all bets"). */
const REACH = new Set(['holds', 'hold', 'applies', 'apply', 'extends']);
const EVERY = new Set(['every', 'all', 'each', 'any']);

/** Leagues whose games are played in no quarters (hockey's periods, baseball's innings). */
const NO_QUARTERS = new Set(['nhl', 'mlb']);

/** "... a hockey shootout included; quarter periods such as 4q cover that quarter alone": a clause naming
 * quarters of its own and no league takes no league from a clause before that names only leagues played
 * in no quarters; the quarters are another sport's. */
function quartersOutside(c: { scope: Scope; own: Clause['own'] }, prev: Scope): boolean {
  const named = [...(prev.leagues ?? []), ...(prev.sports ?? [])];
  const segs = c.own.segment ? [...(c.scope.segments ?? [])] : [];
  return segs.length > 0 && segs.every((x) => x.startsWith('quarter:')) && named.length > 0 && named.every((l) => NO_QUARTERS.has(l));
}

function inherit(c: { scope: Scope; own: Clause['own'] }, prev: Scope | undefined, kind?: ClauseKind, prevOwnBlocking = false, prevForeign = false): Scope {
  if (!prev) return c.scope;
  const s: Scope = { ...c.scope };
  if (!c.own.league && !quartersOutside(c, prev)) {
    s.leagues = prev.leagues;
    s.sports = prev.sports;
    s.complement = prev.complement;
  }
  if (!c.own.segment) s.segments = prev.segments;
  if (!c.own.market) s.markets = withAlsoFor(c, prev);
  if (!c.own.segment && !c.own.market) s.alternatives = prev.alternatives;
  // A condition outside our markets carries on unless the clause names its own league or market; what
  // follows a heading's colon describes the heading's market ("Handicap (Excl OT): ... the handicap").
  // One that names its own period leaves a period outside the spec named by the clause before it
  // ("Overtime does not count towards 3rd period bets; full game bets include it"), not a market
  // heading's ("Half-Time/Full-Time: ...; full-time is settled on the match result").
  const ownPeriod = c.own.segment && kind !== 'colon' && prevOwnBlocking;
  if (!c.own.blocking && !c.own.league && !ownPeriod && (!c.own.market || kind === 'colon')) s.blocking = prev.blocking;
  // "3-way match bets: all bets are settled on the result after regular time": "all bets" in the
  // entry of a heading about a market outside the spec are that market's bets, not every market.
  if (c.own.every && kind === 'colon' && prevOwnBlocking && prev.blocking) s.blocking = true;
  // "where a boxer fails to answer the bell, ...; where a technical draw is declared, all bets are losing bets":
  // "all bets" after a semicolon that follows a clause about a sport outside the spec are that sport's bets.
  if (c.own.every && kind === 'semi' && prevForeign && prev.blocking) s.blocking = true;
  // "On 3-Way Oddset the tie rules are: Hockey - ...": a league or sport that opens the entry of a
  // heading about a market outside the spec is that market's section for the league, not every market's.
  if (c.own.league && !c.own.market && !c.own.segment && kind === 'colon' && prevOwnBlocking && prev.blocking) s.blocking = true;
  return s;
}

/** "Markets that exclude overtime", "Bets which do not include overtime": a heading naming markets
 * by what the rule does to them, and nothing else. */
function isClassHeading(w: string[]): boolean {
  return /^(?:markets|bets|wagers|lines) (?:that|which) (?:include|exclude|do not include|does not include) [a-z ]+$/.test(w.join(' ')) && w.length <= 7;
}

/** Words that open an exception, at a sentence's start or after its statement ("except" and
 * "unless" are read where they stand). */
const EXCEPTION_OPENERS = [['with', 'the', 'exception', 'of'], ['save', 'for'], ['apart', 'from'], ['aside', 'from'], ['except', 'for'], ['excepting'], ['barring']];

/** Openings of a statement about every sport but the ones named after "except". */
const ALL_SPORTS_OPENERS = [
  ['for', 'all', 'sports', 'except'],
  ['in', 'all', 'sports', 'except'],
  ['all', 'sports', 'except'],
  ['for', 'every', 'sport', 'except'],
];

/** Labels of a question and its answer in an FAQ ("Q: ... A: Yes."). */
const QA_LABELS = new Set(['q', 'a', 'question', 'answer']);
const QA_QUESTION = /^\s*(?:q|question)\s*:/i;

/** A sentence's leading section number: "7.1", "7.1.", "12.", "(a)". */
const SECTION_NUMBER = /^\s*(?:\d+(?:\.\d+)+\.?|\d+\.|\([a-z0-9]\))(?=\s)/i;

/** How deep a section number is: "7." is 1, "7.1" 2, "7.1.4." 3; a lettered "(a)" is below any number. */
function numberDepth(sentence: string): number | undefined {
  const n = SECTION_NUMBER.exec(sentence)?.[0].trim();
  if (!n) return undefined;
  return n.startsWith('(') ? LETTERED_DEPTH : n.replace(/\.$/, '').split('.').length;
}
const LETTERED_DEPTH = 9;

/** Nouns for markets in general: "markets other than X" names an exception, not a complement of leagues. */
const MARKET_NOUNS = new Set(['markets', 'bets', 'wagers', 'lines', 'offers', 'market', 'bet', 'wager']);

// Words that open a phrase naming what the sentence contrasts with ("unlike full-game wagers, ...").
const CONTRASTS = [['unlike'], ['as', 'opposed', 'to'], ['in', 'contrast', 'to'], ['contrary', 'to']];
/** Relative pronouns that open a clause describing the contrasted noun before them ("the 1X2, which is settled ..."). */
const CONTRAST_RELATIVES = new Set(['which', 'where', 'whose']);

// Parentheticals that name examples or other markets, not a rule for the market at hand.
const EXAMPLE_OPENERS = [['e', 'g'], ['eg'], ['for', 'example'], ['such', 'as'], ['except']];
/** Openers of an example set off by a comma (not "such as", which after a comma names the markets
 * a statement is about: "..., such as totals, include overtime"). */
const COMMA_EXAMPLES = [['e', 'g'], ['eg'], ['for', 'example']];
/** A dash between words (not a hyphen inside one). */
const EXAMPLE_DASH = /[\u2013\u2014]|\s-\s/;

/** Openings of an appositive that says what the market before it is made of ("the sum of the 3rd
 * and 4th quarters", "made up of the third and fourth quarters"). */
const APPOSITIVES = [['the', 'sum', 'of'], ['the', 'total', 'of'], ['made', 'up', 'of'], ['consisting', 'of'], ['comprising'], ['composed', 'of']];

/** Openings of a list item that names what the item before it means ("..., including X, Y and Z"). */
const ELABORATIONS = [['including'], ['namely'], ['i', 'e'], ['ie'], ['that', 'is']];

/** A list item's scope. "full game handicap and alternate handicaps" names a market of ours and,
 * after "and", a market outside the spec: the item holds the market of ours (its statement is said of
 * both), where reading it whole left it outside the spec. Only when the words after "and" open with
 * the market outside the spec, end the item (a noun phrase of at most three words) and add nothing
 * outside it: in "moneylines and totals offered in play" the condition qualifies both, and in "the 1X2,
 * Total Goals Range and Double Chance markets do not include overtime" the item is a statement. */
const MAX_OTHER_MARKET = 3;
/** Whether the words after "and" can be a market's name alone: at most three words, or a longer name
 * ("half-time/full-time") ending in a market noun ("bets", "markets") with no verb or negation of its own. */
const otherMarketPhrase = (other: string[]) =>
  other.length <= MAX_OTHER_MARKET ||
  (other.length <= 2 * MAX_OTHER_MARKET && MARKET_NOUNS.has(other[other.length - 1]) && !other.some((w) => PREDICATE_VERBS.has(w) || NEGATION_CUES.has(w)));
function itemScope(w: string[]): Scope {
  const whole = readScope(w).scope;
  const and = w.indexOf('and');
  if (!whole.blocking || and < 1) return whole;
  const ours = readScope(w.slice(0, and)).scope;
  const other = w.slice(and + 1);
  if (ours.blocking || !(ours.markets || ours.segments)) return whole;
  if (!otherMarketPhrase(other) || !readScope(other).scope.blocking || readScope(other.slice(2)).scope.blocking) return whole;
  return ours;
}

/** Comma-separated items that each name markets or periods are alternatives, not one market named
 * twice: "overtime counts towards sides, totals, moneylines, 2nd half wagers" holds a full-game total
 * and a second-half spread alike. */
function listAlternatives(toks: Tok[], read: { scope: Scope; own: Clause['own'] }): void {
  // A clause about leagues outside the spec only ("money lines in Aussie Rules, Rugby League and
  // Rugby Union") is about none of ours, whatever markets its list names.
  if (read.own.foreign) return;
  const items: string[][] = [[]];
  // A comma inside parentheses separates the examples of one item ("the full game (sides, totals and
  // money lines) and the second half"), not items.
  let depth = 0;
  // The comma that closes an opening condition ("if a game ends tied after overtime, moneyline
  // wagers are refunded") ends the condition, not a list item.
  let condition = toks.length > 0 && opensCondition(toks, 0);
  for (const t of toks) {
    if (t.word === '(') depth++;
    else if (t.word === ')') depth = Math.max(0, depth - 1);
    else if (t.word === ',' && depth === 0 && condition) condition = false;
    else if (t.word === ',' && depth === 0) items.push([]);
    else if (isWord(t)) items[items.length - 1].push(t.word);
  }
  // "Full-game wagers, including point spreads, totals and money lines, ..." names the full-game
  // wagers it means: the items from "including" on are that head's markets, not alternatives to it
  // (a full-game player prop is not among them).
  const inc = items.findIndex((w, k) => k > 0 && ELABORATIONS.some((o) => o.every((x, j) => w[j] === x)));
  if (inc > 0) {
    const head = readScope(items[inc - 1]).scope;
    const rest = items.slice(inc).map((w) => readScope(w).scope).filter((sc) => sc.segments || sc.markets || sc.blocking);
    if (head.segments && !head.markets && rest.length && rest.every((sc) => sc.markets && !sc.segments && !sc.blocking)) {
      const markets = new Set(rest.flatMap((sc) => [...sc.markets!]));
      const before = items.slice(0, inc - 1).map((w) => readScope(w).scope).filter((sc) => sc.segments || sc.markets || sc.blocking);
      const merged = { segments: head.segments, markets, blocking: false };
      if (!before.length) {
        read.scope.alternatives = undefined;
        read.scope.segments = merged.segments;
        read.scope.markets = merged.markets;
        read.scope.blocking = false;
        return;
      }
      read.scope.alternatives = [...before.map((sc) => ({ segments: sc.segments, markets: sc.markets, blocking: sc.blocking })), merged];
      read.scope.segments = undefined;
      read.scope.markets = undefined;
      read.scope.blocking = false;
      return;
    }
  }
  const named = items.map(itemScope).filter((sc) => sc.segments || sc.markets || sc.blocking);
  if (named.length < 2) return;
  read.scope.alternatives = named.map((sc) => ({ segments: sc.segments, markets: sc.markets, blocking: sc.blocking }));
  read.scope.segments = undefined;
  read.scope.markets = undefined;
  read.scope.blocking = named.every((sc) => sc.blocking);
}

/** The scope a sentence's first clause takes from its heading: the league independently, the market
 * and segment together (a "Quarter bets:" heading does not put "Players must take the field for
 * player prop wagers" into quarters). */
function inheritSection(c: { scope: Scope; own: Clause['own'] }, section: Scope, words: string[]): Scope {
  const s: Scope = { ...c.scope };
  if (!c.own.league) {
    s.leagues = section.leagues;
    s.sports = section.sports;
    s.complement = section.complement;
  }
  // A sentence about the game's final score speaks of the game, not of the market heading above it
  // ("Spread (Home -3.5): ... . Overtime is included in the final score.").
  // One whose subject is the result ("The result is determined by the final score ...") is the heading's
  // market's result ("Winner: if the Kings win, ... . The result is determined by ...").
  if (!c.own.segment && !c.own.market && (!c.own.result || subjectIsResult(words))) {
    s.segments = section.segments;
    s.markets = withAlsoFor(c, section);
    s.alternatives = section.alternatives;
  }
  // A sentence naming its own market or period under a heading about a market outside the spec ("Our
  // three-way line is ...: home, away or tie. Fourth-quarter bets exclude overtime.") speaks of that
  // market or period, not of the heading's market.
  if (!c.own.blocking && !c.own.league && !c.own.market && !c.own.segment) s.blocking = section.blocking;
  return s;
}

/** Whether a clause is only a case ("if the game ends in a tie for any reason", "or if ..."): it opens with
 * "if" or "when" and no consequence follows the case after a comma. */
const onlyCase = (c: Clause) => {
  const k = c.words[0] === 'or' || c.words[0] === 'and' ? 1 : 0;
  return (c.words[k] === 'if' || c.words[k] === 'when') && c.words.length > k + 2 && !c.conditional.some((x) => x);
};

/** Whether a clause's subject is the result ("The result is ...", "Result:"). */
const subjectIsResult = (w: string[]) => w[0] === 'result' || (w[0] === 'the' && w[1] === 'result');

/** Verbs closing an "only <what> counts" clause. */
const COUNT_VERBS = new Set(['count', 'counts', 'matter', 'matters']);
/** Whether the words from `from` to the next comma, semicolon or the end close with a counting verb. */
function onlyCounts(toks: Tok[], from: number): boolean {
  let end = from;
  while (end < toks.length && toks[end].word !== ',' && toks[end].word !== ';') end++;
  return end - from > 1 && COUNT_VERBS.has(toks[end - 1].word);
}

/** A sentence's clauses, hedges ("unless otherwise stated") and parenthetical examples removed, each
 * with its scope; `section` is the scope of the heading the sentence stands under. */
export function clauses(sentence: string, section?: Scope): Clause[] {
  const all = tokenize(sentence);
  // "(e.g. Including Overtime)" names an example, not a rule; "unlike full-game wagers," names the
  // markets the sentence contrasts with, not its own.
  const toks: Tok[] = [];
  for (let i = 0; i < all.length; i++) {
    const contrast = CONTRASTS.find((o) => o.every((w, j) => all[i + j]?.word === w));
    if (contrast) {
      let close = all.findIndex((t, j) => j > i && t.word === ',');
      // "..., unlike the 1X2, which is settled on regulation time": a relative clause on the contrasted
      // market describes that market, so it is left out with it (to the next comma or semicolon).
      if (close > i && CONTRAST_RELATIVES.has(all[close + 1]?.word ?? '')) {
        const end = all.findIndex((t, j) => j > close + 1 && (t.word === ',' || t.word === ';'));
        close = end > close ? (all[end].word === ';' ? end - 1 : end) : all.length;
      }
      i = close > i ? close : all.length;
      continue;
    }
    // "Second-half bets, the sum of the 3rd and 4th quarters, include overtime": an appositive that
    // defines the market before it names what that market is made of, not markets of its own.
    if (all[i - 1]?.word === ',' && APPOSITIVES.some((o) => o.every((w, j) => all[i + j]?.word === w))) {
      const close = all.findIndex((t, j) => j > i && t.word === ',');
      if (close > i) {
        i = close;
        continue;
      }
    }
    // "(a basketball player who never appears counts as inactive)": an example introduced with an
    // article and naming a sport illustrates the clause; it is not the clause's league.
    if (all[i].word === '(' && (all[i + 1]?.word === 'a' || all[i + 1]?.word === 'an') && namesLeagueAt(all.map((t) => t.word), i + 2)) {
      const close = all.findIndex((t, j) => j > i && t.word === ')');
      i = close > i ? close : all.length;
      continue;
    }
    // "bets are valued on the result including overtime – bets on the second half, for example": an
    // example set off by a dash and closed by "for example" names one case of the statement, not its scope.
    const closing = all[i].word === ',' ? COMMA_EXAMPLES.find((o) => o.every((w, j) => all[i + 1 + j]?.word === w)) : undefined;
    if (closing && (i + 1 + closing.length === all.length || all[i + 1 + closing.length].word === ';')) {
      let dash = -1;
      for (let j = toks.length - 1; j > 0 && toks[j].word !== ';' && toks[j].word !== ':'; j--)
        if (EXAMPLE_DASH.test(sentence.slice(toks[j - 1].end, toks[j].start))) {
          dash = j;
          break;
        }
      if (dash > 0) {
        toks.splice(dash);
        i += closing.length;
        continue;
      }
    }
    // "bets are settled on the result including overtime, e.g. bets on the second half": an example
    // after a comma names one case of the statement, not the statement's scope.
    if (all[i - 1]?.word === ',' && COMMA_EXAMPLES.some((o) => o.every((w, j) => all[i + j]?.word === w))) {
      const close = all.findIndex((t, j) => j > i && (t.word === ',' || t.word === ';'));
      toks.pop();
      i = close > i ? close - 1 : all.length;
      continue;
    }
    // "In two-way markets (bets with two options to choose from) ...": a parenthesis after a market noun
    // that opens with a market noun defines the markets named before it; it names no scope of its own.
    if (all[i].word === '(' && MARKET_NOUNS.has(all[i - 1]?.word ?? '') && MARKET_NOUNS.has(all[i + 1]?.word ?? '')) {
      const close = all.findIndex((t, j) => j > i && t.word === ')');
      if (close > i) {
        i = close;
        continue;
      }
    }
    if (all[i].word === '(' && EXAMPLE_OPENERS.some((o) => o.every((w, j) => all[i + 1 + j]?.word === w))) {
      const close = all.findIndex((t, j) => j > i && t.word === ')');
      if (close > i) {
        i = close;
        continue;
      }
    }
    toks.push(all[i]);
  }
  // Hedges qualify nothing: drop them before looking for "unless" exceptions.
  const words = toks.map((t) => t.word);
  const drop = new Set<number>();
  for (const h of HEDGES) for (const hit of findAll(words, h.tokens)) for (let k = hit.start; k < hit.end; k++) drop.add(k);
  // A section number ("7.1 Unless ...") numbers the sentence and is no word of it: an "unless" after
  // it opens the sentence's condition, not an exception to a clause before it.
  const numbering = SECTION_NUMBER.exec(sentence)?.[0].length ?? 0;
  const kept = toks.filter((t, i) => !drop.has(i) && t.start >= numbering);
  // "Q:" and "A:" label a question and its answer; they head no section.
  if (QA_LABELS.has(kept[0]?.word ?? '') && kept[1]?.word === ':') kept.splice(0, 2);
  // "With the exception of fourth-quarter wagers, all bets include overtime": an opening exception
  // is read after the statement it excepts from, as "..., except fourth-quarter wagers" is.
  const opening = EXCEPTION_OPENERS.find((o) => o.every((w, j) => kept[j]?.word === w));
  if (opening) {
    const comma = kept.findIndex((t) => t.word === ',');
    if (comma > opening.length) kept.splice(0, kept.length, ...kept.slice(comma + 1), { ...kept[0], word: 'except' }, ...kept.slice(opening.length, comma));
  }
  closeInsetException(kept);
  // "For all sports except hockey, final results include all extra play": the sports a statement
  // about every sport excepts are the ones it leaves out, as "Except in the NHL, ..." says.
  // A short label before a colon ("Good to know: for all sports except ...") leaves it the opening.
  const labelEnd = kept.findIndex((t) => t.word === ':');
  const from = labelEnd > 0 && labelEnd <= 4 ? labelEnd + 1 : 0;
  const allSports = ALL_SPORTS_OPENERS.find((o) => o.every((w, j) => kept[from + j]?.word === w));
  if (allSports && namesLeagueAt(kept.map((t) => t.word), from + allSports.length) && kept.slice(from).some((t) => t.word === ',')) {
    const except = kept[from + allSports.length - 1];
    kept.splice(from, allSports.length, except, { ...except, word: 'in' });
  }
  // `fresh`: a coordinated statement with its own market or period as subject, which takes neither from the clause before.
  // `reason`: a clause opened by "since" or "because" after a statement, which gives the statement's reason.
  const parts: { kind: ClauseKind; toks: Tok[]; fresh?: boolean; reason?: boolean }[] = [{ kind: 'first', toks: [] }];
  // How many parentheses are open: "(inactive, not entered, or absent)" lists cases, and its ", not" opens no exception.
  let depth = 0;
  for (let i = 0; i < kept.length; i++) {
    const t = kept[i];
    const next = kept[i + 1]?.word;
    if (t.word === '(' && kept.some((k, j) => j > i && k.word === ')')) depth++;
    else if (t.word === ')') depth = Math.max(0, depth - 1);
    const midException = EXCEPTION_OPENERS.find((o) => o.every((w, j) => kept[i + j]?.word === w));
    if (midException && parts[parts.length - 1].toks.some(isWord)) {
      // "All bets include overtime, save for fourth-quarter lines" / "apart from quarter wagers".
      parts.push({ kind: 'except', toks: [] });
      i += midException.length - 1;
      continue;
    }
    const cur = parts[parts.length - 1];
    if (t.word === ';') parts.push({ kind: 'semi', toks: [] });
    else if (t.word === ':') parts.push({ kind: 'colon', toks: [] });
    else if (t.word === ',' && next === 'and' && EVERY.has(kept[i + 2]?.word ?? '') && MARKET_NOUNS.has(kept[i + 3]?.word ?? '') && cur.toks.some(isWord)) {
      // "all bets exclude overtime, and every market listed as 'including overtime' includes the
      // shootout": a coordinated clause with a subject of its own is a statement of its own.
      parts.push({ kind: 'semi', toks: [] });
      i++;
    }
    else if (t.word === ',' && (next === 'and' || next === 'while') && cur.toks.some(isWord) && (statesValue(cur.toks.filter(isWord).map((k) => k.word)) || next === 'while') && coordinatedStatement(kept, i + 2)) {
      // "Quarter bets are settled on regulation time, and totals include overtime": a statement
      // coordinated after a statement, with a market or period of its own as its subject, is a
      // statement of its own; its subject is not the first one's, nor the first value its. The same
      // after ", while" ("the two-way bet includes overtime, while the under/over is settled on
      // regulation"), whatever the clause before states ("..., so a tied game keeps your second-half bet
      // alive, while the fourth-quarter line does not count overtime": the contrast has its own subject).
      parts.push({ kind: 'semi', toks: [], fresh: true });
      i++;
    }
    else if (t.word === ',' && endsWithOvertimeLabel(cur.toks.filter(isWord).map((k) => k.word)) && namesMarketAt(kept.slice(i + 1).filter(isWord).map((k) => k.word), 0)) {
      // "Canadiens v Bruins (match winner incl. overtime and shoot-outs, total goals 6)": in a list of a
      // game's markets, a market's label that includes overtime is said of that market; the market listed
      // after the comma is another item of the list, not labelled by it.
      parts.push({ kind: 'semi', toks: [] });
    }
    else if (t.word === ',' && next === 'no' && (kept[i + 2]?.word === 'if' || kept[i + 2]?.word === 'when') && cur.toks.some(isWord)) {
      // "Yes above the line, No at or below it, No if the player is inactive": a contract's answers
      // listed case by case; each "No if ..." opens its case as "No if ..." opening a clause does.
      parts.push({ kind: 'semi', toks: [] });
    }
    else if (t.word === ',' && next === 'and' && CONDITION_OPENERS.has(kept[i + 2]?.word ?? '') && (cur.kind === 'not' || cur.kind === 'except') && cur.toks.some(isWord)) {
      // "Goals count overtime but not the shootout, and if the player does not come onto the ice, the bet
      // is void": a condition coordinated after an exception opens a statement of its own; no list of
      // excepted markets goes on with "and if".
      parts.push({ kind: 'semi', toks: [] });
      i++;
    }
    else if (t.word === ',' && next === 'but' && kept[i + 2]?.word === 'not') {
      // ", but not for quarter bets" is an exception, as ", not the 4th quarter" is.
      parts.push({ kind: 'not', toks: [] });
      i += 2;
    } else if (t.word === ',' && (next === 'but' || (next === 'not' && (depth === 0 || kept[i + 2]?.word === 'for')))) {
      // "the winner line is settled with the overtime included, but a bet on the fourth quarter counts only
      // that quarter's points": a bet named by the period it is placed on is a whole subject of its own,
      // which takes no market from the clause before (a fourth-quarter total is no winner line).
      // Inside parentheses a comma before "not" lists cases ("(inactive, not entered, or absent)"), but one before
      // "not for" excepts what follows, as ", but not for" does ("(for all sports, not for soccer)").
      parts.push({ kind: next, toks: [], ...(next === 'but' && (betOnAfter(kept, i + 2) || possessiveMarketAfter(kept, i + 2)) ? { fresh: true } : {}) });
      i++;
    } else if (t.word === 'but' && next === 'not' && cur.toks.some(isWord)) {
      parts.push({ kind: 'not', toks: [] });
      i++;
    } else if (t.word === 'other' && next === 'than' && (MARKET_NOUNS.has(cur.toks.filter(isWord).at(-1)?.word ?? '') || (cur.toks.some(isWord) && namesMarketAt(kept.map((k) => k.word), i + 2)))) {
      // "all markets other than quarters" excepts the quarters; "leagues other than the NHL" stays a
      // league complement (scope.json).
      parts.push({ kind: 'except', toks: [] });
      i++;
    }
    else if (t.word === ',' && cur.toks.some(isWord) && trailingExceptionEnd(kept, i + 1) > 0) {
      // "All wagers include overtime, quarter bets excepted": a closing absolute phrase is an
      // exception, as "..., except quarter bets" is; the participle itself is no word of it.
      const close = trailingExceptionEnd(kept, i + 1);
      parts.push({ kind: 'except', toks: kept.slice(i + 1, close) });
      i = close;
    } else if (t.word === 'whereas') parts.push({ kind: 'but', toks: [] });
    // "Moneylines include overtime, quarter lines do not" / "... and (while) quarter lines do not": an
    // elliptical clause after a statement is a clause of its own, with its own subject, that denies it.
    else if ((t.word === ',' || t.word === 'and' || t.word === 'while') && statesValue(cur.toks.filter(isWord).map((k) => k.word)) && ellipticalTail(kept, i + 1)) parts.push({ kind: 'but', toks: [] });
    // "..., while the fourth-quarter handicap does not, since it is settled on the fourth quarter only":
    // the reason after an elliptical clause is a clause of its own; the elliptical clause ends before it.
    // The same after an elliptical clause of any kind, and before ", and ..." ("in bets on the fourth quarter
    // they do not, and only the fourth quarter's own points decide"): a bare auxiliary ends its clause.
    else if (t.word === ',' && (ELLIPSIS_CLOSERS.has(next ?? '') || next === 'and') && endsElliptically(cur.toks.filter(isWord).map((k) => k.word))) parts.push({ kind: next === 'and' ? 'semi' : 'so', toks: [], reason: REASONS.has(next ?? '') });
    // "bets on the fourth quarter do not include the overtime, since only the points of the fourth quarter
    // count": a reason after a statement is a clause of its own, not a second value of the statement.
    else if (t.word === ',' && REASONS.has(next ?? '') && statesValue(cur.toks.filter(isWord).map((k) => k.word))) parts.push({ kind: 'so', toks: [], reason: true });
    // ", so a second-half total is graded on the third quarter, the fourth quarter and overtime"
    // draws a consequence in a clause of its own: the periods it lists are not the statement's scope.
    else if (t.word === ',' && next === 'so' && kept[i + 2]?.word !== 'long') parts.push({ kind: 'so', toks: [] });
    // "Fourth-quarter bets do not include overtime, only the twelve minutes of the fourth quarter count":
    // "only <what> counts" after a statement restates it in a clause of its own, with its own subject; it
    // is not a second value inside the denied one.
    else if (t.word === ',' && next === 'only' && statesValue(cur.toks.filter(isWord).map((k) => k.word)) && onlyCounts(kept, i + 2)) parts.push({ kind: 'semi', toks: [] });
    else if ((t.word === 'except' || t.word === 'unless') && cur.toks.some(isWord)) parts.push({ kind: 'except', toks: [] });
    else cur.toks.push(t);
  }
  const out: Clause[] = [];
  let prev: Scope | undefined;
  let prevOwnBlocking = false;
  let prevForeign = false;
  let prevSideOnly = false;
  let prevWords: string[] = [];
  // Whether the last clause naming a period of its own named it right before its own market noun.
  let boundPeriod = false;
  for (const p of parts) {
    const ws = p.toks.filter(isWord);
    if (!ws.length) continue;
    const wordsOf = ws.map((t) => t.word);
    const conditional = conditionWords(p.toks);
    // "Unless a wager is designated 'Regulation', all game wagers include overtime": the markets an
    // opening "unless" names are the case the statement leaves out, not the statement's scope.
    const opensUnless = wordsOf[0] === 'unless' && conditional.some((x) => !x);
    const read = readScope(opensUnless ? wordsOf.filter((_, k) => !conditional[k]) : wordsOf);
    // "All bets include overtime, the fourth quarter and second half included": an absolute phrase
    // closing a statement about every market names markets among them, not the statement's only scope.
    if (read.own.segment || read.own.market) {
      const comma = p.toks.map((t) => t.word).lastIndexOf(',');
      const tail = p.toks.slice(comma + 1).filter(isWord).map((t) => t.word);
      if (comma > 0 && tail.length > 1 && tail[tail.length - 1] === 'included') {
        const head = readScope(p.toks.slice(0, comma).filter(isWord).map((t) => t.word));
        const named = readScope(tail.slice(0, -1));
        if (head.own.every && (named.own.segment || named.own.market)) Object.assign(read, head);
      }
    }
    // "Except in the NHL, all bets are for regulation time only": a league named by an opening
    // "except" is the one the statement leaves out, so the clause holds for the other leagues.
    if ((p.kind === 'first' || p.kind === 'colon') && opensWithLeagueException(wordsOf)) read.scope.complement = true;
    listAlternatives(opensUnless ? p.toks.slice(p.toks.findIndex((t, k) => k > 0 && t.word === ',') + 1) : p.toks, read);
    let from = prev && p.fresh ? { ...prev, segments: undefined, markets: undefined, alternatives: undefined } : prev;
    // "on the two-way winner line the extra periods count; second-half lines also take in the extra periods;
    // a player's points bet counts the points she scores in extra time": after a semicolon, a period named
    // with a bare market noun ("second-half lines") is every market of that period, and a player's market
    // named alone is the player's whole game: neither takes the other dimension from the clause before.
    if (from && p.kind === 'semi' && read.own.segment && !read.own.market && periodWithMarketNoun(wordsOf)) from = { ...from, markets: undefined, alternatives: undefined };
    // The same for a team's total ("second-half spreads include overtime; a team total counts the team's overtime points").
    else if (from && p.kind === 'semi' && read.own.market && !read.own.segment && read.scope.markets?.size === 1 && OWNED_MARKETS.some((o) => read.scope.markets!.has(o) && !from!.markets?.has(o)) && (read.scope.markets.has('player_prop') || !from.segments?.has('full')))
      from = { ...from, segments: undefined, alternatives: undefined };
    // "a fourth-quarter total counts only the fourth quarter's points, not any overtime; a team total counts all
    // of that team's points": a period that qualifies its own market noun ("a fourth-quarter total") is that
    // market's, so another market named after a semicolon, with no period of its own, does not take it.
    else if (from && p.kind === 'semi' && read.own.market && !read.own.segment && boundPeriod && read.scope.markets?.size && ![...read.scope.markets].some((x) => from!.markets?.has(x)))
      from = { ...from, segments: undefined, alternatives: undefined };
    let scope = from ? inherit(read, from, p.kind, prevOwnBlocking, prevForeign) : section ? inheritSection(read, section, wordsOf) : read.scope;
    // "Handicap (spread): the handicap goes to the favourite and is subtracted from its final score; extra
    // time is taken into consideration": a clause blocked only by the one side it names ("the favourite")
    // speaks of that side; a statement after a semicolon is not blocked by it.
    if (p.kind === 'semi' && prevSideOnly && !read.scope.blocking) scope = { ...scope, blocking: false };
    // "Markets that exclude overtime: 4th quarter markets, 1st half markets": a heading that names a
    // class of markets by the rule lists the class's members after its colon; an item naming a market
    // or period of ours is that market, not a market outside the spec as the heading read alone is.
    if (p.kind === 'colon' && scope.blocking && !read.scope.blocking && (read.own.segment || read.own.market) && isClassHeading(prevWords)) scope = { ...scope, blocking: false };
    // A hedge with an `unless_after` list is no hedge when one of those words follows it: "depends
    // on the team that wins after overtime" names what decides the bet, not a market or book it varies by.
    // One with an `unless_before` list is none when one of those words stands right before it ("among
    // the most popular bets": a superlative).
    const hedged = WITHDRAW.some((w) => findAll(wordsOf, w.tokens).some((h) => !w.entry.unless_after?.some((x) => wordsOf.slice(h.end, h.end + 2).includes(x)) && !w.entry.unless_before?.includes(wordsOf[h.start - 1])));
    const asking = !hedged && asksWhether(wordsOf);
    out.push({ kind: p.kind, text: sentence.slice(ws[0].start, ws[ws.length - 1].end), words: wordsOf, scope, own: read.own, withdrawn: hedged || asking, ...(asking ? { asking } : {}), ...(p.reason ? { reason: true } : {}), conditional });
    prevSideOnly = read.own.side === true && !(from ? from.blocking : section?.blocking);
    prev = scope;
    prevOwnBlocking = read.scope.blocking;
    prevForeign = read.own.foreign === true;
    prevWords = wordsOf;
    if (read.own.segment) boundPeriod = read.own.market && periodBeforeMarket(wordsOf);
  }
  // "The players listed have to play for action; overtime is counted toward this wager": a bet named
  // by a demonstrative ("this wager", "that bet") is the one the clause before named, the players'
  // bets when it named players, not every market of the text.
  for (let k = 1; k < out.length; k++) {
    const c = out[k];
    if (c.own.market || c.own.segment || !c.words.some((w, j) => DEMONSTRATIVES.has(w) && BET_NOUNS.has(c.words[j + 1]))) continue;
    for (let j = k - 1; j >= 0; j--) {
      if (out[j].own.market) {
        c.scope = { ...c.scope, markets: out[j].scope.markets, alternatives: out[j].scope.alternatives };
        break;
      }
      if (out[j].words.some((w) => w === 'player' || w === 'players')) {
        c.scope = { ...c.scope, markets: new Set(['player_prop']) };
        break;
      }
    }
  }
  for (let k = 1; k < out.length; k++) {
    if (namesException(out[k]) || (out[k].kind === 'colon' && announcesException(out[k - 1].words))) out[k].kind = 'except';
    if (withdrawsBefore(out[k])) out[k - 1].withdrawn = true;
    restrictBefore(out[k], out[k - 1]);
  }
  return out;
}

/** A bet named by a demonstrative ("this wager", "that bet"). */
const DEMONSTRATIVES = new Set(['this', 'that']);
const BET_NOUNS = new Set(['wager', 'bet', 'prop', 'proposition', 'selection']);

/** Verbs that open a statement's predicate right after a subject ("Every market ... is for regular time only"). */
const PREDICATE_VERBS = new Set(['is', 'are', 'include', 'includes', 'exclude', 'excludes', 'count', 'counts', 'settle', 'settles', 'will', 'shall', 'must']);

/** "Every market, except period and overtime markets, is for regular time only": an exception set off
 * by commas between a subject and its verb closes at the second comma, and the predicate after it
 * belongs to the subject. The words are put in the order "every market is for regular time only
 * except period and overtime markets" (up to the clause's end), which the clause split reads as a
 * statement and its exception; without this the exception ran to the sentence's end and took the
 * statement with it. */
function closeInsetException(kept: Tok[]): void {
  for (let i = 1; i < kept.length; i++) {
    if (kept[i].word !== ',' || !kept.slice(0, i).some(isWord)) continue;
    const opener = kept[i + 1]?.word === 'except' ? ['except'] : EXCEPTION_OPENERS.find((o) => o.every((w, j) => kept[i + 1 + j]?.word === w));
    if (!opener) continue;
    let close = -1;
    for (let j = i + 1 + opener.length; j < kept.length && kept[j].word !== ';' && kept[j].word !== ':'; j++)
      if (kept[j].word === ',' && PREDICATE_VERBS.has(kept[j + 1]?.word ?? '')) {
        close = j;
        break;
      }
    if (close < 0) continue;
    let end = close + 1;
    while (end < kept.length && kept[end].word !== ';' && kept[end].word !== ':') end++;
    // "period, overtime and penalty-shootout markets": the items of a list share its last noun.
    const inset = kept.slice(i + 1, close);
    const noun = inset[inset.length - 1];
    const items = MARKET_NOUNS.has(noun.word) ? inset.flatMap((t, k) => (k > opener.length && (t.word === ',' || t.word === 'and') && isWord(inset[k - 1]) && !MARKET_NOUNS.has(inset[k - 1].word) ? [noun, t] : [t])) : inset;
    kept.splice(i, end - i, ...kept.slice(close + 1, end), ...items);
    return;
  }
}

/** Verbs by which "the same" says a statement holds again ("the same applies to totals", "the same goes for"). */
const SAME_VERBS = new Set(['applies', 'apply', 'holds', 'hold', 'goes']);
/** "The same applies to team totals", "the same overtime and shootout treatment applies": a clause
 * whose statement is the one said before it. */
function refersBack(words: string[]): boolean {
  const k = words.findIndex((w, j) => w === 'the' && words[j + 1] === 'same');
  return k >= 0 && words.slice(k + 2, k + 2 + GAP + 1).some((w) => SAME_VERBS.has(w));
}
/** The one value the statements among `cs` state for a rule (none when they state none, or disagree). */
function statedBefore(rule: ReadRule, cs: readonly Clause[]): { value: string; clause: string } | undefined {
  const said = cs
    .filter((p) => !p.withdrawn && p.kind !== 'except' && p.kind !== 'not')
    .map((p) => ({ v: clauseValue(rule, p.words, hasTopic(rule, p.words), p.conditional), clause: p.text }))
    .filter((x) => x.v);
  if (!said.length || said.some((x) => x.v!.conflict || x.v!.value !== said[0].v!.value)) return undefined;
  return { value: said[0].v!.value, clause: said[0].clause };
}

/** "the score that counts takes in any extra periods, with one exception: for the 'more than / less
 * than' selections ...": a clause that ends by announcing an exception is followed by it after the
 * colon, and what follows is read as that exception, not as a statement of the heading before. */
function announcesException(words: string[]): boolean {
  const last = words[words.length - 1];
  if (last !== 'exception' && last !== 'exceptions') return false;
  return words.slice(-5, -1).some((w) => w === 'with' || w === 'following');
}

/** "...; this applies only to markets which include overtime": a clause that says which markets the
 * statement before it applies to gives that statement its scope; one that says where it does not
 * apply ("This does not apply to markets that exclude overtime") leaves it holding no market we can
 * name, so it decides nothing. */
function restrictBefore(c: Clause, before: Clause): void {
  // "..., but only in markets that include overtime and the shootout" restricts as "this applies only
  // to ..." does: the statement holds in the markets it names, so it states nothing of the others.
  const onlyIn = c.kind === 'but' && c.words[0] === 'only';
  if (!onlyIn && (!BACK_REFERENCES.has(c.words[0]) || !c.words.some((w) => APPLY.has(w)))) return;
  // "This also applies to bets on the second half" adds markets to the statement before it: it keeps
  // its own scope, and the markets named are no restriction of it.
  // The same with "equally", "likewise", "too", "as well" ("this applies equally to a team's goals").
  if (!onlyIn && (c.words.some((w) => ADDING.has(w)) || wordsAt(c.words, c.words.length - 2, ['as', 'well']))) return;
  if (!(c.own.league || c.own.segment || c.own.market || c.own.blocking)) return;
  before.scope = !onlyIn && c.words.some((w) => NEGATION_CUES.has(w)) ? { ...before.scope, blocking: true } : c.scope;
}
const APPLY = new Set(['apply', 'applies', 'applied']);
/** Words by which a clause adds markets to the statement before it ("this also applies to ..."). */
const ADDING = new Set(['also', 'equally', 'likewise', 'too']);

/** Words that open a condition: up to the comma that closes it, a clause names a case, not a value. */
const CONDITION_OPENERS = new Set(['if', 'when', 'whenever', 'unless']);
/** A condition opener that names the case a clause is about ("if", "when"), not an exception to it ("unless"). */
const opensCase = (w: string | undefined): boolean => w !== undefined && w !== 'unless' && CONDITION_OPENERS.has(w);
/** Participles that close an exception named before them ("quarter bets excepted", "props aside"). */
const TRAILING_EXCEPTIONS = new Set(['excepted', 'aside', 'apart', 'exempted']);

/** Where the participle of a closing exception stands (the words from i up to it, then the end of
 * the clause), or -1. */
function trailingExceptionEnd(toks: readonly Tok[], i: number): number {
  let k = i;
  while (k < toks.length && toks[k].word !== ',' && toks[k].word !== ';' && toks[k].word !== ':') k++;
  const last = k - 1;
  if (last <= i || !TRAILING_EXCEPTIONS.has(toks[last].word)) return -1;
  const ws = toks.slice(i, last).filter(isWord).map((t) => t.word);
  return ws.some((_, j) => namesMarketAt(ws, j)) ? last : -1;
}

/** Openers of a condition that open one only at a clause's start or after a comma: "should" and
 * "where" are other words inside a clause ("bets should be placed", "markets where overtime ..."). */
const LEADING_CONDITION_OPENERS = [['should'], ['where'], ['once'], ['provided'], ['providing'], ['assuming'], ['supposing'], ['in', 'case'], ['in', 'the', 'event'], ['in', 'the', 'case'], ['in', 'cases', 'where'], ['in', 'instances', 'where']];

/** Whether a condition opens at toks[i] ("if ...", "in the event that ...", a leading "should ..."). */
function opensCondition(toks: readonly Tok[], i: number): boolean {
  if (CONDITION_OPENERS.has(toks[i].word)) return true;
  const leading = i === 0 || toks[i - 1].word === ',' || toks[i - 1].word === 'and';
  return leading && LEADING_CONDITION_OPENERS.some((o) => o.every((w, j) => toks[i + j]?.word === w));
}

/** Which words (of the clause's words, separators left out) stand inside a condition closed by a comma. */
function conditionWords(toks: Tok[]): boolean[] {
  const out: boolean[] = [];
  let open = false;
  // "(if a game ends level and no overtime is played, every market is settled on regulation)": a
  // parenthesis that opens with a condition is a case as a whole, its consequence included.
  let aside = false;
  // "if at the end of the game (any overtime included) that team still leads, the bet wins": a
  // parenthesis inside a condition that opens no condition of its own says how the case is measured,
  // a statement of its own, not part of the case.
  let apposition = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.word === '(' && toks[i + 1] && opensCondition(toks, i + 1)) aside = true;
    else if (t.word === '(' && open) apposition = true;
    else if (t.word === ')') aside = apposition = false;
    if (t.word === ',') open = false;
    else if (aside && isWord(t)) out.push(true);
    else if (apposition && isWord(t)) out.push(false);
    else if (isWord(t)) {
      if (opensCondition(toks, i) && toks.slice(i + 1).some((n) => n.word === ',')) open = true;
      out.push(open);
    }
  }
  return out;
}

/** "...; the exception is quarter bets": a clause that calls the markets it names an exception. */
const namesException = (c: Clause) => (c.own.segment || c.own.market) && c.words.some((w) => w === 'exception' || w === 'exceptions');

/** "Knowing whether overtime counts is key" asks; "whether you bet the over or the under" (and
 * "whether or not", "regardless of whether", "no matter whether") means regardless of, and "which team
 * leads or whether the score is tied" lists an outcome: both leave the statement standing. */
function asksWhether(words: string[]): boolean {
  const at = words.indexOf('whether');
  const regardless = (words[at - 1] === 'of' && REGARDLESS.has(words[at - 2])) || (words[at - 1] === 'matter' && words[at - 2] === 'no');
  return at >= 0 && words[at - 1] !== 'or' && !regardless && !words.slice(at + 1).includes('or');
}
const REGARDLESS = new Set(['regardless', 'irrespective', 'independently']);

/** Words by which a clause refers back to the statement before it ("this", "which"). */
const BACK_REFERENCES = new Set(['this', 'that', 'which', 'these', 'such']);

/** A hedged clause that refers back to the statement before it takes that statement back too:
 * "Full-game bets include overtime; this is the case across most sports." */
const withdrawsBefore = (c: Clause) => c.withdrawn && !c.asking && BACK_REFERENCES.has(c.words[0]) && !givesConsequence(c.words);
/** "...; that is why you so often see half points": a clause drawing a consequence from the statement
 * before it ("that is why", "which is why", "this explains why") hedges its own claim, not that statement.
 * "That's why" tokenizes as "that why" (the possessive-looking "'s" is dropped), and says the same. */
const givesConsequence = (w: string[]) => ((w[1] === 'is' || w[1] === 's' || w[1] === 'explains') && w[2] === 'why') || (w[1] === 'why' && BACK_REFERENCES.has(w[0]));

export function applies(s: Scope, m: MarketScope): boolean {
  if (s.blocking) return false;
  const named = new Set<string>([...(s.leagues ?? []), ...(s.sports ?? [])]);
  if (s.complement) {
    if (named.has(m.league)) return false;
  } else if (s.leagues?.size) {
    // A league narrows its own sport ("NBA basketball" is the NBA); a sport named beside another
    // sport's league stands whole ("basketball, the NFL and MLB" names the WNBA too).
    const sport = SPORT_OF.get(m.league);
    if (!s.leagues.has(m.league) && !(s.sports?.has(m.league) && ![...(sport ?? [m.league])].some((l) => s.leagues!.has(l)))) return false;
  } else if (s.sports?.size && !s.sports.has(m.league)) return false;
  if (s.alternatives) return s.alternatives.some((a) => holds(a, m));
  return holds(s, m);
}

/** A clause whose subject is the game's final score, naming no market or period of its own, speaks
 * of the markets settled on that score: a player prop settles on the player's statistic, so "the
 * result will be determined based on the final score including any overtime periods" states nothing
 * about it unless the clause stands under player props ("full-game markets include all overtime
 * periods in the final score calculation" names the markets it means, a full-game prop among them). */
function speaksOf(c: Clause, m: MarketScope, rule: ReadRule): boolean {
  if (!applies(c.scope, m)) return false;
  const props = (a: Pick<Scope, 'markets'>) => !!a.markets?.has('player_prop');
  // "All game and second half lines include overtime": the game's lines are the markets on its result and
  // score; a player prop is listed apart from them and takes nothing from that clause.
  if (m.marketType === 'player_prop' && c.own.gameLines && !props(c.scope) && !c.scope.alternatives?.some(props)) return false;
  // Whether the game's result counts overtime says nothing of a player's statistic; the game being
  // called off or its result left undetermined is the prop's case too.
  if (rule !== 'overtime' || m.marketType !== 'player_prop' || !c.own.result || c.own.segment || c.own.market) return true;
  return props(c.scope) || !!c.scope.alternatives?.some(props);
}

const holds = (a: Pick<Scope, 'segments' | 'markets' | 'blocking'>, m: MarketScope) =>
  !a.blocking && (!a.segments || a.segments.has(m.segment)) && (!a.markets || a.markets.has(m.marketType));

/** How narrowly a scope names the market at hand (for a list, the item that holds it). */
function specificity(s: Scope, m: MarketScope): number {
  const league = s.leagues || s.sports || s.complement ? 1 : 0;
  // A player prop is settled over the full game as a rule: a clause naming the full game ("all
  // full-game wagers") speaks of the game lines, and one naming player props is the narrower for it.
  const period = (a: Pick<Scope, 'segments'>) => !!a.segments && !(m.marketType === 'player_prop' && m.segment === 'full');
  const of = (a: Pick<Scope, 'segments' | 'markets'>) => (period(a) ? 4 : 0) + (a.markets ? 2 : 0) + league;
  if (!s.alternatives) return of(s);
  return Math.max(...s.alternatives.filter((a) => holds(a, m)).map(of), league);
}

// ---------------------------------------------------------------- values

interface ClauseValue {
  value: string;
  /** Two values of the same weight in one clause. */
  conflict?: string;
  /** Read from a phrase that opens in the clause's condition: the value for the case the condition
   * names ("if extra innings are needed, bets are settled on the final result"). */
  forCase?: boolean;
  /** Read only from phrases said through a team winning the game (the entries' `winner`): the money line's value. */
  winner?: boolean;
}

/** Words that open a consequence inside a topic phrase's gap ("match, otherwise the bets are cancelled"). */
const CONSEQUENCE_OPENERS = new Set(['otherwise', 'else', 'then']);
/** Where a rule's topic phrases occur, leaving out those whose `unless` words stand beside them. */
function topicHits(rule: ReadRule, words: string[]): Hit[] {
  const hits = LEXICON[rule].topics.flatMap((t) => {
    const hits = findAll(words, t.tokens);
    const unless = t.entry.unless;
    const unlessNext = t.entry.unless_after;
    const kept = hits.filter(
      (h) =>
        !(unless && [...h.gap, ...words.slice(Math.max(0, h.start - 2), h.start)].some((w) => unless.includes(w))) &&
        // "the game doesn't start on the scheduled calendar day": a start missed on a day or within a window is a delay, not the game called off.
        !unlessNext?.includes(words[h.end]),
    );
    // "the player must take part in the match, otherwise the bets are cancelled": a gap that opens the
    // consequence names its own subject; what is cancelled there is the bets, not the match.
    return kept.filter((h) => !h.gap.some((w) => CONSEQUENCE_OPENERS.has(w)));
  });
  if (rule !== 'push') return hits;
  // "Games that stop short of official time are 'No Action' or 'Push/Cancel'": a push named after a
  // game stopped short or called off is the outcome that case is given, not a line landed on.
  const cases = [...topicHits('interruption', words), ...topicHits('cancellation', words)];
  return cases.length ? hits.filter((h) => !cases.some((o) => o.end <= h.start)) : hits;
}

function hasTopic(rule: ReadRule, words: string[]): boolean {
  return topicHits(rule, words).length > 0;
}

function topicOutsideCondition(rule: ReadRule, c: Clause): boolean {
  return topicHits(rule, c.words).some((h) => !c.conditional[h.start]);
}

/** Where an ignore entry stands in the words; its `unless` words in a gap take it back ("only goals in
 * overtime count" is a market on overtime alone, "one team only, and that team's points in overtime count" is not). */
function ignoredHits(words: string[], g: Compiled<LexEntry>): Hit[] {
  const hits = findAll(words, g.tokens);
  const unless = g.entry.unless;
  return unless ? hits.filter((h) => !h.gap.some((w) => unless.includes(w))) : hits;
}

/** Finite verbs that exclude ("the markets exclude shootouts", "the total excludes the shootout"). */
const EXCLUDE_VERBS = new Set(['exclude', 'excludes']);
/** Words that join the shootout to overtime before it ("overtime and penalty shootouts", "extra time or the shootout"). */
const TOPIC_JOINERS = new Set(['and', 'or', 'plus']);
/** "the final result of the game, overtime and penalty shootouts excluded": an ignored phrase about the
 * shootout ("shootouts excluded") joined to overtime right before it says the same of overtime, so its value
 * word is read for overtime too (only the shootout's phrases: a list of a player's absences is no such join). */
function withTopicBefore(rule: ReadRule, words: string[], at: number): boolean {
  let k = at - 1;
  if (words[k] === 'penalty' || words[k] === 'the') k--;
  if (words[k] === 'the') k--;
  if (!TOPIC_JOINERS.has(words[k] ?? '')) return false;
  return topicHits(rule, words).some((h) => h.end === k);
}

/** Market names that hold a negation word ("draw no bet", "no draw offered"): scope entries of dimension `market`. */
const NEGATED_NAMES = SCOPE.filter((c) => c.entry.dim === 'market' && c.tokens.some((t) => NEGATION_CUES.has(t))).map((c) => c.tokens);

/** The words with the negation words of a market's name blanked: "the draw no bet market includes overtime" denies nothing. */
function withoutNamedNegations(words: string[]): string[] {
  if (!words.some((w) => NEGATION_CUES.has(w))) return words;
  const out = [...words];
  for (let i = 0; i < words.length; i++) for (const name of NEGATED_NAMES) if (wordsAt(words, i, name)) for (let k = i; k < i + name.length; k++) if (NEGATION_CUES.has(out[k])) out[k] = '';
  return out;
}

/** The value one clause states for a rule (topic carried in from the clause before when asked). */
function clauseValue(rule: ReadRule, words: string[], topic: boolean, conditional: readonly boolean[] = [], plain = false): ClauseValue | undefined {
  const lex = LEXICON[rule];
  let best: { value: string; priority: number; start: number; end: number; turned: boolean; forCase: boolean; winner: boolean }[] = [];
  const taken = new Set<number>();
  // A phrase opening with its verb ("excludes the shootout") is a predicate of its own: "includes overtime and
  // excludes the shootout" joins two predicates, not overtime to the shootout.
  const ignored = lex.ignore.flatMap((g) => ignoredHits(words, g).filter((hit) => !(rule === 'overtime' && g.tokens.some((t) => t === 'shootout' || t === 'shootouts') && !EXCLUDE_VERBS.has(g.tokens[0]) && withTopicBefore(rule, words, hit.start))));
  const ownObject = topic && !hasTopic(rule, words);
  const named = lex.negation ? withoutNamedNegations(words) : words;
  // "TEAMA, TEAMB, TIE and NONE, the catch-all, which resolves the market if the game is, say, cancelled": a game
  // cancelled named in a condition is the cancellation rule's own case, what happens to the game, not what a tie's
  // bets become; a value word ending such a case says nothing of the tie unless the tie stands inside the case ("if
  // a game is tied or cancelled"). Said as the consequence ("the market is cancelled when the game ends in a draw")
  // it is the tie's value still.
  const cancelled = rule === 'tie' ? topicHits('cancellation', words).filter((h) => namedAsCase(words, conditional, h.start) && !hasTopic('tie', words.slice(h.start, h.end))) : [];
  for (const v of lex.values) {
    if (!v.entry.standalone && !topic) continue;
    for (const hit of findAll(words, v.tokens)) {
      // A phrase that spans a condition and its consequence ("if extra innings are needed, bets are
      // settled on the final result") states the value for the case the condition names.
      if (conditional[hit.start] && conditional[hit.end - 1] && !v.entry.case) continue;
      // A phrase with no gap that starts inside a leading condition and ends after it joins words of
      // two clauses by accident: "when the teams cannot find a winner in three periods, overtime is
      // ordered" is no "three periods overtime" (regulation and overtime).
      if (conditional[hit.start] && !conditional[hit.end - 1] && hit.gap.length === 0 && !v.tokens.includes('*')) continue;
      // "Bets include extra time if the game is level at the end of regulation time": a length of play
      // named after a level score in a condition says when overtime is played, not what bets settle on.
      if (lex.negation && levelCaseBefore(words, hit.start)) continue;
      // "a game level at the end of regulation normally goes to extra time": a moment named right after a
      // level score ("tied after regulation", "level at the end of regulation") says when the tie stands
      // and overtime is played, not what bets settle on, with or without "if" before it.
      if (rule === 'overtime' && LEVEL_AT.has(words[hit.start - 1])) continue;
      // "All other markets, including Total Runs and Run Handicap, ..." lists markets: that
      // "including" says which markets, not that overtime is included.
      if (hit.end - hit.start === 1 && words[hit.start] === 'including' && namesMarketAt(words, hit.end)) continue;
      // "..., the fourth included" at a clause's end names a market or period the clause holds for
      // ("not added to any quarter, the fourth included"), not overtime being included.
      if (hit.end - hit.start === 1 && hit.end === words.length && words[hit.start] === 'included' && namesPeriodBefore(words, hit.start)) continue;
      // "..., extra innings go on until there is a winner, the World Series included": a noun phrase of
      // its own before a closing "included" names what the statement holds for, not the rule's topic.
      if (hit.end - hit.start === 1 && hit.end === words.length && words[hit.start] === 'included' && namesOtherBefore(rule, words, hit.start)) continue;
      // With the topic carried in from the clause before, "the team total counts only the named team's
      // points in the four quarters" says what counts, an object of its own, not that the topic counts.
      if (ownObject && words[hit.end] === 'only') continue;
      if (cancelled.some((h) => h.start < hit.start && hit.end === h.end)) continue;
      const after = v.entry.unless_after;
      // "after 9 innings (8 1/2 if the home team leads) plus any extra innings": past the aside restating the length.
      const next = homeLeadAside(words, hit.end);
      if (after && words.slice(next, next + 2).some((w) => after.includes(w))) continue;
      // "totals push if ..." (the verb) is a value; "end in a push if ..." (the noun) is not.
      if (v.entry.unless_before?.includes(words[hit.start - 1])) continue;
      if (v.entry.with && !words.some((w, k) => v.entry.with!.includes(w) && !(v.entry.case && conditional[k]))) continue;
      // A word already read by a longer phrase ("graded a push") is not read again ("push").
      if ([...Array(hit.end - hit.start).keys()].some((k) => taken.has(hit.start + k))) continue;
      // Nor is a word of an ignored phrase ("the game counts as a tie" states nothing of overtime), unless
      // the value phrase holds the whole ignored phrase and more: "a win in overtime or the shootout counts
      // as a win" is the longer statement.
      if (ignored.some((ig) => ig.start < hit.end && hit.start < ig.end && !(hit.start <= ig.start && ig.end <= hit.end && hit.end - hit.start > ig.end - ig.start))) continue;
      for (let k = hit.start; k < hit.end; k++) taken.add(k);
      let value = v.entry.value!;
      let turned = false;
      if (lex.negation && !plain) {
        // "not settled until the end of overtime" waits for overtime: a negation before "until" does
        // not reach what follows it.
        const window = named.slice(Math.max(0, hit.start - 3), hit.start);
        const until = window.lastIndexOf('until');
        const before = words[hit.start] === 'until' ? [] : until >= 0 ? window.slice(until + 1) : window;
        const negated = ([...before, ...hit.gap].some((w) => NEGATION_CUES.has(w)) && !negationInRelative(rule, words, hit.start)) || negatedSubject(rule, named, hit, conditional);
        if (negated) {
          value = lex.negation[value] ?? value;
          turned = true;
        }
      } else if (!lex.negation && !plain && (negatedValue(words, hit) || lacksMeans(words, hit.start))) {
        // "stakes are not refunded", "neither won nor lost", "there is no refund": a rule with no
        // opposite value to turn to states nothing through a denied value word.
        continue;
      }
      const priority = v.entry.priority ?? 0;
      const found = { value, priority, start: hit.start, end: hit.end, turned, forCase: !!conditional[hit.start] && !v.entry.case, winner: !!v.entry.winner };
      if (!best.length || priority > best[0].priority) best = [found];
      else if (priority === best[0].priority) best.push(found);
    }
  }
  if (!best.length) return undefined;
  best = best.filter((b) => !extended(rule, words, b, best));
  // "totals are settled on the result after 9 innings, and if extra innings are needed, on the final
  // result": the value said for the rule's own case holds over the opposite basis said before it in the
  // same clause, as it does over one in a clause before it (readRule), which is what happens when the
  // case does not arise.
  const negation = lex.negation;
  if (negation) best = best.filter((b) => b.forCase || !best.some((c) => c.forCase && !c.turned && !b.turned && c.start > b.start && negation[b.value] === c.value));
  const values = [...new Set(best.map((b) => b.value))];
  const winner = best.every((b) => b.winner) || undefined;
  return values.length === 1 ? { value: values[0], forCase: best.every((b) => b.forCase) || undefined, winner } : { value: values[0], conflict: values[1], winner };
}

/** Whether the subject at words[at] opens a case named by a condition: marked so, or right after "if", "when" and
 * the like ("which settles the market if the match is cancelled", a condition at a clause's end). */
function namedAsCase(words: string[], conditional: readonly boolean[], at: number): boolean {
  if (conditional[at]) return true;
  const k = ARTICLES.has(words[at - 1]) ? at - 2 : at - 1;
  return opensCase(words[k]);
}
const ARTICLES = new Set(['the', 'a', 'an', 'its', 'any']);

/** "When an event ends in a draw there is currently no way to return the bets": a means said to be lacking (a
 * feature a venue's tool does not have yet) is no settlement rule, neither the value nor its denial. */
function lacksMeans(words: string[], at: number): boolean {
  return words[at - 1] === 'to' && words[at - 2] === 'way' && words[at - 3] === 'no';
}

/** Whether words[at] stands in a condition that names a level score before it ("if the game is level
 * at the end of regulation", "when the teams are tied after 60 minutes"), the condition opening at most
 * eight words before. */
function levelCaseBefore(words: string[], at: number): boolean {
  for (let k = at - 1; k >= Math.max(0, at - 8); k--) if (opensCase(words[k])) return words.slice(k + 1, at).some((w) => LEVEL_WORDS.has(w));
  return false;
}
/** Level-score words after which a moment of the game places the tie ("level at the end of regulation"). */
const LEVEL_AT = new Set(['level', 'tied', 'drawn', 'square']);
const LEVEL_WORDS = new Set(['level', 'tied', 'tie', 'draw', 'drawn', 'square', 'even']);

/** Relative pronouns that open a clause inside the subject ("the money line, which has no draw, counts ..."). */
const RELATIVES = new Set(['which', 'who']);

/** Whether the negation before a value word at `at` belongs to a relative clause inside the subject,
 * with its own verb and object: "the money line, which has no draw, counts overtime" denies the draw,
 * not the count. The negation is within four words after "which" or "who", and a word that is neither
 * an auxiliary nor the rule's topic stands between it and the value word (the relative clause's own
 * object); "the money line, which does not count overtime" is the value denied. */
function negationInRelative(rule: ReadRule, words: string[], at: number): boolean {
  let neg = -1;
  for (let k = at - 1; k >= Math.max(0, at - 3); k--) if (NEGATION_CUES.has(words[k])) { neg = k; break; }
  if (neg < 0) return false;
  if (!words.slice(Math.max(0, neg - 4), neg).some((w) => RELATIVES.has(w))) return false;
  const topicAt = new Set(topicHits(rule, words).flatMap((h) => [...Array(h.end - h.start).keys()].map((k) => h.start + k)));
  const between = [...Array(at - neg - 1).keys()].map((k) => neg + 1 + k);
  return between.length > 0 && between.every((k) => !topicAt.has(k) && !NEGATION_CUES.has(words[k])) && between.some((k) => !VERB_GROUP.has(words[k]));
}

/** Words that may join a basis to what extends it ("regulation time, any extra innings included";
 * "normal time plus all overtime"). */
const EXTENDERS = new Set(['any', 'all', 'and', 'plus', 'with', 'the', 'including', 'inclusive', 'of', 'time', 'playing', 'play']);

/** Whether a value said of a basis is extended by the value read right after it, in the same clause:
 * "based on the result at the end of regulation time, any extra innings included" names regulation
 * and then adds overtime to it, so the basis is not a statement of its own that overtime is left out.
 * Only the words of the rule's topic or joining words may stand between the two, and neither value
 * may come from a negation (a turned value is a statement, not a basis). */
function extended(rule: ReadRule, words: string[], b: { value: string; end: number; turned: boolean }, all: { value: string; start: number; turned: boolean }[]): boolean {
  const neg = LEXICON[rule].negation;
  if (!neg || b.turned) return false;
  const topicAt = new Set(topicHits(rule, words).flatMap((h) => [...Array(h.end - h.start).keys()].map((k) => h.start + k)));
  const from = homeLeadAside(words, b.end, true);
  return all.some(
    (a) => !a.turned && a.value !== b.value && neg[a.value] === b.value && a.start >= from && a.start - from <= 6 && words.slice(from, a.start).every((w, k) => EXTENDERS.has(w) || topicAt.has(from + k)) && LEXICON[rule].answers?.yes === a.value,
  );
}

/** Verbs of a home team leading ("if the home team leads", "is ahead", "is winning"). */
const HOME_LEAD = [['leads'], ['is', 'leading'], ['is', 'ahead'], ['is', 'winning']];
/** The same said with "with" ("with the home team ahead", "leading", "winning"). */
const HOME_LEAD_WITH = [['ahead'], ['leading'], ['winning'], ['in', 'front']];
/** "after 9 innings (8 1/2 if the home team leads) including any extra innings", "(8 1/2 with the home team
 * ahead)": the shorter length a game whose home team leads plays restates the regulation length before it; the
 * word after that aside is read as right after the length. Returns where the aside ends, or `at` when none
 * stands there. The "with" form is read only for a basis extended past it (`withForm`, from `extended`): read
 * where a value is taken back (`clauseValue`), it turned "after 9 innings (8 1/2 with the home team ahead) and,
 * where extra innings are played, on the official final result" to the nine innings alone. */
function homeLeadAside(words: string[], at: number, withForm = false): number {
  let k = at;
  while (k < at + 3 && /^\d+$/.test(words[k] ?? '')) k++;
  if (k === at) return at;
  if (words[k] === 'innings') k++;
  const opener = words[k] === 'if' ? HOME_LEAD : words[k] === 'with' && withForm ? HOME_LEAD_WITH : undefined;
  if (!opener || !(wordsAt(words, k + 1, ['the', 'home']) && (words[k + 3] === 'team' || words[k + 3] === 'side'))) return at;
  const lead = opener.find((v) => wordsAt(words, k + 4, v));
  return lead ? k + 4 + lead.length : at;
}

/** Words that may stand between a negation and the value word it denies: auxiliaries and adverbs
 * of the same verb group ("are not automatically refunded", "will never be voided", "no full refund"). */
const VERB_GROUP = new Set(['be', 'been', 'being', 'is', 'are', 'was', 'were', 'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'get', 'gets', 'got', 'do', 'does', 'automatically', 'fully', 'then', 'also', 'always', 'full', 'any', 'a']);

/** Articles between "rather than" and the value it sets aside ("rather than a refund"). */
const SET_ASIDE_ARTICLES = new Set(['a', 'an', 'the']);

/** Whether the value phrase at hit is denied inside its own verb group: a negation right before it,
 * with only auxiliaries or adverbs between ("is not refunded", "neither won nor lost", "no refund"),
 * or one inside its gap. A negation that belongs to a case before it ("does not play, bets are void")
 * is not in the value's verb group, so it denies nothing. */
function negatedValue(words: string[], hit: Hit): boolean {
  if (hit.gap.some((w) => NEGATION_CUES.has(w))) return true;
  // "... as a loss for both Over and Under tickets rather than a refund": a value set aside for another.
  const at = SET_ASIDE_ARTICLES.has(words[hit.start - 1]) ? hit.start - 2 : hit.start - 1;
  if ((words[at - 1] === 'rather' && words[at] === 'than') || (words[at - 1] === 'instead' && words[at] === 'of')) return true;
  // "the pick earns no points and loses none", "it loses nothing": a verb whose object is denied.
  if (hit.end - hit.start === 1 && (words[hit.end] === 'none' || words[hit.end] === 'nothing')) return true;
  // "the pick neither advances you as a win nor costs a life as a loss": the member after "nor" is denied as
  // a whole, its own verb and object standing between the "nor" and the value word.
  if (inNorMember(words, hit.start)) return true;
  for (let k = hit.start - 1; k >= Math.max(0, hit.start - 4); k--) {
    // "nobody wins", "no one wins or loses", "neither side won or lost", "no team wins or loses": a denied
    // subject of the verbs coordinated with the value word; "nothing is refunded" denies the refund.
    if (NEGATION_CUES.has(words[k]) || deniesSubjectAt(words, k) || words[k] === 'nothing') return true;
    // "no bets are voided", "no stakes are returned": a denied bet or stake as the subject.
    if ((MARKET_NOUNS.has(words[k]) || STAKE_NOUNS.has(words[k])) && words[k - 1] === 'no') return true;
    // "nobody earns or loses points on it", "no one gains or loses": any one verb coordinated right
    // before the value word shares its denied subject, so the denial two words back reaches it.
    if ((words[k] === 'or' || words[k] === 'nor') && k === hit.start - 1 && k >= 2 && deniesSubjectAt(words, k - 2)) return true;
    // "counts neither as a win nor as a loss": "as" after the negation still heads the denied value.
    if (!VERB_GROUP.has(words[k]) && !COORDINATED_OUTCOMES.has(words[k]) && words[k] !== 'as') return false;
  }
  return false;
}

/** How far before a value word the "nor" of its member may stand, and how far before the "nor" its "neither". */
const NOR_MEMBER_REACH = 6;
const NEITHER_REACH = 10;

/** Words that open a clause of its own after the "nor" member ("neither won nor lost, and the stake is refunded"). */
const MEMBER_ENDS = new Set(['and', 'but', 'so', 'while', 'then']);

/** Whether words[at] stands in the member after "nor" of a "neither ... nor ..." in the same clause
 * ("neither advances you as a win nor costs a life as a loss"), no clause of its own opening between. */
function inNorMember(words: string[], at: number): boolean {
  const nor = words.lastIndexOf('nor', at - 1);
  if (nor < 0 || at - nor > NOR_MEMBER_REACH || words.slice(nor + 1, at).some((w) => MEMBER_ENDS.has(w))) return false;
  return words.slice(Math.max(0, nor - NEITHER_REACH), nor).includes('neither');
}

/** Whether clause i follows, through semicolons only, the colon after a sentence's opening label that names
 * the rule's topic and states no value of its own ("Player does not play: ...; ..."). */
function underCaseLabel(rule: ReadRule, cs: Clause[], i: number): boolean {
  let j = i - 1;
  while (j > 1 && cs[j].kind === 'semi') j--;
  return j === 1 && cs[1].kind === 'colon' && !cs[0].withdrawn && hasTopic(rule, cs[0].words) && !clauseValue(rule, cs[0].words, true, cs[0].conditional);
}

/** Whether words[k] ends a denied subject: "nobody", "no one", "neither side", "no team". */
function deniesSubjectAt(words: string[], k: number): boolean {
  return words[k] === 'nobody' || (words[k] === 'one' && words[k - 1] === 'no') || (DENIED_SIDES.has(words[k]) && (words[k - 1] === 'neither' || words[k - 1] === 'no'));
}

/** The value a clause about the rule denies in the value's own verb group ("no bets are voided,
 * regardless of whether the player played"; "stakes are not refunded when a player does not play"),
 * for a rule with no opposite value to turn to: no value of its own, but the denied one cannot hold
 * for the markets the clause speaks of. */
function deniedValue(rule: ReadRule, words: string[], conditional: readonly boolean[]): string | undefined {
  const lex = LEXICON[rule];
  if (lex.negation) return undefined;
  const taken = new Set<number>();
  for (const g of lex.ignore) for (const hit of ignoredHits(words, g)) for (let k = hit.start; k < hit.end; k++) taken.add(k);
  // Only a refund denied: "neither side won or lost" describes a tied game, not a loss denied; and a
  // modal denial ("some bets may not be refunded") says what can happen, not what does.
  for (const v of lex.values.filter((e) => e.entry.value === 'void')) {
    for (const hit of findAll(words, v.tokens)) {
      if (conditional[hit.start] && conditional[hit.end - 1]) continue;
      if ([...Array(hit.end - hit.start).keys()].some((k) => taken.has(hit.start + k))) continue;
      if (words.slice(Math.max(0, hit.start - 4), hit.start).some((w) => MODALS.has(w))) continue;
      if (negatedValue(words, hit)) return v.entry.value;
    }
  }
  return undefined;
}
const MODALS = new Set(['may', 'might', 'could', 'can']);

/** The prefix of a denied value among the values a text states ("not:void"). */
const DENIED = 'not:';

/** Subjects that, after "neither" or "no", deny the outcome verbs that follow them. */
const DENIED_SIDES = new Set(['side', 'team', 'selection', 'player', 'bettor', 'party', 'outcome']);

/** Outcome verbs and the "or" that coordinates them with a value word under one subject ("no one wins
 * or loses", "nobody wins or loses"). */
const COORDINATED_OUTCOMES = new Set(['or', 'nor', 'wins', 'win', 'won']);

/** Words that deny the subject of a clause: "none of our markets include overtime", "no overtime
 * points are counted", "neither quarter nor half bets include it". */
const SUBJECT_NEGATIONS = new Set(['none', 'neither']);
/** How many words before a value its denied subject may stand: "none of the points scored in overtime count". */
const SUBJECT_REACH = 8;
const NO_SUBJECTS = new Set([...MARKET_NOUNS, 'points', 'goals', 'runs']);

/** Whether the subject of the value at hit is denied: "none"/"neither" shortly before it, "no" before
 * the rule's topic or a market noun, or the value said of "neither"/"no" markets ("included in
 * neither quarter nor half bets"). Words inside a condition deny nothing. */
function negatedSubject(rule: ReadRule, words: string[], hit: Hit, conditional: readonly boolean[]): boolean {
  // The value's subject is the last mention of the rule before it: "with no overtime in MLB, extra
  // innings count" denies overtime, not the extra innings that count.
  const topics = topicHits(rule, words).filter((t) => t.start < hit.start);
  const subject = topics.length ? Math.max(...topics.map((t) => t.start)) : -1;
  for (let k = Math.max(0, hit.start - SUBJECT_REACH); k < hit.start; k++) {
    if (conditional[k]) continue;
    if (SUBJECT_NEGATIONS.has(words[k]) && subject <= k + 2) return true;
    if (words[k] === 'no' && (k + 1 === subject || (NO_SUBJECTS.has(words[k + 1]) && subject <= k + 2))) return true;
  }
  // "include neither overtime nor shootouts", "includes no overtime": the object denied right after the value.
  if (hit.end - hit.start === 1 && (SUBJECT_NEGATIONS.has(words[hit.end]) || words[hit.end] === 'no' || words[hit.end] === 'nothing')) return true;
  return ['in', 'for', 'on', 'to'].includes(words[hit.end]) && (SUBJECT_NEGATIONS.has(words[hit.end + 1]) || words[hit.end + 1] === 'no');
}

/** Whether a phrase naming a market or a period starts at word i ("including total runs"). */
function namesMarketAt(words: string[], i: number): boolean {
  return scopeCandidates(words[i] ?? '').some(
    (c) => (c.entry.dim === 'market' || c.entry.dim === 'segment') && wordsAtOrPlural(words, i, c.tokens),
  );
}

/** "Except in the NHL, ...", "Except for the WNBA, ...": a sentence that opens by excepting a league. */
function opensWithLeagueException(words: string[]): boolean {
  if (words[0] !== 'except' || (words[1] !== 'in' && words[1] !== 'for')) return false;
  return namesLeagueAt(words, 2) || (words[2] === 'the' && namesLeagueAt(words, 3));
}

/** Whether a phrase naming a league or a sport starts at word i ("basketball", "NHL"). */
function namesLeagueAt(words: string[], i: number): boolean {
  return scopeCandidates(words[i] ?? '').some((c) => (c.entry.dim === 'league' || c.entry.dim === 'sport') && wordsAt(words, i, c.tokens));
}

/** Ordinals that name a period when the noun is left out ("any quarter, the fourth included"). */
const ORDINALS = new Set(['first', 'second', 'third', 'fourth', '1st', '2nd', '3rd', '4th']);

/** Whether the word or two words just before i name a market or a period ("the fourth", "4th quarter"). */
function namesPeriodBefore(words: string[], i: number): boolean {
  return ORDINALS.has(words[i - 1]) || [1, 2, 3].some((n) => i - n >= 0 && namesMarketAt(words, i - n) && scopeEndsAt(words, i - n, i));
}

/** Articles that open the noun phrase before a closing "included". */
const NP_ARTICLES = new Set(['the', 'a', 'an']);
/** Words that, before such a noun phrase, join it to what comes before ("overtime and the penalty
 * shootout included", "at the end of regulation included"): the phrase is then not one of its own. */
const NP_JOINERS = new Set(['and', 'or', 'plus', 'nor', 'of', 'at', 'in', 'on', 'to', 'for', 'by', 'with', 'from', 'after', 'until']);
/** Whether the words right before `i` are a short noun phrase of its own ("..., the World Series"), opening
 * with an article, joined to nothing before it and naming no topic of the rule. */
function namesOtherBefore(rule: ReadRule, words: string[], i: number): boolean {
  for (let k = i - 2; k >= Math.max(1, i - 4); k--) {
    if (!NP_ARTICLES.has(words[k])) continue;
    const np = words.slice(k + 1, i);
    return !NP_JOINERS.has(words[k - 1]) && !np.some((w) => NP_JOINERS.has(w)) && !hasTopic(rule, np);
  }
  return false;
}

/** Whether a market or period phrase starting at `from` ends exactly at `to`. */
function scopeEndsAt(words: string[], from: number, to: number): boolean {
  return scopeCandidates(words[from] ?? '').some((c) => (c.entry.dim === 'market' || c.entry.dim === 'segment') && from + c.tokens.length === to && wordsAtOrPlural(words, from, c.tokens));
}

/** The value an exception clause states itself, about the markets it names (none when it names no
 * market, or names two values). */
function exceptionValue(rule: ReadRule, c: Clause): string | undefined {
  if (!(c.own.league || c.own.segment || c.own.market) || !hasTopic(rule, c.words)) return undefined;
  const v = clauseValue(rule, c.words, true, c.conditional);
  return v && !v.conflict ? v.value : undefined;
}

/** "..., except that for hockey the shootout adds no goal": an exception whose subject is the
 * shootout takes the shootout out of the statement, not the league it names, so for overtime it
 * excepts nothing (the value for overtime itself stands). */
function exceptsShootout(c: Clause): boolean {
  const at = c.words.findIndex((w) => w === 'shootout' || w === 'shootouts');
  // The shootout as the subject, alone: "the shootout and overtime are not counted" excepts overtime too.
  return at > 0 && at <= 5 && c.words[0] === 'that' && c.words[at - 1] === 'the' && !['and', 'or', 'plus', 'nor'].includes(c.words[at + 1] ?? '') && !hasTopic('overtime', c.words.slice(0, at - 1));
}

export interface Reading {
  value: string;
  /** The clause a known value comes from. */
  evidence?: string;
  /** Why the value is unknown. */
  why?: 'silent' | 'contradiction' | 'hedged';
  others?: { value: string; evidence: string }[];
}

/** Last words of a lead-in that cannot stand as a sentence of their own ("... does not count for:"). */
/** Endings of a lead-in that state a whole rule ("the push rule applies:"), not a phrase cut off. */
const RULE_APPLIES = [['rule', 'applies'], ['rules', 'apply']];
const LEAD_ENDS = new Set(['for', 'to', 'in', 'on', 'of', 'following', 'reasons', 'include', 'includes', 'apply', 'applies', 'below']);
/** "some common examples", "examples", "for example", "for instance": a label naming the items after its colon as examples. */
const namesExamples = (w: string[]) => w.length <= 4 && (w.at(-1) === 'examples' || w.at(-1) === 'example' || (w.length === 2 && w[0] === 'for' && w[1] === 'instance')) && w.slice(0, -1).every((x) => EXAMPLE_LABEL_WORDS.has(x));
const EXAMPLE_LABEL_WORDS = new Set(['some', 'common', 'typical', 'usual', 'frequent', 'for', 'a', 'few', 'several', 'the', 'most', 'main']);

/** The value a withdrawn clause ("usually", "depending on the market") stands for among the candidates. */
const HEDGED = 'hedged';

interface Applicable {
  value: string;
  conflict?: string;
  clause: string;
  weight: number;
  /** The clause's scope names markets ("the side and the total") or the game's final score, and no period. */
  gameLines?: boolean;
  /** The sentence it was read in, and whether its value was said for the case its condition names. */
  sentence?: number;
  forCase?: boolean;
  /** A tie read from a clause that places it at the end of regulation ("level after regular time"). */
  regulationTie?: boolean;
  /** A value implied by how a contract resolves, not stated for the rule: any stated value outranks it. */
  implied?: boolean;
}

const namesGameLines = (c: Clause) =>
  !c.scope.segments && !c.scope.alternatives?.some((a) => a.segments) && (!!c.own.result || !!c.scope.markets || !!c.scope.alternatives?.some((a) => a.markets));

/** "Match betting – games must go the full 60 minutes ...": a market named before a dash labels the
 * entry as a colon does, so the sentences after it that name nothing speak of that market, not of
 * every market of the league ("... . Overtime is included for settlement purposes." under "Match
 * betting" says nothing of the total). A dash after words naming no market is left alone. */
const DASH_LABEL = /^([^:\u2013\u2014]{1,60}?)\s+[\u2013\u2014]\s+(?=\S)/;
function dashLabel(sentence: string): string {
  const m = DASH_LABEL.exec(sentence);
  if (!m) return sentence;
  const head = clauses(m[1]);
  return head.length === 1 && head[0].own.market && !head[0].own.blocking ? `${m[1]}: ${sentence.slice(m[0].length)}` : sentence;
}

/** A heading naming one market product ("Last point market:"), not a kind of markets ("Two-way bets:", "Time lines:"). */
const SINGLE_MARKET_NOUNS = new Set(['market', 'bet', 'wager']);

/** Words before "market" in a heading that name no market of their own ("Main markets:", "All bets:"). */
const GENERIC_MARKET_WORDS = new Set(['all', 'the', 'a', 'an', 'main', 'other', 'standard', 'these', 'those', 'our', 'your', 'game', 'games', 'any', 'every', 'each', 'most', 'some', 'this', 'such', 'betting', 'sports', 'straight', 'single', 'remaining', 'following', 'individual', 'specific', 'certain', 'related', 'popular', 'common', 'core', 'basic', 'general', 'regular', 'normal', 'usual', 'pre', 'match', 'event', 'full', 'whole', 'fixed', 'odds', 'and', 'or']);

/** "Last point market: settled on the last point ...": a heading that names a market by words the
 * scope lexicon does not know as one of ours, and names no league, period or market of ours, heads a
 * market outside the spec; what its entry states is no rule for the markets the text is placed on. */
function headsOtherMarket(head: Clause): boolean {
  if (head.own.league || head.own.segment || head.own.market || head.own.blocking) return false;
  const w = head.words;
  if (w.length < 2 || w.length > 5 || !SINGLE_MARKET_NOUNS.has(w[w.length - 1])) return false;
  return w.slice(0, -1).some((x) => !GENERIC_MARKET_WORDS.has(x));
}

/** Words that open a definition's entry ("Regular time: the official duration of a match ..."). */
const DEFINITION_OPENERS = new Set(['the', 'a', 'an']);

/** "Regular time: the official duration of a match ...; it excludes overtime ...": a label naming only
 * a length of play, whose entry opens with an article, defines the term; what the definition says
 * regular time leaves out is no rule for how any market settles. */
function definesRegulation(head: Clause, entry: Clause | undefined): boolean {
  if (!entry || !DEFINITION_OPENERS.has(entry.words[0])) return false;
  return (CLASSES.get('@regulation') ?? []).some((m) => m.length === head.words.length && m.every((t, j) => head.words[j] === t));
}

/** Words of a heading that opens a section of definitions ("Important definitions:", "Glossary:"). */
const DEFINITION_HEADINGS = new Set(['definitions', 'definition', 'glossary']);
/** Words of a definitions heading that name what a venue offers ("Period definitions:", "Market
 * definitions:"): the entries define its own periods or markets, which is how they settle, not what terms mean. */
const OFFERED_DEFINED = new Set(['period', 'periods', 'market', 'markets', 'bet', 'bets', 'wager', 'wagers', 'line', 'lines']);
/** Words of a heading that opens a section of rules again ("General rules:"). */
const RULE_HEADINGS = new Set(['rules', 'rule', 'regulations']);
/** Words of a heading on how bets settle ("Settlement: props are graded on the box score ..."): it opens a
 * section of rules again unless its entry opens with an article, as a glossary's entry for the term does
 * ("Settlement: the grading of a bet"). */
const SETTLEMENT_HEADINGS = new Set(['settlement', 'settlements', 'settling', 'grading']);

/** "Important definitions: point spread - the number of points ... . If the team wins by exactly 3
 * points, this results in a push or tie. General rules: ...": the sentences of a section a heading
 * calls definitions say what terms mean, not how this venue settles; they state no rule for any
 * market. The section ends at a heading of rules, a numbered item, or a heading naming a league or
 * sport. */
function definitionSections(parsed: ParsedText): ParsedText {
  let defining = false;
  // Within a glossary entry ("Penalty shootout: in ice hockey, the decision ..."), not a section of definitions.
  let entry = false;
  return parsed.map((cs) => {
    const head = cs.length > 1 && cs[1].kind === 'colon' ? cs[0] : undefined;
    if (head && head.words.some((w) => DEFINITION_HEADINGS.has(w)) && !head.words.some((w) => RULE_HEADINGS.has(w) || OFFERED_DEFINED.has(w)) && !(head.own.league || head.own.market || head.own.segment)) {
      defining = true;
      entry = false;
    } else if (head && !defining && glossaryEntry(cs)) {
      defining = true;
      entry = true;
    } else if (defining && entry) {
      // An entry's sentences describe its term up to a heading, a numbered item, or a sentence naming a
      // market, period or league of its own.
      const first = cs[0];
      if (!first || head || first.item || first.own.market || first.own.segment || first.own.league || first.own.every) defining = entry = false;
    } else if (defining) {
      const first = cs[0];
      const settles = head && head.words.some((w) => SETTLEMENT_HEADINGS.has(w)) && !DEFINITION_OPENERS.has(cs[1].words[0]);
      // "Sportsbook, ice hockey (NHL): ..." names a league's section as "Ice hockey:" does.
      const ends = !first || first.item || settles || (head && ((head.own.league && head.words.length <= SECTION_HEADING_WORDS) || head.words.some((w) => RULE_HEADINGS.has(w)))) || (cs.length === 1 && first.own.league && first.words.length <= SPORT_HEADING_WORDS);
      if (ends) defining = false;
    }
    return defining ? cs.map((c) => ({ ...c, scope: { ...c.scope, blocking: true } })) : cs;
  });
}

/** Words of a glossary entry's term at most ("Penalty shootout:", "Extra innings:"). */
const TERM_WORDS = 3;

/** "Penalty shootout: in ice hockey, the decision when a game is still level despite overtime. ...": a
 * short heading naming a term the rules speak of (the shootout, or a rule's topic) and no market, period or
 * league, whose entry opens with an article (after where the term is used, "in ice hockey,"), names no market
 * or period and states no value, is a glossary entry: it and the sentences
 * that go on describing the term say what the term means, not how this venue settles. */
function glossaryEntry(cs: Clause[]): boolean {
  const [head, def] = cs;
  if (head.words.length > TERM_WORDS || head.own.league || head.own.market || head.own.segment || head.own.blocking || head.own.every) return false;
  if (head.words.some((w) => RULE_HEADINGS.has(w) || SETTLEMENT_HEADINGS.has(w) || DEFINITION_HEADINGS.has(w))) return false;
  // The term is one the rules speak of: the shootout, overtime, a push, a dead heat.
  if (!head.words.some((w) => w === 'shootout' || w === 'shootouts') && !READ_RULES.some((r) => hasTopic(r, head.words))) return false;
  if (def.own.market || def.own.segment) return false;
  const w = def.words;
  let i = 0;
  if (w[0] === 'in') i = w[1] === 'the' || w[1] === 'ice' ? 3 : 2;
  return DEFINITION_OPENERS.has(w[i]) && !cs.some((c) => statesValue(c.words));
}

/** Words of a heading that names a league's section at most ("Sportsbook, ice hockey (NHL):"). */
const SECTION_HEADING_WORDS = 5;

/** Copulas by which a sentence opening with a term defines it ("Overtime is ...", "... means ..."). */
const DEFINING_VERBS = [['is'], ['means'], ['refers', 'to'], ['denotes']];
/** Words that, right after the copula, begin what a term is (a noun phrase), not how it settles
 * ("Overtime is extra time added ..." against "Overtime is included", "is not counted"). */
const DEFINED_AS = new Set(['a', 'an', 'the', 'extra', 'additional', 'supplementary', 'any', 'what', 'when', 'time', 'period', 'periods', 'played']);

/** "Overtime in hockey is extra time added to the main time of the match when the score is level": a
 * clause opening with a length of play (overtime or regulation, "in <sport>" after it allowed) and
 * saying what it is defines the term; it states no rule, whatever value words its definition holds. */
function definesTerm(c: Clause): boolean {
  if (c.kind !== 'first' || c.conditional[0]) return false;
  const w = c.words;
  for (const cls of ['@overtime_periods', '@regulation']) {
    for (const term of CLASSES.get(cls) ?? []) {
      if (!term.every((t, j) => w[j] === t)) continue;
      let i = term.length;
      // "in hockey", "in ice hockey", "in the NHL": where the term is used.
      if (w[i] === 'in') i += w[i + 1] === 'the' || w[i + 1] === 'ice' ? 3 : 2;
      const verb = DEFINING_VERBS.find((v) => v.every((t, j) => w[i + j] === t));
      if (verb && DEFINED_AS.has(w[i + verb.length])) return true;
    }
  }
  return false;
}

/** Our leagues and sports a stretch of text names ("NHL, AHL, OHL and NCAA" names the NHL). */
function ourLeagues(text: string): Set<string> {
  const words = tokenize(text).map((t) => t.word).filter((w) => /^[a-z0-9]/.test(w));
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (const c of scopeCandidates(words[i])) {
      if ((c.entry.dim === 'league' || c.entry.dim === 'sport') && wordsAt(words, i, c.tokens)) for (const v of c.entry.values ?? []) out.add(v);
    }
  }
  return out;
}

/** "Ice hockey (except NHL, AHL, OHL ...). General rules. ...": a title whose parenthesis excepts
 * leagues makes the whole text a section for the other leagues. */
const TITLE_EXCEPTION = /^[^.()]{1,60}\((?:except|excluding|other than)\s+([^)]*)\)/i;

function titleSection(text: string): Scope | undefined {
  const m = TITLE_EXCEPTION.exec(text.trimStart());
  if (!m) return undefined;
  const leagues = new Set([...ourLeagues(m[1])].filter((l) => LEAGUE_NAMES.has(l)));
  if (!leagues.size) return undefined;
  // "Ice hockey (except NHL ...)": the sport's only league of ours excepted leaves none of ours.
  const sport = [...ourLeagues(text.trimStart().slice(0, m.index + m[0].indexOf('(')))].filter((l) => LEAGUE_NAMES.has(l));
  if (sport.length && sport.every((l) => leagues.has(l))) return { complement: false, blocking: true };
  return { leagues, complement: true, blocking: false };
}
const LEAGUE_NAMES = new Set(['nfl', 'nba', 'wnba', 'mlb', 'nhl']);

/** "This page covers Aussie Rules only": a text that says it covers only something none of our
 * leagues plays states no rule for our markets, whatever it says of them in passing. */
const COVERS_ONLY = /\bthis (?:page|section|article) (?:covers|applies to|is about) ([^.;]*?) only\b/i;

function coversOtherOnly(text: string): boolean {
  const m = COVERS_ONLY.exec(text);
  if (!m || ourLeagues(m[1]).size) return false;
  // "This page covers the 'Regulation' lines only" names markets of ours (a kind of line), not a sport.
  return !tokenize(m[1]).some((t) => MARKET_NOUNS.has(t.word) || namesMarketAt([t.word], 0));
}

/** "Other sports' player markets ... follow their own sport rules": the text speaks of the sport it
 * names, and says so. (A sentence may hold a line's decimal point, "over/under 24.5".) */
const OTHERS_OWN = /\bother sports\b(?:[^.;]|\.(?=\d))*?\b(?:follow|use|have|keep)\b(?:[^.;]|\.(?=\d))*?\bown\b/i;

/** A text that sends other sports to their own rules and names only leagues or sports outside the
 * spec states no rule for our markets. */
function othersOwnOutside(text: string, parsed: ParsedText): boolean {
  if (!OTHERS_OWN.test(text)) return false;
  const all = parsed.flat();
  return all.some((c) => c.own.foreign) && !all.some((c) => c.own.league && !c.own.foreign);
}

/** Words after a sport's name that make a heading of its rules ("Handball rules:", "LACROSSE. GENERAL RULES"). */
const RULES_HEADING_WORDS = new Set(['rules', 'rule', 'regulations', 'betting']);

/** "Knowledge base. All bets are settled on ... . Handball rules: 1. Duration: ...": a text that heads
 * the rules of a sport outside the spec (a heading of that sport alone, or "<sport> rules:") and names
 * no league or sport of ours anywhere is that sport's page; the general sentences around the heading
 * are its rules too, none of our markets'. */
function sportRulesOutside(parsed: ParsedText): boolean {
  const all = parsed.flat();
  if (all.some((c) => c.own.league && !c.own.foreign)) return false;
  return parsed.some((cs) => {
    const head = cs.length > 1 && cs[1].kind === 'colon' ? cs[0] : cs.length === 1 ? cs[0] : undefined;
    if (!head?.own.foreign || head.own.market || head.own.segment) return false;
    // The heading is the sport's name, with at most "rules" words after it.
    const rest = head.words.filter((w) => /^[a-z]/.test(w) && !RULES_HEADING_WORDS.has(w) && w !== 'general');
    return rest.length <= 2 && (cs.length === 1 ? head.words.length <= SPORT_HEADING_WORDS : head.words.some((w) => RULES_HEADING_WORDS.has(w)));
  });
}

/** "Hockey. ... all hockey bets are settled on 70 minutes of play ... (men's hockey)": a text whose every
 * name of a league or sport of ours is a sport's bare name ("hockey") that the text itself names as a
 * sport outside the spec ("men's hockey", "field hockey": an `other_league` entry ending in that name)
 * speaks of that sport. A text naming "ice hockey" or a league of ours is not one. */
function qualifiedOutside(text: string): boolean {
  const words = tokenize(text).map((t) => t.word).filter((w) => /^[a-z0-9]/.test(w));
  const bare = new Set<string>();
  const qualified = new Set<string>();
  let other = false;
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (const c of scopeCandidates(words[i])) {
      if (!wordsAtOrPlural(words, i, c.tokens)) continue;
      matched = c.tokens.length;
      const { dim } = c.entry;
      if (dim === 'other_league' && c.tokens.length > 1) qualified.add(c.tokens[c.tokens.length - 1]);
      else if (dim === 'sport' && c.tokens.length === 1) bare.add(c.tokens[0]);
      else if (dim === 'league' || dim === 'sport') other = true;
      break;
    }
    i += matched || 1;
  }
  for (const w of bare) if (!qualified.has(w) && playedLonger(text, w)) qualified.add(w);
  return !other && bare.size > 0 && [...bare].every((w) => qualified.has(w));
}

/** The longest game, overtime included, that a league of ours plays under each bare sport name, in minutes
 * (the NHL 60 and 5, the NFL 60 and 10 or 15, the NBA 48 and 5). */
const LONGEST_GAME: Record<string, number> = { hockey: 65, football: 75, basketball: 53 };
/** A game's length as bets are settled on it: "after 70 minutes", "on 90 minutes of play". */
const GAME_LENGTH = /\b(?:after|on|of|over)\s+(?:the\s+)?(\d{2,3})[ -]minutes?\b/gi;

/** "All hockey bets are settled after 70 minutes of play": a sentence naming a bare sport name and a game
 * longer than any league of ours plays under it speaks of another sport of that name (field hockey). */
function playedLonger(text: string, sport: string): boolean {
  const longest = LONGEST_GAME[sport];
  if (longest === undefined) return false;
  return sentences(text).some((s) => tokenize(s).some((t) => t.word === sport) && [...s.matchAll(GAME_LENGTH)].some((g) => Number(g[1]) > longest));
}

/** A text's sentences, each as its clauses: what every rule and market scope reads from. */
export type ParsedText = Clause[][];

/** The most words a sentence naming only a league or sport may have to be read as a heading ("Ice hockey."). */
const SPORT_HEADING_WORDS = 3;
/** The most words a sentence that is only a market's name may have to head a section ("Player Props / Performances"). */
const MARKET_HEADING_WORDS = 4;

/** The league of a section headed by a league or sport outside the spec: none of ours. */
const OUTSIDE_LEAGUE = 'outside';

/** Splits a text once; readRule reads it for any rule and market (callers may keep it per text). A
 * heading (a question, or the words before a sentence's first colon) scopes the sentences after it. */
export function parseText(text: string): ParsedText {
  const parsed = definitionSections(parseSections(text));
  return othersOwnOutside(text, parsed) || qualifiedOutside(text) || sportRulesOutside(parsed) ? parsed.map((cs) => cs.map((c) => ({ ...c, scope: { ...c.scope, blocking: true } }))) : parsed;
}

/** The sections and headings of a text, each sentence as its clauses (parseText's reading before the
 * page-level check). */
function parseSections(text: string): ParsedText {
  const out: ParsedText = [];
  const title = titleSection(text);
  if (coversOtherOnly(text) || title?.blocking) return sentenceList(tableRows(text)).map((s) => clauses(s.text).map((c) => ({ ...c, scope: { ...c.scope, blocking: true } })));
  let section: Scope | undefined = title;
  // The numbered items open at this point, each with the section in force before it: "6. NCAA venue
  // rule: ..." heads item 6 only, so item 7 stands in the section item 6 opened in ("3.7. Player props:"
  // still heads 3.7.4 and 3.7.5).
  let items: { depth: number; before: Scope | undefined }[] = [];
  let question: Clause | undefined;
  // The scope of a "Q:" sentence that tells the asker's situation before the question itself.
  let asker: Scope | undefined;
  // Whether the sentence being read opens a numbered item: its first clause is marked `item`.
  let numbered = false;
  // The section a market entry's heading opened ("Winner / Moneyline (Match/Half/Quarter): ..."), while
  // it is the section in force: a subject covering every market under it is that entry's market.
  let entry: Scope | undefined;
  const push = (cs: Clause[]) => out.push(numbered && cs.length ? [{ ...cs[0], item: true }, ...cs.slice(1)] : cs);
  for (const listed of sentenceList(tableRows(text))) {
    const s = { ...listed, text: dashLabel(listed.text) };
    const depth = numberDepth(s.text);
    numbered = depth !== undefined;
    if (depth !== undefined) {
      let closed: Scope | undefined | null = null;
      while (items.length && items[items.length - 1].depth >= depth) closed = items.pop()!.before;
      if (closed !== null) section = closed;
      items.push({ depth, before: section });
    }
    // A heading starts a new section: it is read on its own, not under the heading before it.
    const fresh = clauses(s.text);
    // The question just before this sentence, when this sentence answers it with a bare yes or no.
    const asked = !s.question && question && fresh.length ? question : undefined;
    question = s.question ? fresh.at(-1) : undefined;
    // "Full-game bets include overtime. This is normally the case." takes the sentence before back.
    const last = out.length ? out[out.length - 1] : undefined;
    if (fresh.length && withdrawsBefore(fresh[0]) && last?.length) last[last.length - 1].withdrawn = true;
    // "Myth 3: 'If the favourite wins by exactly the spread, I lose.' False: ... a three-point win is a
    // push": a sentence the next one opens by calling false is a claim quoted to be refuted; it states no
    // rule for any market, and the refutation speaks of what the claim spoke of.
    if (!s.question && fresh.length && refutesBefore(fresh[0].words) && last?.length) {
      const claim = last[last.length - 1].scope;
      for (let k = 0; k < last.length; k++) last[k] = { ...last[k], scope: { ...last[k].scope, blocking: true } };
      push(clauses(s.text, claim));
      continue;
    }
    if (fresh.length && last?.length) restrictBefore(fresh[0], last[last.length - 1]);
    // "Overtime counts. Quarter bets are the exception." excepts the quarters from the sentence before.
    if (!s.question && last?.length && fresh.length === 1 && namesException(fresh[0])) {
      last.push({ ...fresh[0], kind: 'except', trailing: true });
      continue;
    }
    // "Total Points: will the points both teams score be over or under the predicted score for regular time?": a
    // market dictionary's entry, a market of ours as its label and the question the market asks after the colon,
    // defines that market; what the question counts (the period it is on) is the entry's statement.
    if (s.question && definesByQuestion(fresh)) {
      section = fresh[0].scope;
      push(fresh);
      continue;
    }
    if (s.question) {
      // A question states nothing; what it names is the subject of the answer after it, and so does
      // the asker's situation told before it ("Q: I bet the over. Does overtime count?"): an answer
      // to a question about one side of a market settles nothing for the market.
      section = fresh.length ? fresh[fresh.length - 1].scope : undefined;
      if (section && asker && !fresh.some((c) => c.own.market || c.own.segment || c.own.blocking)) section = { ...section, blocking: section.blocking || asker.blocking, markets: section.markets ?? asker.markets, segments: section.segments ?? asker.segments };
      asker = undefined;
      continue;
    }
    asker = QA_QUESTION.test(s.text) && fresh.length ? fresh[fresh.length - 1].scope : undefined;
    // "Ice hockey. (1) Match Result: ... . Basketball. (1) Match Result: ...": a sentence that is only a
    // league or sport's name is a heading; the sentences after it stand in that league's section.
    if (fresh.length === 1 && fresh[0].words.length <= SPORT_HEADING_WORDS && fresh[0].own.league && !(fresh[0].own.market || fresh[0].own.segment || fresh[0].own.blocking)) {
      section = fresh[0].scope;
      items = [];
      push(fresh);
      continue;
    }
    // "Soccer. Match betting: ...", "eAmericanFootball rules. Main markets: ...": a heading naming only a
    // league or sport outside the spec opens that league's section, which holds none of our leagues
    // until a heading names one of ours (a sub-heading naming no league stays in it).
    if (fresh.length === 1 && fresh[0].words.length <= SPORT_HEADING_WORDS && fresh[0].own.foreign && !(fresh[0].own.market || fresh[0].own.segment)) {
      section = { leagues: new Set([OUTSIDE_LEAGUE]), complement: false, blocking: false };
      items = [];
      push(fresh);
      continue;
    }
    if (fresh.length > 1 && fresh[1].kind === 'colon') {
      // A sub-heading that names no league stays in the league section it stands in ("Football
      // betting rules: ..." then "Dallas -7: ...").
      const head = fresh[0];
      if (definesRegulation(head, fresh[1])) {
        // A definition states no rule and opens no section: every clause of it applies to none of our markets.
        push(fresh.map((c) => ({ ...c, scope: { ...c.scope, blocking: true } })));
        continue;
      }
      let cs = fresh;
      if (head.own.league || !section) {
        section = head.scope;
      } else {
        const league: Scope = { leagues: section.leagues, sports: section.sports, complement: section.complement, blocking: false };
        cs = clauses(s.text, league);
        section = cs[0].scope;
      }
      // "Say the spread makes Boston a 6-point favourite: ..." speaks of one side in its own sentence;
      // the sentences after it are not that side's.
      if (head.own.side) section = { ...section, blocking: false };
      if (headsOtherMarket(head)) {
        // The entry and what follows it under the heading speak of that market, none of ours.
        for (const c of cs) if (!(c.own.market || c.own.segment)) c.scope = { ...c.scope, blocking: true };
        section = cs[0].scope;
      }
      // A clause after the colon naming another market of its own ends the heading's market, as a later
      // sentence naming one does: "Weekly over/under challenge: pick a player over or under his yardage
      // line; ..." is a player's line, and the sentences after it are not the game total's.
      if ((section.markets || section.segments || section.alternatives) && cs.slice(1).some((c) => c.own.market && !c.own.every && !sameMarkets(c.scope, section!))) {
        section = { leagues: section.leagues, sports: section.sports, complement: section.complement, blocking: false };
      }
      entry = head.own.market && section.markets?.size && !section.blocking && namesEntry(head.words) ? section : undefined;
      push(cs);
    } else {
      // A bare follow-up that names nothing ("Push rules apply.") speaks of what the sentence before
      // it spoke of ("Both players must compete in one Down. Push rules apply.").
      const prev = out.length ? out[out.length - 1] : undefined;
      const bare = !asked && fresh.length === 1 && fresh[0].words.length <= SHORT_FOLLOW_UP && !(fresh[0].own.league || fresh[0].own.segment || fresh[0].own.market || fresh[0].own.blocking);
      // An exception at that sentence's end names the markets left out, not what it spoke of.
      const spoke = prev?.filter((c) => c.kind !== 'except' && c.kind !== 'not').at(-1) ?? prev?.at(-1);
      const cs = bare && spoke ? clauses(s.text, spoke.scope) : clauses(s.text, section);
      // A definition of a length of play states no rule for any market.
      if (cs.length && definesTerm(cs[0])) cs[0] = { ...cs[0], scope: { ...cs[0].scope, blocking: true } };
      if (asked && cs.length) cs[0].asked = { text: asked.text, words: asked.words, conditional: asked.conditional };
      if (entry && section === entry) entryBets(cs, entry);
      // "Moneyline payoff: ... . Part C - American Football. All contest actions include overtime ...": a
      // sentence naming a league of its own is no longer the entry's description.
      if (cs.some((c) => c.own.league)) entry = undefined;
      push(cs);
      // A sentence under a market heading that names another market of its own ends that heading's
      // market: what follows stands in the league section only ("Totals: ... . Player props may
      // require ... . Extra innings count unless the market states otherwise.").
      const first = cs[0];
      // "All wagers", "all bets" under the heading are the heading's market's bets ("Basketball player
      // props: ... . A started game ... keeps all wagers. All overtime is included."): they do not end it.
      if (section && first && (section.markets || section.segments || section.alternatives) && first.own.market && !first.own.every && !sameMarkets(first.scope, section)) {
        section = { leagues: section.leagues, sports: section.sports, complement: section.complement, blocking: false };
      }
      // "Live Betting: ... . Player Props / Performances. Bets are action if ...": a heading of its own that is
      // only a market of ours ends a section headed by a market or a condition outside the spec.
      if (section?.blocking && first && fresh.length === 1 && first.own.market && !first.own.blocking && !first.own.every && first.words.length <= MARKET_HEADING_WORDS && !first.words.some((w) => PREDICATE_VERBS.has(w))) {
        section = { leagues: section.leagues, sports: section.sports, complement: section.complement, blocking: false };
      }
    }
  }
  return out;
}

/** The words of the scope lexicon's market and period names ("winner", "moneyline", "match", "half", "home",
 * "total"): a heading of these words alone is a market's entry in a list of markets. */
const ENTRY_WORDS = new Set([...SCOPE.filter((c) => c.entry.dim === 'market' || c.entry.dim === 'segment' || c.entry.dim === 'result').flatMap((c) => c.tokens), ...RESULT_MARKET_WORDS]);
/** Whether a heading is only a market's name and its periods ("Winner / Moneyline (Match/Half/Quarter)",
 * "Home/Away Total"), an entry of a list of markets; "Moneyline payoff: -120 means ..." explains the odds,
 * and what follows it is no rule of the money line's own. */
const namesEntry = (words: string[]) => words.every((w) => ENTRY_WORDS.has(w));

/** "Winner / Moneyline: ... . In the event of a tie after overtime all bets will be voided": a sentence of a
 * market entry whose subject covers every market ("all bets", naming no market or period of its own) speaks
 * of the entry's bets, more narrowly than the section's general sentences and not of the other entries'
 * markets; the clauses after it in the sentence that name no market of their own speak of them too. It takes the
 * entry's market, not its period list: the list names the periods the market is offered for ("(Match/Innings)"),
 * which the scope lexicon maps only in part (innings are outside the spec), and the sentence names none. */
function entryBets(cs: Clause[], entry: Scope): void {
  // "If the game is tied ..., all bets are void": the game named in the case names the full game, no market.
  const bare = (c: Clause) => !c.scope.markets && !c.scope.alternatives && !c.scope.blocking;
  const at = cs.findIndex((c) => c.own.every && bare(c));
  if (at < 0) return;
  for (let k = at; k < cs.length; k++) {
    const c = cs[k];
    if (k > at && (c.own.market || c.own.segment || c.own.blocking || !bare(c))) break;
    c.scope = { ...c.scope, markets: entry.markets };
  }
}

/** Words that open a sentence calling the one before it false ("False.", "Not true:", "Wrong for ..."). */
const REFUTATIONS = [['false'], ['untrue'], ['wrong'], ['incorrect'], ['not', 'true'], ['not', 'so'], ['that', 'is', 'a', 'myth'], ['this', 'is', 'a', 'myth']];
/** "False start" is a football penalty, not a refutation. */
const refutesBefore = (words: string[]) => REFUTATIONS.some((r) => wordsAt(words, 0, r)) && !(words[0] === 'false' && /^starts?$/.test(words[1] ?? ''));

/** Words by which a hedged clause gives a reason ("Why was my pick voided? Most often because the
 * player did not play"): the hedge says how often that is the cause, not how the rule is settled, so
 * a clause naming the rule only as a cause claims no scope. */
const REASONS = new Set(['because', 'since']);

/** Pronouns by which a clause names the topic of the clause before it. */
/** Nouns for the event a bet is on: "that match" in a clause names the event of the clause before. */
const EVENT_NOUNS = new Set(['match', 'game', 'event', 'fixture', 'contest']);
const TOPIC_PRONOUNS = new Set(['it', 'them']);
/** Prepositions before a pronoun that make it name a game or bet, not the rule's topic ("wagers on it"). */
const PRONOUN_PREPOSITIONS = new Set(['on', 'in', 'of', 'for', 'to', 'at', 'with', 'about', 'from', 'after', 'before']);

/** "What happens if the game ends in a tie?", "What if my player does not play?": a question that asks
 * what a case leads to, whose answer states how that case settles (unlike "If he scores in a
 * shootout, how is my wager graded?", which names the rule only as the setting of another question). */
const asksCase = (w: string[]) => (w[0] === 'what' && (w[1] === 'if' || w[1] === 'happens' || w[1] === 'about')) || bareCase(w);
/** A market dictionary's entry asked as a question ("Total Points: will the points both teams score be over or
 * under the predicted score?"): a label naming a market of ours and nothing else, then one clause after the colon
 * opening with "will" and naming the market's over/under or score. */
function definesByQuestion(cs: Clause[]): boolean {
  if (cs.length !== 2 || cs[1].kind !== 'colon' || !cs[0].own.market || cs[0].own.blocking || cs[0].words.length > 4) return false;
  const w = cs[1].words;
  return w[0] === 'will' && (findAll(w, ['over', 'or', 'under']).length > 0 || findAll(w, ['more', 'or', 'less']).length > 0);
}

/** "And if the teams are still level after overtime?": a question that is only a case, asking what
 * follows from it (not "If he scores in a shootout, how is my wager graded?", which asks another thing). */
const bareCase = (w: string[]) => (w[0] === 'if' || (w[0] === 'and' && w[1] === 'if')) && !w.some((x) => WH_WORDS.has(x));
const WH_WORDS = new Set(['how', 'what', 'which', 'who', 'when', 'where', 'why', 'whether']);

/** The most words a sentence may have to be a follow-up of the one before it. */
const SHORT_FOLLOW_UP = 4;

/** Whether two scopes name the same markets and segments. */
function sameMarkets(a: Scope, b: Scope): boolean {
  const eq = (x?: Set<string>, y?: Set<string>) => (x?.size ?? 0) === (y?.size ?? 0) && [...(x ?? [])].every((v) => y?.has(v));
  return eq(a.markets, b.markets) && eq(a.segments, b.segments) && !a.alternatives === !b.alternatives;
}

/** Openings that speak of what the sentence before described ("when that happens, ..."). */
const BACK_REFERENCE_OPENINGS = [['when', 'that', 'happens'], ['when', 'this', 'happens'], ['if', 'that', 'happens'], ['if', 'this', 'happens'], ['in', 'that', 'case'], ['in', 'this', 'case'], ['in', 'such', 'a', 'case'], ['in', 'such', 'cases']];
/** "When they do, ...", "if it does, ...", "when it happens, ...": a case told by a pronoun and a bare
 * auxiliary (or "happen") is the case the clause before described. */
const BACK_PRONOUNS = new Set(['they', 'it', 'that', 'this', 'so']);
const BACK_VERBS = new Set(['do', 'does', 'did', 'happen', 'happens', 'happened', 'occur', 'occurs']);
/** "This may happen for ...", "That can occur when ...": a subject that is what the sentence before said. */
const happensBefore = (w: string[]) => (w[0] === 'this' || w[0] === 'that') && HAPPEN_VERBS.has(HAPPEN_MODALS.has(w[1]) ? w[2] : w[1]);
const HAPPEN_VERBS = new Set(['happen', 'happens', 'occur', 'occurs']);
const HAPPEN_MODALS = new Set(['may', 'can', 'might', 'could', 'will', 'does', 'do']);

const startsWithBackReference = (w: string[]) =>
  BACK_REFERENCE_OPENINGS.some((o) => o.every((x, k) => w[k] === x)) || ((w[0] === 'when' || w[0] === 'if' || w[0] === 'whenever') && BACK_PRONOUNS.has(w[1]) && BACK_VERBS.has(w[2]));

/** The auxiliaries that, with "not" and nothing after them, leave out a verb phrase said before. */
const ELLIPTIC_AUX = new Set(['do', 'does', 'did', 'will', 'would', 'shall', 'are', 'is', 'were']);
// "... do not" and "... never do": the negation before or after the bare auxiliary.
const elliptical = (w: string[]) => w.length >= 3 && ((w[w.length - 1] === 'not' && ELLIPTIC_AUX.has(w[w.length - 2])) || (ELLIPTIC_AUX.has(w[w.length - 1]) && w[w.length - 2] === 'never'));

const ADVERBS = new Set(['however', 'though', 'instead', 'also', 'too', 'likewise', 'either']);

/** "..., but full-game lines do": a clause of a subject and a bare auxiliary, no negation. */
const affirmsElliptically = (w: string[]) => w.length >= 2 && w.length <= ELLIPTIC_MAX && ELLIPTIC_AUX.has(w[w.length - 1]) && !w.some((x) => NEGATION_CUES.has(x));

/** Whether the words state a value of some rule (a statement an elliptical clause after it can deny). */
const statesValue = (words: string[]) => READ_RULES.some((r) => clauseValue(r, words, true) !== undefined);

/** Words that open a reason or a consequence after a comma ("..., while quarter lines do not, since
 * they settle on the quarter only"): an elliptical clause ends before them. */
const ELLIPSIS_CLOSERS = new Set(['since', 'because', 'as', 'so', 'given', 'which']);
/** Whether a clause's words end in a bare auxiliary, negated or not ("quarter lines do not", "full-game lines do"). */
const endsElliptically = (w: string[]) => elliptical(w) || (affirmsElliptically(w) && !CASE_OPENERS.has(w[0]));
/** Words that open a case ("if it is, and the game ends with exactly that score, ..."): a bare auxiliary after them ends no statement. */
const CASE_OPENERS = new Set(['if', 'when', 'whenever', 'unless', 'once', 'whether']);

/** The most words an elliptical clause has ("and the fourth-quarter lines, however, do not"). */
const ELLIPTIC_MAX = 8;

/** Whether the words from i to the next ";" or ":" (or the end) are an elliptical clause of their own
 * ("quarter lines do not"), so the word before them ends the statement they deny. */
function ellipticalTail(toks: readonly Tok[], i: number): boolean {
  const ws: string[] = [];
  for (let k = i; k < toks.length && toks[k].word !== ';' && toks[k].word !== ':' && !(toks[k].word === ',' && k > i && ELLIPSIS_CLOSERS.has(toks[k + 1]?.word ?? '')); k++) if (isWord(toks[k])) ws.push(toks[k].word);
  if (ws[0] === 'and' || ws[0] === 'while') ws.shift();
  // "Quarter lines, however, do not": the words before the comma are the subject, not a statement.
  if (ADVERBS.has(ws[0])) return false;
  if (ws.length > ELLIPTIC_MAX || ws.includes('and') || ws.includes('while')) return false;
  // "..., while markets on the 2nd half DO": a bare auxiliary after a subject naming a market, period or
  // league repeats the statement for that subject, as a bare "do not" denies it.
  if (affirmsElliptically(ws)) {
    const own = readScope(ws).own;
    return own.segment || own.market || own.league;
  }
  return elliptical(ws);
}

/** Words by which a subject names the markets left once others are named ("every other market"). */
const OTHER_WORDS = new Set(['other', 'remaining']);
/** Determiners a coordinated subject may open with ("..., and the quarter lines ..."). */
const SUBJECT_DETERMINERS = new Set(['the', 'all', 'every', 'each', 'any', 'our']);

/** Whether the words from i to the next ";" (or the end) are a statement whose subject, at their
 * start, names a market or a period ("totals include overtime", "the fourth quarter does not"). */
function coordinatedStatement(toks: readonly Tok[], i: number): boolean {
  const ws: string[] = [];
  for (let k = i; k < toks.length && toks[k].word !== ';'; k++) if (isWord(toks[k])) ws.push(toks[k].word);
  let j = 0;
  while (SUBJECT_DETERMINERS.has(ws[j])) j++;
  // "..., while a bet on a single quarter, the fourth included, counts only the points of that quarter": a
  // bet named by the market or period it is placed on ("a bet on", "bets on the", "wagers for any") is a
  // subject of its own, as "quarter bets" is.
  const betOn = betOnSubject(ws, j);
  if (betOn >= 0) j = betOn;
  // "..., while the game total counted both overtime field goals": "game" or "match" before a market
  // names the game the market is on; the market is still the subject ("the match spread").
  else if (GAME_WORDS.has(ws[j]) && namesMarketAt(ws, j + 1)) j++;
  // "..., and every other hockey market is on regular time": the markets the clause before left out
  // are a subject of their own, named by "other" (and a league or sport) before a market noun.
  if (j > 0 && OTHER_WORDS.has(ws[j])) {
    let k = j + 1;
    for (;;) {
      const sport = scopeCandidates(ws[k] ?? '').find((c) => (c.entry.dim === 'league' || c.entry.dim === 'sport') && wordsAt(ws, k, c.tokens));
      if (!sport) break;
      k += sport.tokens.length;
    }
    if (MARKET_NOUNS.has(ws[k]) && statesValue(ws)) return true;
  }
  // A market outside the spec is a subject of its own too ("..., while the win/draw/lose bet and the
  // under/over are settled on regulation").
  const blockedAt = (at: number) => scopeCandidates(ws[at] ?? '').some((c) => c.entry.dim === 'blocking' && c.tokens.every((t, k) => ws[at + k] === t));
  // "stakes on single bets are refunded, and in combinations or parlays the leg counts as 1": a
  // combination bet (a market outside the spec) named after "in" or "for" is the subject of its own
  // clause, which says how that bet treats the leg; the single bet's statement before it stands.
  if (j === 0 && BET_PREPOSITIONS.has(ws[0])) {
    let k = 1;
    while (SUBJECT_DETERMINERS.has(ws[k])) k++;
    // "in combinations or parlays": the bet may be the second of two names joined by "or" / "and".
    const joined = (ws[k + 1] === 'or' || ws[k + 1] === 'and') && blockedAt(k + 2);
    if ((blockedAt(k) || joined) && statesValue(ws)) return true;
  }
  return (namesMarketAt(ws, j) || blockedAt(j)) && statesValue(ws);
}
/** Bare market nouns that name every market of the period before them ("second-half lines"). */
const BARE_MARKET_NOUNS = new Set(['lines', 'bets', 'wagers', 'markets']);

/** Whether a period is named right before a bare market noun ("second-half lines", "fourth-quarter bets"). */
function periodWithMarketNoun(words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++)
    for (const c of scopeCandidates(words[k]))
      if (c.entry.dim === 'segment' && wordsAt(words, k, c.tokens) && BARE_MARKET_NOUNS.has(words[k + c.tokens.length] ?? '')) return true;
  return false;
}

/** Whether a period is named right before a market ("a fourth-quarter total", "first-half spreads"). */
function periodBeforeMarket(words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++)
    for (const c of scopeCandidates(words[k]))
      if (c.entry.dim === 'segment' && wordsAt(words, k, c.tokens)) {
        const at = k + c.tokens.length;
        if (scopeCandidates(words[at] ?? '').some((d) => d.entry.dim === 'market' && wordsAt(words, at, d.tokens))) return true;
      }
  return false;
}

/** Words naming the game before a market noun ("the game total", "the match spread"). */
const GAME_WORDS = new Set(['game', 'match']);
/** Words that open a bet named by what it is placed on ("a bet on a single quarter", "bets on the fourth quarter"). */
const BET_ON_NOUNS = new Set(['bet', 'bets', 'wager', 'wagers']);
const BET_ON_PREPOSITIONS = new Set(['on', 'for']);
const BET_ON_FILLERS = new Set(['a', 'an', 'the', 'any', 'each', 'every', 'single', 'one', 'individual']);

/** Where the market or period starts in a subject "(a) bet on (a single) <market>" that opens at word j
 * (after its determiners), or -1 when the subject is not one. */
function betOnSubject(ws: readonly string[], j: number): number {
  let k = j;
  if (k === 0 && (ws[0] === 'a' || ws[0] === 'an')) k = 1;
  if (!BET_ON_NOUNS.has(ws[k] ?? '') || !BET_ON_PREPOSITIONS.has(ws[k + 1] ?? '')) return -1;
  k += 2;
  while (BET_ON_FILLERS.has(ws[k] ?? '')) k++;
  return namesMarketAt([...ws], k) ? k : -1;
}

/** Whether the clause from token i opens with a bet named by the market or period it is placed on. */
function betOnAfter(toks: readonly Tok[], i: number): boolean {
  const ws: string[] = [];
  for (let k = i; k < toks.length && toks[k].word !== ';' && toks[k].word !== ','; k++) if (isWord(toks[k])) ws.push(toks[k].word);
  let j = 0;
  while (SUBJECT_DETERMINERS.has(ws[j])) j++;
  return betOnSubject(ws, j) >= 0;
}

/** Whether the clause from token i opens with a market named by its owner's possessive ("a team's points
 * total", "a player's points bet") and states a value: "a fourth-quarter spread is settled on the fourth
 * quarter alone, but a team's points total includes overtime" names the team's whole game, and takes no
 * period or market from the clause before. */
function possessiveMarketAfter(toks: readonly Tok[], i: number): boolean {
  const ws: string[] = [];
  for (let k = i; k < toks.length && toks[k].word !== ';' && toks[k].word !== ','; k++) if (isWord(toks[k])) ws.push(toks[k].word);
  let j = 0;
  while (SUBJECT_DETERMINERS.has(ws[j]) || ws[j] === 'a' || ws[j] === 'an') j++;
  const market = scopeCandidates(ws[j] ?? '').find((c) => c.entry.dim === 'market' && wordsAtOrPlural(ws, j, c.tokens));
  // The tokenizer drops the "'s": "team points total" is "team's points total", "team total" names no owner's stat.
  return !!market && market.tokens.length >= 3 && MARKET_OWNERS.has(market.tokens[0]) && statesValue(ws);
}
/** Markets of one player or one team, each of that player's or team's whole game unless a period is named. */
const OWNED_MARKETS = ['player_prop', 'team_total'];
/** Owners whose possessive names a market of their own ("a team's points total", "a batter's hits bet"). */
const MARKET_OWNERS = new Set(['team', 'player', 'batter', 'hitter', 'pitcher']);

/** Prepositions that put a bet named after them in a clause's subject ("in parlays, the leg ...", "for combo bets"). */
const BET_PREPOSITIONS = new Set(['in', 'for']);

/** A table printed as lines of cells ("Market | Includes OT" over "Moneyline | Yes"): each row is
 * written with its column labels ("Moneyline | Includes OT: Yes"), since a row's "Yes" means what its
 * column names; the header row, which states nothing itself, is dropped, and so is a rule line of
 * dashes. Lines without cells stay as they are. */
function tableRows(text: string): string {
  if (!text.includes('|') || !text.includes('\n')) return text;
  const lines = text.split('\n');
  const cells = (l: string) => l.replace(/^\s*\|/, '').replace(/\|\s*$/, '').split('|').map((x) => x.trim());
  const isRule = (l: string) => /^[\s|:-]+$/.test(l) && l.includes('-');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = cells(lines[i]);
    const rows: string[][] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j].includes('|'); j++) {
      if (isRule(lines[j])) continue;
      const r = cells(lines[j]);
      if (r.length !== head.length) break;
      rows.push(r);
    }
    // A header names columns; a row that states "Overtime: Yes" in its cells is no header.
    if (head.length < 2 || !lines[i].includes('|') || lines[i].includes(':') || !rows.length) {
      out.push(lines[i]);
      continue;
    }
    for (const r of rows) out.push([r[0], ...r.slice(1).map((x, k) => `${head[k + 1]}: ${x}`)].join(' | '));
    i = j - 1;
  }
  return out.join('\n');
}

/** Headings of a contract's list of outcomes ("Outcomes:", "Possible outcomes:"). */
const OUTCOME_HEADINGS = new Set(['outcomes', 'possible outcomes', 'the outcomes', 'outcome options', 'options', 'possible results']);
/** An item that is only the tie ("Tie", "A draw"). */
const TIE_ITEMS = new Set(['tie', 'a tie', 'draw', 'a draw']);
/** Whether clause i of the sentence is a tie item in a list of outcomes after an outcomes heading, after at least one other item;
 * or a list in one clause after a lead-in counting the outcomes ("has four tokens: TEAMA, TEAMB, TIE and NONE") that holds the tie. */
function listsTieOutcome(cs: Clause[], i: number): boolean {
  if (i === 1 && cs[1].kind === 'colon' && countsOutcomes(cs[0].words)) return listsTieItem(cs[1].text);
  if (i < 2 || cs[1].kind !== 'colon' || !OUTCOME_HEADINGS.has(cs[0].words.join(' '))) return false;
  return (cs[i].kind === 'semi' || cs[i].kind === 'colon') && TIE_ITEMS.has(withoutPrice(cs[i].words).join(' '));
}
/** Names of a market's outcomes as a prediction market or exchange lists them ("four tokens", "three outcomes"). */
const OUTCOME_NOUNS = new Set(['outcomes', 'tokens', 'options', 'selections']);
const OUTCOME_COUNTS = new Set(['two', 'three', 'four', 'five', 'six']);
/** A lead-in that counts a market's outcomes before listing them ("'Who will win the match?' has four tokens:",
 * "Four outcomes:"): its last words are a count and the outcomes' noun. */
function countsOutcomes(words: string[]): boolean {
  const n = words.length;
  return n >= 2 && OUTCOME_NOUNS.has(words[n - 1]) && (OUTCOME_COUNTS.has(words[n - 2]) || /^\d+$/.test(words[n - 2]));
}
/** Whether a list written in one clause ("TEAMA, TEAMB, TIE and NONE, the catch-all, ...") holds the tie as an item of
 * its own beside at least one other. */
function listsTieItem(text: string): boolean {
  const items = text.split(/\s*[,;]\s*|\s+(?:and|or)\s+/i).map((x) => x.trim().replace(/^['"‘“]+|['"’”.]+$/g, '').toLowerCase());
  return items.length >= 2 && items.some((x) => TIE_ITEMS.has(x));
}
/** An outcome item without the price an exchange lists beside it ("Tie 0%", "Tie 12.5%"): the number
 * (its decimal part a word of its own) is the outcome's price, not part of its name. */
function withoutPrice(words: string[]): string[] {
  let end = words.length;
  while (end > 1 && end > words.length - 2 && /^\d+$/.test(words[end - 1])) end--;
  return words.slice(0, end);
}

/** Verbs a binary contract's outcome is given by ("resolves to 'Liberty'", "settles Yes"). */
const RESOLVE_VERBS = new Set(['resolves', 'resolve', 'settles', 'settle']);
/** Comparisons that leave the number itself out ("by more than 4 points", "surpass 220"). */
const STRICT_COMPARISONS = [['more', 'than'], ['greater', 'than'], ['surpass'], ['surpasses'], ['exceed'], ['exceeds'], ['above']];
/** Whether clause i gives a contract's outcome one way only past a whole number and the other way
 * "otherwise" ("This market resolves to 'Liberty' if the Liberty win by more than 4 points; otherwise it
 * resolves to 'Aces'", "threshold 220 resolves as HOME if total points surpass 220, or AWAY otherwise"): a
 * result landing on the number falls to "otherwise", so the side backed past the line loses there. A
 * number with a decimal part ("greater than 160.5") cannot be landed on, and a comparison that takes the
 * number in ("4 or more", "at least 4") is none of these. */
function resolvesOtherwiseAtLine(cs: Clause[], i: number): boolean {
  const w = cs[i].words;
  if (!w.some((x) => RESOLVE_VERBS.has(x))) return false;
  const cond = w.indexOf('if');
  if (cond < 0) return false;
  const otherwise = (from: number) => w.indexOf('otherwise', from) >= 0 || cs[i + 1]?.words[0] === 'otherwise';
  for (let k = cond + 1; k < w.length; k++) {
    const c = STRICT_COMPARISONS.find((t) => wordsAt(w, k, t));
    if (!c) continue;
    const n = k + c.length;
    if (/^\d+$/.test(w[n] ?? '') && !/^\d+$/.test(w[n + 1] ?? '') && !(w[n + 1] === 'or' && w[n + 2] === 'more') && !(w[n + 2] === 'or' && w[n + 3] === 'more')) return otherwise(n);
  }
  return false;
}

/** Words that open a case right after an answer's "no" ("No, if a player is scratched ..."). */
const CASE_WORDS = new Set(['if', 'when']);
/** A clause that opens with a bare "Yes" or "No" ("Yes.", "No, ...", but not "Yes/No market"). */
const isAnswer = (c: Clause) => /^(?:yes|no)\b\s*(?:[,.;:!\u2013\u2014-]|$)/i.test(c.text) && (c.words[0] === 'yes' || c.words[0] === 'no');

/** Pronouns and auxiliaries of a short answer to a yes/no question ("Do totals include overtime?
 * They do." / "It does not."). */
const ANSWER_PRONOUNS = new Set(['they', 'it', 'these', 'those', 'we', 'both']);
const ANSWER_AUX = new Set(['do', 'does', 'is', 'are', 'will', 'can']);

/** A short answer made of a pronoun and a bare auxiliary, with or without "not": its yes or no. */
function shortAnswer(w: string[]): 'yes' | 'no' | undefined {
  if (w.length < 2 || w.length > 3 || !ANSWER_PRONOUNS.has(w[0]) || !ANSWER_AUX.has(w[1])) return undefined;
  if (w.length === 2) return 'yes';
  return w[2] === 'not' ? 'no' : undefined;
}

/** The value a yes/no answer gives: the value its question or label names ("Does overtime count?",
 * "Overtime included:"), or its negation for "No"; a label naming the rule alone ("Overtime: No")
 * takes the rule's `answers`. A question needs a value word: "Will the game go to OT? Yes" asks
 * about the game, not the rule. */
function answerValue(rule: ReadRule, c: Clause, label: Clause | undefined): ClauseValue | undefined {
  const asked = c.asked ?? (label ? { text: label.text, words: label.words, conditional: label.conditional } : undefined);
  const short = c.asked ? shortAnswer(c.words) : undefined;
  if (!asked || !(isAnswer(c) || short) || !hasTopic(rule, asked.words)) return undefined;
  const lex = LEXICON[rule];
  const named = clauseValue(rule, asked.words, true, asked.conditional);
  if (named?.conflict) return undefined;
  const yes = short ? short === 'yes' : c.words[0] === 'yes';
  if (named) return yes ? named : lex.negation?.[named.value] ? { value: lex.negation[named.value] } : undefined;
  // "Overtime: No" answers for the rule; "Overtime betting available: Yes" or "Cash out in overtime:
  // No" answer something else about overtime, so only a label that is the topic itself takes answers.
  if (c.asked || !lex.answers || !lex.topics.some((t) => t.tokens.join(' ') === asked.words.join(' '))) return undefined;
  return { value: yes ? lex.answers.yes : lex.answers.no };
}

/** The answers of a label that answers yes or no market by market ("Overtime: yes for game lines,
 * no for quarter lines"; "Includes OT: no for period bets"): each answer with the clause of the
 * markets it names, or none when the answer is not made of such items. The label must name the rule
 * alone (its `answers`) or a value of it, as for a bare answer. */
function scopedAnswers(rule: ReadRule, label: Clause, c: Clause): { value: string; clause: Clause }[] | undefined {
  const items = c.text.split(/[,;]\s*(?:and\s+|but\s+)?(?=(?:yes|no)\b)/i).map((x) => x.trim());
  if (!items.every((x) => /^(?:yes|no)\s+(?:for|on|in)\s+\S/i.test(x))) return undefined;
  const out: { value: string; clause: Clause }[] = [];
  for (const item of items) {
    const answer = clauses(item)[0];
    if (!answer || !(answer.own.market || answer.own.segment || answer.own.league)) return undefined;
    const v = answerValue(rule, { ...answer, words: [answer.words[0]], text: answer.words[0] }, label);
    if (!v) return undefined;
    out.push({ value: v.value, clause: answer });
  }
  return out;
}

/** What the text (a string, or parsed once with parseText) states about one rule for one market. */
/** Names of a bet builder, a combination of picks on one game ("Build a Bet", "Create a bet"). */
const BET_BUILDERS = [['build', 'a', 'bet'], ['create', 'a', 'bet'], ['bet', 'builder'], ['same', 'game', 'parlay']];

/** A sentence naming the text's market ("Market: ...") as a single bet ("..., single bet"). */
function namesSingleMarket(cs: Clause[]): boolean {
  if (cs.length < 2 || cs[1].kind !== 'colon' || !(cs[0].words.length === 1 && (cs[0].words[0] === 'market' || cs[0].words[0] === 'markets'))) return false;
  return cs.some((c) => findAll(c.words, ['single', 'bet']).length > 0 || findAll(c.words, ['straight', 'bet']).length > 0);
}

/** Whether a clause opens with the rule's topic ("overtime counts ...", "the overtime counts ..."), so that an
 * "it" as the next subject names the topic, not a market. */
function opensWithTopic(rule: ReadRule, words: string[]): boolean {
  return topicHits(rule, words).some((h) => h.start === 0 || (h.start === 1 && (words[0] === 'the' || words[0] === 'any')));
}

export function readRule(text: string | ParsedText, rule: ReadRule, m: MarketScope): Reading {
  let found: Applicable[] = [];
  let before: Clause | undefined;
  let beforeAll: Clause[] = [];
  // The markets the last sentence naming one named ("the most frequent bet is the head to head"), which a
  // later sentence's "it" refers to.
  let named: Scope | undefined;
  let sentence = 0;
  const parsed = typeof text === 'string' ? parseText(text) : text;
  // A bet builder's terms ("if the player you picked does not take part, the whole bet is cancelled")
  // speak of the picks of a combination: a market the text names a single bet is no such pick.
  const single = m.marketType === 'player_prop' && parsed.some(namesSingleMarket);
  for (const cs of parsed) {
    sentence++;
    if (single && cs.some((c) => BET_BUILDERS.some((b) => findAll(c.words, b).length))) continue;
    // The last clause of the sentence before, for an elliptical "Fourth-quarter wagers do not."
    const prevSentence = before;
    const prevClauses = beforeAll;
    before = cs[cs.length - 1];
    beforeAll = cs;
    const namedBefore = named;
    for (const c of cs) if (c.own.market && c.scope.markets?.size && !c.scope.blocking) named = c.scope;
    // A lead-in before a list ("overtime does not count for: quarter markets; 1st half markets") gives
    // its value to the items that name a market or the rule's subject, and on its own states nothing
    // when it ends in mid-phrase.
    // "Counts overtime (unless the market says otherwise): - Match winner - Total points": the list
    // may follow the lead-in's own exception.
    let listAt = 1;
    while (listAt < cs.length && (cs[listAt].kind === 'except' || cs[listAt].kind === 'not')) listAt++;
    // "Bets are voided for a number of reasons; some common examples: the game wasn't played; ...": a label
    // naming what follows as examples stands between the lead-in and its list, and states nothing itself.
    const examples = cs.length > listAt + 1 && cs[listAt].kind === 'semi' && cs[listAt + 1].kind === 'colon' && namesExamples(cs[listAt].words) ? cs[listAt] : undefined;
    if (examples) listAt++;
    const listFollows = cs.length > listAt && cs[listAt].kind === 'colon' && !cs[0].withdrawn;
    // "A void bet is a bet that has been cancelled. This may happen for a number of reasons: the game wasn't
    // played; ...": a lead-in whose subject is what the sentence before said gives that sentence's value to its list.
    const lead = listFollows ? (clauseValue(rule, cs[0].words, true, cs[0].conditional) ?? (happensBefore(cs[0].words) && prevSentence && !prevSentence.withdrawn ? clauseValue(rule, prevSentence.words, true, prevSentence.conditional) : undefined)) : undefined;
    // A lead-in whose list names markets or periods and nothing else ("Counts overtime: - Match winner
    // - Total points") states its value for those, not for every market; one whose colon opens a
    // statement of its own ("Overtime is ignored: the Regulation 3-Way is ...") is read as before.
    const list = cs.slice(listAt);
    const listed = lead && !lead.conflict && !(cs[0].own.market || cs[0].own.segment) && list.some((c) => c.own.market || c.own.segment) && list.every((c) => !clauseValue(rule, c.words, true, c.conditional) && !c.words.some((w) => PREDICATE_VERBS.has(w)));
    const leadTopic = lead ? hasTopic(rule, cs[0].words) : false;
    // "..., the push rule applies: stakes are returned" ends in "applies" but is a statement: a rule
    // that applies is said in full.
    const dangling = lead ? LEAD_ENDS.has(cs[0].words[cs[0].words.length - 1]) && !RULE_APPLIES.some((e) => e.every((w, k) => cs[0].words[cs[0].words.length - e.length + k] === w)) : false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (c.kind === 'except' || c.kind === 'not') {
        if (rule === 'overtime' && exceptsShootout(c)) continue;
        // Read with the clause they follow; one that states its own value for the rule ("except 2nd
        // half markets which do include overtime") is also a statement about the markets it names.
        const own = exceptionValue(rule, c);
        if (own && speaksOf(c, m, rule)) found.push({ value: own, clause: c.text, weight: specificity(c.scope, m), gameLines: namesGameLines(c) });
        continue;
      }
      if ((i === 0 && (dangling || listed)) || c === examples) continue;
      // "Outcomes: New York wins the first 5 innings; San Francisco wins the first 5 innings; Tie.": a list of a
      // contract's outcomes with the tie as an item of its own makes the tie a separate outcome.
      if (rule === 'tie' && listsTieOutcome(cs, i)) {
        if (speaksOf(c, m, rule)) found.push({ value: 'separate_outcome', clause: `${cs[0].text}: ... ${c.text}`, weight: specificity(c.scope, m), gameLines: namesGameLines(c), sentence });
        continue;
      }
      // "This market resolves to 'Liberty' if the Liberty win by more than 4 points; otherwise it resolves to
      // 'Aces'": a result on the line itself resolves "otherwise", against the side backed past it.
      if (rule === 'push' && !c.withdrawn && !c.asking && resolvesOtherwiseAtLine(cs, i)) {
        if (speaksOf(c, m, rule)) found.push({ value: 'loses', clause: c.text, weight: specificity(c.scope, m), gameLines: namesGameLines(c), sentence, implied: true });
        continue;
      }
      // "It is not limited to regulation time but runs to the end of the overtime": a sentence whose
      // subject is "it", naming no market or period of its own, speaks of the market a sentence before
      // it named, not of every market.
      if (i === 0 && c.words[0] === 'it' && !c.own.market && !c.own.segment && namedBefore && !holds(namedBefore, m)) continue;
      // "Overtime included: No" is a label and its answer: the label states nothing of its own.
      if (cs[i + 1]?.kind === 'colon' && isAnswer(cs[i + 1])) continue;
      // The exception clauses that follow this clause.
      const exc: Clause[] = [];
      for (let j = i + 1; j < cs.length && (cs[j].kind === 'except' || cs[j].kind === 'not'); j++) if (!(rule === 'overtime' && exceptsShootout(cs[j]))) exc.push(cs[j]);
      for (const t of cs) if (t.trailing && !exc.includes(t)) exc.push(t);
      // "...; otherwise they are void" speaks of what the clause before it spoke of.
      const carried =
        ((c.kind === 'but' || c.kind === 'colon' || (c.kind === 'so' && !c.reason) || c.words[0] === 'otherwise' || c.words[0] === 'so') && i > 0 && hasTopic(rule, cs[i - 1].words)) ||
        // "Player does not play: the sportsbook voids the bet; the Kalshi contract resolves No": the clauses after
        // a label's colon, to the sentence end, all speak of the label's case.
        (c.kind === 'semi' && underCaseLabel(rule, cs, i)) ||
        // "ML bets include OT; totals exclude it": a pronoun object names the topic of the clause before.
        ((c.kind === 'semi' || c.kind === 'but') && i > 0 && c.words.slice(1).some((w) => TOPIC_PRONOUNS.has(w)) && hasTopic(rule, cs[i - 1].words)) ||
        // "... stand when a match is abandoned or cancelled; every other bet on that match is void": a
        // clause that names "that match" speaks of the match the clause before named in its case.
        ((c.kind === 'semi' || c.kind === 'but') && i > 0 && !LEXICON[rule].negation && c.words.some((w, k) => w === 'that' && EVENT_NOUNS.has(c.words[k + 1])) && hasTopic(rule, cs[i - 1].words)) ||
        // "Overtime counts for the full game; it does not count for quarters": "it" as the subject names
        // the topic only when the clause before opens with it (not "full-game bets include overtime; it ...").
        ((c.kind === 'semi' || c.kind === 'but') && i > 0 && c.words[0] === 'it' && opensWithTopic(rule, cs[i - 1].words)) ||
        // "... the overtime counts for the match winner and the total. It does not count for bets on the fourth
        // quarter": the same across sentences, for a sentence naming its own market or period after one whose
        // last clause opens with the topic.
        (i === 0 && c.words[0] === 'it' && (c.own.market || c.own.segment) && !!prevSentence && !prevSentence.withdrawn && opensWithTopic(rule, prevSentence.words)) ||
        // "Tie game? Both sides pay out at $0.50.": the answer to a short question that names only
        // the rule speaks of it; a longer question names the rule as one thing among others ("If he
        // scores in a shootout after overtime, how is my wager graded?").
        (i === 0 && !!c.asked && (c.asked.words.length <= SHORT_FOLLOW_UP || asksCase(c.asked.words)) && hasTopic(rule, c.asked.words)) ||
        // "A push is when ... lands on the line. When that happens, your stake is refunded."
        (i === 0 && startsWithBackReference(c.words) && prevClauses.some((p) => !p.withdrawn && hasTopic(rule, p.words))) ||
        // "... can land exactly on the number; when they do, the wager is refunded": the same inside a sentence.
        (i > 0 && startsWithBackReference(c.words) && !cs[i - 1].withdrawn && hasTopic(rule, cs[i - 1].words)) ||
        // "Bets on the fourth quarter do not include the overtime. Bets on the second half do include it.": a
        // pronoun object in a sentence whose subject names its own market or period names the topic of
        // the sentence before, as it does after a semicolon.
        // Not a pronoun after a preposition ("prop wagers on it are void": "it" is the game).
        (i === 0 && (c.own.market || c.own.segment) && c.words.some((w, k) => k > 0 && TOPIC_PRONOUNS.has(w) && !PRONOUN_PREPOSITIONS.has(c.words[k - 1])) && prevClauses.some((p) => !p.withdrawn && !p.reason && hasTopic(rule, p.words)));
      // "Props are void unless the player plays": an exception that names no market but the rule's
      // case is the condition of the statement, so the statement is about that rule.
      // (Only for a rule whose topic is a case: "all goals except those in overtime" names overtime as
      // what is left out.)
      const caseException = !LEXICON[rule].negation && exc.some((e) => !(e.own.league || e.own.segment || e.own.market || e.own.blocking) && hasTopic(rule, e.words));
      const topic = carried || caseException || hasTopic(rule, c.words);
      // A withdrawn clause about the rule still claims its scope: "usually exclude" on fourth quarters
      // leaves a fourth quarter unknown rather than letting "totals include overtime" decide it.
      // A hedged clause claims its scope when it states a value or speaks of the rule itself (a value said
      // without naming the topic, "typically uses the regulation second-half score only", states one); one that
      // names the rule only in a condition ("most of the time, if a bet will not include overtime, it
      // is because of a period bet") claims nothing.
      if (c.withdrawn) {
        // One that says how or where overtime is played ("overtime is played in most professional leagues,
        // the NBA included") describes the sport, not a settlement, and claims nothing.
        // One drawing a consequence ("that is why you so often see half points", "..., overtime included, so
        // a game that goes to overtime often flies over the number") hedges its own claim only.
        const stated = c.asking ? undefined : clauseValue(rule, c.words, topic, c.conditional);
        if (!c.asking && (topic || stated) && speaksOf(c, m, rule) && !describesPlay(rule, c.words) && !givesConsequence(c.words) && !(c.kind === 'so' && i > 0) && (stated || (topicOutsideCondition(rule, c) && !c.words.some((w) => REASONS.has(w))))) found.push({ value: HEDGED, clause: c.text, weight: specificity(c.scope, m) });
        continue;
      }
      // "only markets clearly labelled 'including extra time' are paid when extra time ends": the markets
      // that carry no such label, the one at hand among them, leave overtime out.
      if (rule === 'overtime' && onlyLabelledIncluded(c.words)) {
        const unlabelled = { ...c, scope: { ...c.scope, blocking: false } };
        if (speaksOf(unlabelled, m, rule)) found.push({ value: 'excluded', clause: c.text, weight: specificity(unlabelled.scope, m), gameLines: namesGameLines(unlabelled), sentence });
        continue;
      }
      // "No when he ... is listed inactive" resolves No in that case; an answer "No, if a player is scratched the
      // bet is void" answers a question and resolves nothing: its "no" is read apart from the case after it.
      const answered = isAnswer(c) && c.words[0] === 'no' && CASE_WORDS.has(c.words[1]);
      let v = answered ? clauseValue(rule, c.words.slice(1), topic, c.conditional.slice(1)) : clauseValue(rule, c.words, topic, c.conditional);
      let clauseText = c.text;
      // "Totals include all goals except those scored in overtime": an exception naming the rule's
      // topic and no market leaves the topic out of what the statement includes, so the statement's
      // value is denied for it.
      const leftOut = LEXICON[rule].negation && !topic ? exc.find((e) => !(e.own.league || e.own.segment || e.own.market || e.own.blocking) && topicOutsideCondition(rule, e) && !clauseValue(rule, e.words, true, e.conditional)) : undefined;
      if (!v && leftOut) {
        // "a fourth-quarter total counts only the fourth quarter's points, not any overtime": what "only"
        // narrows the count to leaves the topic out as the exception does; read without it, the clause
        // says what it counts.
        const keep = c.words.map((w) => w !== 'only');
        const said = clauseValue(rule, c.words, true, c.conditional) ?? (keep.every(Boolean) ? undefined : clauseValue(rule, c.words.filter((_, k) => keep[k]), true, c.conditional.filter((_, k) => keep[k])));
        const neg = LEXICON[rule].negation?.[said?.value ?? ''];
        if (said && !said.conflict && neg) {
          v = { value: neg };
          clauseText = `${c.text} ... ${leftOut.text}`;
        }
      }
      // "Team totals: the same applies", "Money line - ...; the same overtime and shootout treatment
      // applies": a clause that refers back takes the value the statement before it states, for the
      // markets this sentence names (a reference in a sentence naming no market of its own is left).
      if (!v && refersBack(c.words) && cs.slice(0, i + 1).some((p) => p.own.market || p.own.segment || p.own.league)) {
        const said = statedBefore(rule, cs.slice(0, i)) ?? statedBefore(rule, prevClauses);
        if (said) {
          v = { value: said.value };
          clauseText = `${said.clause} ... ${c.text}`;
        }
      }
      // "The market is canceled (invalid) if the game is canceled ...; if the game ends in a tie for any
      // reason; if ...": a clause after a semicolon that is only a case continues the statement's list of
      // cases, so the statement's value holds for it.
      if (!v && topic && c.kind === 'semi' && i > 0 && onlyCase(c)) {
        let j = i - 1;
        while (j > 0 && cs[j].kind === 'semi' && onlyCase(cs[j])) j--;
        const st = cs[j];
        if (j < i - 1 || st.conditional.some((x) => x)) {
          const said = !st.withdrawn && !onlyCase(st) ? clauseValue(rule, st.words, true, st.conditional) : undefined;
          if (said && !said.conflict) {
            v = { value: said.value };
            clauseText = `${st.text} ... ${c.text}`;
          }
        }
      }
      // "Overtime: yes for game lines, no for quarter lines": each answer holds for the markets it names.
      if (!v && c.kind === 'colon' && i > 0) {
        const scoped = scopedAnswers(rule, cs[i - 1], c);
        if (scoped) {
          for (const a of scoped) if (speaksOf(a.clause, m, rule)) found.push({ value: a.value, clause: `${cs[i - 1].text}: ${a.clause.text}`, weight: specificity(a.clause.scope, m), gameLines: namesGameLines(a.clause) });
          continue;
        }
      }
      // The evidence of an answer quotes what it answers: "Does overtime count? Yes".
      if (!v && (c.asked || (c.kind === 'colon' && i > 0))) {
        const label = c.kind === 'colon' && i > 0 ? cs[i - 1] : undefined;
        v = answerValue(rule, c, label);
        if (v) clauseText = c.asked ? `${c.asked.text}? ${c.text}` : `${label!.text}: ${c.text}`;
      }
      // "Second-half wagers include overtime. Fourth-quarter wagers do not": a sentence's first clause
      // that ends in a bare negated auxiliary denies the statement of the sentence before it.
      // The same inside a sentence: "Moneylines include overtime; quarter lines do not", "..., while
      // quarter lines do not" (the clause before it must be a statement, not an exception).
      // Inside a sentence the elliptical clause's own subject must be a market, period or league: "goals
      // in overtime count, but shootout goals do not" denies the shootout, not overtime.
      const denied = i === 0 ? prevSentence : c.kind !== 'colon' && (c.own.segment || c.own.market || c.own.league) && cs[i - 1].kind !== 'except' && cs[i - 1].kind !== 'not' ? cs[i - 1] : undefined;
      if (!v && denied && !denied.withdrawn && elliptical(c.words)) {
        const said = clauseValue(rule, denied.words, hasTopic(rule, denied.words), denied.conditional);
        const neg = LEXICON[rule].negation;
        if (said && !said.conflict && neg?.[said.value]) v = { value: neg[said.value] };
      }
      // "Quarter lines do not include overtime, but full-game lines do": a clause ending in a bare
      // auxiliary repeats the verb of the clause before without its negation, for its own subject (a
      // market, a period, a league, or the rule's topic: "the shootout is not included, but overtime goals are").
      const repeated = i === 0 ? prevSentence : cs[i - 1].kind !== 'except' && cs[i - 1].kind !== 'not' ? cs[i - 1] : undefined;
      if (!v && repeated && !repeated.withdrawn && c.kind !== 'colon' && affirmsElliptically(c.words) && (c.own.segment || c.own.market || c.own.league || (i > 0 && hasTopic(rule, c.words)))) {
        const said = clauseValue(rule, repeated.words, hasTopic(rule, repeated.words) || hasTopic(rule, c.words), repeated.conditional, true);
        if (said && !said.conflict) v = { value: said.value };
      }
      if (!v && lead && !lead.conflict && i > 0 && (c.kind === 'colon' || c.kind === 'semi')) {
        if (hasTopic(rule, c.words) || (leadTopic && (c.own.segment || c.own.market))) v = lead;
      }
      // An exception that names no scope of its own is a hedge; one that holds the market takes it out.
      // One that refers to other markets only in general ("unless a different game period is
      // specified") names no market and takes nothing out.
      // One that only defers to other rules ("unless these basketball rules say otherwise") takes nothing out either.
      const hit = exc.find((e) => (e.own.league || e.own.segment || e.own.market) && !e.words.some((w) => GENERIC_EXCEPTION.has(w)) && !defers(e.words) && applies(e.scope, m));
      if (hit) {
        const neg = LEXICON[rule].negation;
        // Conflicting evidence: the opposite value is inferred only when the exception does not state
        // a value of its own; one that does was read above as its own statement.
        if (v && !v.conflict && neg?.[v.value] && !exceptionValue(rule, hit)) found.push({ value: neg[v.value], clause: `${c.text} ... ${hit.text}`, weight: specificity(hit.scope, m), gameLines: namesGameLines(hit) });
        continue;
      }
      // "No bets are voided, regardless of whether the player played": a denied value contradicts that
      // value said elsewhere for the same markets.
      if (!v && topic && speaksOf(c, m, rule)) {
        const d = deniedValue(rule, c.words, c.conditional);
        if (d) found.push({ value: `${DENIED}${d}`, clause: c.text, weight: specificity(c.scope, m), gameLines: namesGameLines(c), sentence });
      }
      // "Such a bet wins if the team wins, whether in regular time or in overtime": a value said through a
      // team winning speaks of the money line, not of a total the clause's scope also holds.
      if (v && v.winner && m.marketType !== 'moneyline') continue;
      if (v && speaksOf(c, m, rule)) {
        // "Totals are settled on the result after 9 innings; if additional innings are needed, bets are
        // settled on the final result": the value said for the rule's own case (overtime played) holds
        // over the opposite basis before it in the same sentence, which is what happens when the case
        // does not arise.
        const neg = LEXICON[rule].negation;
        if (v.forCase && !v.conflict && neg) found = found.filter((f) => !(f.sentence === sentence && !f.forCase && !f.conflict && neg[f.value] === v.value));
        found.push({ value: v.value, conflict: v.conflict, clause: clauseText, weight: specificity(c.scope, m), gameLines: namesGameLines(c), sentence, forCase: v.forCase, regulationTie: rule === 'tie' && tieAtRegulation(c.words) });
      }
    }
  }
  // Whether overtime counts toward a quarter or a half is said of that period: a clause naming markets
  // or the final score and no period ("all wagers on the side and the total include all overtime scoring",
  // "winners are decided by the final score, overtime included") speaks of the game's lines, and
  // reading it for a fourth quarter or a second half would be a guess ("Spread wagering: ... .
  // Overtime counts." says nothing of a second-half spread). A clause naming no market at all
  // ("Overtime scoring will not be counted.") speaks of the market the text is published on.
  if (rule === 'overtime' && m.segment !== 'full') found = found.filter((f) => !f.gameLines);
  // A tie placed at the end of regulation ("Draw no bet - if the game ends level after regular time, all
  // bets are void") is the tie of a market settled on regulation; for a market the text includes
  // overtime in (a "2 way (including extra time)" beside it), the game goes on past that tie, so the
  // clause states nothing of the market's own tie.
  if (rule === 'tie' && found.some((f) => f.regulationTie) && readRule(text, 'overtime', m).value === 'included') found = found.filter((f) => !f.regulationTie);
  // "... resolves to 'Liberty' if the Liberty win by more than 4 points; otherwise 'Aces'. If the result lands exactly
  // on the line, the market resolves 50-50": the line's own rule, stated, outranks what the resolution implies.
  if (found.some((f) => !f.implied)) found = found.filter((f) => !f.implied);
  if (!found.length) return { value: 'unknown', why: 'silent' };
  const top = Math.max(...found.map((f) => f.weight));
  const group = found.filter((f) => f.weight === top);
  const hedged = group.find((f) => f.value === HEDGED);
  if (hedged) return { value: 'unknown', why: 'hedged', others: [{ value: HEDGED, evidence: hedged.clause }] };
  const all = new Set(group.flatMap((f) => (f.conflict ? [f.value, f.conflict] : [f.value])));
  const values = new Set([...all].filter((v) => !v.startsWith(DENIED)));
  // A value denied where it is also stated is a contradiction; a denial beside another value agrees with it.
  if (values.size > 1 || [...values].some((v) => all.has(`${DENIED}${v}`))) return { value: 'unknown', why: 'contradiction', others: group.map((f) => ({ value: f.conflict ? `${f.value} and ${f.conflict}` : f.value, evidence: f.clause })) };
  // A denial alone states no value.
  const stated = group.find((f) => !f.value.startsWith(DENIED));
  if (!stated) return { value: 'unknown', why: 'silent' };
  return { value: stated.value, evidence: stated.clause };
}
