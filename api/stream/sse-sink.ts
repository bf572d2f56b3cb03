// The SSE transport of a push-stream connection (connection.ts Sink): frames written straight to
// the response's socket, every connection's frames of one turn flushed together.
//
// Why not ServerResponse.write: each call corks the socket and schedules a nextTick to uncork it,
// per response and per write, so fanning one change out to 1,000 clients cost 1,000 nextTicks and
// the OutgoingMessage write path on top of the 1,000 socket writes it cannot avoid (the profile of
// bench/stream.ts: the ticks and that path were about a quarter of the fan-out's time, the writes
// themselves the rest). Here a connection keeps the frames of the current turn; the first one
// schedules one flush for every connection; each connection then makes one socket write (its
// frames concatenated when a batch of changes brought several). The response has sent its head
// (writeHead, then a first res.write) before the sink is made; with no chunked encoding and no
// keep-alive the body is the socket's bytes, so writing them there directly is the same stream.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Sink } from './connection.ts';

const sseFrame = (id: string, type: string, json: string) => `${id ? `id: ${id}\n` : ''}event: ${type}\ndata: ${json}\n\n`;
const HEARTBEAT = Buffer.from(': heartbeat\n\n');

interface Pending {
  socket: Socket;
  frames: Buffer[];
  bytes: number;
}

const dirty = new Set<Pending>();
let scheduled = false;

function write(p: Pending): void {
  const { socket, frames } = p;
  if (!frames.length) return;
  const data = frames.length === 1 ? frames[0]! : Buffer.concat(frames, p.bytes);
  p.frames = [];
  p.bytes = 0;
  // A client gone meanwhile: its close() follows from the response's 'close'.
  if (!socket.destroyed && socket.writable) socket.write(data);
}

function flushAll(): void {
  scheduled = false;
  for (const p of dirty) write(p);
  dirty.clear();
}

export function sseSink(res: ServerResponse): Sink {
  const socket = res.socket;
  // No socket: the client is gone already and the response's 'close' closes the connection.
  if (!socket) return { event() {}, heartbeat() {}, buffered: () => 0, close: () => void res.end() };
  const p: Pending = { socket, frames: [], bytes: 0 };
  const push = (b: Buffer) => {
    p.frames.push(b);
    p.bytes += b.length;
    dirty.add(p);
    if (!scheduled) {
      scheduled = true;
      process.nextTick(flushAll);
    }
  };
  return {
    event(id, type, json, shared) {
      push(shared ? (shared.sse ??= Buffer.from(sseFrame(id, type, json))) : Buffer.from(sseFrame(id, type, json)));
    },
    heartbeat() {
      push(HEARTBEAT);
    },
    // What the socket has not sent yet plus this turn's frames.
    buffered: () => socket.writableLength + p.bytes,
    close() {
      // The last frames (an overflow event) before the end.
      dirty.delete(p);
      write(p);
      res.end();
    },
  };
}
