// The handler registry: route id (api/routes/table.ts) -> RouteHandler (api/types.ts).
//
// Convention for every area: write your handler in api/routes/v1/<name>.ts as
//   export const marketsList: RouteHandler = async (ctx) => ({ body: { data: [...] } });
// and add ONE import line and ONE entry below. The router (api/app.ts) has already done the
// router-level checks, authenticated the key, checked its permission, charged the rate limit and
// the monthly allowance, and type-checked the declared parameters (ctx.typed: numbers, booleans,
// lower-cased enums, defaults filled) before your handler runs. Throw `new ApiError(...)` for any
// error; anything else thrown is logged and answered 503 service_unavailable. Your dependencies
// arrive in ctx.deps under your area's name. A route with no entry here answers
// 503 service_unavailable, so the shell serves every route of the spec from day one.
import type { RouteId } from './table.ts';
import type { RouteHandler } from '../types.ts';
import { plans } from './v1/plans.ts';
import { categories } from './v1/categories.ts';
import { openapi } from '../openapi.ts';
import { marketsList } from './v1/markets-list.ts';

import { marketDetail } from './v1/market-detail.ts';
import { eventDetail } from './v1/event-detail.ts';
import { spotPrices } from './v1/spot.ts';
import { walletProfile, walletPositions } from './v1/wallet.ts';
import { sportsList, sportsLookup } from './v1/sports.ts';
import { stream } from './v1/stream.ts';
import { marketHistory } from './v1/market-history.ts';

export type HandlerRegistry = Partial<Record<RouteId, RouteHandler>>;

export const handlers: HandlerRegistry = {
  plans,
  categories,
  openapi,
  markets_list: marketsList,
  market_detail: marketDetail,
  event_detail: eventDetail,
  spot_prices: spotPrices,
  wallet_profile: walletProfile,
  wallet_positions: walletPositions,
  sports_list: sportsList,
  sports_lookup: sportsLookup,
  stream,
  market_history: marketHistory,
};
