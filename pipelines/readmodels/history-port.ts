// The History over a MessagePort: the history (chdb, on the history worker) belongs to the pipeline
// thread (pipelines/runtime/pipeline-thread.ts), and the API's thread reads it through PortHistory
// (the candle route). In: the History calls. Out: the same answers (history.contract.ts runs on it,
// history-port.int.spec.ts). Every call is a message and its answer; the API's reads are small
// (candles of one market), so rows cross as a structured clone.
import type { MessagePort } from 'node:worker_threads';
import { PortCaller, replyTo, type WithoutId } from '../runtime/port-calls.ts';
import type { History, Params, ReadOnlyAnswer, ReadOnlyQuery } from './history.ts';

type Call =
  | { id: number; op: 'exec'; sql: string; params?: Params }
  | { id: number; op: 'insert'; table: string; rows: Record<string, unknown>[] }
  | { id: number; op: 'insertAvro'; table: string; select: Record<string, string>; file: Uint8Array }
  | { id: number; op: 'query'; sql: string; params?: Params }
  | { id: number; op: 'readOnlyQuery'; q: ReadOnlyQuery };

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
  port.on('message', (m: Call) => replyTo(port, m.id, answer(m)));
}

/** A History on another thread, served there by serveHistory(). close() closes this end only. */
export class PortHistory implements History {
  readonly kind: History['kind'];
  readonly database: string;
  readonly insertAvro?: History['insertAvro'];
  readonly readOnlyQuery?: History['readOnlyQuery'];
  private readonly calls: PortCaller<Call>;

  constructor(port: MessagePort, facts: HistoryFacts) {
    this.calls = new PortCaller<Call>(port, 'the history port', 'the pipeline thread');
    this.kind = facts.kind;
    this.database = facts.database;
    if (facts.insertAvro) this.insertAvro = (table, select, file) => this.call({ op: 'insertAvro', table, select, file: new Uint8Array(file) });
    if (facts.readOnlyQuery) this.readOnlyQuery = (q): Promise<ReadOnlyAnswer> => this.call({ op: 'readOnlyQuery', q });
  }

  private call<T>(msg: WithoutId<Call>): Promise<T> {
    return this.calls.call<T>(msg);
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
    this.calls.close();
  }
}
