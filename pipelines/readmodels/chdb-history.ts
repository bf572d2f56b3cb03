// History on chdb: ClickHouse in-process for the embedded default, persisted under DATA_DIR/chdb.
// In: SQL and JSON rows. Out: JSON rows. chdb allows one data directory per process, so every
// ChdbHistory of a process shares one Session (opened on first use, closed with the last user), and
// all calls go through one queue: a query's unqualified table names resolve in its History's
// database through a USE issued when the database changes. Inserts name the database explicitly.
import { mkdirSync, rmSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Session } from 'chdb';
import type { History, Params, ReadOnlyAnswer, ReadOnlyQuery } from './history.ts';
import { runReadOnly } from './chdb-readonly.ts';

interface Shared {
  session: Session;
  path: string;
  /** Where insertAvro stages its files for chdb's file() (emptied when the session opens). */
  spool: string;
  spooled: number;
  users: number;
  queue: Promise<unknown>;
  currentDb: string | null;
}

let shared: Shared | null = null;

/**
 * The engine's thread pools, sized for this process rather than for a server. Unbounded, the global
 * pool kept every thread a burst started (4-7 grew to 134 about two minutes after start, +65 MB RSS:
 * bench/soak.md); parts loading and cleaning start up to 64-128 jobs each. Server settings, so they
 * take effect from the process's first session (this one); chdb 26.x accepts them as arguments.
 */
export const CHDB_POOL_ARGS = [
  '--max_thread_pool_free_size=8',
  '--max_active_parts_loading_thread_pool_size=2',
  '--max_outdated_parts_loading_thread_pool_size=2',
  '--max_parts_cleaning_thread_pool_size=2',
  '--parts_killer_pool_size=2',
  '--snapshot_cleaner_pool_size=2',
];

function acquire(dir: string): Shared {
  if (shared) {
    if (shared.path !== dir)
      throw new Error(`chdb is already open at ${JSON.stringify(shared.path)} in this process; cannot open ${JSON.stringify(dir)} (chdb allows one data directory per process)`);
    shared.users++;
    return shared;
  }
  mkdirSync(dir, { recursive: true });
  // Files of inserts a crash interrupted are of no use: their batches were not committed and come again.
  const spool = path.join(dir, 'avro-spool');
  rmSync(spool, { recursive: true, force: true });
  mkdirSync(spool);
  const session = new Session(dir, {
    // Same JSON as the server client (clickhouse-history.ts): 64-bit integers as numbers.
    connectionArgs: ['--output_format_json_quote_64bit_integers=0', ...CHDB_POOL_ARGS],
  });
  shared = { session, path: dir, spool, spooled: 0, users: 1, queue: Promise.resolve(), currentDb: null };
  return shared;
}

function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid ClickHouse identifier ${JSON.stringify(name)}`);
  return name;
}

/** A ClickHouse string literal. */
function quoteString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export class ChdbHistory implements History {
  readonly kind = 'chdb' as const;
  private closed = false;

  private constructor(
    private readonly s: Shared,
    readonly database: string,
  ) {}

  /** Opens (or joins) the process's chdb session at path and creates the database if missing. */
  static async open(path: string, database: string): Promise<ChdbHistory> {
    const h = new ChdbHistory(acquire(path), quoteIdent(database));
    await h.serial(() => h.s.session.queryAsync(`CREATE DATABASE IF NOT EXISTS ${h.database}`));
    return h;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('History is closed'));
    const run = this.s.queue.then(fn, fn);
    this.s.queue = run.catch(() => {});
    return run;
  }

  private async use(): Promise<void> {
    if (this.s.currentDb !== this.database) {
      await this.s.session.queryAsync(`USE ${this.database}`);
      this.s.currentDb = this.database;
    }
  }

  exec(sql: string, params?: Params): Promise<void> {
    return this.serial(async () => {
      await this.use();
      if (params && Object.keys(params).length > 0) await this.s.session.queryBindAsync(sql, params);
      else await this.s.session.queryAsync(sql);
    });
  }

  insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    // JSONEachRow also reads a JSON array of the rows: one JSON.stringify of the whole batch costs the
    // event loop (the embedded pipeline's bottleneck, chdb works on its own threads) ~40% less than
    // one per row joined by newlines.
    const body = Buffer.from(JSON.stringify(rows), 'utf8');
    return this.serial(async () => {
      await this.s.session.insert({
        table: `${this.database}.${quoteIdent(table)}`,
        values: body,
        format: 'JSONEachRow',
        settings: { input_format_skip_unknown_fields: 0 },
      });
    });
  }

  /**
   * chdb's insert() takes text formats only, so the file goes through the spool directory and
   * ClickHouse's file() table function; the file is removed once the insert has run, whatever it did.
   */
  insertAvro(table: string, select: Record<string, string>, file: Buffer): Promise<void> {
    const cols = Object.keys(select);
    if (cols.length === 0) return Promise.reject(new Error('insertAvro needs at least one column'));
    const name = path.join(this.s.spool, `${process.pid}-${++this.s.spooled}.avro`);
    const sql =
      `INSERT INTO ${this.database}.${quoteIdent(table)} (${cols.map(quoteIdent).join(', ')}) ` +
      `SELECT ${cols.map((c) => select[c]).join(', ')} FROM file(${quoteString(name)}, 'Avro') ` +
      // Every file is new: a cached inferred schema would only grow the cache.
      'SETTINGS schema_inference_use_cache_for_file = 0';
    return this.serial(async () => {
      await writeFile(name, file);
      try {
        await this.s.session.queryAsync(sql);
      } finally {
        await unlink(name).catch(() => {});
      }
    });
  }

  query<T>(sql: string, params?: Params): Promise<T[]> {
    return this.serial(async () => {
      await this.use();
      const r =
        params && Object.keys(params).length > 0
          ? await this.s.session.queryBindAsync(sql, params, { format: 'JSONEachRow' })
          : await this.s.session.queryAsync(sql, { format: 'JSONEachRow' });
      const text = r.text();
      if (text.length === 0) return [];
      return text
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as T);
    });
  }

  /** On a read-only connection of its own (chdb-readonly.ts), beside this History's queue: the pipeline's writes never wait for it. */
  readOnlyQuery(q: ReadOnlyQuery): Promise<ReadOnlyAnswer> {
    if (this.closed) return Promise.reject(new Error('History is closed'));
    return runReadOnly(this.s.path, q);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.s.queue;
    this.closed = true;
    this.s.users--;
    if (this.s.users === 0 && shared === this.s) {
      shared = null;
      this.s.session.close();
    }
  }
}
