// GET /v1/plans (spec: "GET /v1/plans"): the public plan catalog, no key, no rate-limit headers.
// In: config PLAN_CATALOG. Out: {data: [Plan]} with the published values, or 503 when the catalog
// is not configured.
import { ApiError } from '../../errors.ts';
import { PLANS } from '../../auth/plans.ts';
import type { RouteHandler } from '../../types.ts';
import { JsonText } from '../../plugins/external/encoded.ts';

// The catalog is constant: serialized once, not on every request (the route is the crawl-latency
// bench's probe, where each request's garbage adds to the collections the API waits on).
const body = new JsonText(JSON.stringify({ data: PLANS }));

export const plans: RouteHandler = async (ctx) => {
  if (ctx.deps.config.PLAN_CATALOG === 'none') {
    throw new ApiError('service_unavailable', 'the plan catalog is not configured on this deployment (PLAN_CATALOG="none")');
  }
  return { body };
};
