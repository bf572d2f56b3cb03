// GET /v1/crypto-prices/spot: per-second spot prices, newest first (spec: the endpoint's table and
// rules). In: the raw query. Out: {data, pagination} (no snapshot). The plan and the body are pure
// (api/live/spot.ts); this handler does the one read of the spot venue under the request deadline.
import type { RouteHandler } from '../../types.ts';
import { cursorCodec } from '../../../lib/cursor.ts';
import { MalformedUpstream, NOT_FOUND } from '../../../pipelines/venues/client/http.ts';
import { planSpot, spotBody, type SpotRow } from '../../live/spot.ts';
import { guarded, liveDeps } from '../../live/io.ts';
import { isRec, need, num, rec } from '../../../pipelines/venues/adapters/native.ts';

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
      // A ticker without a readable price and time is no valid answer (502), not "no price".
      const t = rec(r, 'spot ticker');
      const value = need(num(t.price), 'spot ticker price');
      const ts = need(num(t.time), 'spot ticker time');
      return [{ symbol: plan.symbol, value, timestamp: ts }];
    }
    // limit + 1 rows: the extra one says whether a further page exists.
    const r = await http.getJson('spot', '/spot/api/v3/ticks', { symbol, startTime: plan.start, endTime: plan.end, limit: plan.limit + 1 }, ctx.signal);
    if (r === NOT_FOUND) return [];
    // No ticks list, or a tick that cannot be read, is no valid answer (502): read as no rows, it
    // would tell the client the range holds no second, or skip one without saying so.
    const ticks = rec(r, 'spot ticks').ticks;
    if (!Array.isArray(ticks)) throw new MalformedUpstream('spot ticks has no ticks list');
    return ticks.map((x): SpotRow => {
      const ts = Array.isArray(x) ? num(x[0]) : isRec(x) ? num(x.t) : null;
      const value = Array.isArray(x) ? num(x[1]) : isRec(x) ? num(x.p) : null;
      return { symbol: plan.symbol, value: need(value, 'spot tick price'), timestamp: need(ts, 'spot tick time') };
    });
  })());
  return { body: spotBody(plan, rows, cursors) };
};
