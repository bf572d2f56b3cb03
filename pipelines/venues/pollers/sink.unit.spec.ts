// The raw sink's keys and crawl barriers: a venue_1 market is keyed by its event (one partition,
// in read order, with the event record its canonical form reads); a crawl marker is written once
// to every partition, each copy saying how many there are.
import { describe, expect, it } from 'vitest';
import type { RawRecord } from '../../topics.ts';
import { partitionForKey } from '../../log/partitioner.ts';
import { BARRIER_HEADER, barrierCopies, rawKey } from './sink.ts';

const rec = (o: Partial<RawRecord>): RawRecord => ({ venue: 'venue_1', record_type: 'market', native_id: 'X', read_started_at: 1, payload: '{}', read_id: null, source_url: null, ...o });

describe('raw sink', () => {
  it('keys a venue_1 market by its event ticker, so it shares its event record partition', () => {
    const market = rec({ native_id: 'KXNBAGAME-26NOV24LALBOS-BOS', payload: JSON.stringify({ ticker: 'KXNBAGAME-26NOV24LALBOS-BOS', event_ticker: 'KXNBAGAME-26NOV24LALBOS' }) });
    const event = rec({ record_type: 'event', native_id: 'KXNBAGAME-26NOV24LALBOS', payload: JSON.stringify({ event_ticker: 'KXNBAGAME-26NOV24LALBOS' }) });
    expect(rawKey(market)).toBe('KXNBAGAME-26NOV24LALBOS');
    expect(partitionForKey(Buffer.from(rawKey(market)), 3)).toBe(partitionForKey(Buffer.from(rawKey(event)), 3));
    // Every other record keeps its own id.
    expect(rawKey(rec({ venue: 'venue_2', native_id: '501', payload: JSON.stringify({ event_ticker: 'nope' }) }))).toBe('501');
    expect(rawKey(rec({ native_id: 'M', payload: '{"no":"event"}' }))).toBe('M');
  });

  it('writes a crawl marker to every partition, each copy naming the count', () => {
    const copies = barrierCopies({ key: Buffer.from('c1'), value: Buffer.from('v'), headers: { a: 'b' } }, 3);
    expect(copies.map((c) => c.partition)).toEqual([0, 1, 2]);
    expect(copies.every((c) => c.headers?.[BARRIER_HEADER] === '3' && c.headers?.a === 'b')).toBe(true);
  });
});
