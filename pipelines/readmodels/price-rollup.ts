// The candles' roll-up: price_history rows inserted since the last roll-up -> the 1m, 1h and 1d
// candle tables (migrations/003_price_candle_rollup.sql), in one batch, off the sink's insert path.
// In: a History. Out: the aggregate states of the new rows, per outcome and bucket at each width,
// added to the candle tables (AggregatingMergeTree: what the materialized views did per insert,
// now once per batch), then the new mark.
//
// A roll-up costs what its new rows cost, whatever the retention: it reads the new rows only (found
// by inserted_at, whose skip index passes over older parts). The version (the newest inserted_at a
// bucket's states hold) is what makes it safe to repeat: a roll-up records its start before its
// inserts, and the next one, seeing a start past the mark (one stopped between its inserts by a crash
// or a restart), gives each table only the rows inserted after that bucket's version, so nothing is
// counted twice; so does one that looks back before the mark (a ClickHouse server's late-visible
// inserts). Otherwise the versions are not read: that read costs what the touched markets' month of
// candles costs. A
// replay empties the tables and the mark with the rows; the next roll-up rebuilds every candle.
//
// One roller at a time per database: a roll-up adds states, so two at once would add the same rows
// twice. The processors hold a lease for it (runtime/price-rollup.ts, runtime/lease.ts), and a
// roll-up run under a lease names the lease's fence: see FENCED below for why that is enough when a
// roller loses its lease while paused, with no transactions in ClickHouse.
import type { History } from './history.ts';
import type { CandleInterval } from './price-history.ts';

export const ROLLUP_TABLES: Record<CandleInterval, string> = { '1m': 'price_rollup_1m', '1h': 'price_rollup_1h', '1d': 'price_rollup_1d' };

/** The function that gives a time's bucket at each width (UTC), in price_history's terms. */
export const BUCKET_OF: Record<CandleInterval, string> = { '1m': 'toStartOfMinute', '1h': 'toStartOfHour', '1d': 'toStartOfDay' };

/** The roll-up state's rows (price_rollup_state.name): the mark, and the cut of the last roll-up begun. */
const STATE = 'candles';
const STARTED = 'candles-started';

/** The roll-up's lease name, per history database (the fence table's row is named by STATE). */
export const rollupLeaseName = (history: Pick<History, 'database'>): string => `price-rollup:${history.database}`;

/**
 * The longest a roll-up statement runs on the engine (max_execution_time, seconds): what bounds the
 * time a statement that passed its fence check may still write after a newer fence is written
 * (rollupSettleMs). A day's slice of a month-long first roll-up took about 2 s (bench/history.md).
 */
export const ROLLUP_STATEMENT_LIMIT_S = 60;

/**
 * How long a roller that took the lease waits, after writing its fence, before its first roll-up.
 * On chdb none: the database is one process's (chdb holds its directory exclusively), whose
 * statements run one at a time, so every statement of a former holder either ran before the fence
 * was written or checks it and writes nothing. On a ClickHouse server statements of several
 * processes run at once: one a former holder sent just before the fence was written passed its check
 * and may still be writing; it stops within ROLLUP_STATEMENT_LIMIT_S, and once it is done the new
 * roller's first read of the versions sees what it wrote, so nothing is added twice.
 */
export const rollupSettleMs = (history: Pick<History, 'kind'>): number => (history.kind === 'chdb' ? 0 : (ROLLUP_STATEMENT_LIMIT_S + 5) * 1000);

/** The newest fence written (0: none). */
const FENCE_SQL = `(SELECT ifNull(max(fence), 0) FROM price_rollup_fence WHERE name = '${STATE}')`;

/**
 * A write's condition under a fence. ClickHouse has no transactions, so the check cannot come before
 * the write as a read of its own (a roller paused between that read and its write would write after
 * the next roller's fence); it is in the write's own SELECT, read by the engine when the statement
 * runs. A statement that starts after a newer fence is written inserts no row. One that started
 * before it is covered by the new roller's settle (rollupSettleMs) and by the versions: the new
 * roller reads each bucket's version only after such a statement ended, and adds only rows newer than
 * it. A mark written by a former holder after the new roller's is harmless as well: the mark is read
 * as the largest written, and a former holder's cut is older.
 */
const FENCED = `${FENCE_SQL} <= {fence:UInt64}`;

/** A roll-up stopped because a newer roller holds the roll-up (its fence is written): it wrote nothing more. */
export class RollupFenced extends Error {
  constructor(readonly fence: number) {
    super(`candle roll-up under fence ${fence} stopped: a newer roller holds the roll-up`);
    this.name = 'RollupFenced';
  }
}

/**
 * Writes a new roller's fence: from now on the writes of every roller with an older fence insert
 * nothing. Then wait rollupSettleMs before the first roll-up.
 */
export async function claimRollup(history: History, fence: number): Promise<void> {
  await history.exec(`INSERT INTO price_rollup_fence (name, fence) VALUES ('${STATE}', {fence:UInt64})`, { fence });
}

export interface RollUpOptions {
  /**
   * The fence of the lease this roll-up runs under (claimRollup wrote it). Without one the caller
   * holds the database alone (a test, a bench, a stop-the-world replay).
   */
  fence?: number;
  /** Whether the lease is still held, as far as this process knows: asked before each write. */
  held?: () => boolean;
  /** How far back before the mark to look again (default rollupLookbackMs). */
  lookbackMs?: number;
}

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
const STARTED_SQL = `(SELECT toUnixTimestamp64Milli(max(rolled_to)) FROM price_rollup_state WHERE name = '${STARTED}')`;

/** The aggregate states of a set of price_history rows, in the candle tables' column order. */
const STATES = `argMinState(mid, observed_at), max(mid), min(mid), argMaxState(mid, observed_at),
  argMinState(last, observed_at), max(last), min(last), argMaxState(last, observed_at),
  argMinState(price, observed_at), max(price), min(price), argMaxState(price, observed_at),
  count(), max(inserted_at)`;

const COLUMNS = `provider, market_id, bucket, outcome_id, mid_open, mid_high, mid_low, mid_close, last_open, last_high, last_low, last_close,
  price_open, price_high, price_low, price_close, changes, version`;

/** A candle table's states merged, per bucket (GROUP BY bucket and the outcome), as candle columns. */
export const CANDLE_OF_STATES = `argMinMerge(mid_open) AS mid_open, max(mid_high) AS mid_high, min(mid_low) AS mid_low, argMaxMerge(mid_close) AS mid_close,
  argMinMerge(last_open) AS last_open, max(last_high) AS last_high, min(last_low) AS last_low, argMaxMerge(last_close) AS last_close,
  argMinMerge(price_open) AS price_open, max(price_high) AS price_high, min(price_low) AS price_low, argMaxMerge(price_close) AS price_close,
  toUInt64(sum(changes)) AS changes`;

/** The same candle columns of price_history's rows (the route's merge of the rows not rolled up). */
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
 * One roll-up: the rows inserted after the mark (less the lookback) and up to now, added as aggregate
 * states to each width's candles where that bucket's version lacks them, then the mark moved to now.
 * One roller at a time per database: the processors' timer under the roll-up's lease, with its fence.
 */
export async function rollUpCandles(history: History, opts: RollUpOptions = {}): Promise<RollUp> {
  const lookbackMs = opts.lookbackMs ?? rollupLookbackMs(history);
  const fence = opts.fence;
  // Each write: only while no newer fence is written (FENCED), and bounded in time (rollupSettleMs).
  const guard = fence === undefined ? '' : ` AND ${FENCED}`;
  const limit = `max_execution_time = ${ROLLUP_STATEMENT_LIMIT_S}`;
  // Each statement costs chdb a few ms of CPU however small (bench/history.md, 2026-11-27), so a
  // roll-up issues as few as it can: the window and its days in one read, and the fence read back
  // once at the end (and after each day of a roll-up of several) rather than after every write. A
  // write under a newer fence inserts nothing whenever it runs (FENCED, in the statement itself): the
  // read back only tells the roller to stop, and the writes it skips would have written nothing.
  const write = async (sql: string, params: Record<string, unknown>): Promise<void> => {
    if (fence === undefined) return history.exec(sql, params);
    if (opts.held && !opts.held()) throw new RollupFenced(fence);
    await history.exec(sql, { ...params, fence });
  };
  const stopIfFenced = async (): Promise<void> => {
    if (fence === undefined) return;
    const [f] = await history.query<{ f: number }>(`SELECT ${FENCE_SQL} AS f`);
    if (Number(f.f) > fence) throw new RollupFenced(fence);
  };
  // The cut is a millisecond before now: a row inserted after this read is stamped later than it,
  // so it falls in the next window whatever the clock's resolution. With it, the new rows' count per
  // day (UTC) of their observed_at (sumMap: the days in order, and their counts): the roll-up goes
  // day by day, so one statement's set of touched buckets and its groups stay one day's however long
  // the window (the first roll-up after a replay or the migration covers the whole retention; a
  // timer's covers the last seconds, one day). An aggregate without GROUP BY: one row, no day in it
  // when nothing is new.
  const [w] = await history.query<{ from: number; to: number; started: number; mark: number; days: [number[], number[]] }>(
    `WITH toInt64(ifNull(${ROLLED_TO_SQL}, 0)) AS mark_, greatest(mark_ - {lookback:Int64}, 0) AS from_,
          toUnixTimestamp64Milli(now64(3)) - 1 AS to_, toInt64(ifNull(${STARTED_SQL}, 0)) AS started_
     SELECT from_ AS from, to_ AS to, mark_ AS mark, started_ AS started, sumMap([toUnixTimestamp(toStartOfDay(observed_at))], [toUInt64(1)]) AS days
     FROM price_history WHERE inserted_at > fromUnixTimestamp64Milli(from_, 'UTC') AND inserted_at <= fromUnixTimestamp64Milli(to_, 'UTC')`,
    { lookback: lookbackMs },
  );
  const from = Number(w.from);
  const to = Number(w.to);
  const window = { from, to };
  const days = w.days[0].map((day, i) => ({ day: Number(day), rows: Number(w.days[1][i]) }));
  if (days.length === 0) return { from, to, rows: 0 };
  // Whether a table may hold some of this window's rows already: after a roll-up that started and
  // did not finish (its start is recorded past the mark), or when looking back before the mark. Only
  // then is each bucket's version read, since that read costs what the touched markets' candles cost
  // (the tables' sorting key puts a market's month of buckets together), not what the new rows do.
  const repeat = lookbackMs > 0 || Number(w.started) > Number(w.mark);
  const NEW = `inserted_at > fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND inserted_at <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')`;
  const mark = (name: string) =>
    write(`INSERT INTO price_rollup_state (name, rolled_to) SELECT '${name}', fromUnixTimestamp64Milli({to:Int64}, 'UTC') WHERE 1${guard} SETTINGS ${limit}`, { to });
  await mark(STARTED);
  let rows = 0;
  for (const d of days) {
    rows += Number(d.rows);
    const slice = { ...window, day: Number(d.day) };
    const NEW_OF_DAY = `${NEW} AND observed_at >= toDateTime64({day:Int64}, 3, 'UTC') AND observed_at < toDateTime64({day:Int64} + 86400, 3, 'UTC')`;
    for (const width of ['1m', '1h', '1d'] as const) {
      const t = ROLLUP_TABLES[width];
      const bucketOf = BUCKET_OF[width];
      const rowsOf = `SELECT provider, market_id, ${bucketOf}(observed_at) AS b, outcome_id, mid, last, price, observed_at, inserted_at FROM price_history WHERE ${NEW_OF_DAY}`;
      await write(
        repeat
          ? // The new rows joined to the version their bucket's states hold (none: 0, every row is new to it).
            `INSERT INTO ${t} (${COLUMNS})
             SELECT provider, market_id, b, outcome_id, ${STATES}
             FROM (${rowsOf}) AS n
             LEFT JOIN (
               SELECT provider AS p, market_id AS m, bucket AS vb, outcome_id AS o, max(version) AS v FROM ${t}
               WHERE (provider, market_id, bucket) IN (SELECT DISTINCT provider, market_id, ${bucketOf}(observed_at) FROM price_history WHERE ${NEW_OF_DAY})
               GROUP BY p, m, vb, o
             ) AS held ON n.provider = held.p AND n.market_id = held.m AND n.b = held.vb AND n.outcome_id = held.o
             WHERE n.inserted_at > held.v${guard}
             GROUP BY provider, market_id, b, outcome_id
             SETTINGS join_use_nulls = 0, ${limit}`
          : `INSERT INTO ${t} (${COLUMNS}) SELECT provider, market_id, b, outcome_id, ${STATES} FROM (${rowsOf}) WHERE 1${guard} GROUP BY provider, market_id, b, outcome_id SETTINGS ${limit}`,
        slice,
      );
    }
    if (days.length > 1) await stopIfFenced();
  }
  await mark(STATE);
  await stopIfFenced();
  return { from, to, rows };
}
