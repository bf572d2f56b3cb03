// The pollers' thread's worker (started by thread.ts). In: the configuration, the topic map and the
// shared venue host. Out: the nine venue pollers, as pollersFromConfig builds them on any thread,
// reading the venues, parsing, detecting changes and encoding here; what they write, their schema
// lookups, their request budget waits and their change-only memory at start go through the thread
// that holds the log (thread.ts), which answers each. The roster poller too, when asked for (data.rosters).
import { getPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Producer } from '../../log/types.ts';
import { avroSerde } from '../../serde/index.ts';
import type { RawRecord } from '../../topics.ts';
import type { Provider } from '../../../lib/vocabulary.ts';
import { fromWireError, toWireError, type DistributiveOmit } from '../../runtime/history-host.ts';
import { packOutgoing, packedOutgoingTransfer } from '../../runtime/batch-pack.ts';
import { VenueEndpoints, venueEndpointsOf } from '../client/endpoints.ts';
import { logRawSink } from './sink.ts';
import { LogPollerState } from './state.ts';
import { RosterPoller } from './rosters.ts';
import { pollersFromConfig, type PollerSupervisor } from './supervisor.ts';
import type { PollerLogger } from './poller.ts';
import { STATUS_EVERY_MS, type PollerAsk, type PollerReply, type PollerWorkerData, type PollerWorkerMessage } from './thread.ts';

const port = parentPort!;
const data = workerData as PollerWorkerData;
const { config, topics } = data;
const post = (m: PollerWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

let nextRid = 1;
const asked = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; onChunk?: (chunk: [string | null, RawRecord | null][]) => void }>();
function ask(m: DistributiveOmit<PollerAsk, 'rid'>, opts: { transfer?: ArrayBuffer[]; onChunk?: (chunk: [string | null, RawRecord | null][]) => void } = {}): Promise<unknown> {
  const rid = nextRid++;
  return new Promise((resolve, reject) => {
    asked.set(rid, { resolve, reject, onChunk: opts.onChunk });
    post({ ...m, rid } as PollerAsk, opts.transfer);
  });
}

const unsupported = () => Promise.reject(new Error("the pollers' thread encodes through register/getSchema only"));
// Ids are asked once per subject (the serde caches them), from the registry of the thread that holds the log.
const serde = avroSerde({
  register: (subject, schema) => ask({ op: 'register', subject, schema }) as Promise<number>,
  getSchema: (schemaId) => ask({ op: 'getSchema', schemaId }) as Promise<object | string>,
  encode: unsupported,
  decode: unsupported,
});

/** Appends through the log's thread: one transferred buffer per send, resolved once the log has it. */
const producer: Producer = {
  send(topic, records) {
    if (records.length === 0) return Promise.resolve();
    const packed = packOutgoing(records);
    return ask({ op: 'send', topic, packed }, { transfer: packedOutgoingTransfer(packed) }).then(() => undefined);
  },
  async close() {},
};

/**
 * The venues' URLs and credentials as on any thread; the budget waits by the log's thread, whose
 * budgets the live routes take from too (one budget per venue and process).
 */
class RelayedEndpoints extends VenueEndpoints {
  override async admit(venue: Provider | undefined, opts: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<void> {
    if (!venue || !this.budget(venue)) return;
    const signal = opts.signal;
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    // A stop ends the wait here at once; the other thread ends its own at the stop too.
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal!.reason ?? new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      ask({ op: 'admit', venue }).then(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        (e: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }
}

const logger: PollerLogger = {
  debug: (obj, msg) => post({ log: 'debug', obj, msg }),
  info: (obj, msg) => post({ log: 'info', obj, msg }),
  warn: (obj, msg) => post({ log: 'warn', obj, msg }),
  error: (obj, msg) => post({ log: 'error', obj, msg }),
};

port.on('message', (m: PollerReply) => {
  if ('stop' in m) {
    void stop();
    return;
  }
  const a = asked.get(m.rid);
  if (!a) return;
  if ('chunk' in m) {
    a.onChunk?.(m.chunk);
    return;
  }
  asked.delete(m.rid);
  if ('error' in m) a.reject(fromWireError(m.error, "the pollers' log thread"));
  else a.resolve(m.value);
});

let supervisor: PollerSupervisor | undefined;
let rosters: RosterPoller | undefined;
let reporting: ReturnType<typeof setInterval> | undefined;
const report = () => supervisor && post({ status: supervisor.status(), rosterRounds: rosters?.rounds ?? 0 });

async function stop(): Promise<void> {
  clearInterval(reporting);
  await Promise.all([supervisor?.stop(), rosters?.stop()]);
  report();
  post({ stopped: true });
}

try {
  // Change-only ingestion: the feeds' memory is read back from `pollers.state` before the first crawl.
  // Without it, only the listing crawls' starts (its cadence across a restart, cadence.ts).
  const state = await LogPollerState.fromRead(
    { serde, topics, producer },
    (onRecord) => ask({ op: 'readState' }, { onChunk: (chunk) => chunk.forEach(([k, v]) => onRecord(k, v)) }).then(() => undefined),
    { startsOnly: !config.POLL_CHANGE_ONLY },
  );
  supervisor = pollersFromConfig(config, {
    baseUrl: data.baseUrl,
    sink: logRawSink(producer, serde, topics),
    state,
    logger,
    endpoints: new RelayedEndpoints(data.baseUrl, venueEndpointsOf(config)),
  });
  supervisor.start();
  if (data.rosters) {
    // Change-only ingestion: the rosters already on the topic (read by the log's thread) are not written again.
    const written = config.POLL_CHANGE_ONLY ? ((await ask({ op: 'readRosters' })) as [string, string][]) : undefined;
    rosters = new RosterPoller({ baseUrl: data.baseUrl, producer, serde, topics, intervalMs: data.rosters.intervalMs, deadlineMs: config.UPSTREAM_DEADLINE_MS, logger, written });
    rosters.start();
  }
  reporting = setInterval(report, STATUS_EVERY_MS);
  report();
  // Its own priority (the calling thread's on Linux), so a test can see WORKER_NICE applied.
  post({ ready: true, priority: getPriority() });
} catch (e) {
  post({ fatal: toWireError(e) });
}
