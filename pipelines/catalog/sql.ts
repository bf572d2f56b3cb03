// A minimal chdb-backed History (pipelines/readmodels/history.ts) for the catalog's tests and bench
// when no History is handed in. In: SQL and rows. Out: rows as JSON objects.
// The app passes the backbone's History (chdb embedded or ClickHouse server); this adapter only
// exists so the catalog can be exercised on its own with a throwaway database.
import type { History, Params } from '../readmodels/history.ts';

interface ChdbSessionLike {
  queryAsync(sql: string, opts?: { format?: string }): Promise<{ text(): string }>;
  insert(p: { table: string; values: Buffer; format: 'JSONEachRow' }): Promise<unknown>;
  close(): void;
}

export async function openChdbHistory(database: string, path?: string): Promise<History> {
  const { Session } = await import('chdb');
  const session = new Session(path) as unknown as ChdbSessionLike;
  // chdb runs one statement at a time per connection: serialize.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };
  const noParams = (params?: Params) => {
    if (params && Object.keys(params).length > 0) throw new Error('catalog chdb adapter: parameters are not supported');
  };
  await session.queryAsync(`CREATE DATABASE IF NOT EXISTS ${database}`);
  await session.queryAsync(`USE ${database}`);
  return {
    kind: 'chdb',
    database,
    exec: (sql, params) =>
      serial(async () => {
        noParams(params);
        await session.queryAsync(sql);
      }),
    query: <T>(sql: string, params?: Params) =>
      serial(async () => {
        noParams(params);
        const text = (await session.queryAsync(sql, { format: 'JSONEachRow' })).text();
        return text
          .split('\n')
          .filter((l) => l.length > 0)
          .map((l) => JSON.parse(l) as T);
      }),
    insert: (table, rows) =>
      serial(async () => {
        if (rows.length === 0) return;
        await session.insert({ table, values: Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')), format: 'JSONEachRow' });
      }),
    close: async () => {
      await chain;
      session.close();
    },
  };
}

/** Quote a string literal for ClickHouse SQL. */
export const lit = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
