// The venue registry: each provider token to its adapter (one folder per venue beside this file).
// Callers look a venue up here instead of switching on its token. A new venue is one folder and one
// line below (and its token in lib/vocabulary.ts PROVIDERS, which the `satisfies` check ties to
// this table: a token without an adapter does not compile).
import type { Provider } from '../../../lib/vocabulary.ts';
import type { VenueAdapter } from './types.ts';
import { venue1 } from './venue_1/index.ts';
import { venue2 } from './venue_2/index.ts';
import { venue3 } from './venue_3/index.ts';
import { venue4 } from './venue_4/index.ts';
import { venue5 } from './venue_5/index.ts';
import { venue6 } from './venue_6/index.ts';
import { venue7 } from './venue_7/index.ts';
import { venue8 } from './venue_8/index.ts';
import { venue9 } from './venue_9/index.ts';

/** Adapters by provider token. */
export type VenueRegistry = Readonly<Record<string, VenueAdapter>>;

export const VENUES = {
  venue_1: venue1,
  venue_2: venue2,
  venue_3: venue3,
  venue_4: venue4,
  venue_5: venue5,
  venue_6: venue6,
  venue_7: venue7,
  venue_8: venue8,
  venue_9: venue9,
} satisfies Record<Provider, VenueAdapter<Provider>>;

/** The adapter of a venue; a token the registry does not hold is a programming error. */
export function adapterFor(provider: string, registry: VenueRegistry = VENUES): VenueAdapter {
  const a = registry[provider];
  if (!a) throw new Error(`no venue adapter for ${JSON.stringify(provider)}`);
  return a;
}

export type { IdRoute, ListedDetail, ListedMarketQuotes, ListingRow, NativeIdCheck, VenueAdapter } from './types.ts';
