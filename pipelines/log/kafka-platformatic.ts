// The Kafka log through @platformatic/kafka (KAFKA_CLIENT=platformatic): maintained, pure TypeScript,
// the alternative to kafkajs the issue asks to measure. In: broker addresses. Out: the Log seam with
// exactly the semantics of kafka.ts (same contract suite):
// - Producer: idempotent, acks=all, the Java client's murmur2 partitioning (the library's own default
//   uses an unsigned hash, which would put keys on other partitions than kafkajs and Java clients).
// - Consumers: the library delivers a stream of messages; this reads what has arrived, groups it per
//   partition into batches, and commits a batch's next offset only after the handler resolves. A
//   throwing handler gets the same batch again after a backoff. At-least-once. Three partitions'
//   batches are handled at a time by default, as kafka.ts does (one batch per partition per read, and
//   the next read waits for all of them, so order within a partition is kept).
// - Admin (topics, offsets, resets) through the library's Admin client.
import { Admin, Consumer as PltConsumer, Producer as PltProducer, type Message, type MessagesStream } from '@platformatic/kafka';
import { murmur2 } from './partitioner.ts';
import { DEFAULT_PARTITIONS_CONSUMED_CONCURRENTLY, topicConfigEntries } from './kafka.ts';
import type { Batch, Consumer, ConsumerOptions, Log, LogRecord, OutgoingRecord, PartitionOffsets, Producer, TailOptions, TopicSpec } from './types.ts';
import { groupTail } from './tail.ts';

export interface PlatformaticKafkaLogOptions {
  brokers: string[];
  clientId?: string;
  replication?: number;
  retryBackoffMs?: number;
  /** Upper bound of one delivered batch. */
  maxBatchRecords?: number;
  /**
   * Longest a fetch waits for data: 100 ms by default, as kafka.ts. It bounds how long a record that
   * arrives while a fetch waits takes to be seen: with 1,000 the produce-to-visible p50 through this
   * client was about one second (bench/backbone.md).
   */
  maxWaitTime?: number;
  /** Partitions handled concurrently (order within each is kept); 3 by default, as kafka.ts. */
  partitionsConsumedConcurrently?: number;
  onError?: (err: unknown, where: { groupId: string; topic: string; partition: number }) => void;
}

type Msg = Message<Buffer, Buffer, Buffer, Buffer>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const EARLIEST = -2n;
const LATEST = -1n;

export class PlatformaticKafkaLog implements Log {
  readonly kind = 'kafka' as const;
  private adminClient: Admin | null = null;
  private readonly producers = new Set<PltProducer<Buffer, Buffer, Buffer, Buffer>>();
  private readonly consumers = new Set<PlatformaticConsumer>();

  constructor(readonly options: PlatformaticKafkaLogOptions) {}

  private get clientId(): string {
    return this.options.clientId ?? 'pm-data-api';
  }

  private admin(): Admin {
    if (!this.adminClient) this.adminClient = new Admin({ clientId: this.clientId, bootstrapBrokers: this.options.brokers });
    return this.adminClient;
  }

  async createTopics(specs: TopicSpec[]): Promise<void> {
    const admin = this.admin();
    const existing = new Set(await admin.listTopics());
    for (const s of specs) {
      if (existing.has(s.name)) continue;
      try {
        await admin.createTopics({
          topics: [s.name],
          partitions: s.partitions,
          replicas: this.options.replication ?? 1,
          configs: topicConfigEntries(s),
        });
      } catch (e) {
        if (!(await admin.listTopics()).includes(s.name)) throw e;
      }
    }
    // Wait until the new topics have leaders (metadata answers with every partition).
    for (const s of specs) {
      for (let i = 0; i < 100; i++) {
        const md = await admin.metadata({ topics: [s.name], forceUpdate: true }).catch(() => null);
        const t = md?.topics.get(s.name);
        if (t && t.partitions.length === t.partitionsCount && t.partitions.every((p) => p.leader >= 0)) break;
        await sleep(100);
      }
    }
  }

  async producer(): Promise<Producer> {
    let rr = 0;
    const p = new PltProducer<Buffer, Buffer, Buffer, Buffer>({
      clientId: this.clientId,
      bootstrapBrokers: this.options.brokers,
      idempotent: true,
      acks: -1,
      autocreateTopics: false,
      // The library reduces this modulo the partition count: murmur2 masked as Java does.
      partitioner: (_m, key) => (key && key.length ? murmur2(key) & 0x7fffffff : rr++ & 0x7fffffff),
    });
    this.producers.add(p);
    // One produce request at a time: the idempotent producer numbers batches per partition, and
    // concurrent send() calls reach the broker out of order (OUT_OF_ORDER_SEQUENCE_NUMBER, found by
    // bench/log-kafka.ts). Calls made while one is in flight are coalesced into the next request.
    type Msg = Parameters<typeof p.send>[0]['messages'][number];
    // Requests stay under MAX_REQUEST_BYTES, merged or cut, so no partition's record batch passes the
    // broker's 1 MB message.max.bytes (MESSAGE_TOO_LARGE is not retriable).
    const MAX_REQUEST_BYTES = 512 * 1024;
    let queue: Array<{ messages: Msg[]; bytes: number; resolve: () => void; reject: (e: unknown) => void }> = [];
    let inFlight = false;
    const pump = async (): Promise<void> => {
      if (inFlight || !queue.length) return;
      inFlight = true;
      let take = 1;
      let bytes = queue[0].bytes;
      while (take < queue.length && bytes + queue[take].bytes <= MAX_REQUEST_BYTES) bytes += queue[take++].bytes;
      const taken = queue.slice(0, take);
      queue = queue.slice(take);
      try {
        await p.send({ messages: taken.flatMap((t) => t.messages) });
        for (const t of taken) t.resolve();
      } catch (e) {
        for (const t of taken) t.reject(e);
      } finally {
        inFlight = false;
        void pump();
      }
    };
    return {
      send: (topic: string, records: OutgoingRecord[]) => {
        if (!records.length) return Promise.resolve();
        const messages: Msg[] = records.map((r) => ({
          topic,
          key: r.key ?? undefined,
          value: r.value ?? undefined,
          timestamp: r.timestamp === undefined ? undefined : BigInt(r.timestamp),
          headers:
            r.headers && Object.keys(r.headers).length
              ? new Map(Object.entries(r.headers).map(([k, v]) => [Buffer.from(k), Buffer.from(v)]))
              : undefined,
          ...(r.partition !== undefined ? { partition: r.partition } : {}),
        }));
        const done: Promise<void>[] = [];
        let chunk: Msg[] = [];
        let bytes = 0;
        const cut = () => {
          const c = { messages: chunk, bytes };
          done.push(new Promise<void>((resolve, reject) => queue.push({ ...c, resolve, reject })));
          chunk = [];
          bytes = 0;
        };
        records.forEach((r, i) => {
          const size = (r.value?.length ?? 0) + (r.key?.length ?? 0) + 64;
          if (chunk.length && bytes + size > MAX_REQUEST_BYTES) cut();
          chunk.push(messages[i]);
          bytes += size;
        });
        cut();
        void pump();
        return Promise.all(done).then(() => undefined);
      },
      close: async () => {
        this.producers.delete(p);
        await p.close();
      },
    };
  }

  tail(options: TailOptions): Consumer {
    return groupTail(this, options, this.clientId);
  }

  consumer(options: ConsumerOptions): Consumer {
    const startAt = options.startAt;
    if (startAt) {
      // Set on the (not yet joined) group before the consumer starts: this client's admin commits directly.
      const inner = this.consumer({ ...options, startAt: undefined });
      return {
        run: async (handler) => {
          await this.setGroupOffsets(options.groupId, startAt.topic, startAt.offsets);
          return inner.run(handler);
        },
        stop: () => inner.stop(),
      };
    }
    const c = new PlatformaticConsumer(options, this.options, this.clientId, () => this.consumers.delete(c));
    this.consumers.add(c);
    return c;
  }

  private async listOffsets(topic: string, timestamp: bigint): Promise<Map<number, bigint>> {
    const admin = this.admin();
    const md = await admin.metadata({ topics: [topic] });
    const count = md.topics.get(topic)?.partitionsCount;
    if (!count) throw new Error(`unknown topic ${JSON.stringify(topic)}`);
    const res = await admin.listOffsets({
      topics: [{ name: topic, partitions: Array.from({ length: count }, (_, i) => ({ partitionIndex: i, timestamp })) }],
    });
    const out = new Map<number, bigint>();
    for (const t of res) for (const p of t.partitions) out.set(p.partitionIndex, p.offset);
    return out;
  }

  async topicOffsets(topic: string): Promise<PartitionOffsets[]> {
    const [low, high] = await Promise.all([this.listOffsets(topic, EARLIEST), this.listOffsets(topic, LATEST)]);
    return [...high.keys()].sort((a, b) => a - b).map((p) => ({ partition: p, high: String(high.get(p)), low: String(low.get(p)) }));
  }

  async groupOffsets(groupId: string, topic: string): Promise<Map<number, string>> {
    const admin = this.admin();
    const md = await admin.metadata({ topics: [topic] });
    const count = md.topics.get(topic)?.partitionsCount ?? 0;
    const res = await admin.listConsumerGroupOffsets({
      groups: [{ groupId, topics: [{ name: topic, partitionIndexes: Array.from({ length: count }, (_, i) => i) }] }],
    } as never);
    const out = new Map<number, string>();
    for (const g of res)
      for (const t of g.topics)
        if (t.name === topic) for (const p of t.partitions) if (p.committedOffset >= 0n) out.set(p.partitionIndex, String(p.committedOffset));
    return out;
  }

  async resetGroup(groupId: string, topic: string, to: 'earliest' | { timestamp: number }): Promise<void> {
    let offsets: Map<number, bigint>;
    if (to === 'earliest') offsets = await this.listOffsets(topic, EARLIEST);
    else {
      // The first offset at or after the time; the high watermark where there is none (as kafkajs).
      const [at, high] = await Promise.all([this.listOffsets(topic, BigInt(to.timestamp)), this.listOffsets(topic, LATEST)]);
      offsets = new Map([...at].map(([p, o]) => [p, o >= 0n ? o : high.get(p)!]));
    }
    await this.admin().alterConsumerGroupOffsets({
      groupId,
      topics: [{ name: topic, partitionOffsets: [...offsets].map(([partition, offset]) => ({ partition, offset })) }],
    });
  }

  async setGroupOffsets(groupId: string, topic: string, offsets: Map<number, string>): Promise<void> {
    await this.admin().alterConsumerGroupOffsets({
      groupId,
      topics: [{ name: topic, partitionOffsets: [...offsets].map(([partition, offset]) => ({ partition, offset: BigInt(offset) })) }],
    });
  }

  async deleteGroup(groupId: string): Promise<void> {
    await this.admin()
      .deleteGroups({ groups: [groupId] })
      .catch((err: unknown) => {
        // A group that is already gone is what was asked for.
        if (!/GROUP_ID_NOT_FOUND|does not exist/i.test(JSON.stringify(err, Object.getOwnPropertyNames(err)))) throw err;
      });
  }

  async close(): Promise<void> {
    for (const c of [...this.consumers]) await c.stop();
    for (const p of [...this.producers]) await p.close().catch(() => {});
    this.producers.clear();
    await this.adminClient?.close().catch(() => {});
    this.adminClient = null;
  }
}

class PlatformaticConsumer implements Consumer {
  private consumer: PltConsumer<Buffer, Buffer, Buffer, Buffer> | null = null;
  private stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | null = null;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private failed = false;

  constructor(
    private readonly options: ConsumerOptions,
    private readonly logOptions: PlatformaticKafkaLogOptions,
    private readonly clientId: string,
    private readonly onStopped: () => void,
  ) {}

  async run(handler: (batch: Batch) => Promise<void>): Promise<void> {
    if (this.consumer) throw new Error('consumer is already running');
    await this.start();
    this.loop = this.consume(handler);
  }

  /** Joins the group and opens the message stream (again after a failure: see consume()). */
  private async start(): Promise<void> {
    const { groupId, topics, fromBeginning } = this.options;
    const c = new PltConsumer<Buffer, Buffer, Buffer, Buffer>({
      clientId: this.clientId,
      bootstrapBrokers: this.logOptions.brokers,
      groupId,
      autocreateTopics: false,
      sessionTimeout: 30_000,
      heartbeatInterval: 3000,
      maxWaitTime: this.logOptions.maxWaitTime ?? 100,
    });
    this.consumer = c;
    const stream = await c.consume({
      topics,
      autocommit: false,
      mode: 'committed',
      fallbackMode: fromBeginning ? 'earliest' : 'latest',
      highWaterMark: this.logOptions.maxBatchRecords ?? 5000,
    });
    this.stream = stream;
    stream.on('readable', () => this.wake?.());
    stream.on('error', (err) => {
      if (this.stopping) return;
      console.error(`kafka log (platformatic): consumer of group ${groupId} failed, restarting from the committed offsets:`, err);
      this.failed = true;
      this.wake?.();
    });
  }

  /** Closes the current stream and consumer, waiting for both. */
  private async closeClients(): Promise<void> {
    const stream = this.stream;
    const c = this.consumer;
    this.stream = null;
    this.consumer = null;
    if (stream) await new Promise<void>((resolve) => stream.close(() => resolve()));
    if (c) await new Promise<void>((resolve) => c.close(true, () => resolve()));
  }

  private async consume(handler: (batch: Batch) => Promise<void>): Promise<void> {
    const { groupId } = this.options;
    const max = this.logOptions.maxBatchRecords ?? 5000;
    while (!this.stopping) {
      if (this.failed || !this.stream) {
        // A failed stream is destroyed: rejoin as kafkajs does (restartOnFailure), from the commits.
        this.failed = false;
        await this.closeClients();
        await sleep(1000);
        if (this.stopping) return;
        try {
          await this.start();
        } catch (err) {
          console.error(`kafka log (platformatic): consumer of group ${groupId} could not restart:`, err);
          this.failed = true;
        }
        continue;
      }
      const stream = this.stream;
      const got: Msg[] = [];
      let m: Msg | null;
      while (got.length < max && (m = stream.read() as Msg | null) !== null) got.push(m);
      if (!got.length) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, 200);
        });
        this.wake = null;
        continue;
      }
      // One batch per partition, in arrival (= offset) order within each.
      const byPartition = new Map<string, Msg[]>();
      for (const msg of got) {
        const k = `${msg.topic}\u0000${msg.partition}`;
        let arr = byPartition.get(k);
        if (!arr) byPartition.set(k, (arr = []));
        arr.push(msg);
      }
      const batches = [...byPartition.values()];
      const workers = Math.min(batches.length, this.logOptions.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS_CONSUMED_CONCURRENTLY);
      await Promise.all(
        Array.from({ length: workers }, async () => {
          for (let msgs; (msgs = batches.shift()); ) await this.handlePartition(msgs, handler);
        }),
      );
    }
  }

  /** One partition's batch: handled (again after a backoff while it throws), then committed. */
  private async handlePartition(msgs: Msg[], handler: (batch: Batch) => Promise<void>): Promise<void> {
    const { groupId } = this.options;
    const backoff = this.logOptions.retryBackoffMs ?? 100;
    const first = msgs[0]!;
    const records: LogRecord[] = msgs.map((x) => ({
      topic: x.topic,
      partition: x.partition,
      offset: x.offset.toString(),
      key: x.key && x.key.length ? x.key : x.key === undefined || x.key === null ? null : x.key,
      value: x.value === undefined || x.value === null ? null : x.value,
      timestamp: Number(x.timestamp),
      headers: Object.fromEntries([...x.headers].map(([k, v]) => [k.toString(), v.toString()])),
    }));
    for (let failures = 0; ; failures++) {
      if (this.stopping) return; // not committed: redelivered to the group later
      try {
        await handler({ topic: first.topic, partition: first.partition, records });
        break;
      } catch (err) {
        if (this.logOptions.onError) this.logOptions.onError(err, { groupId, topic: first.topic, partition: first.partition });
        else console.error(`kafka log (platformatic): handler of group ${groupId} failed on ${first.topic}[${first.partition}], will redeliver:`, err);
        await sleep(Math.min(5000, backoff * 2 ** failures));
      }
    }
    // Commits offset + 1 of the batch's last message. A failed commit (the partition moved in a
    // rebalance) is not fatal: the group redelivers from its last commit (at-least-once).
    try {
      await msgs[msgs.length - 1]!.commit();
    } catch (err) {
      if (!this.stopping) console.error(`kafka log (platformatic): commit of group ${groupId} on ${first.topic}[${first.partition}] failed:`, err);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop?.catch(() => {});
    await this.closeClients();
    this.onStopped();
  }
}
