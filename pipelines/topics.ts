// The topic map: every topic of the backbone in one place, with its key, value schema, partitioning
// and cleanup policy. In: a name prefix (empty in production; random per test, "Every test its own
// names") and the partition/retention settings from config. Out: typed topic definitions that the
// serde, the stage runner, replay and status all read, and createAllTopics() that makes them on a Log.
// pipelines/TOPICS.md documents the same table for people.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Log, TopicSpec, CleanupPolicy } from './log/types.ts';

// The provider tokens are the spec's, declared once in the service's vocabulary.
export { PROVIDERS, type Provider } from '../lib/vocabulary.ts';
import { PROVIDERS, type Provider } from '../lib/vocabulary.ts';

// ---- Value types (mirror schemas/*.avsc; timestamp-millis fields are Unix ms numbers) ----

export interface RawRecord {
  venue: string;
  record_type: string;
  native_id: string;
  read_started_at: number;
  /** The venue's JSON as read, unparsed. */
  payload: string;
  read_id?: string | null;
  source_url?: string | null;
}

export interface CanonicalMarket {
  provider: string;
  market_id: string;
  event_id?: string | null;
  title: string;
  status: string;
  category?: string | null;
  league?: string | null;
  market_type?: string | null;
  read_started_at: number;
  body_version?: number;
  /** Full canonical market as JSON. */
  body: string;
}

/** A `matched.events` record: one served event, its list-shape body as JSON (the event itself is matching/types.ts MatchedEvent). */
export interface MatchedEventRecord {
  event_id: string;
  league: string;
  sport: string;
  title: string;
  scheduled_date: string;
  scheduled_start: number | null;
  participant_keys: string[];
  population: string;
  submarket_count: number;
  observed_at: number;
  body_version?: number;
  /** The event with submarkets as JSON, in the API's list shape. */
  body: string;
  strict_prop_keys?: string[];
  lookup_ids?: string[];
  /** The lifecycle's archive reason of a settled event; null (or absent in older records) while current. */
  archive_reason?: string | null;
}

export interface LifecycleState {
  event_id: string;
  state: string;
  updated_at: number;
  /** XState persisted snapshot as JSON. */
  snapshot: string;
}

export interface DeadLetter {
  stage: string;
  topic: string;
  partition: number;
  offset: string;
  reason: string;
  failed_at: number;
  key?: Buffer | null;
  value?: Buffer | null;
}

/** Logical topic ids: what code refers to. The physical name adds the prefix. */
export interface TopicValues {
  'raw.venue_1': RawRecord;
  'raw.venue_2': RawRecord;
  'raw.venue_3': RawRecord;
  'raw.venue_4': RawRecord;
  'raw.venue_5': RawRecord;
  'raw.venue_6': RawRecord;
  'raw.venue_7': RawRecord;
  'raw.venue_8': RawRecord;
  'raw.venue_9': RawRecord;
  'canonical.markets': CanonicalMarket;
  'matched.events': MatchedEventRecord;
  'lifecycle.states': LifecycleState;
  'reference.rosters': RawRecord;
  'reference.fee_schedules': RawRecord;
  'matching.state': RawRecord;
  'pollers.state': RawRecord;
  'dead.letters': DeadLetter;
}
export type TopicId = keyof TopicValues;
export type RawTopicId = `raw.${Provider}`;

export interface TopicDef<Id extends TopicId = TopicId> {
  id: Id;
  /** Physical topic name (prefix + id). */
  name: string;
  /** Schema files under schemas/. Subjects are '<name>-key' and '<name>-value' (TopicNameStrategy). */
  keySchemaFile: string;
  valueSchemaFile: string;
  /** How the string key is built, for people (TOPICS.md repeats it). */
  keyFormat: string;
  partitions: number;
  cleanupPolicy: CleanupPolicy;
  retentionMs?: number;
  /** Bytes kept per partition ('delete' topics): the size half of the storage budget. */
  retentionBytes?: number;
  description: string;
}

export type TopicMap = { [Id in TopicId]: TopicDef<Id> };

export interface TopicSettings {
  /** Prepended to every name; '' in production, random per test. */
  prefix?: string;
  /** KAFKA_PARTITIONS. */
  partitions?: number;
  /** Retention of raw venue topics (RAW_RETENTION_MS), default 7 days. */
  rawRetentionMs?: number;
  /** Bytes kept per partition of a raw venue topic (RAW_RETENTION_BYTES), default 512 MiB. */
  rawRetentionBytes?: number;
  /** Retention of catalog rows (CATALOG_RETENTION_MS plus one refresh), default 9 hours. */
  catalogRetentionMs?: number;
}

const DAY = 86_400_000;
/** RAW_RETENTION_BYTES unset: 512 MiB per partition of each raw topic (README "Storage budget"). */
export const DEFAULT_RAW_RETENTION_BYTES = 512 * 1024 * 1024;

/** Builds the topic map. Pure: same settings, same map. */
export function defineTopics(settings: TopicSettings = {}): TopicMap {
  const prefix = settings.prefix ?? '';
  const partitions = settings.partitions ?? 3;
  const rawRetentionMs = settings.rawRetentionMs ?? 7 * DAY;
  const rawRetentionBytes = settings.rawRetentionBytes ?? DEFAULT_RAW_RETENTION_BYTES;
  const raw = Object.fromEntries(
    PROVIDERS.map((p) => [
      `raw.${p}`,
      {
        id: `raw.${p}`,
        name: `${prefix}raw.${p}`,
        keySchemaFile: 'raw_record.key.avsc',
        valueSchemaFile: 'raw_record.value.avsc',
        keyFormat: p === 'venue_1' ? '<native_id>; a market: its event_ticker (with its event, in order)' : '<native_id>',
        partitions,
        // Raw reads are history, not state: every read is kept for the retention period so replay
        // can rebuild everything downstream, then dropped.
        cleanupPolicy: 'delete',
        retentionMs: rawRetentionMs,
        retentionBytes: rawRetentionBytes,
        description: `Every record read from ${p}, as read.`,
      },
    ]),
  ) as Pick<TopicMap, RawTopicId>;
  return {
    ...raw,
    'canonical.markets': {
      id: 'canonical.markets',
      name: `${prefix}canonical.markets`,
      keySchemaFile: 'market.key.avsc',
      valueSchemaFile: 'canonical_market.value.avsc',
      keyFormat: '<provider>:<market_id>',
      partitions,
      cleanupPolicy: 'compact',
      description: 'Current canonical shape of every venue market.',
    },
    'matched.events': {
      id: 'matched.events',
      name: `${prefix}matched.events`,
      keySchemaFile: 'event.key.avsc',
      valueSchemaFile: 'matched_event.value.avsc',
      keyFormat: '<event_id>',
      partitions,
      cleanupPolicy: 'compact',
      description: 'Current matched sports events with their submarkets; tombstone removes.',
    },
    'lifecycle.states': {
      id: 'lifecycle.states',
      name: `${prefix}lifecycle.states`,
      keySchemaFile: 'event.key.avsc',
      valueSchemaFile: 'lifecycle_state.value.avsc',
      keyFormat: '<event_id>',
      partitions,
      cleanupPolicy: 'compact',
      description: 'Current population lifecycle state (XState snapshot) per sports event.',
    },
    'reference.rosters': {
      id: 'reference.rosters',
      name: `${prefix}reference.rosters`,
      keySchemaFile: 'state.key.avsc',
      valueSchemaFile: 'raw_record.value.avsc',
      keyFormat: 'roster|<league>|<team>',
      partitions,
      // Reference data read by the pollers (the sports data source's team rosters); the matcher
      // needs only the latest roster of each team, and a restart or replay reads it back from here.
      cleanupPolicy: 'compact',
      description: 'Latest roster of every team, as read from the sports data source.',
    },
    'reference.fee_schedules': {
      id: 'reference.fee_schedules',
      name: `${prefix}reference.fee_schedules`,
      keySchemaFile: 'state.key.avsc',
      valueSchemaFile: 'raw_record.value.avsc',
      keyFormat: 'fees|<venue>|<series>',
      partitions,
      // Reference data read by the pollers (venue_1's fee schedule per series with its scheduled
      // changes, which the listing does not carry); the prices view needs only the latest of each
      // series, and a restart or replay reads it back from here. A tombstone: the series has no
      // schedule any more.
      cleanupPolicy: 'compact',
      description: 'Latest fee schedule and scheduled fee changes of every venue_1 series, as read.',
    },
    'matching.state': {
      id: 'matching.state',
      name: `${prefix}matching.state`,
      keySchemaFile: 'state.key.avsc',
      valueSchemaFile: 'raw_record.value.avsc',
      keyFormat: 'crawl|<venue>|<feed>, event|venue_1|<event_ticker> or reading|<reader version>|<text digest>',
      partitions,
      // The canonicalizer's state, written in the same batch as its outputs (before the commit), so
      // a restart at any point resumes with what it needs to decide deletions: the last complete
      // crawl it applied per venue and feed, and the venue_1 event records that its markets read.
      // With them, the rules reader's readings of each text, so a restart reads no text again.
      cleanupPolicy: 'compact',
      description: "The canonicalizer's restart state: last applied crawl marker per venue and feed; venue_1 event records; the rules reader's readings per text.",
    },
    'pollers.state': {
      id: 'pollers.state',
      name: `${prefix}pollers.state`,
      keySchemaFile: 'state.key.avsc',
      valueSchemaFile: 'raw_record.value.avsc',
      keyFormat: 'hash|<venue>|<feed>|<record_type>:<native_id>, feed|<venue>|<feed> or crawl|<venue>|<feed>',
      partitions,
      // Change-only ingestion (POLL_CHANGE_ONLY): the content hash of every record a feed last
      // published and the start of its last full crawl, written after each complete crawl, so a
      // restarted poller publishes only what changed since (pollers/state.ts). A record that left
      // the listing is a tombstone. And the start of the listing feed's last complete crawl per venue
      // (with or without change-only ingestion), so its cadence goes on across a restart (pollers/cadence.ts).
      cleanupPolicy: 'compact',
      description: "The pollers' memory: content hash per published record, last full crawl per feed, last complete listing crawl's start per venue.",
    },
    'dead.letters': {
      id: 'dead.letters',
      name: `${prefix}dead.letters`,
      keySchemaFile: 'state.key.avsc',
      valueSchemaFile: 'dead_letter.value.avsc',
      keyFormat: '<stage>|<topic>|<partition>|<offset>',
      partitions: 1,
      cleanupPolicy: 'delete',
      retentionMs: rawRetentionMs,
      retentionBytes: rawRetentionBytes,
      description: 'Records a stage could not read, with the reason; they never block their partition.',
    },
  };
}

/** The production map (no prefix, default partitions). Prefer defineTopics(topicSettings(config)). */
export const TOPICS: TopicMap = defineTopics();

export const RAW_TOPIC_IDS: RawTopicId[] = PROVIDERS.map((p) => `raw.${p}` as RawTopicId);

export function rawTopicId(provider: Provider): RawTopicId {
  return `raw.${provider}`;
}

/**
 * Topic settings from config (lib/config.ts). Embedded, every topic has one partition: the embedded
 * log runs one consumer per group that reads its partitions one after another, so partitions buy no
 * parallelism there and only cut batches (and read-model inserts) into smaller pieces. On Kafka,
 * KAFKA_PARTITIONS lets a stage run as several consumers.
 */
export function topicSettings(config: {
  TOPIC_PREFIX?: string;
  KAFKA_BROKERS?: string;
  KAFKA_PARTITIONS: number;
  RAW_RETENTION_MS?: number;
  RAW_RETENTION_BYTES?: number;
  CATALOG_RETENTION_MS?: number;
  CATALOG_REFRESH_MS?: number;
}): TopicSettings {
  return {
    prefix: config.TOPIC_PREFIX ?? '',
    partitions: config.KAFKA_BROKERS ? config.KAFKA_PARTITIONS : 1,
    rawRetentionMs: config.RAW_RETENTION_MS,
    rawRetentionBytes: config.RAW_RETENTION_BYTES,
    catalogRetentionMs:
      config.CATALOG_RETENTION_MS !== undefined
        ? config.CATALOG_RETENTION_MS + (config.CATALOG_REFRESH_MS ?? 0)
        : undefined,
  };
}

export function topicSpecs(topics: TopicMap): TopicSpec[] {
  return Object.values(topics).map((t) => ({
    name: t.name,
    partitions: t.partitions,
    cleanupPolicy: t.cleanupPolicy,
    ...(t.retentionMs !== undefined ? { retentionMs: t.retentionMs } : {}),
    ...(t.retentionBytes !== undefined ? { retentionBytes: t.retentionBytes } : {}),
  }));
}

/** Creates every topic of the map (idempotent: existing topics are left as they are). */
export async function createAllTopics(log: Log, topics: TopicMap): Promise<void> {
  await log.createTopics(topicSpecs(topics));
}

export function topicByName(topics: TopicMap, name: string): TopicDef | undefined {
  return Object.values(topics).find((t) => t.name === name);
}

// ---- Schemas ----

export const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schemas');

const schemaCache = new Map<string, object | string>();

/** Parsed Avro schema JSON of a file under schemas/. */
export function loadSchema(file: string): object | string {
  let s = schemaCache.get(file);
  if (s === undefined) {
    s = JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as object | string;
    schemaCache.set(file, s);
  }
  return s;
}

export function keySubject(topic: TopicDef): string {
  return `${topic.name}-key`;
}
export function valueSubject(topic: TopicDef): string {
  return `${topic.name}-value`;
}
