// The catalog's narrow view of ClickHouse: run a statement, select rows, bulk-insert NDJSON.
// In: SQL text and NDJSON payloads. Out: rows as plain objects.
// Two adapters stand behind it, chdb (embedded default) and a ClickHouse server through
// @clickhouse/client (scale-out stack), so the catalog's SQL is the same in both modes.
import type { ClickHouseClient } from '@clickhouse/client';

export interface CatalogSql {
  readonly kind: 'chdb' | 'server';
  command(sql: string): Promise<void>;
  select<T>(sql: string): Promise<T[]>;
  /** Payload: JSONEachRow lines. */
  insertNdjson(table: string, payload: Buffer): Promise<void>;
  close(): Promise<void>;
}

/** Minimal surface of a chdb Session we rely on (keeps the import lazy for the stack mode). */
interface ChdbSessionLike {
  queryAsync(sql: string, opts?: { format?: string }): Promise<{ text(): string }>;
  insert(p: { table: string; values: Buffer; format: 'JSONEachRow' }): Promise<unknown>;
  close(): void;
}

export function chdbSql(session: ChdbSessionLike, ownsSession = false): CatalogSql {
  // chdb runs one statement at a time per connection; serialize so a build and a page read
  // never interleave on the native side.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };
  return {
    kind: 'chdb',
    command: (sql) => serial(async () => void (await session.queryAsync(sql))),
    select: <T>(sql: string) =>
      serial(async () => {
        const text = (await session.queryAsync(sql, { format: 'JSONEachRow' })).text();
        if (text.length === 0) return [] as T[];
        return text
          .split('\n')
          .filter((l) => l.length > 0)
          .map((l) => JSON.parse(l) as T);
      }),
    insertNdjson: (table, payload) => serial(async () => void (await session.insert({ table, values: payload, format: 'JSONEachRow' }))),
    close: async () => {
      await chain;
      if (ownsSession) session.close();
    },
  };
}

export async function openChdb(path?: string): Promise<CatalogSql> {
  const { Session } = await import('chdb');
  return chdbSql(new Session(path) as unknown as ChdbSessionLike, true);
}

export function serverSql(client: ClickHouseClient, ownsClient = false): CatalogSql {
  return {
    kind: 'server',
    command: async (sql) => void (await client.command({ query: sql })),
    select: async <T>(sql: string) => (await (await client.query({ query: sql, format: 'JSONEachRow' })).json<T>()),
    insertNdjson: async (table, payload) => {
      const { Readable } = await import('node:stream');
      await client.insert({ table, values: Readable.from([payload]), format: 'JSONEachRow' });
    },
    close: async () => {
      if (ownsClient) await client.close();
    },
  };
}

/** Quote a string literal for ClickHouse SQL. */
export const lit = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
