// A history sink's batch written straight from the records' Avro bodies (StageDef.avroHistory). In: a
// batch of one topic-partition as the log gave it, the stage's column map, the serde (for writer
// schemas) and a History that reads Avro (History.insertAvro). Out: the rows inserted, and the
// records this path does not take, which the caller runs through the stage's handle() as before.
//
// Why: decoding, row objects and a JSON body parsed again by ClickHouse were most of a history
// table's cost per record; here JavaScript only copies bytes into an Avro file (serde/avro-file.ts).
// What is left for handle(): tombstones (no body), records not in the wire format, and records whose
// writer schema lacks a field the map uses (an older schema, before a field was added: handle()
// reads those with the reader's default, which ClickHouse could not know).
import type { LogRecord } from '../log/types.ts';
import type { History } from '../readmodels/history.ts';
import { MAGIC_BYTE, WIRE_HEADER_BYTES } from '../registry/wire.ts';
import { avroObjectFile, fileSchema, type AvroFileSchema, type FileRecord, type LeadingField } from '../serde/avro-file.ts';
import type { Serde } from '../serde/index.ts';
import type { AvroHistoryMap, StageDef } from './types.ts';

/** The record identity every map may use, as the file's leading fields. */
const LEADING: LeadingField[] = [
  { name: '_topic', type: 'string' },
  { name: '_partition', type: 'int' },
  { name: '_offset', type: 'long' },
  { name: '_timestamp', type: { type: 'long', logicalType: 'timestamp-millis' } },
];

/** Per map and writer id: the file schema, or null when this writer's records go to handle(). */
const plans = new WeakMap<AvroHistoryMap, Map<number, AvroFileSchema | null>>();

function planFor(map: AvroHistoryMap, id: number, writer: object | string): AvroFileSchema | null {
  let byId = plans.get(map);
  if (!byId) plans.set(map, (byId = new Map()));
  let plan = byId.get(id);
  if (plan === undefined) {
    const schema = fileSchema(writer, LEADING);
    const have = new Set(schema?.fields.map((f) => f.name));
    plan = schema && map.fields.every((f) => have.has(f)) ? schema : null;
    byId.set(id, plan);
  }
  return plan;
}

/**
 * Inserts what it can of the batch from Avro and returns the records left for handle(), in batch
 * order. Every record is either in the insert or returned, never both and never neither.
 */
export async function writeAvroHistory(
  map: AvroHistoryMap,
  serde: Serde,
  history: History,
  topicName: string,
  records: LogRecord[],
): Promise<LogRecord[]> {
  if (!history.insertAvro || !serde.writerSchema) return records;
  // Which writer ids this path takes: usually one per batch, looked up once per process.
  const take = new Map<number, AvroFileSchema | null>();
  for (const r of records) {
    const id = framedId(r.value);
    if (id !== null && !take.has(id)) take.set(id, planFor(map, id, await serde.writerSchema(id)));
  }
  const rest: LogRecord[] = [];
  const byWriter = new Map<number, FileRecord[]>();
  const topic = Buffer.from(topicName, 'utf8');
  for (const r of records) {
    const id = framedId(r.value);
    if (id === null || !take.get(id)) {
      rest.push(r);
      continue;
    }
    let list = byWriter.get(id);
    if (!list) byWriter.set(id, (list = []));
    list.push({ leading: [topic, r.partition, Number(r.offset), r.timestamp], body: r.value!, bodyStart: WIRE_HEADER_BYTES });
  }
  for (const [id, list] of byWriter) await history.insertAvro(map.table, map.columns, avroObjectFile(take.get(id)!, list));
  return rest;
}

/** The schema id of a value in the wire format, or null (a tombstone, or bytes in no known frame). */
function framedId(v: Buffer | null): number | null {
  return v !== null && v.length >= WIRE_HEADER_BYTES && v[0] === MAGIC_BYTE ? v.readUInt32BE(1) : null;
}

/**
 * A batch's records left for the stage's handle() once its avroHistory map (if it has one, and the
 * History reads Avro) has written the rest: the runner and the history worker both start here.
 */
export function historyFromAvroFirst(def: StageDef, serde: Serde, history: History | undefined, topicName: string, records: LogRecord[]): Promise<LogRecord[]> {
  return def.avroHistory && history ? writeAvroHistory(def.avroHistory, serde, history, topicName, records) : Promise.resolve(records);
}
