// The log seam: what every pipeline stage needs from Kafka, and nothing more. Two implementations
// stand behind it: Kafka (through kafkajs) for the scale-out stack
// and an in-process, persisted log for the embedded default. One contract suite (log.contract.ts)
// runs against both. Keys and values are bytes: Avro with the registry's wire format
// (magic byte 0, 4-byte schema id) is applied by the serde layer above this interface.

export type CleanupPolicy = 'compact' | 'delete';

export interface TopicSpec {
  name: string;
  partitions: number;
  cleanupPolicy: CleanupPolicy;
  /** Only for cleanupPolicy 'delete'; undefined keeps records forever. */
  retentionMs?: number;
  /**
   * Only for cleanupPolicy 'delete': bytes kept per partition (Kafka's retention.bytes); the oldest
   * closed segments go first, so a partition holds at most this plus one segment. Undefined: no limit.
   */
  retentionBytes?: number;
}

export interface OutgoingRecord {
  key: Buffer | null;
  /** null is a tombstone on compacted topics. */
  value: Buffer | null;
  /** Unix ms; defaults to the time of the send. */
  timestamp?: number;
  headers?: Record<string, string>;
  /**
   * An explicit partition instead of the key's (a barrier record written once to every partition,
   * so a reader knows it has read everything written before it on all of them).
   */
  partition?: number;
}

export interface LogRecord {
  topic: string;
  partition: number;
  /** Offsets are decimal strings, as Kafka clients give them (int64 does not fit a JS number). */
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: number;
  headers: Record<string, string>;
}

export interface Producer {
  /** Resolves once the records are durably appended (acks=all on Kafka). Partition by key hash. */
  send(topic: string, records: OutgoingRecord[]): Promise<void>;
  close(): Promise<void>;
}

export interface ConsumerOptions {
  groupId: string;
  topics: string[];
  /** Where a group with no committed offset starts. */
  fromBeginning: boolean;
  /**
   * One member of the group consumes every partition and the others stand by, taking over when it
   * leaves (a stage whose state spans all its partitions: a crawl's marker barrier, all the canonical
   * markets). The embedded log gives a group one consumer anyway; kafkajs assigns everything to one
   * member.
   */
  exclusive?: boolean;
  /**
   * Told how many partitions this member was given, after each rebalance (where the log knows:
   * kafkajs). A standby of an exclusive group is given none.
   */
  onAssignment?: (partitions: number) => void;
  /**
   * Where this consumer starts, per topic and partition, whatever the group committed (a one-off
   * group reading a stretch of a topic: a stage's restore; a tail over the nine raw topics). kafkajs
   * seeks every named partition once it has joined, in the one consumer: its admin's setOffsets joins
   * the group with a throwaway consumer and waits out a 5 s fetch poll, per topic, which made a
   * processors restart (a dozen such reads) take over a minute and the quotes hub's tail about 45 s.
   * A consumer may still be handed records below these offsets (a fetch before the seek, a rejoin
   * before its first commit): the reader skips them.
   */
  startAt?: Map<string, Map<number, string>>;
  /**
   * The most records and bytes of a batch, in place of the log's own (EmbeddedLogOptions
   * maxBatchRecords / maxBatchBytes), where the log cuts batches itself: embedded. kafkajs hands over
   * its fetches as they come and ignores it.
   */
  maxBatch?: { records: number; bytes: number };
}

export interface Batch {
  topic: string;
  partition: number;
  records: LogRecord[];
  /**
   * Records already in the log for this consumer after this batch, where the log knows it without
   * asking anyone (embedded: across the consumer's partitions; kafkajs: this partition, from the
   * fetch's high watermark); undefined where it does not. A stage that waits for more records to
   * arrive (StageDef.linger) does not wait when some are already there.
   */
  waiting?: number;
}

export interface Consumer {
  /**
   * Calls handler with batches in offset order per partition. The offsets of a batch are committed
   * only after handler resolves ("offsets committed only after the stage's output is written"), so
   * a crash redelivers the batch: stages and sinks must be idempotent.
   */
  run(handler: (batch: Batch) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A reader that follows topics from given positions without a consumer group: nothing is committed
 * and nobody shares its partitions, so every process can read everything itself (each API replica
 * tails the matching topics for its push streams). Records already in the log come first, then live
 * ones, in offset order per partition, until stop().
 */
export interface TailOptions {
  topics: string[];
  /**
   * Next offset to read, per topic and partition. A partition not named, or named below its earliest
   * retained offset, starts at the earliest retained offset.
   */
  from?: Map<string, Map<number, string>>;
}

export interface PartitionOffsets {
  partition: number;
  /** Offset of the next record to be written. */
  high: string;
  /** Earliest retained offset. */
  low: string;
}

export interface Log {
  readonly kind: 'embedded' | 'kafka';
  createTopics(specs: TopicSpec[]): Promise<void>;
  producer(): Promise<Producer>;
  consumer(options: ConsumerOptions): Consumer;
  /** Follows topics from positions without a shared group (TailOptions); a handler that throws gets its batch again. */
  tail(options: TailOptions): Consumer;
  topicOffsets(topic: string): Promise<PartitionOffsets[]>;
  /**
   * Per partition, the first offset whose record timestamp is at or after `timestamp` (the high
   * watermark where there is none), as Kafka's offsetsForTimes: where a tail starts to read the
   * last stretch of a long topic (the quotes hub over the raw topics) instead of all of it.
   */
  offsetsForTime(topic: string, timestamp: number): Promise<Map<number, string>>;
  /** Committed offsets of a group (next offset to read) per partition; absent when none. */
  groupOffsets(groupId: string, topic: string): Promise<Map<number, string>>;
  /** Operators' replay: move a stopped group to the earliest offset or to the first at/after a time. */
  resetGroup(groupId: string, topic: string, to: 'earliest' | { timestamp: number }): Promise<void>;
  /** Commits these offsets (next offset to read, per partition) for a group with no live member. */
  setGroupOffsets(groupId: string, topic: string, offsets: Map<number, string>): Promise<void>;
  /** Forgets a stopped group and its committed offsets (a stage's one-off restore read leaves none behind). */
  deleteGroup(groupId: string): Promise<void>;
  /**
   * Live members per group (0 for a group nobody consumes in), where the log can say: what replay
   * checks before resetting a group the running processors still consume in. Undefined: the log
   * refuses a reset of an active group itself (embedded: one process holds the log at a time).
   */
  liveMembers?(groupIds: string[]): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/**
 * The error a handler rejects with when an operator's stop ran past its deadline and gave the batch
 * up (abandonInFlight, runner.ts): nothing is committed and the batch comes again after the restart.
 * Not a failure, so the consumers say it once per consumer in one line (abandonedLine), with no
 * stack. Known by its name, which survives the copy from a worker thread (toWireError).
 */
export class BatchAbandoned extends Error {
  override name = 'BatchAbandoned';
}

export const isBatchAbandoned = (e: unknown): e is Error => e instanceof Error && e.name === 'BatchAbandoned';

/** The one line a consumer prints for its batch given up at a stop. */
export const abandonedLine = (log: string, who: string, topic: string, partition: number, e: Error): string =>
  `${log}: ${who}: batch on ${topic}[${partition}] given up at the stop: ${e.message}`;
