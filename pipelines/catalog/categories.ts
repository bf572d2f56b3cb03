// Catalog categories (spec: "Catalog market row": "The category is the service's normalized bucket,
// not a venue tag"). In: what one venue publishes about a market (its category field, tag slugs,
// topic, sport label, group slugs, as FORMATS.md documents per venue). Out: one of the eleven
// buckets: the first venue word that names a bucket wins; words that name none give `other`;
// a market with no usable word at all gives `unknown`.
// Pure; one function per venue reads that venue's own fields, one dictionary maps the words.
import type { Category, Provider } from '../../lib/vocabulary.ts';

/** Venue words (normalized: lower case, runs of non-alphanumerics as '-') to buckets. */
const WORDS: Record<string, Category> = {};
const add = (c: Category, words: string[]) => words.forEach((w) => (WORDS[w] = c));
add('sports', [
  'sports', 'sport', 'nba', 'wnba', 'nfl', 'mlb', 'nhl', 'ncaa', 'ncaaf', 'ncaab', 'mls', 'epl', 'ufc', 'mma', 'pga', 'atp', 'wta', 'f1', 'nascar',
  'basketball', 'football', 'american-football', 'baseball', 'hockey', 'ice-hockey', 'soccer', 'tennis', 'golf', 'boxing', 'cricket', 'rugby',
  'motorsport', 'motorsports', 'esports', 'olympics',
]);
add('politics', ['politics', 'elections', 'election', 'us-politics', 'world-politics', 'geopolitics', 'government']);
add('crypto', ['crypto', 'cryptocurrency', 'digital-assets', 'specials-crypto', 'bitcoin', 'ethereum', 'defi']);
add('finance', ['finance', 'financials', 'stocks', 'stock-market', 'markets', 'equities', 'commodities', 'business', 'companies']);
add('economics', ['economics', 'economy', 'macro', 'fed-rates', 'fed', 'inflation', 'rates']);
add('weather', ['weather', 'climate', 'climate-and-weather', 'climate-weather']);
add('culture', ['culture', 'pop-culture', 'celebrities', 'celebrity', 'social-media']);
add('technology', ['technology', 'tech', 'ai', 'science-and-technology', 'science', 'technology-default', 'space']);
add('entertainment', ['entertainment', 'movies', 'movie', 'film', 'tv', 'tv-and-film', 'music', 'awards', 'gaming', 'box-office']);
add('other', ['other', 'world', 'misc', 'miscellaneous', 'novelty', 'specials', 'fun']);

export const normalizeWord = (w: string): string => w.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Bucket for a list of venue words, in the venue's order (null/empty entries ignored). */
export function categoryFromWords(words: ReadonlyArray<unknown>): Category {
  let sawWord = false;
  for (const w of words) {
    if (typeof w !== 'string') continue;
    const n = normalizeWord(w);
    if (!n) continue;
    sawWord = true;
    const c = WORDS[n];
    // A bucketed word decides; `other` words only decide when nothing better follows.
    if (c && c !== 'other') return c;
  }
  return sawWord ? 'other' : 'unknown';
}

type Obj = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const slugs = (v: unknown): unknown[] => list(v).map((t) => (typeof t === 'object' && t !== null ? (t as Obj).slug ?? (t as Obj).label : t));

/**
 * The words a venue publishes about one of its listing records (FORMATS.md, "Categories (own words
 * per venue)"). For grouped records (venue_5 questions, venue_7 events, venue_9 parents) the group
 * carries the words for all its markets.
 */
export function venueWords(provider: Provider, rec: Obj): unknown[] {
  switch (provider) {
    case 'venue_1':
      return [rec.category];
    case 'venue_2':
      return slugs(rec.tags);
    case 'venue_3':
      return [rec.category];
    case 'venue_4':
      return [rec.sportLabel];
    case 'venue_5':
      return [rec.topic];
    case 'venue_6':
      return [rec.category];
    case 'venue_7':
      return [rec.sport];
    case 'venue_8':
      return list(rec.groupSlugs);
    case 'venue_9':
      return [...list(rec.tags), rec.category];
  }
}

export function categoryOf(provider: Provider, rec: Obj): Category {
  return categoryFromWords(venueWords(provider, rec));
}
