// handleSliced: a batch's handle() over slices, the event loop free between them, outputs as one call's.
import { describe, expect, it } from 'vitest';
import { handleSliced } from './runner.ts';
import type { InRecord, StageDef } from './types.ts';

const rec = (i: number): InRecord => ({ topic: 'raw.venue_1', topicName: 't', partition: 0, offset: String(i), key: `k${i}`, value: null, timestamp: i, headers: {} });
const ctx = { stage: 's', topic: 'raw.venue_1' as const, partition: 0 };

describe('handleSliced', () => {
  it('calls handle on slices in order and concatenates records, one history write per table', async () => {
    const calls: number[] = [];
    const def: StageDef = {
      name: `s${Math.random().toString(36).slice(2)}`,
      inputs: ['raw.venue_1'],
      handle(records) {
        calls.push(records.length);
        return {
          records: records.map((r) => ({ topic: 'canonical.markets' as const, key: r.key!, value: null })),
          history: [{ table: 'a', rows: records.map((r) => ({ o: r.offset })) }],
        };
      },
    };
    const records = Array.from({ length: 10 }, (_, i) => rec(i));
    const out = await handleSliced(def, records, ctx, 4);
    expect(calls).toEqual([4, 4, 2]);
    expect(out.records!.map((r) => r.key)).toEqual(records.map((r) => r.key));
    expect(out.history).toEqual([{ table: 'a', rows: records.map((r) => ({ o: r.offset })) }]);
    const whole = await def.handle(records, ctx);
    expect(out.records).toEqual(whole.records);
  });

  it('lets other work of the event loop run between slices', async () => {
    const order: string[] = [];
    const def: StageDef = {
      name: 's',
      inputs: ['raw.venue_1'],
      handle(records) {
        order.push(`slice ${records[0]!.offset}`);
        if (records[0]!.offset === '0') setImmediate(() => order.push('other'));
        return {};
      },
    };
    await handleSliced(def, [rec(0), rec(1), rec(2)], ctx, 1);
    expect(order).toEqual(['slice 0', 'other', 'slice 1', 'slice 2']);
  });
});
