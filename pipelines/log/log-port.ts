// The log's reading side over a MessagePort, for the push stream's hubs on the API's thread when the
// embedded log lives on the pipeline thread (PIPELINE_THREAD, pipelines/runtime/pipeline-thread.ts):
// tail(), topicOffsets() and offsetsForTime(), and the registry's schema lookups the hubs' serde
// decodes with. In: those calls. Out: the same answers as the log behind the port (log.contract.ts
// runs on it, log-port.int.spec.ts, with what the port does not carry taken from the log directly).
//
// A tail's batches cross one at a time: the serving side's handler resolves when the reading side's
// handler has, so the log's order, and its redelivery of a batch whose handler failed, are as on one
// thread; the records' bytes are copied by the structured clone (the hubs read a few topics' records,
// not the crawl's).
import type { MessagePort } from 'node:worker_threads';
import { fromWireError, toWireError, type WireError } from '../runtime/history-host.ts';
import { PortCaller, replyTo, type WithoutId } from '../runtime/port-calls.ts';
import type { SchemaLookup } from '../serde/index.ts';
import type { RegistryCodec } from '../registry/types.ts';
import type { Batch, Consumer, Log, LogRecord, PartitionOffsets, TailOptions } from './types.ts';

type Call =
  | { id: number; op: 'topicOffsets'; topic: string }
  | { id: number; op: 'offsetsForTime'; topic: string; timestamp: number }
  | { id: number; op: 'tail'; tid: number; options: TailOptions }
  | { id: number; op: 'tail-stop'; tid: number }
  | { id: number; op: 'register'; subject: string; schema: object | string }
  | { id: number; op: 'getSchema'; schemaId: number }
  // The reading side's handler is done with the tail's batch (error: it failed).
  | { op: 'tail-done'; tid: number; error?: WireError };

/** A tail's batch, sent to the reading side (its answer is a 'tail-done' call). */
type TailBatch = { tid: number; batch: Batch };

/** The parts of a Log the port carries. */
export type TailedLog = Pick<Log, 'tail' | 'topicOffsets' | 'offsetsForTime'>;

/** Answers PortLog's calls on `port` from `log` and `registry` until the port closes; stops the tails it started then. */
export function serveLogTail(log: TailedLog, registry: SchemaLookup, port: MessagePort): void {
  const tails = new Map<number, { consumer: Consumer; done?: { resolve(): void; reject(e: Error): void } }>();
  const answer = async (m: Exclude<Call, { op: 'tail-done' }>): Promise<unknown> => {
    switch (m.op) {
      case 'topicOffsets':
        return log.topicOffsets(m.topic);
      case 'offsetsForTime':
        return log.offsetsForTime(m.topic, m.timestamp);
      case 'register':
        return registry.register(m.subject, m.schema);
      case 'getSchema':
        return registry.getSchema(m.schemaId);
      case 'tail': {
        const t: { consumer: Consumer; done?: { resolve(): void; reject(e: Error): void } } = { consumer: log.tail(m.options) };
        tails.set(m.tid, t);
        return t.consumer.run(
          (batch) =>
            new Promise<void>((resolve, reject) => {
              t.done = { resolve, reject };
              port.postMessage({ tid: m.tid, batch } satisfies TailBatch);
            }),
        );
      }
      case 'tail-stop': {
        const t = tails.get(m.tid);
        tails.delete(m.tid);
        // A batch still out is given up: the tail stops without waiting for it.
        t?.done?.resolve();
        return t?.consumer.stop();
      }
    }
  };
  port.on('message', (m: Call) => {
    if (m.op === 'tail-done') {
      const t = tails.get(m.tid);
      const done = t?.done;
      if (!t || !done) return;
      t.done = undefined;
      if (m.error) done.reject(fromWireError(m.error, 'the API thread'));
      else done.resolve();
      return;
    }
    replyTo(port, m.id, answer(m));
  });
  port.once('close', () => {
    for (const t of tails.values()) {
      t.done?.resolve();
      void t.consumer.stop();
    }
    tails.clear();
  });
}

/** Bytes after the structured clone (a Uint8Array) as the Buffer a LogRecord holds. */
const asBuffer = (u: Uint8Array | null): Buffer | null => (u === null ? null : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

/**
 * A Log whose tails, offsets and schema lookups are answered through a port by serveLogTail(); every
 * other call goes to `rest` when given (tests: the log behind the port itself), else throws naming it.
 */
export class PortLog implements Log {
  readonly kind: Log['kind'];
  private nextTail = 1;
  private readonly handlers = new Map<number, (batch: Batch) => Promise<void>>();
  private readonly calls: PortCaller<Extract<Call, { id: number }>>;

  constructor(
    private readonly port: MessagePort,
    kind: Log['kind'],
    private readonly rest?: Log,
  ) {
    this.kind = kind;
    this.calls = new PortCaller(port, 'the log port', 'the pipeline thread', (m) => this.deliver((m as TailBatch).tid, (m as TailBatch).batch));
    // No batch is handed on after the port closed.
    port.once('close', () => this.handlers.clear());
  }

  private deliver(tid: number, batch: Batch): void {
    const handler = this.handlers.get(tid);
    if (!handler) return;
    const records: LogRecord[] = batch.records.map((r) => ({ ...r, key: asBuffer(r.key), value: asBuffer(r.value) }));
    handler({ ...batch, records }).then(
      () => this.port.postMessage({ op: 'tail-done', tid } satisfies Call),
      (e: unknown) => this.port.postMessage({ op: 'tail-done', tid, error: toWireError(e) } satisfies Call),
    );
  }

  private call<T>(msg: WithoutId<Extract<Call, { id: number }>>): Promise<T> {
    return this.calls.call<T>(msg);
  }

  private notCarried(what: string): Log {
    if (this.rest) return this.rest;
    throw new Error(`the log's ${what} is not carried over the pipeline thread's port (only tail, topicOffsets and offsetsForTime)`);
  }

  tail(options: TailOptions): Consumer {
    const tid = this.nextTail++;
    let started = false;
    let stopped = false;
    return {
      run: async (handler) => {
        if (started) throw new Error('tail is already running');
        if (stopped) return;
        started = true;
        this.handlers.set(tid, handler);
        await this.call({ op: 'tail', tid, options });
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        this.handlers.delete(tid);
        if (started && !this.calls.closed) await this.call({ op: 'tail-stop', tid });
      },
    };
  }

  topicOffsets(topic: string): Promise<PartitionOffsets[]> {
    return this.call({ op: 'topicOffsets', topic });
  }

  offsetsForTime(topic: string, timestamp: number): Promise<Map<number, string>> {
    return this.call({ op: 'offsetsForTime', topic, timestamp });
  }

  /** The schema lookups of the registry beside the log, for avroSerde() on this thread (SchemaLookup's, the fast path). */
  registry(): RegistryCodec & SchemaLookup {
    const no = (what: string) => () => Promise.reject(new Error(`the registry's ${what} is not carried over the port (avroSerde uses register and getSchema)`));
    return {
      register: (subject, schema) => this.call({ op: 'register', subject, schema }),
      getSchema: (schemaId) => this.call({ op: 'getSchema', schemaId }),
      encode: no('encode'),
      decode: no('decode'),
    };
  }

  createTopics(...a: Parameters<Log['createTopics']>) {
    return this.notCarried('createTopics').createTopics(...a);
  }
  producer() {
    return this.notCarried('producer').producer();
  }
  consumer(...a: Parameters<Log['consumer']>) {
    return this.notCarried('consumer').consumer(...a);
  }
  groupOffsets(...a: Parameters<Log['groupOffsets']>) {
    return this.notCarried('groupOffsets').groupOffsets(...a);
  }
  resetGroup(...a: Parameters<Log['resetGroup']>) {
    return this.notCarried('resetGroup').resetGroup(...a);
  }
  setGroupOffsets(...a: Parameters<Log['setGroupOffsets']>) {
    return this.notCarried('setGroupOffsets').setGroupOffsets(...a);
  }
  deleteGroup(...a: Parameters<Log['deleteGroup']>) {
    return this.notCarried('deleteGroup').deleteGroup(...a);
  }

  /** Closes this end of the port (the log itself belongs to the serving thread; `rest` too). */
  async close(): Promise<void> {
    this.handlers.clear();
    if (!this.calls.close()) return;
    await this.rest?.close();
  }
}
