// The push stream's own work per delivery, without the socket write: a change handed to 1,000
// StreamConnections (one subscription, so one shared rendering) through the SSE sink, whose sockets
// are stand-ins that take the bytes and do nothing. What is left of bench/stream.ts's CPU per
// delivery once this is subtracted is the socket write (bench/stream-split.ts measures a bare one).
//
//   node --import tsx bench/stream-dispatch.ts [--clients 1000] [--changes 2000]
import type { ServerResponse } from 'node:http';
import { StreamConnection } from '../api/stream/connection.ts';
import type { SportsChange, StreamHub } from '../api/stream/hub.ts';
import { sseSink } from '../api/stream/sse-sink.ts';
import { filterKey, type SportsFilter } from '../api/stream/sports.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ clients: 1000, changes: 2000 });
const clients = cli.clients;
const changes = cli.changes;

// Only what a connection reads of its hub.
const hub = { clock: Date.now, subscribers: new Set(), pos: [0], entries: new Map(), currentId: () => '', missedSince: () => 'reset' } as unknown as StreamHub;
const filter: SportsFilter = { includeSettled: false, shape: { includeSubmarkets: false, includeRules: false, policy: 'strict' } } as unknown as SportsFilter;
const conns: StreamConnection[] = [];
for (let i = 0; i < clients; i++) {
  const socket = { destroyed: false, writable: true, writableLength: 0, write: () => true };
  const c = new StreamConnection(hub, filter, sseSink({ socket, end() {} } as unknown as ServerResponse), { bufferBytes: 1 << 20, heartbeatMs: 15_000 });
  c.from = [0];
  conns.push(c);
}
// A rendering of about the size bench/stream.ts's events have, made once per change as the hub does.
const json = JSON.stringify({ event_id: 'nba-e1-bench', title: 'x'.repeat(600) });
let offset = 0;
const change = (): SportsChange => {
  offset++;
  const id = `id-${offset}`;
  return { part: 0, offset, key: 'nba-e1-bench', prev: undefined, next: undefined, last: undefined, reason: 'settled', pos: [offset + 1], id, rendered: new Map([[filterKey(filter), { type: 'event.updated', json }]]) };
};
const run = async (n: number) => {
  for (let i = 0; i < n; i++) {
    const c = change();
    for (const conn of conns) conn.onChange(c, c.id);
    // The sink flushes on the next tick: let it, as the event loop would between changes.
    await new Promise((r) => setImmediate(r));
  }
};
await run(changes / 4); // warm-up (JIT), not counted
const c0 = process.cpuUsage();
await run(changes);
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ clients, changes, user_us_per_delivery: +(c.user / changes / clients).toFixed(3), system_us_per_delivery: +(c.system / changes / clients).toFixed(3) }));
