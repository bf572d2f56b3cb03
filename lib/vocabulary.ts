// The service's words, declared once at the bottom of the import graph: the nine provider tokens,
// the catalog categories, the leagues and the canonical market types, as the spec spells them.
// api/ (route table, OpenAPI, filters) and pipelines/ (pollers, catalog, matching, topics) both
// import them from here; neither declares its own.

export const PROVIDERS = ['venue_1', 'venue_2', 'venue_3', 'venue_4', 'venue_5', 'venue_6', 'venue_7', 'venue_8', 'venue_9'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const CATEGORIES = ['sports', 'politics', 'crypto', 'finance', 'economics', 'weather', 'culture', 'technology', 'entertainment', 'other', 'unknown'] as const;
export type Category = (typeof CATEGORIES)[number];

export const LEAGUES = ['nba', 'wnba', 'nfl', 'mlb', 'nhl'] as const;
export type League = (typeof LEAGUES)[number];

/** Canonical `market_type` values ("treat as an open set": these are the ones the service produces). */
export const MARKET_TYPES = ['moneyline', 'spread', 'total', 'team_total', 'player_prop'] as const;
export type MarketType = (typeof MARKET_TYPES)[number];
