// Schema migrations for the history read model, and the factory that picks the History of the
// configured mode. In: the SQL files in migrations/ (NNN_name.sql, applied in number order, each
// once per database; areas add their own files, the catalog numbers from 100). Out: a migrated
// History. Statements in a file are separated by ';' at the end of a line. Every statement must be
// idempotent (IF NOT EXISTS): two processes may migrate at the same time.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { History } from './history.ts';
import { ChdbHistory } from './chdb-history.ts';
import { ClickhouseHistory } from './clickhouse-history.ts';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Splits a migration file into statements (pure). Comment-only chunks are dropped. */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s.split('\n').some((l) => l.trim().length > 0 && !l.trim().startsWith('--')));
}

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 3)),
      name: f.slice(4, -4),
      statements: splitStatements(readFileSync(path.join(dir, f), 'utf8')),
    }));
}

/** Applies the migrations not yet applied to history's database; returns the versions applied. */
export async function migrate(history: History, migrations: Migration[] = loadMigrations()): Promise<number[]> {
  await history.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
     ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const done = new Set(
    (await history.query<{ version: number }>('SELECT version FROM schema_migrations FINAL')).map((r) => Number(r.version)),
  );
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    for (const s of m.statements) await history.exec(s);
    await history.insert('schema_migrations', [{ version: m.version, name: m.name }]);
    applied.push(m.version);
  }
  return applied;
}

/**
 * The history tables that gain rows with every read, and the time column their TTL counts from.
 * canonical_markets is left out: it holds one current row per market (ReplacingMergeTree), bounded by
 * the venues' listings, and a TTL would drop markets still listed. The catalog's tables are pruned by
 * the catalog store (CATALOG_RETENTION_MS).
 */
export const HISTORY_TTL_COLUMNS = { raw_records: 'read_started_at', matched_events: 'observed_at' } as const;

/** Sets the TTL of every table of HISTORY_TTL_COLUMNS to `days` (HISTORY_TTL_DAYS); idempotent, run at every start. */
export async function applyHistoryTtl(history: History, days: number): Promise<void> {
  if (!Number.isInteger(days) || days < 1) throw new Error(`HISTORY_TTL_DAYS must be a whole number of days >= 1, got ${JSON.stringify(days)}`);
  for (const [table, column] of Object.entries(HISTORY_TTL_COLUMNS)) {
    await history.exec(`ALTER TABLE ${table} MODIFY TTL toDateTime(${column}) + INTERVAL ${days} DAY`);
  }
}

/**
 * The price-history tables (migrations/002_price_history.sql, 003_price_candle_rollup.sql) and the time column their TTL counts
 * from; PRICE_HISTORY_TTL_DAYS of them are kept. price_latest goes too: a market unchanged for that
 * long is then written again at its next read, so every kept market has a point inside the window.
 */
export const PRICE_HISTORY_TTL_COLUMNS = {
  price_history: 'observed_at',
  price_latest: 'observed_at',
  price_aliases: 'observed_at',
  price_rollup_1m: 'bucket',
  price_rollup_1h: 'bucket',
  price_rollup_1d: 'bucket',
} as const;

/** Sets the TTL of every price-history table to `days` (PRICE_HISTORY_TTL_DAYS); idempotent, run at every start. */
export async function applyPriceHistoryTtl(history: History, days: number): Promise<void> {
  if (!Number.isInteger(days) || days < 1) throw new Error(`PRICE_HISTORY_TTL_DAYS must be a whole number of days >= 1, got ${JSON.stringify(days)}`);
  for (const [table, column] of Object.entries(PRICE_HISTORY_TTL_COLUMNS)) {
    await history.exec(`ALTER TABLE ${table} MODIFY TTL toDateTime(${column}) + INTERVAL ${days} DAY`);
  }
}

export interface HistoryConfig {
  DATA_DIR: string;
  CLICKHOUSE_URL?: string;
  CLICKHOUSE_DATABASE: string;
}

/** The configured History (server when CLICKHOUSE_URL is set, chdb under DATA_DIR/chdb otherwise), migrated. */
export async function openHistory(config: HistoryConfig, database = config.CLICKHOUSE_DATABASE): Promise<History> {
  const history = config.CLICKHOUSE_URL
    ? await ClickhouseHistory.open(config.CLICKHOUSE_URL, database)
    : await ChdbHistory.open(path.resolve(config.DATA_DIR, 'chdb'), database);
  await migrate(history);
  return history;
}

/** Empties tables (replay). TRUNCATE keeps the schema and the migration record. */
export async function truncateTables(history: History, tables: string[]): Promise<void> {
  for (const t of tables) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) throw new Error(`invalid table ${JSON.stringify(t)}`);
    await history.exec(`TRUNCATE TABLE IF EXISTS ${t}`);
  }
}
