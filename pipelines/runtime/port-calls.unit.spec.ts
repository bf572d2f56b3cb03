// The calls the pipeline thread's seams make over a MessagePort: answers reach their own call
// whatever the order, an error keeps its name, and nothing waits forever once an end is closed.
import { describe, expect, it } from 'vitest';
import { MessageChannel, Worker } from 'node:worker_threads';
import { PortCaller, replyTo } from './port-calls.ts';

type Call = { id: number; op: 'echo'; value: string; after: number } | { id: number; op: 'fail'; name: string } | { id: number; op: 'never' };

function pair() {
  const { port1, port2 } = new MessageChannel();
  const others: unknown[] = [];
  const caller = new PortCaller<Call>(port1, 'the test port', 'the other thread', (m) => others.push(m));
  port2.on('message', (m: Call) => {
    if (m.op === 'echo') replyTo(port2, m.id, new Promise((r) => setTimeout(() => r(m.value), m.after)));
    else if (m.op === 'fail') {
      const e = new Error('it failed there');
      e.name = m.name;
      replyTo(port2, m.id, Promise.reject(e));
    }
  });
  return { caller, port1, port2, others };
}

describe('PortCaller and replyTo', () => {
  it('settles each call with its own answer, answered out of order', async () => {
    const { caller, port2 } = pair();
    const slow = caller.call<string>({ op: 'echo', value: `slow-${Math.random()}`, after: 30 });
    const fast = caller.call<string>({ op: 'echo', value: `fast-${Math.random()}`, after: 0 });
    const [a, b] = await Promise.all([slow, fast]);
    expect(a).toMatch(/^slow-/);
    expect(b).toMatch(/^fast-/);
    port2.close();
  });

  it("rejects with the serving side's error, its name kept and the peer named", async () => {
    const { caller, port2 } = pair();
    const err: Error = await caller.call<never>({ op: 'fail', name: 'BatchAbandoned' }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('BatchAbandoned');
    expect(err.message).toContain('it failed there');
    port2.close();
  });

  it('hands messages that are not answers to `other`', async () => {
    const { caller, port2, others } = pair();
    port2.postMessage({ tid: 7, batch: { records: [] } });
    await caller.call({ op: 'echo', value: 'x', after: 0 }); // the batch was sent before this answer
    expect(others).toEqual([{ tid: 7, batch: { records: [] } }]);
    port2.close();
  });

  it('fails the calls still waiting when the other end closes, and refuses new ones', async () => {
    const { caller, port2 } = pair();
    const waiting = caller.call({ op: 'never' });
    port2.close();
    await expect(waiting).rejects.toThrow('the test port closed');
    expect(caller.closed).toBe(true);
    await expect(caller.call({ op: 'echo', value: 'x', after: 0 })).rejects.toThrow('the test port is closed');
  });

  it('close() fails what waits, once', async () => {
    const { caller } = pair();
    const waiting = caller.call({ op: 'never' });
    expect(caller.close()).toBe(true);
    expect(caller.close()).toBe(false);
    await expect(waiting).rejects.toThrow('the test port is closed');
  });

  it('calls a Worker itself: answered from its parentPort, its other messages handed on, the calls failed when it exits', async () => {
    // A plain script (no loader needed): answers 'echo' with replyTo's reply shape, says a word of its own first, exits on 'exit'.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', (m) => {
         if (m.op === 'echo') { parentPort.postMessage({ note: m.value }); parentPort.postMessage({ id: m.id, ok: true, value: m.value }); }
         else if (m.op === 'fail') process.exit(3);
       });`,
      { eval: true },
    );
    const others: unknown[] = [];
    const caller = new PortCaller<Call>(worker, 'the test worker', 'the worker', (m) => others.push(m));
    const value = `w-${Math.random()}`;
    expect(await caller.call<string>({ op: 'echo', value, after: 0 })).toBe(value);
    expect(others).toEqual([{ note: value }]);
    const waiting = caller.call({ op: 'never' });
    worker.postMessage({ op: 'fail' });
    await expect(waiting).rejects.toThrow('the test worker closed');
    expect(caller.closed).toBe(true);
  });
});
