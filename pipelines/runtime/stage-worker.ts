// The stage thread's worker (started by stage-thread.ts). In: calls of the stages it holds
// (handle, tick, restore) and, during a restore, the records of the reads it asked for. Out: each
// call's StageOutput, or its error. It holds the stages' state; it reads and writes nothing itself.
// A batch given as the log's bytes (handle-log) is decoded and its outputs encoded here, through the
// registry of the caller's serde (its ids and schemas asked of the main thread, then cached).
import { getPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { sportsThreadStagesByName } from '../matching/stages/topic-stages.ts';
import { fromWireError, toWireError, type DistributiveOmit } from './history-host.ts';
import { outputToWire } from './output-wire.ts';
import { packStageOutput, type StageCall, type StageReply, type StageWorkerData } from './stage-thread.ts';
import type { InRecord, RestoreContext, StageDef } from './types.ts';
import { decodeOrDeadLetter, encodeOutputs } from './runner.ts';
import { workerSerdes } from './worker-serde.ts';
import { unpackBatch } from './batch-pack.ts';
import type { TopicId } from '../topics.ts';

const port = parentPort!;
const data = workerData as StageWorkerData;
const post = (m: StageReply) => port.postMessage(m);

// The time of the tick being run: the caller's, so its clock (a test's) is the one that counts.
let tickNow = Date.now();

/** The stages this worker holds: the sports stages that turn topics into topics, and the sports snapshot sink. */
let stages: Map<string, StageDef>;
try {
  stages = sportsThreadStagesByName({ tickMs: data.options.tickMs, clock: () => tickNow });
} catch (e) {
  post({ fatal: toWireError(e) });
  throw e;
}

// Reads of restores in flight: their records arrive in chunks, then done (or an error).
let nextRrid = 1;
const reads = new Map<number, { onChunk: (chunk: unknown[]) => void; resolve: (result: unknown) => void; reject: (e: Error) => void }>();
function read(rid: number, ask: DistributiveOmit<Extract<StageReply, { read: string }>, 'rid' | 'rrid'>, onChunk: (chunk: unknown[]) => void): Promise<unknown> {
  const rrid = nextRrid++;
  return new Promise((resolve, reject) => {
    reads.set(rrid, { onChunk, resolve, reject });
    post({ ...ask, rid, rrid } as StageReply);
  });
}

/** A RestoreContext whose reads are done on the main thread, for the restore call `rid`. */
function remoteRestoreContext(rid: number): RestoreContext {
  return {
    async readCompacted(topic, onRecord) {
      await read(rid, { read: 'compacted', topic }, (chunk) => {
        for (const [key, value, offset] of chunk as [string | null, never, string][]) onRecord(key, value, offset);
      });
    },
    async committed(topic) {
      const entries = (await read(rid, { read: 'committed', topic }, () => {})) as [number, string][];
      return new Map(entries);
    },
    async readRange(topic, from, to, onRecords) {
      await read(rid, { read: 'range', topic: topic as TopicId, from: [...from], to: [...to] }, (chunk) => onRecords(chunk as InRecord<typeof topic>[]));
    },
  };
}

// Registry questions in flight (qid: their number), and a serde per registry of the main thread.
let nextQid = 1;
const asked = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
function ask(q: DistributiveOmit<Extract<StageReply, { qid: number }>, 'qid'>): Promise<unknown> {
  const qid = nextQid++;
  return new Promise((resolve, reject) => {
    asked.set(qid, { resolve, reject });
    post({ ...q, qid } as StageReply);
  });
}
const serdes = workerSerdes('the stage thread', {
  register: (registry, subject, schema) => ask({ registry, ask: 'register', subject, schema }) as Promise<number>,
  getSchema: (registry, schemaId) => ask({ registry, ask: 'getSchema', schemaId }) as Promise<object | string>,
});

/** A handle-log call: the batch decoded (dead letters for what does not decode), handled, its outputs encoded and moved back. */
async function handleLog(def: StageDef, m: Extract<StageCall, { op: 'handle-log' }>): Promise<void> {
  const serde = serdes.of(m.registry);
  const topic = m.topics[m.topic];
  const { records, dead } = await decodeOrDeadLetter(serde, topic, unpackBatch(m.packed), m.group);
  const { records: out, ...rest } = await def.handle(records, m.ctx);
  const encoded = out?.length ? await encodeOutputs(serde, m.topics, out) : undefined;
  const deadEncoded = dead.length ? await serde.encodeMany(m.topics['dead.letters'], dead as never) : undefined;
  const { packed, transfer } = packStageOutput({ ...outputToWire(rest), ...(encoded ? { encoded } : {}), ...(deadEncoded ? { dead: deadEncoded } : {}) });
  port.postMessage({ rid: m.rid, ok: true, encoded: packed } satisfies StageReply, transfer);
}

async function answer(m: Extract<StageCall, { op: string }>): Promise<void> {
  try {
    const def = stages.get(m.stage);
    if (!def) throw new Error(`the stage thread holds no stage ${JSON.stringify(m.stage)}`);
    if (m.op === 'handle') post({ rid: m.rid, ok: true, value: outputToWire(await def.handle(m.records, m.ctx)) });
    else if (m.op === 'handle-log') await handleLog(def, m);
    else if (m.op === 'tick') {
      if (!def.tick) throw new Error(`stage ${def.name} has no tick`);
      tickNow = m.now;
      post({ rid: m.rid, ok: true, value: outputToWire(await def.tick.run(m.now)) });
    } else {
      await def.restore?.(remoteRestoreContext(m.rid));
      post({ rid: m.rid, ok: true });
    }
  } catch (e) {
    post({ rid: m.rid, error: toWireError(e) });
  }
}

port.on('message', (m: StageCall) => {
  if ('op' in m) {
    void answer(m);
    return;
  }
  if ('qid' in m) {
    const q = asked.get(m.qid);
    if (!q) return;
    asked.delete(m.qid);
    if ('error' in m) q.reject(fromWireError(m.error, 'the main thread'));
    else q.resolve(m.result);
    return;
  }
  const r = reads.get(m.rrid);
  if (!r) return;
  if ('chunk' in m) {
    try {
      r.onChunk(m.chunk);
    } catch (e) {
      // The restore fails with the stage's own error; the rest of this read's chunks are dropped.
      reads.delete(m.rrid);
      r.reject(e instanceof Error ? e : new Error(String(e)));
    }
  } else {
    reads.delete(m.rrid);
    if ('error' in m) r.reject(fromWireError(m.error, 'the main thread'));
    else r.resolve(m.result);
  }
});
// Its own priority (the calling thread's on Linux), so a test can see WORKER_NICE applied.
post({ ready: true, priority: getPriority() });
