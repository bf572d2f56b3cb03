// The stage contract: how a pipeline stage (canonicalize, match, verdict, lifecycle, catalog, the
// read-model sinks) plugs into the runner (runner.ts). In: decoded records of one topic-partition
// batch. Out: what the stage wants done, as data: records to produce, rows to insert into history,
// documents to put in the snapshot store. The runner does the I/O in this order: produce outputs,
// write sinks, and only then commit the batch's offsets ("offsets committed only after the
// stage's output is written"). A crash anywhere before the commit redelivers the batch, so every
// write must be idempotent: history tables are ReplacingMergeTree keyed by the record's identity,
// snapshot documents are versioned by source offset.
import type { TopicDef, TopicId, TopicMap, TopicValues } from '../topics.ts';
import type { LogRecord, OutgoingRecord } from '../log/types.ts';
import type { SchemaLookup } from '../serde/index.ts';
import type { PublishOptions, SnapshotEntry } from '../readmodels/snapshots.ts';
import type { History } from '../readmodels/history.ts';

export interface InRecord<Id extends TopicId = TopicId> {
  topic: Id;
  /** Physical topic name (with the map's prefix). */
  topicName: string;
  partition: number;
  offset: string;
  key: string | null;
  /** null is a tombstone on compacted topics. */
  value: TopicValues[Id] | null;
  timestamp: number;
  headers: Record<string, string>;
}

export type OutRecord = {
  [Id in TopicId]: {
    topic: Id;
    key: string;
    value: TopicValues[Id] | null;
    timestamp?: number;
    headers?: Record<string, string>;
  };
}[TopicId];

export interface HistoryWrite {
  /** Unqualified table name (the History is bound to its database). */
  table: string;
  rows: Record<string, unknown>[];
}

export interface SnapshotWrite {
  key: string;
  /** null deletes the document (up to this version). */
  value: unknown;
  /** Monotonic per key: use offsetVersion(record). */
  version: number;
}

/** A whole snapshot published at once (readers see the old one or the new one, never a mix). */
export interface SnapshotPublish {
  name: string;
  entries: SnapshotEntry[];
  options: PublishOptions;
}

export interface StageOutput {
  records?: OutRecord[];
  history?: HistoryWrite[];
  snapshots?: SnapshotWrite[];
  /** Named snapshots (sinks.snapshotNames) to publish, after the records and documents. */
  publishes?: SnapshotPublish[];
}

/** Output records encoded for the log, by topic, in the stage's order within each (the runner's encodeOutputs). */
export type EncodedOutputs = Array<{ topic: TopicId; records: OutgoingRecord[] }>;

/** What StageDef.handleLog returns: a StageOutput whose records come encoded. */
export interface EncodedStageOutput extends Omit<StageOutput, 'records'> {
  encoded?: EncodedOutputs;
  /** dead.letters records (encoded) for the batch's records that did not decode: written first. */
  dead?: OutgoingRecord[];
}

/** A batch as the log holds it, for StageDef.handleLog. */
export interface LogBatch {
  topic: TopicDef;
  /** The runner's topic map (the output topics' names and schemas). */
  topics: TopicMap;
  partition: number;
  records: LogRecord[];
  /** The registry the runner's serde resolves ids through, so the stage's records read and write the same ids. */
  registry: SchemaLookup;
  /** The runner's consumer group: what a dead letter's key names as its stage (runner.decodeOrDeadLetter). */
  group: string;
  ctx: BatchContext;
}

export interface BatchContext {
  stage: string;
  topic: TopicId;
  partition: number;
  /**
   * The History the batch's rows are written to, for a sink that must read what it wrote before
   * (the price-history sink compares each quote with the last one stored). Reads only: writes are
   * the handle()'s returned history rows.
   */
  history?: History;
  /**
   * Names this consumer's unbroken hold of the batch's partition: it changes whenever a runner
   * starts and whenever its group rebalances (another member may have consumed and written the
   * partition meanwhile, its batches uncommitted). A stage that keeps what it wrote per partition
   * between batches trusts it only under the claim it was kept under. Absent (a caller that gives
   * none): keep nothing between batches.
   */
  claim?: string;
}

/** What a stage's restore() may read before its consumer starts. */
export interface RestoreContext {
  /**
   * Reads a compacted topic from its earliest offset to the high watermark at the call, calling
   * onRecord in offset order per partition (no consumer group is left behind).
   */
  readCompacted<Id extends TopicId>(topic: Id, onRecord: (key: string | null, value: TopicValues[Id] | null, offset: string) => void): Promise<void>;
  /** Committed offsets of this stage's own group on one of its inputs (next offset to read). */
  committed(topic: TopicId): Promise<Map<number, string>>;
  /**
   * Reads the records of a topic from `from` (inclusive) to `to` (exclusive) per partition, in offset
   * order per partition; partitions absent from either map, or with nothing between, are not read.
   */
  readRange<Id extends TopicId>(topic: Id, from: Map<number, string>, to: Map<number, string>, onRecords: (records: InRecord<Id>[]) => void): Promise<void>;
}

export interface StageDef {
  /** Stable name; the consumer group is '<topic prefix>stage.<name>'. */
  name: string;
  inputs: TopicId[];
  /**
   * Pure over its input where it can be (style: decide/evolve); may be async when it must read
   * state it keeps itself. Throwing stops the stage without committing the batch.
   */
  handle(records: InRecord[], ctx: BatchContext): StageOutput | Promise<StageOutput>;
  /**
   * Read models this stage alone writes. Replay clears them before re-consuming; tables are
   * truncated, snapshot documents under each prefix deleted, named snapshots dropped.
   */
  sinks?: { tables?: string[]; snapshotPrefixes?: string[]; snapshotNames?: string[] };
  /**
   * State a stage keeps in memory is read back from the log before its consumer starts (its own
   * compacted outputs and state topics), so a restart at any point resumes with it.
   */
  restore?(ctx: RestoreContext): Promise<void>;
  /**
   * Time-driven output (a stream processor's punctuation): run every ms between batches, never
   * during one; what it returns is written like a batch's output (there is nothing to commit).
   */
  tick?: { ms: number; run(now: number): StageOutput | Promise<StageOutput> };
  /**
   * One replica consumes all the stage's partitions and the others stand by (ConsumerOptions.exclusive):
   * for a stage whose state spans every partition of its inputs.
   */
  exclusive?: boolean;
  /**
   * Output topics that checkpoint the stage's own decisions (what its restore reads to know what
   * it already did): a batch writes them after all its other outputs (runner.ts sendOutputs).
   */
  stateTopics?: TopicId[];
  /** Where a new group starts; default true (the topics are the source of truth). */
  fromBeginning?: boolean;
  /**
   * Like a producer's linger.ms: after writing a batch smaller than minRecords, wait ms before
   * taking the next one, so records pile up and the next write carries many rows. For sinks whose
   * write has a large fixed cost (a ClickHouse insert makes a part); adds at most ms of latency.
   * Not when the log says more records are already waiting (Batch.waiting), nor once the runner stops.
   */
  linger?: { ms: number; minRecords: number };
  /**
   * Batches of up to this many records and bytes where the log cuts them (ConsumerOptions.maxBatch:
   * the embedded log), for a sink whose write has a large fixed cost per batch that a backlog should
   * pay less often. Costs memory in proportion while a backlog is read.
   */
  maxBatch?: { records: number; bytes: number };
  /**
   * handle() is called on slices of at most this many records of a batch, in order, with the event
   * loop free between slices (other work of the process, e.g. API requests, runs there); their
   * outputs are written together, once, and the batch committed as before. For a stage whose
   * handle() is CPU-heavy per record and whose outputs per slice, concatenated, mean what one call's
   * would (e.g. keyed records of compacted topics). On the embedded default the whole pipeline shares
   * the API's event loop: a 5,000-record batch of the canonicalizer held it for about 700 ms.
   */
  sliceRecords?: number;
  /**
   * The same history rows that handle() returns for a record with a value, said as a SELECT over the
   * record's Avro fields, so a History that can read Avro (History.insertAvro) writes them without the
   * record being decoded here (avro-history.ts). Only for a stage whose whole output is this table's
   * rows. Tombstones, records whose writer schema lacks a field used here, and Histories that cannot
   * read Avro go through handle(); avro-history.int.spec.ts holds both ways to the same table content.
   */
  avroHistory?: AvroHistoryMap;
  /**
   * handle() reads each record's key and value once, in order, and keeps little of them: they are
   * decoded as they are read (each read decodes again), not all up front, so a batch's decoded
   * values are not all alive at once and die young (a 10,000-record batch of raw listings decoded
   * up front cost the price-history sink ~2 µs a record more, most of it garbage collection). Where
   * the history worker decodes a relayed batch (history-worker.ts), which fails the batch on a record
   * that does not decode either way; where records that do not decode become dead letters (the
   * runner's decodeOrDeadLetter), the batch is decoded up front as for any stage.
   */
  lazyValues?: boolean;
  /**
   * handle() with the decoding and encoding included: takes the batch's records as the log holds
   * them and returns its output records encoded, the records that do not decode as dead letters
   * (as decodeOrDeadLetter makes them). The runner calls it instead of decoding, handle() and
   * encoding when its serde resolves ids through a registry (Serde.schemas), and still writes,
   * then commits, in the same order. For a stage whose work runs on another thread
   * (stage-thread.ts): the Avro work goes with it, and the batch crosses as bytes.
   */
  handleLog?(batch: LogBatch): Promise<EncodedStageOutput>;
}

/**
 * Column -> ClickHouse expression over the value's Avro fields (by field name) and the record's
 * identity: _topic (physical topic name), _partition, _offset and _timestamp (the log's, ms).
 */
export interface AvroHistoryMap {
  table: string;
  /** The value's Avro fields the columns read: records of a writer schema without one go to handle(). */
  fields: string[];
  columns: Record<string, string>;
}

/** Version of a record for versioned sinks: its offset (monotonic per key within a topic). */
export function offsetVersion(r: { offset: string }): number {
  return Number(r.offset);
}
