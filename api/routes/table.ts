// Every route of the spec, declared once: path, methods, permission, and the exact query
// parameters it reads (with retired names). The router-level checks (404/405/unknown_parameter/
// repeated/empty/malformed), the OpenAPI document and the handlers' typed query all come from here.
// Handlers live in api/routes/v1/* and are attached by route id.
import type { ErrorCode } from '../errors.ts';

export type Permission =
  | 'markets.matching.read'
  | 'markets.read'
  | 'events.read'
  | 'crypto.prices.read'
  | 'marketplace.wallet.read'
  | 'marketplace.positions.read'
  | 'stream.read';

export const PERMISSIONS: readonly Permission[] = [
  'markets.matching.read',
  'markets.read',
  'events.read',
  'crypto.prices.read',
  'marketplace.wallet.read',
  'marketplace.positions.read',
  'stream.read',
];

// The provider tokens, categories and leagues are the service's vocabulary (lib/vocabulary.ts).
export { PROVIDERS, CATEGORIES, LEAGUES, type Provider, type Category, type League } from '../../lib/vocabulary.ts';
import { PROVIDERS, CATEGORIES, LEAGUES } from '../../lib/vocabulary.ts';

export type ParamType = 'string' | 'integer' | 'int64' | 'boolean' | 'date' | 'enum';

export interface ParamSpec {
  name: string;
  type: ParamType;
  description: string;
  values?: readonly string[];
  min?: number;
  max?: number;
  default?: string | number | boolean;
  /** Repeatable lookup ids (`event_id`, `source_id`); every other parameter sent twice is 400. */
  repeatable?: boolean;
  /** A filter or identifier: an empty value is 400 invalid_parameter. */
  nonEmpty?: boolean;
  /** Documented shape of a string value (OpenAPI `pattern`); the handler enforces it. */
  pattern?: string;
  /** The route answers 400 missing_parameter without it (OpenAPI `required`); the handler enforces it. */
  required?: true;
}

/** Every route id of ROUTES; handlers are registered under these (api/routes/index.ts). */
export type RouteId =
  | 'plans'
  | 'openapi'
  | 'sports_list'
  | 'sports_lookup'
  | 'markets_list'
  | 'market_detail'
  | 'market_history'
  | 'event_detail'
  | 'categories'
  | 'spot_prices'
  | 'wallet_profile'
  | 'wallet_positions'
  | 'stream'
  | 'billing_portal';

export interface RouteSpec {
  id: RouteId;
  method: 'GET' | 'POST';
  /** Fastify path syntax. */
  url: string;
  summary: string;
  /** null: no API key (plans). 'session': account session, not an API key. */
  auth: 'api_key' | 'none' | 'session';
  /** Permission the key needs (see README for the lookup route's choice). */
  permission?: Permission;
  pathParams?: ParamSpec[];
  params: ParamSpec[];
  /** Retired query names answering 400 naming the replacement (spec: "Versioning"). */
  retired?: Record<string, string>;
  /**
   * Codes the route's handler can answer beyond the shell's own (router, key, limits, 503); the
   * OpenAPI document lists every status of both (api/openapi.ts, held to this by its unit test).
   */
  errors?: readonly ErrorCode[];
  /** Served from an immutable snapshot page: ETag on 200, 304 for a matching If-None-Match. */
  etag?: true;
}

/** What every live venue read can answer (pipelines/venues/client/http.ts). */
const UPSTREAM: readonly ErrorCode[] = ['upstream_rejected', 'upstream_rate_limited', 'upstream_unavailable'];

const limit = (def: number, max = 100): ParamSpec => ({
  name: 'limit',
  type: 'integer',
  min: 1,
  max,
  default: def,
  description: `Page size, 1..${max}, default ${def}.`,
});
const cursor: ParamSpec = { name: 'cursor', type: 'string', nonEmpty: true, description: 'Opaque cursor from a previous next_cursor.' };
const providerParam: ParamSpec = {
  name: 'provider',
  type: 'string',
  // Documented as the nine tokens (the spec omits the tolerated alternate spellings).
  values: PROVIDERS,
  nonEmpty: true,
  description: 'Provider token (venue_1..venue_9); short alternate spellings tolerated on this route.',
};
// Spec: only include_rules takes an empty value (meaning false); any other boolean sent empty is
// "a filter ... sent with an empty value: 400 invalid_parameter".
const bool = (name: string, def: boolean, description: string, emptyMeansFalse = false): ParamSpec => ({ name, type: 'boolean', default: def, description, nonEmpty: !emptyMeansFalse });
const playerPropMatch: ParamSpec = {
  name: 'player_prop_match',
  type: 'enum',
  values: ['strict', 'same_prop'],
  nonEmpty: true,
  description: 'Player-prop policy; requires include_submarkets=true.',
};
// A parameter rather than a sibling route: prices belong to the submarkets and source markets a
// response already carries, under the same filters, cursors and lookups (README "Cross-venue prices").
const includePrices = bool(
  'include_prices',
  false,
  "Adds `prices` to every submarket: each source market's best bid and ask with as_of and observed_at, the effective ask after the venue's taker fee, the best venue per outcome and, on two-outcome submarkets, the cheapest complete set with its cost, edge and settlement_safe. Quotes read longer ago than PRICES_STALE_MS (default 60 s) are marked stale and left out of best prices.",
);
const walletAddress: ParamSpec = {
  name: 'address',
  type: 'string',
  nonEmpty: true,
  pattern: '^0x[a-fA-F0-9]{40}$',
  description: '0x + 40 hex, mixed case accepted. Exactly one of address and username is required.',
};
const walletUsername: ParamSpec = {
  name: 'username',
  type: 'string',
  nonEmpty: true,
  description: 'Case-insensitive exact username; leading @ stripped. Exactly one of address and username is required.',
};

export const ROUTES: readonly RouteSpec[] = [
  { id: 'plans', method: 'GET', url: '/v1/plans', summary: 'Public plan catalog', auth: 'none', params: [] },
  // The OpenAPI document of this table (served by the shell; public like the plan catalog).
  { id: 'openapi', method: 'GET', url: '/v1/openapi.json', summary: 'OpenAPI 3.1 document of this API', auth: 'none', params: [] },
  {
    id: 'sports_list',
    method: 'GET',
    url: '/v1/matching-markets/sports',
    summary: 'Matched sports events, soonest scheduled start first',
    auth: 'api_key',
    permission: 'markets.matching.read',
    errors: ['invalid_cursor'],
    etag: true,
    params: [
      limit(25),
      cursor,
      { name: 'league', type: 'enum', values: LEAGUES, nonEmpty: true, description: 'League filter.' },
      { name: 'scheduled_date', type: 'date', nonEmpty: true, description: 'YYYY-MM-DD in America/New_York.' },
      { name: 'participant', type: 'string', nonEmpty: true, description: 'One participant key, case-insensitive.' },
      bool('include_settled', false, 'Also draw from the settled archive.'),
      bool('include_submarkets', false, 'Every matched submarket instead of the full-game moneyline only.'),
      bool('include_rules', false, 'Adds rule_comparisons to game lines; empty means false.', true),
      includePrices,
      playerPropMatch,
    ],
    retired: {
      event_id: 'event_id moved to GET /v1/matching-markets/sports/lookup',
      source_id: 'source_id moved to GET /v1/matching-markets/sports/lookup',
    },
  },
  {
    id: 'sports_lookup',
    method: 'GET',
    url: '/v1/matching-markets/sports/lookup',
    summary: 'Find matched sports events by canonical or venue identifier',
    auth: 'api_key',
    permission: 'markets.matching.read',
    errors: ['missing_parameter'],
    params: [
      { name: 'event_id', type: 'string', repeatable: true, nonEmpty: true, description: 'Canonical event key (repeatable). At least one of event_id and source_id is required; at most 100 unique identifiers across both.' },
      { name: 'source_id', type: 'string', repeatable: true, nonEmpty: true, description: '{provider}:{id} (repeatable). At least one of event_id and source_id is required; at most 100 unique identifiers across both.' },
      bool('include_settled', false, 'Searches the settled archive too.'),
      bool('include_submarkets', true, 'false: only the full-game moneyline.'),
      bool('include_rules', false, 'Adds rule_comparisons to game lines; empty means false.', true),
      includePrices,
      playerPropMatch,
    ],
  },
  {
    id: 'markets_list',
    method: 'GET',
    url: '/v1/markets',
    summary: 'Catalog of open markets across all nine venues',
    auth: 'api_key',
    permission: 'markets.read',
    errors: ['invalid_cursor'],
    etag: true,
    params: [
      limit(25),
      cursor,
      { name: 'category', type: 'enum', values: CATEGORIES, nonEmpty: true, description: 'Category filter.' },
      { name: 'provider', type: 'enum', values: PROVIDERS, nonEmpty: true, description: 'Provider filter (exact tokens only).' },
    ],
  },
  {
    id: 'market_detail',
    method: 'GET',
    url: '/v1/markets/:market_id',
    summary: 'Single-market detail read live from the venue',
    auth: 'api_key',
    permission: 'markets.read',
    errors: ['invalid_identifier', 'market_not_found', 'ambiguous_identifier', ...UPSTREAM],
    pathParams: [{ name: 'market_id', type: 'string', nonEmpty: true, description: 'Composite or native market id.' }],
    params: [providerParam],
    retired: { platform: 'platform was renamed to provider' },
  },
  {
    id: 'market_history',
    method: 'GET',
    url: '/v1/markets/:market_id/history',
    summary: "Candles of a market's quote changes (1m, 1h, 1d), newest first, from the price history",
    auth: 'api_key',
    permission: 'markets.read',
    errors: ['invalid_identifier', 'invalid_cursor', 'market_not_found', 'ambiguous_identifier'],
    pathParams: [{ name: 'market_id', type: 'string', nonEmpty: true, description: 'Composite or native market id, in any form market detail accepts.' }],
    params: [
      providerParam,
      { name: 'interval', type: 'enum', values: ['1m', '1h', '1d'], default: '1h', nonEmpty: true, description: 'Candle width: 1m, 1h or 1d (UTC buckets).' },
      { name: 'start_time', type: 'int64', description: 'Unix seconds, inclusive: the first bucket start to include; negatives clamped to 0.' },
      { name: 'end_time', type: 'int64', description: 'Unix seconds, inclusive: the last bucket start to include (default now); ignored with cursor.' },
      limit(100),
      cursor,
    ],
    retired: { platform: 'platform was renamed to provider' },
  },
  {
    id: 'event_detail',
    method: 'GET',
    url: '/v1/events/:event_id',
    summary: 'Event detail with nested markets',
    auth: 'api_key',
    permission: 'events.read',
    errors: ['invalid_identifier', 'event_not_found', 'ambiguous_identifier', ...UPSTREAM],
    pathParams: [{ name: 'event_id', type: 'string', nonEmpty: true, description: 'Composite or native event id.' }],
    params: [providerParam],
    retired: { platform: 'platform was renamed to provider' },
  },
  {
    id: 'categories',
    method: 'GET',
    url: '/v1/categories',
    summary: 'Canonical categories',
    auth: 'api_key',
    permission: 'markets.read',
    params: [],
  },
  {
    id: 'spot_prices',
    method: 'GET',
    url: '/v1/crypto-prices/spot',
    summary: 'Per-second spot crypto prices, newest first',
    auth: 'api_key',
    permission: 'crypto.prices.read',
    errors: ['missing_parameter', 'invalid_cursor', ...UPSTREAM],
    params: [
      { name: 'currency', type: 'string', nonEmpty: true, required: true, description: 'Trading pair, alphanumeric.' },
      { name: 'start_time', type: 'int64', description: 'Unix ms, inclusive.' },
      { name: 'end_time', type: 'int64', description: 'Unix ms, inclusive.' },
      limit(100),
      cursor,
    ],
    retired: { pagination_key: 'pagination_key was renamed to cursor' },
  },
  {
    id: 'wallet_profile',
    method: 'GET',
    url: '/v1/marketplace/wallet',
    summary: 'Wallet profile by address or username',
    auth: 'api_key',
    permission: 'marketplace.wallet.read',
    errors: ['missing_parameter', 'profile_not_found', ...UPSTREAM],
    params: [walletAddress, walletUsername],
  },
  {
    id: 'wallet_positions',
    method: 'GET',
    url: '/v1/marketplace/wallet/positions',
    summary: 'Wallet positions',
    auth: 'api_key',
    permission: 'marketplace.positions.read',
    errors: ['missing_parameter', 'invalid_cursor', 'profile_not_found', ...UPSTREAM],
    params: [walletAddress, walletUsername, limit(50), cursor],
  },
  {
    id: 'stream',
    method: 'GET',
    url: '/v1/stream',
    summary:
      'Push stream of matched sports event changes, of market quote changes and of new catalog snapshots (Server-Sent Events; WebSocket on an upgrade of the same URL), resumable with Last-Event-ID',
    auth: 'api_key',
    permission: 'stream.read',
    errors: ['missing_parameter'],
    // The sports list's filters, with the same meaning; no paging (the first event is the whole
    // current list as a `snapshot`).
    params: [
      { name: 'channel', type: 'enum', values: ['sports', 'quotes', 'catalog'], nonEmpty: true, required: true, description: 'What to subscribe to (required): sports (matched events; the sports filters apply), quotes (quote changes of the markets named by market_id) or catalog (a new catalog snapshot; no filters).' },
      {
        name: 'market_id',
        type: 'string',
        repeatable: true,
        nonEmpty: true,
        description: 'channel=quotes (required there, repeatable, at most 100 unique): a market in any form GET /v1/markets/{market_id} accepts (composite, or native with provider).',
      },
      { ...providerParam, description: 'channel=quotes: the provider of native market_id values, as on market detail (short alternate spellings tolerated).' },
      { name: 'league', type: 'enum', values: LEAGUES, nonEmpty: true, description: 'League filter.' },
      { name: 'scheduled_date', type: 'date', nonEmpty: true, description: 'YYYY-MM-DD in America/New_York.' },
      { name: 'participant', type: 'string', nonEmpty: true, description: 'One participant key, case-insensitive.' },
      bool('include_settled', false, 'Also the settled archive (an event leaving the current list is then updated, not removed).'),
      bool('include_submarkets', false, 'Every matched submarket instead of the full-game moneyline only.'),
      bool('include_rules', false, 'Adds rule_comparisons to game lines; empty means false.', true),
      playerPropMatch,
    ],
  },
  {
    id: 'billing_portal',
    method: 'POST',
    url: '/v1/account/billing/portal',
    summary: 'Dashboard billing route (account session; outside this API)',
    auth: 'session',
    params: [],
  },
];
