// One push-stream connection over either transport (SSE or WebSocket), subscribed to the hub.
// In: the hub, the subscription, a Sink (the transport's write, how much it still buffers, close)
// and the client's last event id, if any. Out: `snapshot` first (or, on a resume, every missed event
// in order, or `reset` + `snapshot` when the id is not resumable), then live events, heartbeats,
// and a final `overflow` when the client reads too slowly: a connection whose transport buffers more
// than `bufferBytes` unsent is closed, so a slow client never holds memory or time of the others.
import type { Rendered, StreamHub, SportsChange, Subscriber } from './hub.ts';
import { filterKey, renderChange, snapshotJson, type SportsFilter } from './sports.ts';
import { easternDate } from '../../pipelines/matching/time.ts';
import { subscriptionTag, tagged, untag } from './position.ts';

/**
 * The snapshots sent at the hub's current state, by subscription: connections that open between two
 * changes with the same subscription send the same snapshot under the same id, built and encoded
 * once (a reconnect storm after a restart is many connections at one state). A change, or a new day
 * in New York (which filters by date), starts a new set.
 */
const snapshots = new WeakMap<StreamHub, { changes: number; day: string; byKey: Map<string, Rendered> }>();

function snapshotOf(hub: StreamHub, key: string, filter: SportsFilter, now: number): Rendered {
  const day = easternDate(now);
  let at = snapshots.get(hub);
  if (!at || at.changes !== hub.changes || at.day !== day) snapshots.set(hub, (at = { changes: hub.changes, day, byKey: new Map() }));
  let r = at.byKey.get(key);
  if (!r) at.byKey.set(key, (r = { type: 'snapshot', json: snapshotJson(filter, [...hub.entries.values()].map((h) => h.entry), now) }));
  return r;
}

export interface Sink {
  /**
   * Sends one event (id may be empty: the final overflow carries none). `shared`: a rendering that
   * every live connection sends under this same id, whose encoded frame the sink may keep on it.
   */
  event(id: string, type: string, json: string, shared?: Rendered): void;
  heartbeat(): void;
  /** Bytes written and not yet taken by the client's socket. */
  buffered(): number;
  close(): void;
}

export interface ConnectionOptions {
  bufferBytes: number;
  heartbeatMs: number;
  /** How long a resume from an id ahead of the hub waits for the hub to read that far (default AHEAD_MS). */
  aheadMs?: number;
  onClose?: () => void;
}

/** The default wait of a resume whose id is ahead of this process's hub (then `reset`). */
export const AHEAD_MS = 5_000;

/** The `reset` event's data for an id that cannot be resumed (`unreached`: ahead of the log; `other`: of another subscription). */
export function notResumable(lastEventId: string, unreached: boolean, other = false): string {
  return JSON.stringify({
    message: other
      ? `event id ${JSON.stringify(lastEventId)} was sent to another subscription (other filters or markets): reload the state from the snapshot that follows`
      : unreached
      ? `event id ${JSON.stringify(lastEventId)} names a log position this deployment has not reached (from a log recreated since, or another deployment): reload the state from the snapshot that follows`
      : `event id ${JSON.stringify(lastEventId)} cannot be resumed here (too old, or from another deployment): reload the state from the snapshot that follows`,
  });
}

/**
 * The resume decision both channels make when a connection starts: `null` (no id: a snapshot),
 * `'reset'` (sent here; then a snapshot), or the hub's missed changes. `undefined` when the id is
 * ahead of this hub: `restart` runs once the hub has read that far (`unreached` if it has not within
 * `aheadMs`), so the snapshot or the changes are still sent and subscribed in one turn.
 */
export function resumeStart<M>(
  hub: { missedSince(id: string): M | 'reset' | 'ahead'; reached(id: string, ms: number): Promise<boolean> },
  start: { lastEventId: string | undefined; tag: string; unreached: boolean; aheadMs: number },
  out: Outbox,
  restart: (unreached: boolean) => void,
): M | 'reset' | null | undefined {
  const { lastEventId, tag, unreached } = start;
  const last = lastEventId === undefined ? undefined : untag(lastEventId, tag);
  const missed = last === undefined ? null : unreached || !last.ours ? 'reset' : hub.missedSince(last.id);
  if (missed === 'ahead') {
    void hub.reached(last!.id, start.aheadMs).then((ok) => {
      if (!out.closed) restart(!ok);
    });
    return undefined;
  }
  if (missed === 'reset') out.send('', 'reset', notResumable(lastEventId!, unreached, !last!.ours));
  return missed;
}

/**
 * What every channel's connection does with its transport: send an event unless the client has
 * fallen more than `bufferBytes` behind (then a final `overflow` and close), heartbeats, and close
 * once (the transport, the heartbeat, the channel's own unsubscribe, the owner's onClose).
 */
export class Outbox {
  closed = false;
  /** Events sent (tests and the bench read it). */
  sent = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: Sink,
    private readonly opts: ConnectionOptions,
    private readonly unsubscribe: () => void,
  ) {}

  send(id: string, type: string, json: string, shared?: Rendered): void {
    if (this.closed) return;
    if (this.sink.buffered() > this.opts.bufferBytes) {
      this.sink.event('', 'overflow', JSON.stringify({ message: `the client read too slowly: more than ${this.opts.bufferBytes} bytes were waiting; reconnect with the last event id received to resume` }));
      this.close();
      return;
    }
    this.sink.event(id, type, json, shared);
    this.sent++;
  }

  startHeartbeat(): void {
    this.timer = setInterval(() => {
      if (!this.closed) this.sink.heartbeat();
    }, this.opts.heartbeatMs);
    this.timer.unref();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.sink.close();
    this.opts.onClose?.();
  }
}

export class StreamConnection implements Subscriber {
  from: number[] = [];
  private readonly key: string;
  private readonly out: Outbox;

  constructor(
    private readonly hub: StreamHub,
    private readonly filter: SportsFilter,
    sink: Sink,
    opts: ConnectionOptions,
  ) {
    this.key = filterKey(filter);
    this.tag = subscriptionTag(`sports:${this.key}`);
    this.aheadMs = opts.aheadMs ?? AHEAD_MS;
    this.out = new Outbox(sink, opts, () => this.hub.subscribers.delete(this));
  }

  private readonly aheadMs: number;
  private readonly tag: string;

  /** Events sent (tests and the bench read it). */
  get sent(): number {
    return this.out.sent;
  }

  /** Sends what the client needs first and subscribes, in one synchronous turn (nothing falls between). */
  start(lastEventId: string | undefined, unreached = false): void {
    const now = this.hub.clock();
    const missed = resumeStart(this.hub, { lastEventId, tag: this.tag, unreached, aheadMs: this.aheadMs }, this.out, (u) =>
      this.start(lastEventId, u),
    );
    if (missed === undefined) return;
    if (missed === null || missed === 'reset') {
      this.from = this.hub.pos.slice();
      const snapshot = snapshotOf(this.hub, this.key, this.filter, now);
      this.send(this.hub.currentId(), snapshot.type, snapshot.json, snapshot);
    } else {
      this.from = missed.from;
      for (const m of missed.changes) {
        const r = renderChange(this.filter, m.change, now);
        if (r) this.send(m.id, r.type, r.json);
      }
    }
    if (this.out.closed) return;
    this.hub.subscribers.add(this);
    this.out.startHeartbeat();
  }

  onChange(change: SportsChange, id: string): void {
    if (this.out.closed) return;
    let r: Rendered | null | undefined = change.rendered?.get(this.key);
    if (r === undefined) {
      r = renderChange(this.filter, change, this.hub.clock());
      (change.rendered ??= new Map()).set(this.key, r);
    }
    if (r) this.send(id, r.type, r.json, id === change.id ? r : undefined);
  }

  private send(id: string, type: string, json: string, shared?: Rendered): void {
    // `shared` renderings are per subscription (rendered by filter key): one tag for all who share it.
    this.out.send(tagged(id, this.tag), type, json, shared);
  }

  close(): void {
    this.out.close();
  }
}
