// The Kafka log through kafkajs (the owner's named client).
// In: broker addresses and topic settings. Out: the Log seam (types.ts) on a real broker.
// - Producer: idempotent (so acks=all, retries without duplicates), partitioning by kafkajs's
//   DefaultPartitioner, which is the Java client's murmur2 (partitioner.ts, checked by the contract).
//   Its one request in flight makes concurrent send() calls queue behind each other (nine raw topics
//   a tick, three outputs a batch), so sends that arrive while a request is in flight go out together
//   as one multi-topic request when it returns (CoalescingSender): no added wait, one round trip.
// - Consumers: consumer groups with autoCommit off. A batch's next offset is committed only after the
//   handler resolves ("offsets committed only after the stage's output is written"). A throwing handler
//   gets the same batch again after a backoff (heartbeating meanwhile), as the embedded log does, so a
//   stage sees one behaviour in both modes. At-least-once: a rebalance or crash may redeliver.
//   Three partitions are handled at a time by default (order within each partition is kept: kafkajs
//   hands a partition to one worker per fetch and fetches again only when every batch is done).
// - Topics: created with the configured partitions, replication and cleanup.policy (retention.ms for
//   'delete' topics that set it); creating an existing topic keeps it.
import kafkajs from 'kafkajs';
import type { Admin, Consumer as KjsConsumer, Kafka as KafkaClient, Message, Producer as KjsProducer } from 'kafkajs';
import type { Batch, Consumer, ConsumerOptions, Log, LogRecord, OutgoingRecord, PartitionOffsets, Producer, TailOptions, TopicSpec } from './types.ts';
import { abandonedLine, isBatchAbandoned } from './types.ts';
import { groupTail } from './tail.ts';

const { Kafka, Partitioners, logLevel } = kafkajs;

export interface KafkaLogOptions {
  brokers: string[];
  clientId?: string;
  replication?: number;
  /** kafkajs log level name; 'error' by default (rebalances are routine). */
  logLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  /** First redelivery delay after a handler throws; doubles up to 5 s. */
  retryBackoffMs?: number;
  /**
   * Partitions of one consumer handled concurrently (order within each partition is kept); 3 by
   * default. With 1, each of a stage's partitions waits for the previous one's write and commit round
   * trips: 3,190 records/s against 5,000+ with 3 (bench/backbone.md).
   */
  partitionsConsumedConcurrently?: number;
  /**
   * Upper bound of one delivered batch: a larger fetched batch is handled and committed in pieces,
   * in order. Unbounded by default (a fetch returns up to 1 MB per partition). Tests that kill a
   * process mid-stream use small pieces so there is a stream to kill.
   */
  maxBatchRecords?: number;
  /**
   * Longest a fetch waits for data: 100 ms by default (was 1,000). A fetch returns as soon as data is
   * there; the wait bounds an idle long poll, how long stop() takes, and (bench/backbone.md) the
   * produce-to-visible p95, which was 593 ms with 1,000.
   */
  maxWaitTimeInMs?: number;
  onError?: (err: unknown, where: { groupId: string; topic: string; partition: number }) => void;
}

const levels = { nothing: logLevel.NOTHING, error: logLevel.ERROR, warn: logLevel.WARN, info: logLevel.INFO, debug: logLevel.DEBUG };

/**
 * kafkajs's own JSON lines, except that an error response of a broker ("[Connection] Response …":
 * the coordinator is loading or moved, a partition's leader changed) is a debug line: the client
 * retries it by its retry policy, and what still fails after that is thrown to the caller, who says
 * so. At startup and during a leader election those lines came by the dozen and said nothing an
 * operator could act on.
 */
function kafkaLogLines(configured: number): (entry: { namespace: string; level: number; label: string; log: { message: string; timestamp?: string } & Record<string, unknown> }) => void {
  return ({ namespace, level, label, log }) => {
    const { timestamp, message: _message, ...extra } = log;
    const message = namespace ? `[${namespace}] ${log.message}` : log.message;
    const brokerResponse = level === logLevel.ERROR && namespace === 'Connection' && log.message.startsWith('Response ');
    if (brokerResponse && configured < logLevel.DEBUG) return;
    const line = JSON.stringify({ level: label, timestamp, logger: 'kafkajs', message, ...extra });
    if (level <= logLevel.ERROR) console.error(line);
    else if (level === logLevel.WARN) console.warn(line);
    else console.log(line);
  };
}

export function toKafkaHeaders(h: Record<string, string> | undefined): Record<string, string> | undefined {
  return h && Object.keys(h).length ? h : undefined;
}

export function fromKafkaHeaders(h: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || v === null) continue;
    const one = Array.isArray(v) ? v[v.length - 1] : v;
    out[k] = Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
  }
  return out;
}

export function topicConfigEntries(spec: TopicSpec): Array<{ name: string; value: string }> {
  const entries: Array<{ name: string; value: string }> = [{ name: 'cleanup.policy', value: spec.cleanupPolicy }];
  if (spec.cleanupPolicy === 'delete') {
    entries.push({ name: 'retention.ms', value: String(spec.retentionMs ?? -1) });
    entries.push({ name: 'retention.bytes', value: String(spec.retentionBytes ?? -1) });
  }
  return entries;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Partitions a consumer handles at a time unless told otherwise (KafkaLogOptions). */
export const DEFAULT_PARTITIONS_CONSUMED_CONCURRENTLY = 3;

export class KafkaLog implements Log {
  readonly kind = 'kafka' as const;
  private readonly kafka: KafkaClient;
  private adminClient: Admin | null = null;
  private readonly producers = new Set<KjsProducer>();
  private readonly consumers = new Set<KafkaJsConsumer>();

  constructor(readonly options: KafkaLogOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'pm-data-api',
      brokers: options.brokers,
      logLevel: levels[options.logLevel ?? 'error'],
      logCreator: kafkaLogLines,
      retry: { retries: 8 },
    });
  }

  private adminConnecting: Promise<Admin> | null = null;

  /**
   * The one admin client, connected once: concurrent first calls (bin/status.ts reads every group
   * at once) share its connection instead of each connecting an admin that close() never sees and
   * whose sockets keep the process alive.
   */
  private admin(): Promise<Admin> {
    this.adminConnecting ??= (async () => {
      const a = this.kafka.admin();
      this.adminClient = a;
      try {
        await a.connect();
      } catch (e) {
        this.adminClient = null;
        this.adminConnecting = null;
        throw e;
      }
      return a;
    })();
    return this.adminConnecting;
  }

  async createTopics(specs: TopicSpec[]): Promise<void> {
    const admin = await this.admin();
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.name));
    if (!missing.length) return;
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((s) => ({
          topic: s.name,
          numPartitions: s.partitions,
          replicationFactor: this.options.replication ?? 1,
          configEntries: topicConfigEntries(s),
        })),
      });
    } catch (e) {
      // Another process may have created it in between: fine, as long as it now exists.
      const now = new Set(await admin.listTopics());
      if (!missing.every((s) => now.has(s.name))) throw e;
    }
    // Leaders can take a moment to be known everywhere: a ListOffsets right after creation answered
    // "not the leader" on a fresh broker. Return only once offsets can be read.
    for (const s of missing) {
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.fetchTopicOffsets(s.name);
          break;
        } catch (e) {
          if (attempt >= 50) throw e;
          await sleep(100);
        }
      }
    }
  }

  async producer(): Promise<Producer> {
    const p = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await p.connect();
    this.producers.add(p);
    const sender = new CoalescingSender(p);
    return {
      send: async (topic: string, records: OutgoingRecord[]) => {
        if (!records.length) return;
        await sender.send(
          topic,
          records.map((r) => ({
            key: r.key,
            value: r.value,
            timestamp: r.timestamp === undefined ? undefined : String(r.timestamp),
            headers: toKafkaHeaders(r.headers),
            ...(r.partition !== undefined ? { partition: r.partition } : {}),
          })),
        );
      },
      close: async () => {
        this.producers.delete(p);
        await p.disconnect();
      },
    };
  }

  consumer(options: ConsumerOptions): Consumer {
    const c = new KafkaJsConsumer(this.kafka, options, this.options, () => this.consumers.delete(c));
    this.consumers.add(c);
    return c;
  }

  tail(options: TailOptions): Consumer {
    return groupTail(this, options, this.options.clientId ?? 'pm-data-api');
  }

  async topicOffsets(topic: string): Promise<PartitionOffsets[]> {
    const admin = await this.admin();
    const offsets = await retriable(() => admin.fetchTopicOffsets(topic), this.options.retryBackoffMs ?? 100);
    return offsets.map((o) => ({ partition: o.partition, high: o.high, low: o.low })).sort((a, b) => a.partition - b.partition);
  }

  async offsetsForTime(topic: string, timestamp: number): Promise<Map<number, string>> {
    const admin = await this.admin();
    // kafkajs answers the high watermark for a partition with no record at or after the time.
    const res = await retriable(() => admin.fetchTopicOffsetsByTimestamp(topic, timestamp), this.options.retryBackoffMs ?? 100);
    return new Map(res.map((o) => [o.partition, o.offset]));
  }

  async groupOffsets(groupId: string, topic: string): Promise<Map<number, string>> {
    const admin = await this.admin();
    const res = await retriable(() => admin.fetchOffsets({ groupId, topics: [topic] }), this.options.retryBackoffMs ?? 100);
    const out = new Map<number, string>();
    for (const t of res) for (const p of t.partitions) if (Number(p.offset) >= 0) out.set(p.partition, p.offset);
    return out;
  }

  async resetGroup(groupId: string, topic: string, to: 'earliest' | { timestamp: number }): Promise<void> {
    const admin = await this.admin();
    const partitions =
      to === 'earliest'
        ? (await retriable(() => admin.fetchTopicOffsets(topic), this.options.retryBackoffMs ?? 100)).map((o) => ({ partition: o.partition, offset: o.low }))
        : // The first offset at or after the time; the high watermark where there is none.
          await retriable(() => admin.fetchTopicOffsetsByTimestamp(topic, to.timestamp), this.options.retryBackoffMs ?? 100);
    await admin.setOffsets({ groupId, topic, partitions });
  }

  async setGroupOffsets(groupId: string, topic: string, offsets: Map<number, string>): Promise<void> {
    const admin = await this.admin();
    await admin.setOffsets({ groupId, topic, partitions: [...offsets].map(([partition, offset]) => ({ partition, offset })) });
  }

  async deleteGroup(groupId: string): Promise<void> {
    const admin = await this.admin();
    await retriable(() => admin.deleteGroups([groupId]), this.options.retryBackoffMs ?? 100).catch((err: unknown) => {
      // A group that is already gone is what was asked for (GROUP_ID_NOT_FOUND, code 69).
      const g = (err as { groups?: { errorCode?: number; error?: { type?: string } }[] }).groups?.[0];
      if (!(g && (g.errorCode === 69 || g.error?.type === 'GROUP_ID_NOT_FOUND'))) throw err;
    });
  }

  async liveMembers(groupIds: string[]): Promise<Map<string, number>> {
    const admin = await this.admin();
    const { groups } = await retriable(() => admin.describeGroups(groupIds), this.options.retryBackoffMs ?? 100);
    return new Map(groups.map((g) => [g.groupId, g.members.length]));
  }

  async close(): Promise<void> {
    for (const c of [...this.consumers]) await c.stop();
    for (const p of [...this.producers]) await p.disconnect().catch(() => {});
    this.producers.clear();
    await this.adminClient?.disconnect().catch(() => {});
    this.adminClient = null;
    this.adminConnecting = null;
  }
}

interface PendingSend {
  topic: string;
  messages: Message[];
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * One request in flight (the idempotent producer's rule); what is asked for meanwhile is sent as one
 * sendBatch when it returns, in arrival order (so per topic-partition order is kept). A merged request
 * stays under MAX_MERGED_BYTES so no partition's record batch can pass the broker's 1 MB
 * message.max.bytes, whether by merging sends or by one large send (cut into several requests). A failed request
 * rejects every send() it carried; none of them is acknowledged.
 */
export class CoalescingSender {
  static readonly MAX_MERGED_BYTES = 512 * 1024;
  private pending: PendingSend[] = [];
  private flushing = false;

  constructor(private readonly producer: Pick<KjsProducer, 'sendBatch'>) {}

  send(topic: string, messages: Message[]): Promise<void> {
    // A large send (a stage's output for a whole batch, a replayed slate) is cut into requests under
    // MAX_MERGED_BYTES too: sent whole, its record batch passed the broker's 1 MB message.max.bytes
    // and the broker refused it (MESSAGE_TOO_LARGE, not retriable). The chunks stay in order; the
    // send resolves when all are acknowledged and rejects if any fails (the caller redelivers;
    // sinks are idempotent).
    const chunks: PendingSend[] = [];
    const done: Promise<void>[] = [];
    let current: Message[] = [];
    let bytes = 0;
    const cut = () => {
      const c = { topic, messages: current, bytes } as PendingSend;
      done.push(new Promise<void>((resolve, reject) => Object.assign(c, { resolve, reject })));
      chunks.push(c);
      current = [];
      bytes = 0;
    };
    for (const m of messages) {
      const size = (m.value?.length ?? 0) + (m.key?.length ?? 0) + 64;
      if (current.length && bytes + size > CoalescingSender.MAX_MERGED_BYTES) cut();
      current.push(m);
      bytes += size;
    }
    if (current.length || chunks.length === 0) cut();
    this.pending.push(...chunks);
    if (!this.flushing) {
      this.flushing = true;
      // Sends issued in the same turn of the event loop (Promise.all over topics) leave together.
      setImmediate(() => void this.flush());
    }
    return Promise.all(done).then(() => undefined);
  }

  private async flush(): Promise<void> {
    while (this.pending.length) {
      let take = 1;
      let bytes = this.pending[0]!.bytes;
      while (take < this.pending.length && bytes + this.pending[take]!.bytes <= CoalescingSender.MAX_MERGED_BYTES) bytes += this.pending[take++]!.bytes;
      const sends = this.pending.splice(0, take);
      const byTopic = new Map<string, Message[]>();
      for (const s of sends) {
        const list = byTopic.get(s.topic);
        if (list) for (const m of s.messages) list.push(m);
        else byTopic.set(s.topic, s.messages.slice());
      }
      try {
        await this.producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
        for (const s of sends) s.resolve();
      } catch (err) {
        for (const s of sends) s.reject(err);
      }
    }
    this.flushing = false;
  }
}

/**
 * Every partition to one member; the others get none and stand by. Sticky: the group's leader (the
 * member whose assigner runs) keeps the member it chose while that member is in the group, so a
 * standby joining never takes the work over; when the active member leaves, the next (first by
 * member id) is given everything.
 */
const activeStandbyAssigner: kafkajs.PartitionAssigner = ({ cluster }) => {
  let active: string | undefined;
  return {
    name: 'ActiveStandbyAssigner',
    version: 0,
    async assign({ members, topics }) {
      const ids = members.map((m) => m.memberId).sort();
      active = active !== undefined && ids.includes(active) ? active : ids[0];
      const assignment: Record<string, number[]> = {};
      for (const topic of topics) assignment[topic] = cluster.findTopicPartitionMetadata(topic).map((m) => m.partitionId);
      return ids.map((memberId) => ({
        memberId,
        memberAssignment: kafkajs.AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: memberId === active ? assignment : {}, userData: Buffer.alloc(0) }),
      }));
    },
    protocol({ topics }) {
      return { name: 'ActiveStandbyAssigner', metadata: kafkajs.AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }) };
    },
  };
};

class KafkaJsConsumer implements Consumer {
  private consumer: KjsConsumer | null = null;
  private stopping = false;

  constructor(
    private readonly kafka: KafkaClient,
    private readonly options: ConsumerOptions,
    private readonly logOptions: KafkaLogOptions,
    private readonly onStopped: () => void,
  ) {}

  async run(handler: (batch: Batch) => Promise<void>): Promise<void> {
    if (this.consumer) throw new Error('consumer is already running');
    const { groupId, topics, fromBeginning } = this.options;
    const c = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      // A standby takes over from a member that died once its session times out: keep that short.
      sessionTimeout: this.options.exclusive ? 10_000 : 30_000,
      heartbeatInterval: this.options.exclusive ? 1000 : 3000,
      ...(this.options.exclusive ? { partitionAssigners: [activeStandbyAssigner] } : {}),
      maxWaitTimeInMs: this.logOptions.maxWaitTimeInMs ?? 100,
    });
    this.consumer = c;
    const told = this.options.onAssignment;
    if (told) {
      // Nothing is assigned until the group says so: a member still joining stands by.
      told(0);
      c.on(c.events.GROUP_JOIN, ({ payload }) => told(Object.values(payload.memberAssignment).reduce((n, ps) => n + ps.length, 0)));
    }
    await c.connect();
    await c.subscribe({ topics, fromBeginning });
    const backoff = this.logOptions.retryBackoffMs ?? 100;
    let abandonSaid = false;
    await c.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.logOptions.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS_CONSUMED_CONCURRENTLY,
      eachBatch: async ({ batch, heartbeat, isRunning, isStale, resolveOffset, commitOffsetsIfNecessary }) => {
        if (!batch.messages.length) return;
        const all: LogRecord[] = batch.messages.map((m) => ({
          topic: batch.topic,
          partition: batch.partition,
          offset: m.offset,
          key: m.key ?? null,
          value: m.value ?? null,
          timestamp: Number(m.timestamp),
          headers: fromKafkaHeaders(m.headers as Record<string, unknown> | undefined),
        }));
        const size = this.logOptions.maxBatchRecords ?? all.length;
        for (let from = 0; from < all.length; from += size) {
          const records = all.slice(from, from + size);
          for (let failures = 0; ; failures++) {
            if (this.stopping || !isRunning() || isStale()) return; // not committed: redelivered later
            try {
              const waiting = Math.max(0, Number(batch.highWatermark) - (Number(records[records.length - 1]!.offset) + 1));
              await handler({ topic: batch.topic, partition: batch.partition, records, ...(Number.isFinite(waiting) && { waiting }) });
              break;
            } catch (err) {
              if (this.logOptions.onError) this.logOptions.onError(err, { groupId, topic: batch.topic, partition: batch.partition });
              else if (isBatchAbandoned(err)) {
                // Said once: until its runner stops, every batch it is given fails the same way.
                if (!abandonSaid) console.error(abandonedLine('kafka log', `group ${groupId}`, batch.topic, batch.partition, err));
                abandonSaid = true;
              } else console.error(`kafka log: handler of group ${groupId} failed on ${batch.topic}[${batch.partition}], will redeliver:`, err);
              const wait = Math.min(5000, backoff * 2 ** failures);
              for (let waited = 0; waited < wait && !this.stopping; waited += 200) {
                await sleep(Math.min(200, wait - waited));
                await heartbeat().catch(() => {});
              }
            }
          }
          const last = records[records.length - 1]!.offset;
          // Through the batch's own commit, not consumer.commitOffsets(): that one silently does
          // nothing once stop() has begun (kafkajs's runner checks `running`), so a batch in flight at
          // stop() was written but not committed and came again after the restart (up to one per
          // partition at a time). The group is left only after in-flight batches finish, so this
          // commit is still valid. A retriable failure (coordinator moving, a timeout) is tried again
          // a few times; any other (a rebalance) throws: kafkajs rejoins and fetches again from the
          // last resolved offset, which moves only below, so the batch is redelivered (at-least-once).
          const offset = (BigInt(last) + 1n).toString();
          try {
            await retriable(
              () => commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset }] }] }),
              100,
              () => this.stopping,
              // A few attempts, as before: the batch is redelivered if it fails, and the group's
              // session must not lapse while a commit waits.
              1_500,
            );
          } catch (err) {
            if (this.stopping) return; // not committed: redelivered after the restart
            throw err;
          }
          // The local fetch position moves on only once the commit is through.
          resolveOffset(last);
          // Between pieces, as kafkajs does between batches; a rebalance error ends this batch here
          // (kafkajs rejoins and fetches from what was committed).
          if (from + size < all.length && !this.stopping) await heartbeat();
        }
      },
    });
    // Every named partition of every topic at once: kafkajs applies a seek before its next fetch of
    // that partition, so the whole start costs this one consumer's join.
    for (const [topic, offsets] of this.options.startAt ?? []) for (const [partition, offset] of offsets) c.seek({ topic, partition, offset });
  }

  /** Stops fetching; an in-flight handler finishes and its batch is committed first, as on the embedded log. */
  async stop(): Promise<void> {
    this.stopping = true;
    const c = this.consumer;
    if (c) {
      await c.stop().catch(() => {});
      await c.disconnect().catch(() => {});
    }
    this.consumer = null;
    this.onStopped();
  }
}

/** How long an admin read keeps retrying a retriable error (a broker electing leaders or a coordinator). */
export const RETRY_BUDGET_MS = 20_000;

/**
 * Retries what the broker calls retriable (kafkajs marks such errors `retriable`) with doubling
 * backoff (at most a second between attempts) until `budgetMs` has passed; `stop` says when to give
 * up at once (the consumer is stopping). For batch commits (coordinator moving, a timeout) and for
 * offset reads: kafkajs's admin does not retry an offset fetch that meets NOT_COORDINATOR or
 * NOT_LEADER_FOR_PARTITION. Why a time budget and not five attempts (1.5 s): on a broker just
 * started, on a loaded machine, leaders and the coordinator took longer than that to be known, and
 * an API replica starting then died on its stream hub's first offset read ("This server is not the
 * leader for that topic-partition") where a few seconds more would have found the leader.
 */
export async function retriable<T>(fn: () => Promise<T>, backoffMs: number, stop?: () => boolean, budgetMs = RETRY_BUDGET_MS): Promise<T> {
  const start = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const wait = Math.min(backoffMs * 2 ** (attempt - 1), 1_000);
      if (stop?.() || !(err as { retriable?: boolean }).retriable || performance.now() - start + wait > budgetMs) throw err;
      await sleep(wait);
    }
  }
}
