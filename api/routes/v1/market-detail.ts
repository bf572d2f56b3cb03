// GET /v1/markets/{market_id}: single-market detail read live from the venue (spec: "Market
// detail" and the endpoint's resolution rules). Validates and hands off: identifier plan
// (api/live/identifiers.ts), venue reads under the request deadline (api/live/io.ts), body per
// venue (its adapter's readMarket, pipelines/venues/adapters/venue_N/market.ts). Nothing is cached:
// requests that share a venue read share the body built from it (builtOnce) and its JSON text.
import type { RouteHandler, RouteResult } from '../../types.ts';
import type { LiveIO, MarketDetail } from '../../../pipelines/venues/adapters/live.ts';
import { JsonText } from '../../plugins/external/encoded.ts';
import { planResolution, type Plan } from '../../live/identifiers.ts';
import { ioFor, runPlan } from '../../live/io.ts';
import { adapterFor } from '../../../pipelines/venues/adapters/index.ts';
import { one } from '../../live/cursor.ts';

/** The last body and its answer: serialized once for the requests that got that body (builtOnce). */
let last: { body: object; result: RouteResult } | undefined;

/** A body as the route's answer, its JSON text made once per body. */
function answer(body: MarketDetail): RouteResult {
  if (last?.body !== body) last = { body, result: { body: new JsonText(JSON.stringify(body)) } };
  return last.result;
}

/** Not an async function: the venue's answer becomes the route's result in one step (runPlan's `as`). */
export const marketDetail: RouteHandler = (ctx) => {
  const rawId = ctx.params.market_id ?? '';
  let plan: Plan;
  let io: LiveIO;
  try {
    plan = planResolution('market', rawId, one(ctx.query.provider));
    io = ioFor(ctx);
  } catch (e) {
    // A refused id (400) or no venue upstream (503), as a rejection like any async handler's.
    return Promise.reject(e as Error);
  }
  return runPlan(plan, (p, id) => adapterFor(p).readMarket(io, id), 'market', rawId, answer);
};
