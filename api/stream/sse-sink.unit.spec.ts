// The SSE sink over a stand-in response and socket: what reaches the socket, in how many writes.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import type { Rendered } from './hub.ts';
import { sseSink } from './sse-sink.ts';

function standIn() {
  const calls: string[] = [];
  const socket = {
    destroyed: false,
    writable: true,
    writableLength: 0,
    write(b: Buffer) {
      calls.push(`write:${b.toString()}`);
      return true;
    },
  };
  const res = { socket, end: () => void calls.push('end') } as unknown as ServerResponse;
  return { res, socket, calls };
}
const tick = () => new Promise((r) => process.nextTick(r));

describe('sseSink', () => {
  it('writes the frames of one turn to the socket in one write, in order, after the turn', async () => {
    const { res, calls } = standIn();
    const sink = sseSink(res);
    const id = randomName('id');
    sink.event(id, 'event.updated', '{"a":1}');
    sink.heartbeat();
    sink.event('', 'overflow', '{"b":2}');
    expect(calls).toEqual([]);
    await tick();
    expect(calls).toEqual([`write:id: ${id}\nevent: event.updated\ndata: {"a":1}\n\n: heartbeat\n\nevent: overflow\ndata: {"b":2}\n\n`]);
  });

  it('counts the frames not yet written as buffered, beside what the socket holds', async () => {
    const { res, socket } = standIn();
    socket.writableLength = 100;
    const sink = sseSink(res);
    sink.event('', 'x', '{}');
    expect(sink.buffered()).toBe(100 + Buffer.byteLength('event: x\ndata: {}\n\n'));
    await tick();
    expect(sink.buffered()).toBe(100);
  });

  it('shares one encoded frame among the connections sending a change under its own id, each with one write', async () => {
    const a = standIn();
    const b = standIn();
    const shared: Rendered = { type: 'event.updated', json: '{"e":1}' };
    const id = randomName('id');
    sseSink(a.res).event(id, shared.type, shared.json, shared);
    const frame = shared.sse;
    sseSink(b.res).event(id, shared.type, shared.json, shared);
    expect(shared.sse).toBe(frame);
    await tick();
    expect(a.calls).toEqual([`write:id: ${id}\nevent: event.updated\ndata: {"e":1}\n\n`]);
    expect(b.calls).toEqual(a.calls);
  });

  it('writes what is pending before ending the response on close, and nothing after', async () => {
    const { res, calls } = standIn();
    const sink = sseSink(res);
    sink.event('', 'overflow', '{}');
    sink.close();
    expect(calls).toEqual(['write:event: overflow\ndata: {}\n\n', 'end']);
    await tick();
    expect(calls).toHaveLength(2);
  });

  it('drops the frames of a client whose socket is gone', async () => {
    const { res, socket, calls } = standIn();
    const sink = sseSink(res);
    sink.event('', 'x', '{}');
    socket.destroyed = true;
    await tick();
    expect(calls).toEqual([]);
  });
});
