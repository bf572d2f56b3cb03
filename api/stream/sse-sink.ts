// The SSE transport of a push-stream connection (connection.ts Sink): frames written straight to
// the response's socket, every connection's frames of one turn flushed together, and at most one
// write per connection per `flushMs` (STREAM_FLUSH_MS).
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
//
// Why a flush window: a socket write is most of a delivery's cost (bench/stream.md: 4-5 µs of the
// 9-10, on loopback mostly system time), and changes that reach the hub in separate turns (a tail's
// batches per partition and topic, a burst of log appends, a loop that fell behind) each cost every
// connection one. A connection written less than `flushMs` ago holds its next frames until
// `flushMs` after that write, then sends them in one write, in order: a connection gets at most one
// write per window however fast changes come. The price is latency only for a change that follows
// another within the window (up to `flushMs` more); a change after a quiet spell goes out in the
// turn it arrives, as before.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Sink } from './connection.ts';

const sseFrame = (id: string, type: string, json: string) => `${id ? `id: ${id}\n` : ''}event: ${type}\ndata: ${json}\n\n`;
const HEARTBEAT = Buffer.from(': heartbeat\n\n');

const IDLE = 0;
/** In `dirty`: written at the end of this turn. */
const DIRTY = 1;
/** In `held`: written when its window since the last write has passed. */
const HELD = 2;

interface Pending {
  socket: Socket;
  frames: Buffer[];
  bytes: number;
  flushMs: number;
  /** performance.now() of its last socket write (monotonic: a wall clock set back must not hold a connection). */
  lastWrite: number;
  state: typeof IDLE | typeof DIRTY | typeof HELD;
}

/** Socket writes made by every SSE sink of this process (the bench reports writes per delivery). */
export const sseStats = { writes: 0 };

const dirty = new Set<Pending>();
let scheduled = false;
const held = new Set<Pending>();
let heldTimer: NodeJS.Timeout | null = null;
let heldDue = Infinity;

function write(p: Pending, now: number): void {
  p.state = IDLE;
  const { socket, frames } = p;
  if (!frames.length) return;
  const data = frames.length === 1 ? frames[0]! : Buffer.concat(frames, p.bytes);
  p.frames = [];
  p.bytes = 0;
  p.lastWrite = now;
  // A client gone meanwhile: its close() follows from the response's 'close'.
  if (!socket.destroyed && socket.writable) {
    socket.write(data);
    sseStats.writes++;
  }
}

function flushAll(): void {
  scheduled = false;
  const now = performance.now();
  for (const p of dirty) write(p, now);
  dirty.clear();
}

function armHeld(due: number): void {
  if (due >= heldDue) return;
  if (heldTimer) clearTimeout(heldTimer);
  heldDue = due;
  heldTimer = setTimeout(flushHeld, Math.max(0, due - performance.now()));
}

/** Writes every held connection whose window has passed; waits again for the rest. */
function flushHeld(): void {
  heldTimer = null;
  heldDue = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const p of held) {
    const due = p.lastWrite + p.flushMs;
    if (due <= now) {
      held.delete(p);
      write(p, now);
    } else if (due < next) next = due;
  }
  if (next !== Infinity) armHeld(next);
}

/** `flushMs`: the least time between two socket writes of one connection (0: every turn's frames at the turn's end). */
export function sseSink(res: ServerResponse, flushMs = 0): Sink {
  const socket = res.socket;
  // No socket: the client is gone already and the response's 'close' closes the connection.
  if (!socket) return { event() {}, heartbeat() {}, buffered: () => 0, close: () => void res.end() };
  const p: Pending = { socket, frames: [], bytes: 0, flushMs, lastWrite: -Infinity, state: IDLE };
  const push = (b: Buffer) => {
    p.frames.push(b);
    p.bytes += b.length;
    if (p.state !== IDLE) return;
    if (flushMs > 0 && p.lastWrite + flushMs > performance.now()) {
      p.state = HELD;
      held.add(p);
      armHeld(p.lastWrite + flushMs);
      return;
    }
    p.state = DIRTY;
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
    // What the socket has not sent yet plus the frames not yet written to it.
    buffered: () => socket.writableLength + p.bytes,
    close() {
      // The last frames (an overflow event) before the end.
      dirty.delete(p);
      if (held.delete(p) && !held.size && heldTimer) {
        clearTimeout(heldTimer);
        heldTimer = null;
        heldDue = Infinity;
      }
      write(p, performance.now());
      res.end();
    },
  };
}
