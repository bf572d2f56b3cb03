// The History over a MessagePort: the history (chdb, on the history worker) belongs to the pipeline
// thread (pipelines/runtime/pipeline-thread.ts), and the API's thread reads it through PortHistory
// (the candle route). In: the History calls. Out: the same answers (history.contract.ts runs on it,
// history-port.int.spec.ts). Every call is a message and its answer; the API's reads are small
// (candles of one market), so rows cross as a structured clone.
import type { MessagePort } from 'node:worker_threads';
import { fromWireError, toWireError, type WireError } from '../runtime/history-host.ts';
import type { History, Params, ReadOnlyAnswer, ReadOnlyQuery } from './history.ts';

type Call =
  | { id: number; op: 'exec'; sql: string; params?: Params }
  | { id: number; op: 'insert'; table: string; rows: Record<string, unknown>[] }
  | { id: number; op: 'insertAvro'; table: string; select: Record<string, string>; file: Uint8Array }
  | { id: number; op: 'query'; sql: string; params?: Params }
  | { id: number; op: 'readOnlyQuery'; q: ReadOnlyQuery };

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** What PortHistory needs to know of the history it reads before its first call. */
export interface HistoryFacts {
  kind: History['kind'];
  database: string;
  insertAvro: boolean;
  readOnlyQuery: boolean;
}

export const historyFacts = (h: History): HistoryFacts => ({ kind: h.kind, database: h.database, insertAvro: !!h.insertAvro, readOnlyQuery: !!h.readOnlyQuery });

/** Answers PortHistory's calls on `port` from `history` until the port closes (the history is not closed by it). */
export function serveHistory(history: History, port: MessagePort): void {
  const answer = async (m: Call): Promise<unknown> => {
    switch (m.op) {
      case 'exec':
        return history.exec(m.sql, m.params);
      case 'insert':
        return history.insert(m.table, m.rows);
      case 'insertAvro':
        if (!history.insertAvro) throw new Error(`this history (${history.kind}) has no insertAvro`);
        return history.insertAvro(m.table, m.select, Buffer.from(m.file.buffer, m.file.byteOffset, m.file.byteLength));
      case 'query':
        return history.query(m.sql, m.params);
      case 'readOnlyQuery':
        if (!history.readOnlyQuery) throw new Error(`this history (${history.kind}) has no readOnlyQuery`);
        return history.readOnlyQuery(m.q);
    }
  };
  port.on('message', (m: Call) => {
    answer(m).then(
      (value) => port.postMessage({ id: m.id, ok: true, value } satisfies Reply),
      (e: unknown) => port.postMessage({ id: m.id, ok: false, error: toWireError(e) } satisfies Reply),
    );
  });
}

/** A History on another thread, served there by serveHistory(). close() closes this end only. */
export class PortHistory implements History {
  readonly kind: History['kind'];
  readonly database: string;
  readonly insertAvro?: History['insertAvro'];
  readonly readOnlyQuery?: History['readOnlyQuery'];
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private closed = false;

  constructor(
    private readonly port: MessagePort,
    facts: HistoryFacts,
  ) {
    this.kind = facts.kind;
    this.database = facts.database;
    if (facts.insertAvro) this.insertAvro = (table, select, file) => this.call({ op: 'insertAvro', table, select, file: new Uint8Array(file) });
    if (facts.readOnlyQuery) this.readOnlyQuery = (q): Promise<ReadOnlyAnswer> => this.call({ op: 'readOnlyQuery', q });
    port.on('message', (m: Reply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(fromWireError(m.error, 'the pipeline thread'));
    });
    port.once('close', () => this.failAll(new Error('the history port closed')));
  }

  private call<T>(msg: Call extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the history port is closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ ...msg, id });
    });
  }

  private failAll(e: Error): void {
    this.closed = true;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  exec(sql: string, params?: Params): Promise<void> {
    return this.call({ op: 'exec', sql, ...(params && { params }) });
  }

  insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
    return this.call({ op: 'insert', table, rows });
  }

  query<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]> {
    return this.call({ op: 'query', sql, ...(params && { params }) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.failAll(new Error('the history port is closed'));
    this.port.close();
  }
}
