// GET /v1/crypto-prices/spot, the pure part (spec: the endpoint's parameter table and rules,
// "Spot price row"). In: the raw query. Out: a plan (empty / latest / one page of a range) and,
// given the venue's rows for that plan, the response body. The route does the one upstream read.
import { ApiError, quote } from '../errors.ts';
import { cursorInt, cursorString, decodeCursor, encodeCursor, one, parseLimit } from './cursor.ts';
import type { RawQuery } from '../types.ts';
import type { CursorCodec } from '../../lib/cursor.ts';

export interface SpotRow {
  symbol: string;
  value: number;
  timestamp: number;
}

export type SpotPlan =
  /** "unknown or invalid symbols give 200 with empty data and has_more false" */
  | { kind: 'empty'; limit: number }
  /** "with no range, data holds the single latest price, has_more false, pagination.limit 1" */
  | { kind: 'latest'; symbol: string }
  /** One page: the `limit` newest seconds in [start, end] (end undefined: the current second). */
  | { kind: 'range'; symbol: string; start: number; end: number | undefined; limit: number };

/**
 * int64 Unix ms; "negatives clamped to 0". A value past 2^53 (which no JavaScript number holds
 * exactly, and no price is that far in the future) is clamped to 2^53 - 1 the same way, not refused.
 */
export function parseTime(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim();
  if (!/^-?\d+$/.test(t)) {
    throw new ApiError('invalid_parameter', `${name} ${quote(raw)} is not an integer of Unix milliseconds`, { param: name });
  }
  if (t.startsWith('-')) return 0;
  const n = Number(t);
  return n > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : n;
}

/** "alphanumeric only (no separators); upper case accepted and lower-cased". */
export function normalizeCurrency(raw: string): string | null {
  const t = raw.trim();
  return /^[A-Za-z0-9]+$/.test(t) ? t.toLowerCase() : null;
}

const SYMBOL = /^[a-z0-9]+$/;
const MAX_LIMIT = 100;

/** `now`: the request's time (Unix ms), for a start_time in the future. */
export function planSpot(query: RawQuery, now: number, cursors: CursorCodec): SpotPlan {
  const currencyRaw = one(query.currency);
  const cursorRaw = one(query.cursor);
  const startRaw = one(query.start_time);
  const endRaw = one(query.end_time);
  const limitRaw = one(query.limit);

  // Values are checked even where they are then ignored ("validated but ignored without a range").
  const start = parseTime('start_time', startRaw);
  const end = parseTime('end_time', endRaw);
  const limitParam = parseLimit(limitRaw, MAX_LIMIT);

  if (cursorRaw !== undefined) {
    const fields = decodeCursor(cursors, 'spot', cursorRaw);
    const symbol = cursorString(fields, 0, cursorRaw, SYMBOL);
    const cStart = cursorInt(fields, 1, cursorRaw);
    const cEnd = cursorInt(fields, 2, cursorRaw);
    const cLimit = cursorInt(fields, 3, cursorRaw, 1, MAX_LIMIT);
    if (currencyRaw !== undefined && normalizeCurrency(currencyRaw) !== symbol) {
      throw new ApiError('invalid_cursor', `cursor was issued for currency ${quote(symbol)}, not ${quote(currencyRaw)}`, { param: 'cursor' });
    }
    // "carries the start_time; a different start_time with it is 400"
    if (start !== undefined && start !== cStart) {
      throw new ApiError(
        'invalid_cursor',
        `start_time ${quote(startRaw)} differs from the start_time ${cStart} this cursor carries; send the cursor alone or with the same start_time`,
        { param: 'start_time' },
      );
    }
    // "end_time ... ignored when cursor is sent": the cursor holds the next page's end.
    return { kind: 'range', symbol, start: cStart, end: cEnd, limit: limitRaw !== undefined ? limitParam : cLimit };
  }

  if (currencyRaw === undefined) {
    throw new ApiError('missing_parameter', 'currency is required, e.g. currency=btcusdt', { param: 'currency' });
  }
  const hasRange = start !== undefined || end !== undefined;
  const symbol = normalizeCurrency(currencyRaw);
  if (symbol === null) return { kind: 'empty', limit: hasRange ? limitParam : 1 };
  if (!hasRange) return { kind: 'latest', symbol };
  const s = start ?? 0;
  // Without end_time the range ends at the current second, so a start_time after now is an empty
  // range the client asked for by mistake (the venue would refuse it, naming its own parameters).
  if (end === undefined && s > now) {
    throw new ApiError(
      'invalid_parameter',
      `start_time ${quote(startRaw)} is in the future (now is ${now}); send a start_time at or before now, or an end_time`,
      { param: 'start_time' },
    );
  }
  if (end !== undefined && s > end) {
    throw new ApiError('invalid_parameter', `start_time ${quote(startRaw)} is after end_time ${quote(endRaw)}`, {
      param: 'start_time',
    });
  }
  return { kind: 'range', symbol, start: s, end, limit: limitParam };
}

/**
 * Body for a plan given the venue's rows newest first. For a range the route asks for `limit + 1`
 * rows: the extra row only says a further page exists. The next cursor's end is one millisecond
 * before the last row returned, so following cursors returns every second exactly once.
 */
export function spotBody(plan: SpotPlan, rows: readonly SpotRow[], cursors: CursorCodec) {
  if (plan.kind === 'empty') return { data: [], pagination: { limit: plan.limit, total: null, has_more: false } };
  if (plan.kind === 'latest') {
    return { data: rows.slice(0, 1), pagination: { limit: 1, total: null, has_more: false } };
  }
  const page = rows.filter((r) => r.timestamp >= plan.start && (plan.end === undefined || r.timestamp <= plan.end)).slice(0, plan.limit + 1);
  const hasMore = page.length > plan.limit;
  const data = page.slice(0, plan.limit);
  const pagination: { limit: number; total: null; has_more: boolean; next_cursor?: string } = {
    limit: plan.limit,
    total: null,
    has_more: hasMore,
  };
  if (hasMore) {
    pagination.next_cursor = encodeCursor(cursors, 'spot', [plan.symbol, plan.start, data[data.length - 1].timestamp - 1, plan.limit]);
  }
  return { data, pagination };
}
