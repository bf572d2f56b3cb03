// The push stream's seams as the app shell sees them (api/types.ts, api/app.ts): the process's hub
// with its open connections, and the transport a checked stream is handed (SSE response or WebSocket).
// Declared apart from the route so the shell's types and the route import each other's nothing.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { StreamHub } from './hub.ts';
import type { StreamConnection } from './connection.ts';
import type { CatalogConnection, CatalogWatch } from './catalog.ts';
import type { QuotesConnection, QuotesHub } from './quotes-hub.ts';

export interface StreamDeps {
  hub: StreamHub;
  /** The catalog channel's watch of the published catalog snapshot (absent: channel=catalog answers 503). */
  catalog?: CatalogWatch;
  /** The quotes channel's hub over the raw venue topics (absent: channel=quotes answers 503). */
  quotes?: QuotesHub;
  /**
   * Starts the quotes hub on the first quotes subscription (then sets `quotes`): a process whose
   * clients never subscribe to quotes never tails the raw topics nor holds every market's quote.
   */
  startQuotes?: () => Promise<QuotesHub>;
  /** Unsent bytes a connection may hold before it gets `overflow` and is closed. */
  bufferBytes: number;
  heartbeatMs: number;
  /** The least time between two socket writes of one SSE connection (sse-sink.ts; 0: one per turn). */
  flushMs: number;
  /** How long a connect waits for the hub to catch up with the log before answering 503. */
  readyMs: number;
  /**
   * How long a resume whose id names a position this process's hub has not read waits for it (an
   * id of a replica that read further) before `reset` and a snapshot (an id from past the log's end).
   */
  aheadMs: number;
  /** Live connections (closed on shutdown). */
  connections: Set<StreamConnection | CatalogConnection | QuotesConnection>;
}

/** What the stream uses of a WebSocket (ws, through @fastify/websocket). */
export interface StreamSocket {
  send(text: string): void;
  ping(): void;
  readonly bufferedAmount: number;
  close(code?: number): void;
  /** Drops the connection at once (no closing handshake: the client is gone). */
  terminate(): void;
  on(event: 'close' | 'pong', fn: () => void): unknown;
}

export type StreamIO =
  | { kind: 'sse'; req: IncomingMessage; res: ServerResponse; headers: OutgoingHttpHeaders }
  | { kind: 'ws'; socket: StreamSocket; lastEventId: string | undefined };

