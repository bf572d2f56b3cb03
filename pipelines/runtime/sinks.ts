// The backbone's read-model sinks: stages that copy topics into the read models, and nothing else.
// In: decoded records of the raw, canonical and matched topics. Out: history rows (ClickHouse) and
// versioned snapshot documents (Redis / in-process). Pure functions of their input batch: the row
// for a record carries the record's identity (topic, partition, offset) or its offset as version,
// so a redelivered or replayed record lands on the row or document it already wrote.
import { RAW_TOPIC_IDS, type CanonicalMarket, type MatchedEventRecord, type RawRecord } from '../topics.ts';
import { JsonText } from '../readmodels/snapshots.ts';
import type { History } from '../readmodels/history.ts';
import { changedQuotes, QuoteMemory, quoteKey, quoteKeysOf, quotesOfRecord, topicMayQuote, type AliasRow, type ObservedQuote, type StoredQuote } from '../readmodels/price-history.ts';
import { offsetVersion, type InRecord, type StageDef } from './types.ts';

/** Avro timestamp-millis may decode to a Date (logical types on) or a number (off): store ms. */
export function toMs(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  return Number(v);
}

/**
 * History sinks linger: a ClickHouse insert has a large fixed cost (it writes a part), so while
 * records trickle in, one insert per 50 ms with everything that arrived beats one per record.
 */
export const HISTORY_LINGER = { ms: 50, minRecords: 2000 };

/** raw.venue_N -> raw_records: the history of every raw read. */
export const rawHistorySink: StageDef = {
  name: 'sink.raw-history',
  inputs: RAW_TOPIC_IDS,
  sinks: { tables: ['raw_records'] },
  linger: HISTORY_LINGER,
  // The row handle() builds, as ClickHouse reads it from the record's Avro (avro-history.ts).
  avroHistory: {
    table: 'raw_records',
    fields: ['venue', 'record_type', 'native_id', 'read_started_at', 'read_id', 'source_url', 'payload'],
    columns: {
      venue: 'venue',
      record_type: 'record_type',
      native_id: 'native_id',
      read_started_at: 'read_started_at',
      read_id: 'read_id',
      source_url: 'source_url',
      payload: 'payload',
      topic: '_topic',
      partition: '_partition',
      offset: '_offset',
      logged_at: '_timestamp',
    },
  },
  handle(records) {
    const rows = [];
    for (const r of records as InRecord<'raw.venue_1'>[]) {
      const v = r.value as RawRecord | null;
      if (!v) continue; // raw topics are not compacted; a null value carries nothing to keep
      rows.push({
        venue: v.venue,
        record_type: v.record_type,
        native_id: v.native_id,
        read_started_at: toMs(v.read_started_at),
        read_id: v.read_id ?? null,
        source_url: v.source_url ?? null,
        payload: v.payload,
        topic: r.topicName,
        partition: r.partition,
        offset: Number(r.offset),
        logged_at: r.timestamp,
      });
    }
    return { history: [{ table: 'raw_records', rows }] };
  },
};

/** The typed columns of a canonical market, shared by its history row and its store document. */
function canonicalFields(v: CanonicalMarket): Record<string, unknown> {
  return {
    provider: v.provider,
    market_id: v.market_id,
    event_id: v.event_id ?? null,
    title: v.title,
    status: v.status,
    category: v.category ?? null,
    league: v.league ?? null,
    market_type: v.market_type ?? null,
    read_started_at: toMs(v.read_started_at),
  };
}

function canonicalRow(r: InRecord<'canonical.markets'>): Record<string, unknown> | null {
  const v = r.value as CanonicalMarket | null;
  if (v) {
    return {
      ...canonicalFields(v),
      body: v.body,
      version: offsetVersion(r),
      is_deleted: 0,
    };
  }
  if (r.key === null) return null;
  // Tombstone: the key says which market; the row only needs to hide it.
  const i = r.key.indexOf(':');
  return {
    provider: r.key.slice(0, i),
    market_id: r.key.slice(i + 1),
    title: '',
    status: '',
    read_started_at: r.timestamp,
    body: '',
    version: offsetVersion(r),
    is_deleted: 1,
  };
}

/** canonical.markets -> canonical_markets (current state per market). */
export const canonicalHistorySink: StageDef = {
  name: 'sink.canonical-history',
  inputs: ['canonical.markets'],
  sinks: { tables: ['canonical_markets'] },
  linger: HISTORY_LINGER,
  // canonicalRow() of a record with a value, as ClickHouse reads it from the record's Avro.
  avroHistory: {
    table: 'canonical_markets',
    fields: ['provider', 'market_id', 'event_id', 'title', 'status', 'category', 'league', 'market_type', 'read_started_at', 'body'],
    columns: {
      provider: 'provider',
      market_id: 'market_id',
      event_id: 'event_id',
      title: 'title',
      status: 'status',
      category: 'category',
      league: 'league',
      market_type: 'market_type',
      read_started_at: 'read_started_at',
      body: 'body',
      version: '_offset',
      is_deleted: '0',
    },
  },
  handle(records) {
    const rows = (records as InRecord<'canonical.markets'>[]).map(canonicalRow).filter((r) => r !== null);
    return { history: [{ table: 'canonical_markets', rows }] };
  },
};

export const MARKET_DOC_PREFIX = 'market:';

/**
 * The document the API can read for one canonical market: typed fields plus the body as JSON (not
 * as a string). The body is JSON text written by the canonicalizer, so it is spliced into the
 * document's text as it is: parsing it only to serialize it again cost a third of this sink's time.
 */
export function marketDoc(v: CanonicalMarket): JsonText {
  const fields = JSON.stringify(canonicalFields(v));
  // Trusted, not re-validated: canonical.markets is written by our own stages with JSON.stringify.
  // Anything that does not even look like an object is kept as a string, so a stray body can never
  // make the stored document unreadable.
  const b = v.body;
  const body = b.charCodeAt(0) === 123 && b.charCodeAt(b.length - 1) === 125 ? b : JSON.stringify(b);
  return new JsonText(`${fields.slice(0, -1)},"body":${body}}`);
}

/** canonical.markets -> snapshot documents 'market:<provider>:<market_id>'. */
export const canonicalStoreSink: StageDef = {
  name: 'sink.canonical-store',
  inputs: ['canonical.markets'],
  sinks: { snapshotPrefixes: [MARKET_DOC_PREFIX] },
  handle(records) {
    const snapshots = [];
    for (const r of records as InRecord<'canonical.markets'>[]) {
      const v = r.value as CanonicalMarket | null;
      const key = v ? `${v.provider}:${v.market_id}` : r.key;
      if (key === null) continue;
      snapshots.push({ key: `${MARKET_DOC_PREFIX}${key}`, value: v ? marketDoc(v) : null, version: offsetVersion(r) });
    }
    return { snapshots };
  },
};

/** matched.events -> matched_events (every version of every matched event). */
export const matchedHistorySink: StageDef = {
  name: 'sink.matched-history',
  inputs: ['matched.events'],
  sinks: { tables: ['matched_events'] },
  linger: HISTORY_LINGER,
  handle(records) {
    const rows = [];
    for (const r of records as InRecord<'matched.events'>[]) {
      const v = r.value as MatchedEventRecord | null;
      if (!v && r.key === null) continue;
      rows.push(
        v
          ? {
              event_id: v.event_id,
              league: v.league,
              sport: v.sport,
              title: v.title,
              scheduled_date: v.scheduled_date,
              scheduled_start: toMs(v.scheduled_start),
              participant_keys: v.participant_keys,
              population: v.population,
              submarket_count: v.submarket_count,
              observed_at: toMs(v.observed_at),
              body: v.body,
              is_deleted: 0,
              topic: r.topicName,
              partition: r.partition,
              offset: Number(r.offset),
            }
          : {
              event_id: r.key,
              league: r.key!.split('-')[0] ?? '',
              sport: '',
              title: '',
              scheduled_date: '1970-01-01',
              scheduled_start: null,
              participant_keys: [],
              population: 'removed',
              submarket_count: 0,
              observed_at: r.timestamp,
              body: '',
              is_deleted: 1,
              topic: r.topicName,
              partition: r.partition,
              offset: Number(r.offset),
            },
      );
    }
    return { history: [{ table: 'matched_events', rows }] };
  },
};

/**
 * The price-history tables: what the sink writes, its view fills (price_latest), the candles' roll-up
 * writes from them (readmodels/price-rollup.ts), and replay clears (the roll-up's mark with them, so
 * the next roll-up rebuilds every candle from the rows written again).
 */
export const PRICE_HISTORY_TABLES = ['price_history', 'price_latest', 'price_aliases', 'price_rollup_1m', 'price_rollup_1h', 'price_rollup_1d', 'price_rollup_state'];

/**
 * The last stored quote (price_latest) of every outcome of the markets of these observations that
 * `latest` lacks, added to it. Quotes already in `latest` are newer than or as new as the stored ones
 * (the sink kept them under an unbroken claim) and stay.
 */
export async function readStoredQuotes(
  history: History,
  observations: readonly ObservedQuote[],
  latest: Map<string, StoredQuote>,
  keys: readonly string[] = quoteKeysOf(observations),
): Promise<void> {
  const wanted = new Set<string>();
  const ids = new Set<string>();
  for (let i = 0; i < observations.length; i++) {
    if (latest.has(keys[i])) continue;
    const o = observations[i];
    wanted.add(`${o.provider}\u0000${o.market_id}`);
    ids.add(o.market_id);
  }
  if (ids.size === 0) return;
  const rows = await history.query<StoredQuote & { provider: string; market_id: string; outcome_id: string }>(
    `SELECT provider, market_id, outcome_id, bid, ask, last, price, bid_size, ask_size, toUnixTimestamp64Milli(observed_at) AS observed_at
     FROM price_latest FINAL WHERE market_id IN {ids:Array(String)}`,
    { ids: [...ids] },
  );
  // Market ids of two venues may coincide (venue_2 and venue_3 share numeric ids): keep the asked ones.
  for (const r of rows) {
    const k = quoteKey(r.provider, r.market_id, r.outcome_id);
    if (wanted.has(`${r.provider}\u0000${r.market_id}`) && !latest.has(k)) latest.set(k, r);
  }
}

/**
 * The price-history sink's batches on the embedded log: an insert here cost chdb ~20 ms whatever
 * its size while four views fed on it (a part for price_history and one for each view; one view,
 * price_latest's, is left), so a backlog read in the log's usual 5,000-record batches spent more on
 * parts than on rows.
 */
// 10,000 rather than 20,000: with 20,000 the soak's peak RSS passed the 1.2 GB budget at start-up
// (1.26-1.27 GB in two runs against 1.14 GB with 10,000; bench/soak.md, 2026-11-26), and a
// 10,000-row insert costs about 6 µs a row (bench/history.md).
export const PRICE_HISTORY_BATCH = { records: 10_000, bytes: 8 * 1024 * 1024 };

/**
 * The last stored quotes the price-history sink keeps between batches (QuoteMemory): ~370 bytes of
 * heap a quote (key and observation), so ~37 MB at most; beyond it the longest kept are read again
 * from price_latest when next seen.
 */
export const PRICE_MEMORY_QUOTES = 100_000;
const priceMemory = new QuoteMemory(PRICE_MEMORY_QUOTES);

/**
 * raw.venue_N -> price_history (every change of an outcome's quote; price_latest follows by a
 * materialized view, the 1m, 1h and 1d candles by the roll-up's timer, readmodels/price-rollup.ts)
 * and price_aliases. Reads the listings' quotes
 * (readmodels/price-history.ts); an unchanged poll writes nothing. Compares each quote with the last
 * one stored for its outcome: kept in memory from batch to batch of a partition while its claim holds
 * (QuoteMemory), read from price_latest otherwise (first sight, a restart, a rebalance, a redelivery,
 * a replay), since then what is stored is the only truth about what was last written.
 */
export const priceHistorySink: StageDef = {
  name: 'sink.price-history',
  inputs: RAW_TOPIC_IDS,
  sinks: { tables: PRICE_HISTORY_TABLES },
  linger: HISTORY_LINGER,
  maxBatch: PRICE_HISTORY_BATCH,
  // Each value is read once, for its quotes: decoded as read (a raw listing's payload is most of its bytes).
  lazyValues: true,
  async handle(records, ctx) {
    const observations: ObservedQuote[] = [];
    const aliases = new Map<string, AliasRow>();
    for (const r of records as InRecord<'raw.venue_1'>[]) {
      // A venue whose listing carries no prices: its records are not even decoded.
      if (!topicMayQuote(r.topic)) continue;
      const v = r.value as RawRecord | null;
      if (!v) continue;
      const q = quotesOfRecord(v, toMs(v.read_started_at) ?? r.timestamp);
      for (const o of q.quotes) observations.push(o);
      for (const a of q.aliases) aliases.set(`${a.provider}\u0000${a.alias}`, a);
    }
    if (records.length === 0) return {};
    // The database and the physical topic name (its prefix) keep apart the partitions of several
    // backbones in one process. A batch without quotes is begun and done too, so the next one still
    // follows on.
    const part = `${ctx.history?.database ?? ''}\u0000${records[0].topicName}\u0000${ctx.partition}`;
    const latest = ctx.claim === undefined ? new Map<string, StoredQuote>() : priceMemory.begin(part, ctx.claim, records[0].offset);
    const done = () => {
      if (ctx.claim !== undefined) priceMemory.done(part, String(Number(records[records.length - 1].offset) + 1));
    };
    if (observations.length === 0) {
      done();
      return {};
    }
    if (!ctx.history) throw new Error(`stage ${ctx.stage} compares quotes with the stored ones and needs a History`);
    const keys = quoteKeysOf(observations);
    await readStoredQuotes(ctx.history, observations, latest, keys);
    const rows = changedQuotes(latest, observations, keys);
    done();
    // An alias is written with a change of its market only: it changes far less often than quotes.
    const changed = new Set(rows.map((x) => `${x.provider}\u0000${x.market_id}`));
    const aliasRows = [...aliases.values()].filter((a) => changed.has(`${a.provider}\u0000${a.market_id}`));
    const history = [];
    if (rows.length) history.push({ table: 'price_history', rows: rows as unknown as Record<string, unknown>[] });
    if (aliasRows.length) history.push({ table: 'price_aliases', rows: aliasRows as unknown as Record<string, unknown>[] });
    return { history };
  },
};

/** Every read-model sink of the backbone: what the service runs and what replay rebuilds. */
export const BACKBONE_SINKS: StageDef[] = [rawHistorySink, canonicalHistorySink, canonicalStoreSink, matchedHistorySink, priceHistorySink];

/**
 * The read-model sinks this configuration runs and replay rebuilds: every one, less the price-history
 * sink when PRICE_HISTORY is off.
 */
export function backboneSinks(config: { PRICE_HISTORY: boolean }): StageDef[] {
  return config.PRICE_HISTORY ? BACKBONE_SINKS : BACKBONE_SINKS.filter((d) => d !== priceHistorySink);
}

/**
 * The sinks that write history and nothing else: what the history worker (history-host.ts) can run
 * away from the main thread, since their whole output lands in chdb there.
 */
export const HISTORY_SINKS: StageDef[] = BACKBONE_SINKS.filter(
  (d) => Boolean(d.sinks?.tables?.length) && !d.sinks?.snapshotPrefixes?.length && !d.sinks?.snapshotNames?.length,
);
