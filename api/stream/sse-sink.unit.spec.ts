// The SSE sink over a stand-in response and socket: what reaches the socket, in how many writes.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
/** The next turn of the event loop (after the nextTick flush of this one). */
const turn = () => new Promise((r) => setImmediate(r));
const frame = (id: string, type: string, json: string) => `id: ${id}\nevent: ${type}\ndata: ${json}\n\n`;

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

  describe('with a write window', () => {
    // Fake time for the window's timer and clock only: nextTick and setImmediate stay real turns.
    afterEach(() => {
      vi.useRealTimers();
    });

    it('sends the changes of later turns within the window in one write at its end, in order, with their ids', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const { res, calls } = standIn();
      const sink = sseSink(res, 1000);
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((x) => randomName(x));
      sink.event(a!, 'event.updated', '{"n":1}');
      await tick();
      // The first change after a quiet spell goes out in its own turn.
      expect(calls).toEqual([`write:${frame(a!, 'event.updated', '{"n":1}')}`]);
      await turn();
      sink.event(b!, 'event.updated', '{"n":2}');
      await turn();
      sink.event(c!, 'event.removed', '{"n":3}');
      sink.heartbeat();
      await turn();
      expect(calls).toHaveLength(1);
      // Held frames count as buffered, so a slow client still overflows on them.
      expect(sink.buffered()).toBe(Buffer.byteLength(frame(b!, 'event.updated', '{"n":2}') + frame(c!, 'event.removed', '{"n":3}') + ': heartbeat\n\n'));
      vi.advanceTimersByTime(999);
      expect(calls).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(calls).toEqual([
        `write:${frame(a!, 'event.updated', '{"n":1}')}`,
        `write:${frame(b!, 'event.updated', '{"n":2}')}${frame(c!, 'event.removed', '{"n":3}')}: heartbeat\n\n`,
      ]);
      expect(sink.buffered()).toBe(0);
      // A window after that write, the next change goes out in its turn again.
      vi.advanceTimersByTime(1000);
      sink.event(d!, 'event.updated', '{"n":4}');
      await tick();
      expect(calls).toHaveLength(3);
      expect(calls[2]).toBe(`write:${frame(d!, 'event.updated', '{"n":4}')}`);
    });

    it('holds each connection for its own window: one written long ago sends at once, one written just now waits', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const early = standIn();
      const late = standIn();
      const e = sseSink(early.res, 1000);
      e.event('', 'x', '{"n":1}');
      await tick();
      vi.advanceTimersByTime(600);
      const l = sseSink(late.res, 1000);
      l.event('', 'x', '{"n":1}');
      await tick();
      await turn();
      e.event('', 'x', '{"n":2}');
      l.event('', 'x', '{"n":2}');
      await tick();
      expect([early.calls.length, late.calls.length]).toEqual([1, 1]);
      vi.advanceTimersByTime(400);
      expect([early.calls.length, late.calls.length]).toEqual([2, 1]);
      vi.advanceTimersByTime(600);
      expect([early.calls.length, late.calls.length]).toEqual([2, 2]);
      expect(late.calls[1]).toBe('write:event: x\ndata: {"n":2}\n\n');
    });

    it('writes the held frames before ending the response on close, and nothing after the window', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const { res, calls } = standIn();
      const sink = sseSink(res, 1000);
      sink.event('', 'x', '{}');
      await tick();
      await turn();
      sink.event('', 'overflow', '{"m":1}');
      await tick();
      expect(calls).toHaveLength(1);
      sink.close();
      expect(calls.slice(1)).toEqual(['write:event: overflow\ndata: {"m":1}\n\n', 'end']);
      vi.advanceTimersByTime(2000);
      expect(calls).toHaveLength(3);
    });
  });
});
