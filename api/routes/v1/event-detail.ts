// GET /v1/events/{event_id}: event detail with nested markets, read live (spec: "Event detail" and
// the endpoint's rules). Validates and hands off: identifier plan (api/live/identifiers.ts), venue
// reads under the request deadline (api/live/io.ts), body per venue (its adapter's
// readEvent, pipelines/venues/adapters/venue_N/event.ts).
import type { RouteHandler } from '../../types.ts';
import { planResolution } from '../../live/identifiers.ts';
import { ioFor, runPlan } from '../../live/io.ts';
import { adapterFor } from '../../../pipelines/venues/adapters/index.ts';
import { one } from '../../live/cursor.ts';

export const eventDetail: RouteHandler = async (ctx) => {
  const rawId = ctx.params.event_id ?? '';
  const plan = planResolution('event', rawId, one(ctx.query.provider));
  const io = ioFor(ctx);
  const body = await runPlan(plan, (p, id) => adapterFor(p).readEvent(io, id), 'event', rawId);
  return { body };
};
