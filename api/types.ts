// The contract between the router (api/app.ts) and the route handlers (api/routes/v1/*).
// The router has already done every router-level check from api/routes/table.ts, authenticated
// the key and charged the rate limit before a handler runs. A handler validates the values of its
// own parameters, throws ApiError for anything wrong, and returns the JSON body.
import type { Config } from '../lib/config.ts';
import type { StreamDeps, StreamIO } from './stream/types.ts';
import type { AuthDeps } from './auth/index.ts';
import type { CatalogDeps } from '../pipelines/catalog/pages.ts';
import type { SportsDeps } from '../pipelines/matching/readmodel.ts';
import type { VenueHttp } from '../pipelines/venues/client/http.ts';
import type { History } from '../pipelines/readmodels/history.ts';

/** Query as received: a repeatable parameter is an array, every other one a single string. */
export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * Query after the router's generic type checks (api/routes/router.ts): integers and int64 as
 * numbers, booleans as booleans (empty means the default), enums lower-cased, dates as
 * `YYYY-MM-DD`, strings as sent; declared defaults filled in; absent parameters without a default
 * are undefined; repeatable parameters are arrays.
 */
export type TypedQuery = Record<string, string | number | boolean | string[] | undefined>;

/** The authenticated key behind a request (absent on routes without a key). */
export interface KeyInfo {
  keyId: string;
  accountId: string;
  /** The plan the request is served under (a paid plan in payment recovery is served as `free`). */
  plan: string;
}

export interface RouteContext {
  query: RawQuery;
  typed: TypedQuery;
  key?: KeyInfo;
  params: Record<string, string>;
  deps: AppDeps;
  /** Aborted at the spec's 9 s per-request deadline. */
  signal: AbortSignal;
  /** Time of the request, from the app clock (controlled in tests). */
  now: number;
}

export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * A push stream instead of a body (GET /v1/stream): the shell hands it the raw response (SSE) or
   * the upgraded socket (WebSocket) once every check has passed.
   */
  stream?: (io: StreamIO) => void;
  /** Undoes what the handler reserved for a stream that never opens (a failed upgrade). */
  release?: () => void;
}

export type RouteHandler = (ctx: RouteContext) => Promise<RouteResult>;

/**
 * What handlers may use. Each area adds its own seam here; all are optional so the shell runs
 * before an area exists (its routes then answer 503 service_unavailable).
 */
/** What the live routes read venues through (api/live/io.ts). */
export interface LiveDeps {
  venues: VenueHttp;
}

/** What the price-history route reads: the process's History (chdb or a ClickHouse server). */
export interface PriceHistoryDeps {
  history: History;
}

/** Everything a route may use, each area under its own name; an area left out answers 503 on its routes. */
export interface AppDeps {
  config: Config;
  clock: () => number;
  /** Keys, accounts, usage and rate windows (api/auth). */
  auth?: AuthDeps;
  /** The catalog snapshot's pages (pipelines/catalog). */
  catalog?: CatalogDeps;
  /** The published sports snapshot (pipelines/matching). */
  sports?: SportsDeps;
  /** Live venue reads; without it, one client per VENUE_BASE_URL (or the simulator's base URL). */
  live?: LiveDeps;
  /** The in-process simulator of the embedded default, when the composition attached it. */
  simulator?: { baseUrl?: string };
  /** The push stream's hub and its open connections (api/stream), when STREAM is on. */
  stream?: StreamDeps;
  /** The price history's candles (GET /v1/markets/{market_id}/history): absent where no History is open. */
  priceHistory?: PriceHistoryDeps;
}
