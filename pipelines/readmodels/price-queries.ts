// Reads of the price-history tables (migrations/002_price_history.sql) for the history route.
// In: a History and a market named by provider and native id. Out: which stored market an id names
// (its own id or an alias market detail also accepts), and candle rows from the rollups, never from
// price_history's raw rows.
import { adapterFor } from '../venues/adapters/index.ts';
import type { History } from './history.ts';
import { CANDLE_TABLES, type CandleInterval, type CandleRow } from './price-history.ts';

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
 */
export async function candleRows(
  history: History,
  q: { provider: string; marketId: string; interval: CandleInterval; from: number; to: number; buckets: number },
): Promise<CandleRow[]> {
  const t = CANDLE_TABLES[q.interval];
  const group = namesGroup(q.provider, q.marketId);
  // A group's rows are its children's Yes outcomes, named by the child's pair (the group view's outcome ids).
  const where = group
    ? "provider = {provider:String} AND startsWith(market_id, {market:String}) AND outcome_id = 'yes'"
    : 'provider = {provider:String} AND market_id = {market:String}';
  const outcome = group ? 'market_id' : 'outcome_id';
  // The outcome is selected as oid: ClickHouse reads an alias in WHERE too, so naming a group's
  // market_id outcome_id would turn the filter on outcome_id into one on market_id.
  const rows = await history.query<Omit<CandleRow, 'outcome_id'> & { oid: string }>(
    `SELECT toUnixTimestamp(bucket) AS bucket, ${outcome} AS oid,
            argMinMerge(mid_open) AS mid_open, max(mid_high) AS mid_high, min(mid_low) AS mid_low, argMaxMerge(mid_close) AS mid_close,
            argMinMerge(last_open) AS last_open, max(last_high) AS last_high, min(last_low) AS last_low, argMaxMerge(last_close) AS last_close,
            argMinMerge(price_open) AS price_open, max(price_high) AS price_high, min(price_low) AS price_low, argMaxMerge(price_close) AS price_close,
            toUInt64(sum(changes)) AS changes
     FROM ${t}
     WHERE ${where} AND bucket IN (
       SELECT DISTINCT bucket FROM ${t}
       WHERE ${where} AND bucket >= toDateTime({from:Int64}, 'UTC') AND bucket <= toDateTime({to:Int64}, 'UTC')
       ORDER BY bucket DESC LIMIT {buckets:UInt32})
     GROUP BY bucket, ${outcome}`,
    { provider: q.provider, market: group ? `${q.marketId}:` : q.marketId, from: q.from, to: q.to, buckets: q.buckets },
  );
  return rows.map(({ oid, ...r }) => ({ ...r, outcome_id: oid }));
}
