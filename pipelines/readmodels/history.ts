// The History seam: ClickHouse for history and the catalog. One SQL set (migrations/NNN_name.sql)
// runs on a ClickHouse server through @clickhouse/client (CLICKHOUSE_URL) and in-process through
// chdb (embedded default, persisted under DATA_DIR/chdb). In: SQL with {name:Type} parameters and
// JSON rows. Out: JSON rows. Table names in SQL are unqualified: each History is bound to one
// database (CLICKHOUSE_DATABASE; random per test), so the same SQL runs in every mode.
// One contract suite (history.contract.ts) runs on chdb and, where CLICKHOUSE_URL is set, a server.

export type Params = Record<string, unknown>;

export interface History {
  readonly kind: 'chdb' | 'clickhouse';
  readonly database: string;
  /** DDL or any statement without a result. One statement per call. */
  exec(sql: string, params?: Params): Promise<void>;
  /**
   * Inserts rows (JSONEachRow); keys are column names, missing columns take their defaults.
   * DateTime64(3) columns take Unix milliseconds as integers (the same on chdb and the server).
   */
  insert(table: string, rows: Record<string, unknown>[]): Promise<void>;
  /**
   * Optional: inserts `select` (column -> expression) over the records of an Avro object container
   * file (pipelines/serde/avro-file.ts), the file's field names as columns. What lets a history sink
   * skip decoding in JavaScript (runtime/avro-history.ts); without it the sink inserts JSON rows.
   */
  insertAvro?(table: string, select: Record<string, string>, file: Buffer): Promise<void>;
  /** Runs a SELECT and returns its rows as JSON objects (64-bit integers as numbers, on both). */
  query<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]>;
  /**
   * Optional (chdb only): one statement of someone outside the service (the history SQL port,
   * sql-port.ts) on a connection of its own that the engine holds read-only, with the limits of
   * `q`; the answer is the engine's output in `q.format` (or the statement's FORMAT clause). A
   * ClickHouse server needs none: data teams query it directly. Rejects with the engine's error
   * text (`Code: N. DB::Exception: ...`).
   */
  readOnlyQuery?(q: ReadOnlyQuery): Promise<ReadOnlyAnswer>;
  close(): Promise<void>;
}

export interface ReadOnlyQuery {
  sql: string;
  /** The database unqualified names resolve in. */
  database: string;
  /** Output format unless the statement has a FORMAT clause. */
  format: string;
  /** ClickHouse settings by name (values as text); names must be settings of the engine. */
  settings: Record<string, string>;
  /** Values of {name:Type} placeholders, as ClickHouse's HTTP interface takes them (escaped text). */
  params: Record<string, string>;
  /** The engine's max_execution_time. */
  timeoutMs: number;
  /** The engine's max_result_bytes, and the most bytes of formatted output answered. */
  maxResultBytes: number;
}

export interface ReadOnlyAnswer {
  body: Uint8Array;
  rowsRead: number;
  bytesRead: number;
  elapsedMs: number;
}
