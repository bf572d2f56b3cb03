// GET /v1/crypto-prices/spot: per-second spot prices, newest first (spec: the endpoint's table and
// rules). In: the raw query. Out: {data, pagination} (no snapshot). The plan and the body are pure
// (api/live/spot.ts); this handler does the one read of the spot venue under the request deadline.
import type { RouteHandler } from '../../types.ts';
import { cursorCodec } from '../../../lib/cursor.ts';
import { NOT_FOUND } from '../../../pipelines/venues/client/http.ts';
import { planSpot, spotBody, type SpotRow } from '../../live/spot.ts';
import { guarded, liveDeps } from '../../live/io.ts';
import { arr, isRec, num, rec } from '../../../pipelines/venues/adapters/native.ts';

export const spotPrices: RouteHandler = async (ctx) => {
  const cursors = cursorCodec(ctx.deps.config.CATALOG_CURSOR_SECRET);
  const plan = planSpot(ctx.query, ctx.now, cursors);
  if (plan.kind === 'empty') return { body: spotBody(plan, [], cursors) };
  const http = liveDeps(ctx).venues;
  const symbol = plan.symbol.toUpperCase();
  const rows: SpotRow[] = await guarded('spot', (async () => {
    if (plan.kind === 'latest') {
      const r = await http.getJson('spot', '/spot/api/v3/ticker/price', { symbol }, ctx.signal);
      if (r === NOT_FOUND) return [];
      const t = rec(r, 'spot ticker');
      const value = num(t.price);
      const ts = num(t.time);
      return value === null || ts === null ? [] : [{ symbol: plan.symbol, value, timestamp: ts }];
    }
    // limit + 1 rows: the extra one says whether a further page exists.
    const r = await http.getJson('spot', '/spot/api/v3/ticks', { symbol, startTime: plan.start, endTime: plan.end, limit: plan.limit + 1 }, ctx.signal);
    if (r === NOT_FOUND) return [];
    return arr(rec(r, 'spot ticks').ticks).flatMap((x) => {
      const ts = Array.isArray(x) ? num(x[0]) : isRec(x) ? num(x.t) : null;
      const value = Array.isArray(x) ? num(x[1]) : isRec(x) ? num(x.p) : null;
      return ts === null || value === null ? [] : [{ symbol: plan.symbol, value, timestamp: ts }];
    });
  })());
  return { body: spotBody(plan, rows, cursors) };
};
