// Catalog categories (spec: "Catalog market row": "The category is the service's normalized bucket,
// not a venue tag"). In: what one venue publishes about a market (its category field, tag slugs,
// topic, sport label, group slugs, as FORMATS.md documents per venue). Out: one of the eleven
// buckets: the first venue word that names a bucket wins; words that name none give `other`;
// a market with no usable word at all gives `unknown`.
// Pure; each venue's adapter (pipelines/venues/adapters/venue_N, categoryWords) reads that venue's own
// fields, one dictionary here maps the words.
import type { Category, Provider } from '../../lib/vocabulary.ts';
import { adapterFor } from '../venues/adapters/index.ts';

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

/**
 * The bucket of one of a venue's listing records, from the words its adapter reads off it
 * (FORMATS.md, "Categories (own words per venue)"). For grouped records (venue_5 questions, venue_7
 * events, venue_9 parents) the group carries the words for all its markets.
 */
export function categoryOf(provider: Provider, rec: Record<string, unknown>): Category {
  return categoryFromWords(adapterFor(provider).categoryWords(rec));
}
