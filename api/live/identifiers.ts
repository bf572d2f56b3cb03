// Identifier resolution for the live routes (spec: "GET /v1/markets/{market_id}" and
// "GET /v1/events/{event_id}" resolution rules, "Provider tokens and identifier shapes").
// In: the path identifier as sent and the optional `provider` query value. Out: a plan naming the
// provider(s) to ask and the native id, or an ApiError. Pure: no venue is called here; the routes
// run the plan (one fetch, or the venue_2/venue_3 probe in parallel).
import { ApiError, quote } from '../errors.ts';
import { PROVIDERS, type Provider } from '../routes/table.ts';
import { adapterFor, type IdRoute } from '../../pipelines/venues/adapters/index.ts';
import { HASH64, NUMERIC, SLUG, TICKER, ULID } from '../../pipelines/venues/adapters/shapes.ts';

/**
 * Short alternate spellings tolerated in the `provider` parameter of the single-market and event
 * routes only (spec: "tolerate short alternate spellings"; the catalog filter rejects them).
 * Matched case-insensitively: `venue_3`, `venue3`, `venue-3`, `v3`, `v_3`.
 */
export function normalizeProviderSpelling(raw: string): Provider | undefined {
  const m = /^(?:venue[_-]?|v[_-]?)([1-9])$/i.exec(raw.trim());
  return m ? (`venue_${m[1]}` as Provider) : undefined;
}

export function parseProviderParam(raw: string | undefined): Provider | undefined {
  if (raw === undefined) return undefined;
  const p = normalizeProviderSpelling(raw);
  if (!p) {
    throw new ApiError(
      'invalid_parameter',
      `provider ${quote(raw)} is not a provider; use one of ${PROVIDERS.join(', ')}`,
      { param: 'provider' },
    );
  }
  return p;
}

// Native identifier shapes the inference rules read (spec table "Provider tokens and identifier
// shapes", pipelines/venues/adapters/shapes.ts); each venue checks its own ids in its adapter
// (pipelines/venues/adapters/venue_N, nativeId).

/** The date code that follows the series in venue_1 event and market tickers (`26NOV21...`). */
const V1_DATE_CODE = /^[A-Za-z0-9]+-\d{2}(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)\d{2}/i;

/**
 * venue_1 tickers are inferred "from shape; case-insensitive": a hyphenated id with an upper-case
 * letter, or in any case one whose second part is the venue's `<YY><MMM><DD>` date code. Any other
 * all-lower-case hyphenated id has the kebab slug shape and is probed on venue_2 instead.
 */
export const isInferableTicker = (id: string): boolean => TICKER.test(id) && (/[A-Z]/.test(id) || V1_DATE_CODE.test(id));

export type RouteKind = IdRoute;

export type Plan =
  | { kind: 'direct'; provider: Provider; nativeId: string }
  /** venue_2/venue_3 shared shapes: probe both, in parallel (resolution rule 2). */
  | { kind: 'probe'; candidates: Provider[]; nativeId: string };

const paramOf = (route: RouteKind) => (route === 'market' ? 'market_id' : 'event_id');

function invalid(route: RouteKind, message: string): ApiError {
  return new ApiError('invalid_identifier', message, { param: paramOf(route) });
}

/**
 * Check a native id against its provider's shapes (its adapter's nativeId) and canonicalize its
 * case. Throws 400 invalid_identifier for an id that cannot exist on the provider, including an
 * event id sent to the market route where the spec says so (venue_4 fixtures, venue_7 event ids).
 */
export function checkNativeId(route: RouteKind, provider: Provider, id: string): string {
  const checked = adapterFor(provider).nativeId(route, id);
  if ('reject' in checked) throw invalid(route, `${quote(id)} cannot be a ${provider} ${route} id: ${checked.reject}`);
  return checked.id;
}

function isProviderToken(s: string): s is Provider {
  return (PROVIDERS as readonly string[]).includes(s);
}

/**
 * Resolution rules 1-3 (market route) and 1 (event route): composite prefix, provider hint,
 * inference by shape for venue_1 tickers and venue_4 ids only, probing for the shared shapes.
 */
export function planResolution(route: RouteKind, rawId: string, providerParam: string | undefined): Plan {
  const hinted = parseProviderParam(providerParam);
  const id = rawId.trim();
  if (id === '') throw invalid(route, `${paramOf(route)} is empty`);

  // Rule 1: only the text before the first colon is the provider.
  const colon = id.indexOf(':');
  if (colon >= 0) {
    const prefix = id.slice(0, colon).toLowerCase();
    const rest = id.slice(colon + 1);
    if (isProviderToken(prefix)) {
      if (hinted && hinted !== prefix) {
        throw new ApiError(
          'invalid_parameter',
          `provider ${quote(providerParam)} contradicts the prefix of ${quote(id)} (${prefix})`,
          { param: 'provider' },
        );
      }
      if (rest === '') throw invalid(route, `${quote(id)} has no native id after the prefix`);
      return { kind: 'direct', provider: prefix, nativeId: checkNativeId(route, prefix, rest) };
    }
    // Native ids of venue_7 and venue_9 contain colons; with a hint the whole id is native.
    if (hinted) return { kind: 'direct', provider: hinted, nativeId: checkNativeId(route, hinted, id) };
    throw invalid(
      route,
      `prefix ${quote(id.slice(0, colon))} of ${quote(id)} names no provider; use one of ${PROVIDERS.join(', ')}`,
    );
  }

  // A hint names the one venue to ask: "naming the provider depends on that one only".
  if (hinted) return { kind: 'direct', provider: hinted, nativeId: checkNativeId(route, hinted, id) };

  // Rule 2/3: inference only for venue_1 tickers and venue_4 hashes (market) / fixtures (event).
  if (HASH64.test(id)) {
    if (route === 'market') return { kind: 'direct', provider: 'venue_4', nativeId: id.toLowerCase() };
    throw invalid(route, `${quote(id)} is a market hash, not an event id; use GET /v1/markets, or provider for a venue_9 parent`);
  }
  if (/^L[0-9]+$/i.test(id)) {
    if (route === 'event') return { kind: 'direct', provider: 'venue_4', nativeId: id.toUpperCase() };
    throw invalid(route, `${quote(id)} is a venue_4 fixture (event) id; use GET /v1/events`);
  }
  // "venue_2/venue_3 numeric and slug shapes are probed on both candidates": venue_3 answers a
  // slug as an id it cannot hold (its reader maps that to not found), but it must answer.
  if (NUMERIC.test(id)) return { kind: 'probe', candidates: ['venue_2', 'venue_3'], nativeId: id };
  if (isInferableTicker(id)) return { kind: 'direct', provider: 'venue_1', nativeId: id.toUpperCase() };
  if (SLUG.test(id)) return { kind: 'probe', candidates: ['venue_2', 'venue_3'], nativeId: id };
  if (ULID.test(id)) {
    throw invalid(route, `${quote(id)} looks like a venue_6 id, which is never inferred; send venue_6:${id} or provider=venue_6`);
  }
  throw invalid(
    route,
    `${quote(id)} matches no inferable shape; send {provider}:{native_id} or the provider parameter`,
  );
}
