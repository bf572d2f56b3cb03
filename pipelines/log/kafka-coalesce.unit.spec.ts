// CoalescingSender (kafka.ts): sends made while a request is in flight leave together, in order,
// merged requests stay under the size cap, and a failed request rejects every send it carried.
import { describe, expect, it } from 'vitest';
import type { ProducerBatch } from 'kafkajs';
import { CoalescingSender } from './kafka.ts';

function fakeProducer(fail = false) {
  const requests: ProducerBatch[] = [];
  let release!: () => void;
  let gate = new Promise<void>((r) => (release = r));
  return {
    requests,
    open: () => release(),
    producer: {
      sendBatch: async (b: ProducerBatch) => {
        requests.push(b);
        await gate;
        gate = Promise.resolve();
        if (fail) throw new Error('broker said no');
        return [];
      },
    },
  };
}

const msg = (v: string) => ({ key: Buffer.from('k'), value: Buffer.from(v) });

describe('CoalescingSender', () => {
  it('sends what arrives during a request as one request, keeping order per topic', async () => {
    const f = fakeProducer();
    const s = new CoalescingSender(f.producer);
    const first = s.send('a', [msg('1')]);
    await new Promise((r) => setImmediate(r));
    const rest = [s.send('a', [msg('2')]), s.send('b', [msg('x')]), s.send('a', [msg('3')])];
    f.open();
    await Promise.all([first, ...rest]);
    expect(f.requests).toHaveLength(2);
    const second = f.requests[1]!.topicMessages!;
    expect(second.map((t) => [t.topic, t.messages.map((m) => String(m.value))])).toEqual([
      ['a', ['2', '3']],
      ['b', ['x']],
    ]);
    expect(f.requests.every((r) => r.acks === -1)).toBe(true);
  });

  it('keeps a merged request under the size cap', async () => {
    const f = fakeProducer();
    const s = new CoalescingSender(f.producer);
    const big = 'x'.repeat(CoalescingSender.MAX_MERGED_BYTES / 2);
    const all = [s.send('a', [msg(big)]), s.send('a', [msg(big)]), s.send('a', [msg(big)])];
    f.open();
    await Promise.all(all);
    expect(f.requests.map((r) => r.topicMessages![0]!.messages.length)).toEqual([1, 1, 1]);
  });

  it('rejects every send of a failed request', async () => {
    const f = fakeProducer(true);
    const s = new CoalescingSender(f.producer);
    const all = [s.send('a', [msg('1')]), s.send('b', [msg('2')])];
    f.open();
    const settled = await Promise.allSettled(all);
    expect(settled.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    expect(f.requests).toHaveLength(1);
  });
});
