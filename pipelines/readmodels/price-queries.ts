// Reads of the price-history tables (migrations/002_price_history.sql) for the history route.
// In: a History and a market named by provider and native id. Out: which stored market an id names
// (its own id or an alias market detail also accepts), and candle rows from the roll-up's tables,
// with the buckets of changes not rolled up yet recomputed from price_history's rows.
import { adapterFor } from '../venues/adapters/index.ts';
import type { History } from './history.ts';
import type { CandleInterval, CandleRow } from './price-history.ts';
import { BUCKET_OF, CANDLE_OF_CHANGES, CANDLE_OF_STATES, ROLLED_TO_SQL, ROLLUP_TABLES, rollupLookbackMs } from './price-rollup.ts';

/**
 * An id that names a group on its venue (venue_9's bare parent: market detail's group view, one
 * outcome per child, the child's id as its outcome id): its candles are those of each child's Yes outcome.
 */
const namesGroup = (provider: string, id: string): boolean => adapterFor(provider).namesGroup?.(id) === true;

/** The stored market ids an id names on each of these providers: the id itself, else an alias. */
export async function storedMarkets(history: History, providers: readonly string[], id: string): Promise<{ provider: string; market_id: string }[]> {
  if (providers.length === 1 && namesGroup(providers[0], id)) {
    const provider = providers[0];
    const children = await history.query(`SELECT 1 FROM price_latest WHERE provider = {provider:String} AND startsWith(market_id, {p:String}) LIMIT 1`, { provider, p: `${id}:` });
    return children.length ? [{ provider, market_id: id }] : [];
  }
  const own = await history.query<{ provider: string; market_id: string }>(
    `SELECT DISTINCT provider, market_id FROM price_latest WHERE provider IN {providers:Array(String)} AND market_id = {id:String}`,
    { providers, id },
  );
  const found = new Map(own.map((r) => [r.provider, r]));
  const missing = providers.filter((p) => !found.has(p));
  if (missing.length) {
    const aliased = await history.query<{ provider: string; market_id: string }>(
      `SELECT provider, argMax(market_id, observed_at) AS market_id FROM price_aliases
       WHERE provider IN {providers:Array(String)} AND alias = {id:String} GROUP BY provider`,
      { providers: missing, id },
    );
    for (const r of aliased) found.set(r.provider, r);
  }
  return providers.flatMap((p) => (found.has(p) ? [found.get(p)!] : []));
}

/**
 * The candles of the `buckets` newest buckets of one market starting in [from, to] (Unix seconds,
 * inclusive), every outcome of each; rows in no particular order (groupCandles orders them).
 *
 * The candle tables hold what the roll-ups added (price-rollup.ts); a bucket with rows inserted
 * since the last (less the lookback) is recomputed here whole from its rows in price_history, in the
 * same query, and replaces the rolled-up one. So an answer is the same whether the roll-up ran a moment
 * ago or not since the write: merged on read rather than rolled up on read, because the route then
 * never writes (an API replica may hold the history read-only) and two reads never race a roll-up.
 */
export async function candleRows(
  history: History,
  q: { provider: string; marketId: string; interval: CandleInterval; from: number; to: number; buckets: number },
): Promise<CandleRow[]> {
  const t = ROLLUP_TABLES[q.interval];
  const bucketOf = BUCKET_OF[q.interval];
  const group = namesGroup(q.provider, q.marketId);
  // A group's rows are its children's Yes outcomes, named by the child's pair (the group view's outcome ids).
  const where = group
    ? "provider = {provider:String} AND startsWith(market_id, {market:String}) AND outcome_id = 'yes'"
    : 'provider = {provider:String} AND market_id = {market:String}';
  const outcome = group ? 'market_id' : 'outcome_id';
  // The changes the roll-up has not reached. Their earliest bucket bounds the read of price_history
  // too, so only the newest granules of a long-quoted market are read (none when there are none).
  // Without FINAL, as the roll-up counts rows (and the views did): a bucket counts alike either way.
  const NOT_ROLLED = `inserted_at > fromUnixTimestamp64Milli(greatest(toInt64(ifNull(${ROLLED_TO_SQL}, 0)) - {lookback:Int64}, 0), 'UTC')`;
  // The outcome is selected as oid: ClickHouse reads an alias in WHERE too, so naming a group's
  // market_id outcome_id would turn the filter on outcome_id into one on market_id.
  const rows = await history.query<Omit<CandleRow, 'outcome_id'> & { oid: string; tail: number }>(
    `SELECT toUnixTimestamp(bucket) AS bucket, ${outcome} AS oid, ${CANDLE_OF_STATES}, 0 AS tail
     FROM ${t}
     WHERE ${where} AND bucket IN (
       SELECT DISTINCT bucket FROM ${t}
       WHERE ${where} AND bucket >= toDateTime({from:Int64}, 'UTC') AND bucket <= toDateTime({to:Int64}, 'UTC')
       ORDER BY bucket DESC LIMIT {buckets:UInt32})
     GROUP BY bucket, oid
     UNION ALL
     SELECT toUnixTimestamp(${bucketOf}(observed_at)) AS bucket, ${outcome} AS oid, ${CANDLE_OF_CHANGES}, 1 AS tail
     FROM price_history
     WHERE ${where} AND ${bucketOf}(observed_at) >= toDateTime({from:Int64}, 'UTC') AND ${bucketOf}(observed_at) <= toDateTime({to:Int64}, 'UTC')
       AND observed_at >= (SELECT ifNull(toDateTime64(minOrNull(${bucketOf}(observed_at)), 3, 'UTC'), toDateTime64('2106-01-01 00:00:00', 3, 'UTC')) FROM price_history WHERE ${where} AND ${NOT_ROLLED})
       AND ${bucketOf}(observed_at) IN (SELECT DISTINCT ${bucketOf}(observed_at) FROM price_history WHERE ${where} AND ${NOT_ROLLED})
     GROUP BY bucket, oid`,
    { provider: q.provider, market: group ? `${q.marketId}:` : q.marketId, from: q.from, to: q.to, buckets: q.buckets, lookback: rollupLookbackMs(history) },
  );
  return mergeTail(rows, q.buckets).map(({ oid, tail: _tail, ...r }) => ({ ...r, outcome_id: oid }));
}

/**
 * Rolled-up candle rows and rows recomputed from the changes not yet rolled up (tail = 1): a bucket
 * with any of the latter is theirs alone; then the `buckets` newest buckets.
 */
export function mergeTail<R extends { bucket: number; tail: number }>(rows: readonly R[], buckets: number): R[] {
  const recomputed = new Set<number>();
  for (const r of rows) if (Number(r.tail) === 1) recomputed.add(r.bucket);
  const merged = recomputed.size ? rows.filter((r) => Number(r.tail) === 1 || !recomputed.has(r.bucket)) : rows;
  const newest = [...new Set(merged.map((r) => r.bucket))].sort((a, b) => b - a);
  if (newest.length <= buckets) return [...merged];
  const kept = new Set(newest.slice(0, buckets));
  return merged.filter((r) => kept.has(r.bucket));
}
