// GET /v1/markets/{market_id}: single-market detail read live from the venue (spec: "Market
// detail" and the endpoint's resolution rules). Validates and hands off: identifier plan
// (api/live/identifiers.ts), venue reads under the request deadline (api/live/io.ts), body per
// venue (its adapter's readMarket, pipelines/venues/adapters/venue_N/market.ts). Nothing is cached:
// requests that share a venue read share the body built from it (builtOnce) and its JSON text.
import type { RouteHandler } from '../../types.ts';
import { JsonText } from '../../plugins/external/encoded.ts';
import { planResolution } from '../../live/identifiers.ts';
import { ioFor, runPlan } from '../../live/io.ts';
import { adapterFor } from '../../../pipelines/venues/adapters/index.ts';
import { one } from '../../live/cursor.ts';

/** The last body's JSON text: serialized once for the requests that got that body (builtOnce). */
let last: { body: object; text: JsonText } | undefined;

export const marketDetail: RouteHandler = async (ctx) => {
  const rawId = ctx.params.market_id ?? '';
  const plan = planResolution('market', rawId, one(ctx.query.provider));
  const io = ioFor(ctx);
  const body = await runPlan(plan, (p, id) => adapterFor(p).readMarket(io, id), 'market', rawId);
  if (last?.body !== body) last = { body, text: new JsonText(JSON.stringify(body)) };
  return { body: last.text };
};
