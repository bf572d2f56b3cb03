// The candles' roll-up: price_history rows inserted since the last roll-up -> the 1m, 1h and 1d
// candle tables (migrations/003_price_candle_rollup.sql), in one batch, off the sink's insert path.
// In: a History. Out: the buckets the new rows touched, each recomputed whole and written again
// (1m from price_history, 1h from the 1m candles, 1d from the 1h ones), then the new high-water mark.
//
// Recomputing a touched bucket whole, rather than adding the new rows' aggregates to it, is what makes
// a roll-up safe to repeat: one stopped between its inserts (a crash, a restart) is done again from
// the same mark and writes the same rows, which the tables' FINAL keeps once; a replay (which empties
// the tables and the mark) rebuilds the same candles from the same rows.
import type { History } from './history.ts';
import type { CandleInterval } from './price-history.ts';

export const ROLLUP_TABLES: Record<CandleInterval, string> = { '1m': 'price_rollup_1m', '1h': 'price_rollup_1h', '1d': 'price_rollup_1d' };

/** The function that gives a time's bucket at each width (UTC), in price_history's terms. */
export const BUCKET_OF: Record<CandleInterval, string> = { '1m': 'toStartOfMinute', '1h': 'toStartOfHour', '1d': 'toStartOfDay' };

/** The roll-up state's row (price_rollup_state.name). */
const STATE = 'candles';

/**
 * How far back before the mark a roll-up (and the route's merge of the rows not rolled up) looks
 * again. On chdb every statement of the process runs in one queue, so a row inserted at or before a
 * roll-up's cut is visible to it: none. A ClickHouse server takes inserts from several processes at
 * once, and one stamped (inserted_at, at its start) before a cut may become visible after the
 * roll-up read: its buckets are recomputed again by the next roll-ups for this long.
 */
export const rollupLookbackMs = (history: Pick<History, 'kind'>): number => (history.kind === 'chdb' ? 0 : 60_000);

/** The mark (Unix ms): every price_history row inserted at or before it is in the candles (0: none is). */
export const ROLLED_TO_SQL = `(SELECT toUnixTimestamp64Milli(max(rolled_to)) FROM price_rollup_state WHERE name = '${STATE}')`;

/** OHLC and count of a set of price_history rows, in the candle tables' column order. */
const FROM_CHANGES = `argMin(mid, observed_at), max(mid), min(mid), argMax(mid, observed_at),
  argMin(last, observed_at), max(last), min(last), argMax(last, observed_at),
  argMin(price, observed_at), max(price), min(price), argMax(price, observed_at),
  count(), max(inserted_at)`;

/**
 * The same of a set of narrower candles: argMin / argMax skip nulls as on the changes, so the first
 * non-null open of the narrower buckets is the first non-null value of the wider one.
 */
const FROM_CANDLES = `argMin(mid_open, bucket), max(mid_high), min(mid_low), argMax(mid_close, bucket),
  argMin(last_open, bucket), max(last_high), min(last_low), argMax(last_close, bucket),
  argMin(price_open, bucket), max(price_high), min(price_low), argMax(price_close, bucket),
  sum(changes), max(version)`;

const COLUMNS = `provider, market_id, bucket, outcome_id, mid_open, mid_high, mid_low, mid_close, last_open, last_high, last_low, last_close,
  price_open, price_high, price_low, price_close, changes, version`;

/** Candle columns of the changes of price_history's rows, for SELECTs that group them (the route's merge). */
export const CANDLE_OF_CHANGES = `argMin(mid, observed_at) AS mid_open, max(mid) AS mid_high, min(mid) AS mid_low, argMax(mid, observed_at) AS mid_close,
  argMin(last, observed_at) AS last_open, max(last) AS last_high, min(last) AS last_low, argMax(last, observed_at) AS last_close,
  argMin(price, observed_at) AS price_open, max(price) AS price_high, min(price) AS price_low, argMax(price, observed_at) AS price_close,
  count() AS changes`;

export interface RollUp {
  /** The rows inserted in (from, to] (Unix ms) were rolled up. */
  from: number;
  to: number;
  /** price_history rows in that window (0: nothing was written, not even the mark). */
  rows: number;
}

/**
 * One roll-up: the buckets of the rows inserted after the mark (less the lookback) and up to now,
 * recomputed whole at each width and written, then the mark moved to now. Run it from one place at
 * a time per database (the processors' timer); two at once only repeat each other's work.
 */
export async function rollUpCandles(history: History, lookbackMs = rollupLookbackMs(history)): Promise<RollUp> {
  // The cut is a millisecond before now: a row inserted after this read is stamped later than it,
  // so it falls in the next window whatever the clock's resolution.
  const [w] = await history.query<{ from: number; to: number }>(
    `SELECT greatest(toInt64(ifNull(${ROLLED_TO_SQL}, 0)) - {lookback:Int64}, 0) AS from, toUnixTimestamp64Milli(now64(3)) - 1 AS to`,
    { lookback: lookbackMs },
  );
  const from = Number(w.from);
  const to = Number(w.to);
  const window = { from, to };
  const NEW = `inserted_at > fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND inserted_at <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')`;
  // Day by day (UTC) of the new rows' observed_at: a day's buckets of every width are whole in it,
  // and the work of one statement (the set of touched buckets, the groups) stays one day's however
  // long the window (the first roll-up after a replay or the migration covers the whole retention).
  const days = await history.query<{ day: number; rows: number }>(
    `SELECT toUnixTimestamp(toStartOfDay(observed_at)) AS day, count() AS rows FROM price_history WHERE ${NEW} GROUP BY day ORDER BY day`,
    window,
  );
  let rows = 0;
  for (const d of days) {
    rows += Number(d.rows);
    const range = { ...window, lo: Number(d.day), hi: Number(d.day) + 86_400 };
    // The new rows of this day, by the bucket they touched at a width.
    const touched = (width: CandleInterval) =>
      `SELECT DISTINCT provider, market_id, ${BUCKET_OF[width]}(observed_at) FROM price_history
       WHERE ${NEW} AND observed_at >= toDateTime64({lo:Int64}, 3, 'UTC') AND observed_at < toDateTime64({hi:Int64}, 3, 'UTC')`;
    await history.exec(
      `INSERT INTO ${ROLLUP_TABLES['1m']} (${COLUMNS})
       SELECT provider, market_id, toStartOfMinute(observed_at) AS b, outcome_id, ${FROM_CHANGES}
       FROM price_history FINAL
       WHERE observed_at >= toDateTime64({lo:Int64}, 3, 'UTC') AND observed_at < toDateTime64({hi:Int64}, 3, 'UTC')
         AND (provider, market_id, toStartOfMinute(observed_at)) IN (${touched('1m')})
       GROUP BY provider, market_id, b, outcome_id`,
      range,
    );
    for (const [width, narrower] of [['1h', '1m'], ['1d', '1h']] as const) {
      await history.exec(
        `INSERT INTO ${ROLLUP_TABLES[width]} (${COLUMNS})
         SELECT provider, market_id, ${BUCKET_OF[width]}(bucket) AS b, outcome_id, ${FROM_CANDLES}
         FROM ${ROLLUP_TABLES[narrower]} FINAL
         WHERE bucket >= toDateTime({lo:Int64}, 'UTC') AND bucket < toDateTime({hi:Int64}, 'UTC')
           AND (provider, market_id, ${BUCKET_OF[width]}(bucket)) IN (${touched(width)})
         GROUP BY provider, market_id, b, outcome_id`,
        range,
      );
    }
  }
  if (rows === 0) return { from, to, rows };
  await history.exec(`INSERT INTO price_rollup_state (name, rolled_to) VALUES ('${STATE}', fromUnixTimestamp64Milli({to:Int64}, 'UTC'))`, { to });
  return { from, to, rows };
}
