// Calls and their answers over a MessagePort, for the seams that cross between the API's thread and
// the pipeline thread (readmodels/store-port.ts, readmodels/history-port.ts, log/log-port.ts), or
// over a Worker itself (the pipeline thread's metrics, pipeline-thread.ts). A call carries a number;
// its answer carries the same number with the value, or the error as a WireError (its name and
// message survive the copy, so BatchAbandoned and the like are still known).
import { Worker, type MessagePort } from 'node:worker_threads';
import { fromWireError, toWireError, type WireError } from './history-host.ts';

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** A call as the caller hands it over: the caller's end numbers it. */
export type WithoutId<C> = C extends { id: number } ? Omit<C, 'id'> : never;

const isReply = (m: unknown): m is Reply => typeof m === 'object' && m !== null && 'ok' in m && 'id' in m;

/**
 * The calling end of a port: numbers each call, settles it with its answer, and fails every call
 * still waiting once the port closes (a Worker: once it exits) or close() is called (nothing waits
 * forever on a thread gone). Messages that are not answers go to `other` (a log tail's batches, the
 * pipeline thread's own messages).
 */
export class PortCaller<C extends { id: number }> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private isClosed = false;

  /** `name` names this end in errors ("the log port"); `peer` names who answers ("the pipeline thread"). */
  constructor(
    private readonly port: MessagePort | Worker,
    private readonly name: string,
    private readonly peer: string,
    other?: (m: unknown) => void,
  ) {
    port.on('message', (m: unknown) => {
      if (!isReply(m)) return other?.(m);
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(fromWireError(m.error, peer));
    });
    // A port ends with 'close'; a Worker with 'exit' (its 'close' is never emitted).
    if (port instanceof Worker) port.once('exit', () => this.fail(new Error(`${name} closed`)));
    else port.once('close', () => this.fail(new Error(`${name} closed`)));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  call<T>(msg: WithoutId<C>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.isClosed) return Promise.reject(this.closedError());
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ ...msg, id }, transfer);
    });
  }

  /** The error a call meets once this end is closed. */
  closedError(): Error {
    return new Error(`${this.name} is closed`);
  }

  /** Fails every call still waiting and refuses new ones. */
  fail(e: Error): void {
    this.isClosed = true;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  /**
   * Closes this end (the serving end sees the port close; a Worker is left running: its owner stops
   * it); false when it was closed already.
   */
  close(): boolean {
    if (this.isClosed) return false;
    this.fail(this.closedError());
    if (!(this.port instanceof Worker)) this.port.close();
    return true;
  }
}

/** The serving end's answer to call `id`: the value once `answer` resolves, or its error. */
export function replyTo(port: MessagePort, id: number, answer: Promise<unknown>): void {
  answer.then(
    (value) => port.postMessage({ id, ok: true, value } satisfies Reply),
    (e: unknown) => port.postMessage({ id, ok: false, error: toWireError(e) } satisfies Reply),
  );
}
