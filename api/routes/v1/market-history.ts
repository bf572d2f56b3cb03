// GET /v1/markets/{market_id}/history: candles of a market's quote changes (not in the spec; built
// on its conventions). In: the market id in any form market detail accepts, `provider`, `interval`
// (1m, 1h, 1d), `start_time` and `end_time` (Unix seconds, the spot route's rules), `limit`,
// `cursor`. Out: {data: [Candle], pagination}, newest bucket first; each candle holds every outcome
// that changed in its bucket (OHLC of mid and last, and the count of changes). Served from the
// candle tables (materialized views of price_history), never from raw rows. The plan and the body
// are pure; the handler resolves the id and reads one page from the History.
import { ApiError, quote } from '../../errors.ts';
import type { RawQuery, RouteHandler } from '../../types.ts';
import type { History } from '../../../pipelines/readmodels/history.ts';
import type { CursorCodec } from '../../../lib/cursor.ts';
import { cursorCodec } from '../../../lib/cursor.ts';
import { cursorInt, cursorString, decodeCursor, encodeCursor, one, parseLimit } from '../../live/cursor.ts';
import { planResolution, type Plan } from '../../live/identifiers.ts';
import { CANDLE_INTERVALS, groupCandles, type Candle, type CandleInterval, type CandleRow } from '../../../pipelines/readmodels/price-history.ts';
import { candleRows, storedMarkets } from '../../../pipelines/readmodels/price-queries.ts';
import { venue7MarketKey } from '../../../pipelines/venues/adapters/venue_7/identifiers.ts';

const ROUTE = 'market_history';
const MAX_LIMIT = 100;
const DEFAULT_INTERVAL: CandleInterval = '1h';
/** DateTime's last second (2106-02-07): a later end_time means "no end". */
const MAX_SECONDS = 4_294_967_295;

/** int64 Unix seconds; "negatives clamped to 0" as on the spot route. */
export function parseSeconds(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim();
  if (!/^-?\d+$/.test(t)) throw new ApiError('invalid_parameter', `${name} ${quote(raw)} is not an integer of Unix seconds`, { param: name });
  if (t.startsWith('-')) return 0;
  return Math.min(Number(t), MAX_SECONDS);
}

export function parseInterval(raw: string | undefined): CandleInterval {
  if (raw === undefined) return DEFAULT_INTERVAL;
  const v = raw.trim().toLowerCase();
  if ((CANDLE_INTERVALS as readonly string[]).includes(v)) return v as CandleInterval;
  throw new ApiError('invalid_parameter', `interval ${quote(raw)} is not one of ${CANDLE_INTERVALS.join(', ')}`, { param: 'interval' });
}

/** One page: the `limit` newest buckets starting in [start, end] (Unix seconds, inclusive). */
export interface HistoryPlan {
  market: string;
  interval: CandleInterval;
  start: number;
  end: number;
  limit: number;
}

/**
 * The page a request asks for (pure). `market` is the id as sent (with the provider hint), which a
 * cursor is bound to; `now` the request's time in ms.
 */
export function planHistory(query: RawQuery, market: string, now: number, cursors: CursorCodec): HistoryPlan {
  const cursorRaw = one(query.cursor);
  const startRaw = one(query.start_time);
  const endRaw = one(query.end_time);
  const limitRaw = one(query.limit);
  const intervalRaw = one(query.interval);
  // Every value is checked, even where a cursor then overrides it.
  const start = parseSeconds('start_time', startRaw);
  const end = parseSeconds('end_time', endRaw);
  const limit = parseLimit(limitRaw, MAX_LIMIT, MAX_LIMIT);
  const interval = parseInterval(intervalRaw);

  if (cursorRaw !== undefined) {
    const f = decodeCursor(cursors, ROUTE, cursorRaw);
    const cMarket = cursorString(f, 0, cursorRaw);
    const cInterval = parseCursorInterval(cursorString(f, 1, cursorRaw), cursorRaw);
    const cStart = cursorInt(f, 2, cursorRaw, 0, MAX_SECONDS);
    const cEnd = cursorInt(f, 3, cursorRaw, 0, MAX_SECONDS);
    const cLimit = cursorInt(f, 4, cursorRaw, 1, MAX_LIMIT);
    if (cMarket !== market) throw new ApiError('invalid_cursor', `cursor was issued for market ${quote(cMarket)}, not ${quote(market)}`, { param: 'cursor' });
    if (intervalRaw !== undefined && interval !== cInterval) {
      throw new ApiError('invalid_cursor', `interval ${quote(intervalRaw)} differs from the interval ${cInterval} this cursor carries; send the cursor alone or with the same interval`, { param: 'interval' });
    }
    // As on the spot route: the cursor carries start_time, a different one is 400, end_time is ignored.
    if (start !== undefined && start !== cStart) {
      throw new ApiError('invalid_cursor', `start_time ${quote(startRaw)} differs from the start_time ${cStart} this cursor carries; send the cursor alone or with the same start_time`, { param: 'start_time' });
    }
    return { market, interval: cInterval, start: cStart, end: cEnd, limit: limitRaw !== undefined ? limit : cLimit };
  }

  const nowSec = Math.floor(now / 1000);
  const s = start ?? 0;
  if (end === undefined && s > nowSec) {
    throw new ApiError('invalid_parameter', `start_time ${quote(startRaw)} is in the future (now is ${nowSec}); send a start_time at or before now, or an end_time`, { param: 'start_time' });
  }
  if (end !== undefined && s > end) throw new ApiError('invalid_parameter', `start_time ${quote(startRaw)} is after end_time ${quote(endRaw)}`, { param: 'start_time' });
  return { market, interval, start: s, end: end ?? nowSec, limit };
}

function parseCursorInterval(v: string, raw: string): CandleInterval {
  if ((CANDLE_INTERVALS as readonly string[]).includes(v)) return v as CandleInterval;
  throw new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed or was not issued by this API; send next_cursor unchanged`, { param: 'cursor' });
}

/**
 * The body for a plan given the candle rows of its `limit + 1` newest buckets: the extra bucket
 * only says a further page exists. The next cursor ends one second before the last bucket returned,
 * so following cursors returns every bucket of the range exactly once.
 */
export function historyBody(plan: HistoryPlan, market: { provider: string; market_id: string }, rows: readonly CandleRow[], cursors: CursorCodec) {
  const candles: Candle[] = groupCandles(rows, plan.interval);
  const hasMore = candles.length > plan.limit;
  const data = candles.slice(0, plan.limit);
  const pagination: { limit: number; total: null; has_more: boolean; next_cursor?: string } = { limit: plan.limit, total: null, has_more: hasMore };
  if (hasMore) pagination.next_cursor = encodeCursor(cursors, ROUTE, [plan.market, plan.interval, plan.start, data[data.length - 1].start_time - 1, plan.limit]);
  return { market: { id: `${market.provider}:${market.market_id}`, provider: market.provider, provider_id: market.market_id }, interval: plan.interval, data, pagination };
}

/** The stored market a resolution plan names, by market detail's rules, over what the history holds. */
async function resolveStored(history: History, plan: Plan, rawId: string): Promise<{ provider: string; market_id: string }> {
  const candidates = plan.kind === 'direct' ? [plan.provider] : plan.candidates;
  const hits = await storedMarkets(history, candidates, plan.nativeId);
  if (hits.length === 1) return hits[0];
  if (hits.length === 0) {
    throw new ApiError(
      'market_not_found',
      `no quote of market ${quote(rawId)} was observed${plan.kind === 'direct' ? ` on ${plan.provider}` : ''} within the price history's retention (venue_4 and venue_5 list no prices, so none is kept for them)`,
      { param: 'market_id' },
    );
  }
  const providers = hits.map((h) => h.provider);
  throw new ApiError('ambiguous_identifier', `market id ${quote(rawId)} exists on ${providers.join(' and ')}; resend with provider set to one of them`, {
    param: 'market_id',
    candidates: providers,
  });
}

const unavailable = () => new ApiError('service_unavailable', 'the price history is not reachable from this server; retry later', { headers: { 'Retry-After': '5' } });

export const marketHistory: RouteHandler = async (ctx) => {
  const d = ctx.deps.priceHistory;
  const rawId = ctx.params.market_id ?? '';
  const providerRaw = one(ctx.query.provider);
  // Identifier and parameter errors first: they do not depend on the store.
  const planned = planResolution('market', rawId, providerRaw);
  // A venue_7 line in any spelling of its number names one line, as on market detail (stored as the listings key it).
  const resolution = planned.kind === 'direct' && planned.provider === 'venue_7' ? { ...planned, nativeId: venue7MarketKey(planned.nativeId) } : planned;
  const cursors = cursorCodec(ctx.deps.config.CATALOG_CURSOR_SECRET);
  const plan = planHistory(ctx.query, providerRaw === undefined ? rawId : `${providerRaw}|${rawId}`, ctx.now, cursors);
  // An operator turned the price history off (PRICE_HISTORY=false): none is written, none is served.
  if (!ctx.deps.config.PRICE_HISTORY) throw new ApiError('service_unavailable', 'the price history is turned off on this server (PRICE_HISTORY=false)');
  if (!d) throw unavailable();
  let market: { provider: string; market_id: string };
  let rows: CandleRow[];
  try {
    market = await resolveStored(d.history, resolution, rawId);
    rows = await candleRows(d.history, { provider: market.provider, marketId: market.market_id, interval: plan.interval, from: plan.start, to: plan.end, buckets: plan.limit + 1 });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw unavailable();
  }
  return { body: historyBody(plan, market, rows, cursors) };
};
