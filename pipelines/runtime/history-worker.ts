// The history worker thread (started by history-host.ts). In: History calls and batches of the
// hosted stages, as raw log records, each naming its host and database. Out: answers, a batch's only
// after its history rows are in chdb. It owns the process's chdb session (one ChdbHistory per
// database, sharing it); the log, commits and the registry stay on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import type { LogRecord } from '../log/types.ts';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { avroSerde, type Serde } from '../serde/index.ts';
import type { DistributiveOmit, HistoryWorkerData, HostRequest, WorkerMessage } from './history-host.ts';
import { fromWireError, toWireError } from './history-host.ts';
import { decodeBatch } from './runner.ts';
import { historyFromAvroFirst } from './avro-history.ts';
import { HISTORY_SINKS } from './sinks.ts';

const port = parentPort!;
const data = workerData as HistoryWorkerData;
const stages = new Map(HISTORY_SINKS.map((d) => [d.name, d]));

// Schema lookups are answered by the host's registry on the main thread; each host's serde caches
// ids and resolvers, so this is asked once per writer schema.
let nextRid = 1;
const asked = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
const ask = (m: DistributiveOmit<Extract<WorkerMessage, { rid: number }>, 'rid'>): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const rid = nextRid++;
    asked.set(rid, { resolve, reject });
    port.postMessage({ ...m, rid });
  });
const unsupported = () => Promise.reject(new Error('the history worker encodes through register/getSchema only'));
const serdes = new Map<number, Serde>();
function serdeOf(host: number): Serde {
  let s = serdes.get(host);
  if (!s)
    serdes.set(
      host,
      (s = avroSerde({
        register: (subject, schema) => ask({ host, op: 'register', subject, schema }) as Promise<number>,
        getSchema: (schemaId) => ask({ host, op: 'getSchema', schemaId }) as Promise<object | string>,
        encode: unsupported,
        decode: unsupported,
      })),
    );
  return s;
}

const histories = new Map<string, Promise<ChdbHistory>>();
function historyOf(db: string): Promise<ChdbHistory> {
  let h = histories.get(db);
  if (!h) {
    h = ChdbHistory.open(data.chdbPath, db);
    histories.set(db, h);
    h.catch(() => histories.delete(db));
  }
  return h;
}

/** A cloned record's key and value arrive as Uint8Array: views again as Buffers, without a copy. */
const buf = (u: Uint8Array | null): Buffer | null => (u === null ? null : Buffer.from(u.buffer, u.byteOffset, u.byteLength));
const asBuffers = (r: LogRecord): LogRecord => ({ ...r, key: buf(r.key), value: buf(r.value) });

async function runBatch(req: Extract<HostRequest, { op: 'batch' }>): Promise<void> {
  const def = stages.get(req.stage);
  if (!def) throw new Error(`the history worker cannot run stage ${JSON.stringify(req.stage)}`);
  const serde = serdeOf(req.host);
  const history = await historyOf(req.db);
  const rest = await historyFromAvroFirst(def, serde, history, req.topic.name, req.records.map(asBuffers));
  if (rest.length === 0) return;
  const records = await decodeBatch(serde, req.topic, rest);
  const out = await def.handle(records, { stage: def.name, topic: req.topic.id, partition: req.partition });
  // A hosted stage writes history only: anything else would be lost here, so it fails the batch.
  if (out.records?.length || out.snapshots?.length) throw new Error(`stage ${def.name} returned records or snapshots, which the history worker cannot write`);
  for (const w of out.history ?? []) await history.insert(w.table, w.rows);
}

async function answer(req: Extract<HostRequest, { id: number }>): Promise<unknown> {
  switch (req.op) {
    case 'batch':
      return runBatch(req);
    case 'exec':
      return (await historyOf(req.db)).exec(req.sql, req.params);
    case 'insert':
      return (await historyOf(req.db)).insert(req.table, req.rows);
    case 'query':
      return (await historyOf(req.db)).query(req.sql, req.params);
    case 'close': {
      serdes.delete(req.host);
      // Another host may still use this database; the ChdbHistory of a database is shared, and its
      // session closes with the thread.
      return null;
    }
    case 'shutdown': {
      const open = [...histories.values()];
      histories.clear();
      for (const h of open) await (await h.catch(() => null))?.close();
      return null;
    }
  }
}

port.on('message', (req: HostRequest) => {
  if ('rid' in req) {
    const a = asked.get(req.rid);
    asked.delete(req.rid);
    if (req.ok) a?.resolve(req.result);
    else a?.reject(fromWireError(req.error, 'the main thread'));
    return;
  }
  answer(req).then(
    (result) => port.postMessage({ id: req.id, ok: true, result: result ?? null } satisfies WorkerMessage),
    (e: unknown) => port.postMessage({ id: req.id, ok: false, error: toWireError(e) } satisfies WorkerMessage),
  );
});
