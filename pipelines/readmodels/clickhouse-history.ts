// History on a ClickHouse server through @clickhouse/client (CLICKHOUSE_URL, the scale-out stack).
// In: SQL and JSON rows. Out: JSON rows, formatted like chdb's (chdb-history.ts) so one SQL set and
// one contract suite hold for both.
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { History, Params } from './history.ts';

// As chdb-history.ts sets them: 64-bit integers as JSON numbers, an unknown column is an error.
const SETTINGS = {
  output_format_json_quote_64bit_integers: 0,
  input_format_skip_unknown_fields: 0,
} as const;

export class ClickhouseHistory implements History {
  readonly kind = 'clickhouse' as const;

  private constructor(
    private readonly client: ClickHouseClient,
    readonly database: string,
  ) {}

  static async open(url: string, database: string): Promise<ClickhouseHistory> {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`invalid ClickHouse database ${JSON.stringify(database)}`);
    const admin = createClient({ url, clickhouse_settings: SETTINGS });
    try {
      await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
    } finally {
      await admin.close();
    }
    const client = createClient({ url, database, clickhouse_settings: { ...SETTINGS, mutations_sync: '2' } });
    return new ClickhouseHistory(client, database);
  }

  async exec(sql: string, params?: Params): Promise<void> {
    await this.client.command({ query: sql, query_params: params });
  }

  async insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.client.insert({ table, values: rows, format: 'JSONEachRow' });
  }

  async query<T>(sql: string, params?: Params): Promise<T[]> {
    const rs = await this.client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return (await rs.json()) as T[];
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
