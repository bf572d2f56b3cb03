// HistoryBuffer: a gathering sink's rows (StageDef.accumulate) held over batches and inserted together.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { History } from '../readmodels/history.ts';
import { HistoryBuffer } from './history-buffer.ts';

/** A History that records its inserts and reads; `fail` makes the next insert throw. */
function fakeHistory() {
  const calls: string[] = [];
  const h = {
    fail: false,
    calls,
    kind: 'chdb' as const,
    database: 'x',
    exec: async (sql: string) => void calls.push(`exec ${sql}`),
    insert: async (table: string, rows: Record<string, unknown>[]) => {
      await Promise.resolve();
      if (h.fail) {
        h.fail = false;
        throw new Error('disk full');
      }
      calls.push(`insert ${table} ${rows.map((r) => r.n).join(',')}`);
    },
    query: async <T>(sql: string) => {
      calls.push(`query ${sql}`);
      return [] as T[];
    },
    close: async () => {},
  };
  return h satisfies History & { fail: boolean };
}

const rows = (...ns: number[]) => ns.map((n) => ({ n }));

describe('HistoryBuffer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds several batches and inserts them once per table, in order, when the age is reached', async () => {
    vi.useFakeTimers();
    const h = fakeHistory();
    const b = new HistoryBuffer(h, { ms: 2000, rows: 100 });
    const first = b.add([{ table: 'price_history', rows: rows(1, 2) }, { table: 'price_aliases', rows: rows(9) }]);
    const second = b.add([{ table: 'price_history', rows: rows(3) }]);
    expect(b.add([{ table: 'price_history', rows: [] }])).toBeNull();
    expect(b.rows).toBe(4);
    let done = 0;
    void first!.then(() => done++);
    void second!.then(() => done++);
    await vi.advanceTimersByTimeAsync(1999);
    expect(h.calls).toEqual([]);
    expect(done).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.calls).toEqual(['insert price_history 1,2,3', 'insert price_aliases 9']);
    expect(done).toBe(2);
    expect(b.rows).toBe(0);
  });

  it('inserts at once when the rows held reach the limit', async () => {
    const h = fakeHistory();
    const b = new HistoryBuffer(h, { ms: 60_000, rows: 3 });
    const a = b.add([{ table: 't', rows: rows(1, 2) }]);
    expect(h.calls).toEqual([]);
    const c = b.add([{ table: 't', rows: rows(3) }]);
    await Promise.all([a, c]);
    expect(h.calls).toEqual(['insert t 1,2,3']);
  });

  it('a read through its view inserts what is held first', async () => {
    const h = fakeHistory();
    const b = new HistoryBuffer(h, { ms: 60_000, rows: 100 });
    const w = b.add([{ table: 't', rows: rows(1) }]);
    await b.view.query('SELECT 1');
    await w;
    expect(h.calls).toEqual(['insert t 1', 'query SELECT 1']);
    // Nothing held: the read goes straight through.
    await b.view.query('SELECT 2');
    expect(h.calls.at(-1)).toBe('query SELECT 2');
  });

  it('a failed insert fails the batches held and those gathered while it ran, and refuses rows until reset; a batch begun before the reset is refused after it', async () => {
    const h = fakeHistory();
    const b = new HistoryBuffer(h, { ms: 60_000, rows: 100 });
    const begunBefore = b.generation;
    const held = b.add([{ table: 't', rows: rows(1) }]);
    h.fail = true;
    const flushing = b.flush();
    // Gathered while the insert runs: compared with rows that will not be written.
    const later = b.add([{ table: 't', rows: rows(2) }]);
    await expect(flushing).rejects.toThrow('disk full');
    await expect(held).rejects.toThrow('disk full');
    await expect(later).rejects.toThrow('disk full');
    expect(() => b.add([{ table: 't', rows: rows(3) }])).toThrow('disk full');
    expect(b.rows).toBe(0);
    b.reset();
    expect(() => b.add([{ table: 't', rows: rows(4) }], begunBefore)).toThrow(/begun before a failed insert/);
    const after = b.add([{ table: 't', rows: rows(5) }], b.generation);
    await b.flush();
    await after;
    expect(h.calls).toEqual(['insert t 5']);
  });
});
