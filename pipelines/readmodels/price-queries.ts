// Reads of the price-history tables (migrations/002_price_history.sql) for the history route.
// In: a History and a market named by provider and native id. Out: which stored market an id names
// (its own id or an alias market detail also accepts), and candle rows from the rollups, never from
// price_history's raw rows.
import type { History } from './history.ts';
import { CANDLE_TABLES, type CandleInterval, type CandleRow } from './price-history.ts';

/** The stored market ids an id names on each of these providers: the id itself, else an alias. */
export async function storedMarkets(history: History, providers: readonly string[], id: string): Promise<{ provider: string; market_id: string }[]> {
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
 */
export async function candleRows(
  history: History,
  q: { provider: string; marketId: string; interval: CandleInterval; from: number; to: number; buckets: number },
): Promise<CandleRow[]> {
  const t = CANDLE_TABLES[q.interval];
  const where = 'provider = {provider:String} AND market_id = {market:String}';
  return history.query<CandleRow>(
    `SELECT toUnixTimestamp(bucket) AS bucket, outcome_id,
            argMinMerge(mid_open) AS mid_open, max(mid_high) AS mid_high, min(mid_low) AS mid_low, argMaxMerge(mid_close) AS mid_close,
            argMinMerge(last_open) AS last_open, max(last_high) AS last_high, min(last_low) AS last_low, argMaxMerge(last_close) AS last_close,
            toUInt64(sum(changes)) AS changes
     FROM ${t}
     WHERE ${where} AND bucket IN (
       SELECT DISTINCT bucket FROM ${t}
       WHERE ${where} AND bucket >= toDateTime({from:Int64}, 'UTC') AND bucket <= toDateTime({to:Int64}, 'UTC')
       ORDER BY bucket DESC LIMIT {buckets:UInt32})
     GROUP BY bucket, outcome_id`,
    { provider: q.provider, market: q.marketId, from: q.from, to: q.to, buckets: q.buckets },
  );
}
