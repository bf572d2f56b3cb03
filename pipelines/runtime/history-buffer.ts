// A history sink's rows gathered over several batches into one insert per table (StageDef.accumulate).
// In: the history writes of the batches a runner (or the history worker) handled. Out: one insert per
// table when the rows held reach `rows` or the oldest has waited `ms`, and a promise per batch that
// resolves once its rows are in the table (its commit waits for it: Batch.defer).
//
// Why: an insert's fixed cost (a part, and one for each materialized view on the table: ~7 ms of
// chdb each, bench/history.md 2026-11-27) dominates the price-history sink's writes, and its batches
// are small and many (one a partition of each of nine raw topics a read).
//
// Nothing is lost or written twice: a batch is committed only after its rows were inserted; a process
// that dies before that reads the batch again after the restart (its rows were never written, so the
// sink compares with what is stored and writes them then). Reads through `view` insert what is held
// first, so a sink that compares with what is stored (price_latest) never reads past its own rows.
// A failed insert fails every batch held (theirs and those gathered after them), and the buffer
// refuses rows (its batches fail) until reset(): the runner's log reads those partitions again from
// their commits, and a batch handled in the meantime was compared with rows that were never written.
// A batch begun before the reset (its handler read `generation` before) is refused after it too.
import type { History } from '../readmodels/history.ts';
import type { HistoryWrite } from './types.ts';

/** When a gathering sink inserts: at `rows` rows held, or `ms` after the first of them came. */
export interface Accumulate {
  ms: number;
  rows: number;
}

interface Gate {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
}

function gate(): Gate {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch that was given up (abandoned, or failed otherwise) no longer waits on it.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export class HistoryBuffer {
  private tables = new Map<string, Record<string, unknown>[]>();
  private held = 0;
  private open: Gate | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Inserts run one at a time, in order. */
  private flushing: Promise<void> = Promise.resolve();
  /** Set when an insert failed, until reset(): every add() fails. */
  private failure: Error | null = null;
  /** Bumped by reset(): add() refuses the rows of a batch begun before (see add). */
  generation = 0;
  /** The History the sink reads through: anything held is inserted before each read. */
  readonly view: History;

  constructor(
    private readonly history: History,
    readonly opts: Accumulate,
  ) {
    const flushFirst =
      <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        if (this.held > 0 || this.failure) await this.flush();
        return fn(...a);
      };
    const h = history;
    this.view = {
      kind: h.kind,
      database: h.database,
      exec: flushFirst((sql, params) => h.exec(sql, params)),
      insert: flushFirst((table, rows) => h.insert(table, rows)),
      query: flushFirst((sql, params) => h.query(sql, params)) as History['query'],
      ...(h.readOnlyQuery && { readOnlyQuery: flushFirst((q) => h.readOnlyQuery!(q)) }),
      close: () => h.close(),
    };
  }

  /** Rows held, not yet inserted. */
  get rows(): number {
    return this.held;
  }

  /**
   * Holds a batch's writes; resolves once they are inserted (null when it has none: nothing to wait
   * for). `generation`: the buffer's when the batch was begun. Throws, holding nothing, after a
   * failed insert until reset(), and for a batch begun before the last reset().
   */
  add(writes: readonly HistoryWrite[], generation = this.generation): Promise<void> | null {
    if (this.failure) throw this.failure;
    if (generation !== this.generation) throw new Error('a batch begun before a failed insert of the rows gathered with it: it is read again');
    let n = 0;
    for (const w of writes) n += w.rows.length;
    if (n === 0) return null;
    for (const w of writes) {
      if (!w.rows.length) continue;
      const list = this.tables.get(w.table);
      if (list) for (const r of w.rows) list.push(r);
      else this.tables.set(w.table, [...w.rows]);
    }
    this.held += n;
    this.open ??= gate();
    const written = this.open.promise;
    if (this.held >= this.opts.rows) void this.flush().catch(() => {});
    else this.timer ??= setTimeout(() => void this.flush().catch(() => {}), this.opts.ms);
    return written;
  }

  /** Inserts what is held now (after any insert under way); rejects when that insert fails. */
  flush(): Promise<void> {
    const next = this.flushing.then(() => this.insertHeld());
    this.flushing = next.catch(() => {});
    return next;
  }

  /** After a failed insert: takes rows again (the batches it failed are read again from their commits). */
  reset(): void {
    if (!this.failure) return;
    this.failure = null;
    this.generation++;
  }

  private async insertHeld(): Promise<void> {
    if (this.failure) throw this.failure;
    const g = this.open;
    if (!g) return;
    const tables = this.tables;
    this.tables = new Map();
    this.held = 0;
    this.open = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      for (const [table, rows] of tables) await this.history.insert(table, rows);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      this.failure = err;
      g.reject(err);
      // What was gathered after these rows was compared with them: it goes too.
      const later = this.open as Gate | null;
      this.tables = new Map();
      this.held = 0;
      this.open = null;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      later?.reject(err);
      throw err;
    }
    g.resolve();
  }
}
