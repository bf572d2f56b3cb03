// A minimal Server-Sent Events reader for the stream's tests and bench/stream.ts (Node has no
// EventSource). In: a URL, headers (Authorization, Last-Event-ID). Out: the parsed events as they
// arrive, the comment lines (heartbeats), the status and headers of the answer, and destroy() to
// drop the connection the way a network failure would.
import { request, type IncomingMessage } from 'node:http';

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  /** process.hrtime-free arrival time (Date.now()), for the bench. */
  at: number;
}

export interface SseClient {
  status: number;
  headers: IncomingMessage['headers'];
  events: SseEvent[];
  comments: number;
  /** The body of a non-200 answer. */
  body: string;
  ended: Promise<void>;
  /** Last event id received. */
  lastId(): string | undefined;
  waitFor(ok: (events: SseEvent[]) => boolean, ms?: number, what?: string): Promise<void>;
  destroy(): void;
  /** Stops reading (a slow client); resume() reads again. */
  pause(): void;
  resume(): void;
  onEvent?: (e: SseEvent) => void;
}

export function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      let buf = '';
      let endResolve!: () => void;
      const waiters = new Set<() => void>();
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: 0,
        body: '',
        ended: new Promise<void>((r) => (endResolve = r)),
        lastId() {
          for (let i = client.events.length - 1; i >= 0; i--) if (client.events[i]!.id) return client.events[i]!.id;
          return undefined;
        },
        waitFor(ok, ms = 30_000, what = 'events') {
          return new Promise<void>((res2, rej) => {
            const check = () => {
              if (ok(client.events)) {
                clearTimeout(timer);
                waiters.delete(check);
                res2();
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rej(new Error(`timed out after ${ms} ms waiting for ${what}; got ${client.events.length} events: ${client.events.slice(-3).map((e) => e.event).join(', ')}`));
            }, ms);
            waiters.add(check);
            check();
          });
        },
        destroy() {
          req.destroy();
          res.destroy();
        },
        pause: () => res.pause(),
        resume: () => res.resume(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (client.status !== 200) {
          client.body += chunk;
          return;
        }
        buf += chunk;
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) !== -1) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          let id: string | undefined;
          let event = 'message';
          let data = '';
          let fields = 0;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              client.comments++;
              continue;
            }
            const i = line.indexOf(':');
            const name = i === -1 ? line : line.slice(0, i);
            const value = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
            if (name === 'id') id = value;
            else if (name === 'event') event = value;
            else if (name === 'data') data += (data ? '\n' : '') + value;
            else continue;
            fields++;
          }
          if (fields === 0) continue;
          const e = { id, event, data, at: Date.now() };
          client.events.push(e);
          client.onEvent?.(e);
        }
        for (const w of [...waiters]) w();
      });
      const end = () => {
        endResolve();
        for (const w of [...waiters]) w();
      };
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
      if (client.status !== 200) res.on('end', () => resolve(client));
      else resolve(client);
    });
    req.end();
  });
}
