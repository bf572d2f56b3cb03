// The sports matching processor. In: raw venue records from `raw.venue_1..9` (the pollers' open
// listings, with a `crawl_complete` marker per listing crawl), the sports data source's rosters and,
// for a venue_2 market that left the open listing, one read of its final record (the 50-50
// cancellation signal). Out: `canonical.markets` (sports markets, upserts and tombstones),
// `lifecycle.states` (the XState snapshot per event), `matched.events` (the served event, tombstone
// on removal) and, every SPORTS_PUBLISH_MS, one published `sports` snapshot in the SnapshotStore
// with `observed_at` = when the oldest underlying read began.
//
// Restart: the raw group resumes from its committed offsets; the current canonical markets and the
// lifecycle snapshots are read back from their compacted topics first, so nothing is re-derived
// from days of raw history. A raw batch is committed only after its canonical output is written.
import type { Consumer, Log, Producer } from '../log/types.ts';
import type { Serde } from '../serde/index.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import { RAW_TOPIC_IDS, type RawRecord, type TopicDef, type TopicMap, type TopicId, type TopicValues } from '../topics.ts';
import { canonicalize, setRosterBook } from './canonicalize.ts';
import { restore, type LifecycleSnapshot } from './lifecycle.ts';
import { marketIdentity } from './match.ts';
import type { RosterBook } from './props.ts';
import { SPORTS_SNAPSHOT } from './readmodel.ts';
import { emptyRoundState, matchRound, restoredRoundState, roundEntries, type RoundState } from './round.ts';
import type { CanonicalMarket, Provider } from './types.ts';

/** Marks canonical.markets bodies written by this processor (other stages may share the topic). */
const BODY_KIND = 'sports_matching';
/** A venue_2 final record read after it left the listing is kept this long (cancellation signal). */
const PROBED_KEEP_MS = 3 * 86_400_000;

export interface SportsProcessorOptions {
  log: Log;
  serde: Serde;
  topics: TopicMap;
  store: SnapshotStore;
  clock?: () => number;
  publishMs: number;
  /** Where venue records can be read (the pollers' base URL): rosters and venue_2 final records. */
  venueBaseUrl?: string;
  /** Fetch seam (tests and the benchmark pass their own). */
  fetchJson?: (url: string) => Promise<unknown>;
  rosterRefreshMs?: number;
  rosterStaleMs?: number;
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Consumer group suffix (tests). */
  groupId?: string;
}

interface Held {
  m: CanonicalMarket;
  nativeKey: string;
  readId: string | null;
  /** Last time a read of the record began (may be newer than m.observedAt on the topic). */
  readAt: number;
  probedAt?: number;
}

interface NativeState {
  keys: string[];
  readId: string | null;
  readAt: number;
}

async function readCompacted<Id extends TopicId>(log: Log, serde: Serde, topic: TopicDef<Id>, onRecord: (key: string | null, value: TopicValues[Id] | null) => void): Promise<void> {
  const offsets = await log.topicOffsets(topic.name);
  const target = new Map(offsets.map((p) => [p.partition, BigInt(p.high)]));
  const pending = new Set(offsets.filter((p) => BigInt(p.high) > BigInt(p.low)).map((p) => p.partition));
  if (pending.size === 0) return;
  const consumer = log.consumer({ groupId: `${topic.name}.restore.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`, topics: [topic.name], fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    consumer
      .run(async (batch) => {
        for (const r of batch.records) {
          const { key, value } = await serde.decode(topic, r);
          onRecord(key, value as TopicValues[Id] | null);
          if (BigInt(r.offset) + 1n >= (target.get(batch.partition) ?? 0n)) pending.delete(batch.partition);
        }
        if (pending.size === 0) resolve();
      })
      .catch(reject);
  });
  await consumer.stop();
}

export class SportsProcessor {
  private readonly clock: () => number;
  private readonly markets = new Map<string, Held>();
  private readonly natives = new Map<string, NativeState>();
  private readonly v1Events = new Map<string, unknown>();
  /** Lifecycle snapshots and entry caches, moved by the pure matchRound each publish round. */
  private round: RoundState = emptyRoundState();
  private producer: Producer | null = null;
  private consumer: Consumer | null = null;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private rosterTimer: NodeJS.Timeout | null = null;
  private publishing: Promise<void> | null = null;
  private readonly probing = new Set<string>();
  private readonly lastCrawlStart = new Map<Provider, number>();
  /** Pairings (`<league>-<away>-<home>`) with a canonical market changed since the last round. */
  private readonly dirtyPairings = new Set<string>();
  /** Matching must run over everything (first round, restart). */
  private dirtyAll = true;
  /** A venue read began since the last round (observed_at moves). */
  private readsAdvanced = false;
  /** Publish rounds done (for tests and status). */
  rounds = 0;
  lastPublishedAt: number | null = null;
  rosters: RosterBook | undefined;

  constructor(private readonly o: SportsProcessorOptions) {
    this.clock = o.clock ?? Date.now;
  }

  get groupId(): string {
    const t = this.o.topics['canonical.markets'];
    return this.o.groupId ?? `${t.name.slice(0, t.name.length - t.id.length)}stage.matching`;
  }

  async start(): Promise<void> {
    const { log, serde, topics } = this.o;
    const snapshots = new Map<string, { snapshot: LifecycleSnapshot; json: string }>();
    await readCompacted(log, serde, topics['lifecycle.states'], (key, v) => {
      if (!key) return;
      if (v === null) snapshots.delete(key);
      else snapshots.set(key, { snapshot: restore(v.snapshot), json: v.snapshot });
    });
    this.round = restoredRoundState(snapshots);
    await readCompacted(log, serde, topics['canonical.markets'], (key, v) => {
      if (!key) return;
      if (v === null) {
        this.markets.delete(key);
        return;
      }
      try {
        const b = JSON.parse(v.body) as { kind?: string; market: CanonicalMarket; nativeKey: string; readId: string | null };
        if (b.kind !== BODY_KIND) return;
        this.markets.set(key, { m: b.market, nativeKey: b.nativeKey, readId: b.readId, readAt: b.market.observedAt });
        const n = this.natives.get(b.nativeKey) ?? { keys: [], readId: b.readId, readAt: b.market.observedAt };
        if (!n.keys.includes(key)) n.keys.push(key);
        this.natives.set(b.nativeKey, n);
      } catch {
        /* not ours */
      }
    });
    await this.refreshRosters();
    this.producer = await log.producer();
    this.consumer = log.consumer({ groupId: this.groupId, topics: RAW_TOPIC_IDS.map((id) => topics[id].name), fromBeginning: true });
    this.running = this.consumer
      .run(async (batch) => {
        const topic = Object.values(topics).find((t) => t.name === batch.topic) as TopicDef<'raw.venue_1'> | undefined;
        if (!topic) return;
        const raws: RawRecord[] = [];
        for (const r of batch.records) {
          const { value } = await serde.decode(topic, r);
          if (value) raws.push(value);
        }
        await this.ingest(raws);
      })
      .catch((err) => this.o.logger?.warn({ err: String(err) }, 'sports matching consumer stopped'));
    this.timer = setInterval(() => void this.publish().catch((err) => this.o.logger?.warn({ err: String(err) }, 'sports publish failed')), this.o.publishMs);
    if (this.o.venueBaseUrl && (this.o.rosterRefreshMs ?? 0) > 0) {
      this.rosterTimer = setInterval(() => void this.refreshRosters(), this.o.rosterRefreshMs);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.rosterTimer) clearInterval(this.rosterTimer);
    this.timer = this.rosterTimer = null;
    await this.consumer?.stop();
    await this.running;
    await this.publishing;
    await this.producer?.close();
    this.consumer = null;
    this.producer = null;
  }

  private async fetchJson(url: string): Promise<unknown> {
    if (this.o.fetchJson) return this.o.fetchJson(url);
    const res = await fetch(url, { signal: AbortSignal.timeout(9000) });
    if (!res.ok) throw new Error(`${res.status} from ${url}`);
    return res.json();
  }

  /** Rosters from the sports data source; a team that answers 404 has no roster (a gap). */
  async refreshRosters(): Promise<void> {
    const base = this.o.venueBaseUrl;
    if (!base) return;
    const { readRosters } = await import('./crawl.ts');
    try {
      this.rosters = await readRosters(base, this.clock(), this.o.rosterStaleMs);
      setRosterBook(this.rosters);
    } catch (err) {
      this.o.logger?.warn({ err: String(err) }, 'roster refresh failed; props wait for the next one');
    }
  }

  /** One batch of raw records: canonicalize, prune after complete crawls, write canonical.markets. */
  async ingest(raws: RawRecord[]): Promise<void> {
    const out: { key: string; value: TopicValues['canonical.markets'] | null }[] = [];
    for (const r of raws) {
      const provider = r.venue as Provider;
      if (r.record_type === 'crawl_complete') {
        this.completeCrawl(provider, r, out);
        continue;
      }
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(r.payload) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (provider === 'venue_1' && r.record_type === 'event') {
        this.v1Events.set(r.native_id, payload);
        continue;
      }
      const nativeKey = `${provider}|${r.record_type}|${r.native_id}`;
      const input = provider === 'venue_1' ? { ...payload, _event: this.v1Events.get(String(payload.event_ticker)) } : payload;
      const ms = canonicalize(provider, input, r.read_started_at);
      const prev = this.natives.get(nativeKey);
      const keys = ms.map(marketIdentity);
      for (const k of prev?.keys ?? []) if (!keys.includes(k)) this.drop(k, out);
      if (ms.length === 0 && !prev) continue;
      this.natives.set(nativeKey, { keys, readId: r.read_id ?? null, readAt: r.read_started_at });
      this.readsAdvanced = true;
      for (const m of ms) {
        const k = marketIdentity(m);
        const held = this.markets.get(k);
        const changed = !held || held.probedAt !== undefined || !sameMarket(held.m, m);
        this.markets.set(k, { m: changed ? m : held.m, nativeKey, readId: r.read_id ?? null, readAt: r.read_started_at });
        if (changed) {
          if (held) this.touch(held.m);
          this.touch(m);
          out.push({ key: k, value: this.toTopic(m, nativeKey, r.read_id ?? null) });
        }
      }
    }
    if (out.length && this.producer) {
      const t = this.o.topics['canonical.markets'];
      const recs = await Promise.all(out.map((x) => this.o.serde.encode(t, x.key, x.value)));
      await this.producer.send(t.name, recs);
    }
  }

  private touch(m: CanonicalMarket): void {
    this.dirtyPairings.add(`${m.league}-${m.away}-${m.home}`);
  }

  private toTopic(m: CanonicalMarket, nativeKey: string, readId: string | null): TopicValues['canonical.markets'] {
    return {
      provider: m.provider,
      market_id: m.source.market_id,
      event_id: m.source.event_id,
      title: m.source.market_name,
      status: m.status,
      category: 'sports',
      league: m.league,
      market_type: m.marketType,
      read_started_at: m.observedAt,
      body_version: 1,
      body: JSON.stringify({ kind: BODY_KIND, market: m, nativeKey, readId }),
    };
  }

  private drop(key: string, out: { key: string; value: TopicValues['canonical.markets'] | null }[]): void {
    const held = this.markets.get(key);
    if (!held) return;
    this.markets.delete(key);
    this.touch(held.m);
    out.push({ key, value: null });
  }

  /**
   * A delta crawl (pollers' delta mode) re-emits only changed records. Every record it did not
   * name as vanished was read again, unchanged, by it: so its read began at the marker's
   * read_started_at ("snapshot.observed_at: when the oldest underlying read began"), and what it
   * names as vanished has left the listing now rather than at the next full crawl.
   */
  private completeDeltaCrawl(provider: Provider, r: RawRecord, vanished: string[], out: { key: string; value: TopicValues['canonical.markets'] | null }[]): void {
    for (const v of vanished) {
      const sep = v.indexOf(':');
      const nk = `${provider}|${v.slice(0, sep)}|${v.slice(sep + 1)}`;
      const n = this.natives.get(nk);
      if (!n) continue;
      for (const k of n.keys) this.dropListed(provider, k, out);
      this.natives.delete(nk);
    }
    const since = this.lastCrawlStart.get(provider);
    if (since === undefined) return;
    for (const [nk, n] of this.natives) {
      // Only what the last full crawl (or later) read is known to be listed still.
      if (!nk.startsWith(`${provider}|`) || n.readAt < since || n.readAt >= r.read_started_at) continue;
      n.readAt = r.read_started_at;
      for (const k of n.keys) {
        const held = this.markets.get(k);
        if (held && held.nativeKey === nk && held.readAt < r.read_started_at) held.readAt = r.read_started_at;
      }
      this.readsAdvanced = true;
    }
  }

  /** Drop a market that left its venue's listing (a venue_2 full-game moneyline may have settled 50-50). */
  private dropListed(provider: Provider, k: string, out: { key: string; value: TopicValues['canonical.markets'] | null }[]): void {
    const held = this.markets.get(k);
    // A venue_2 full-game moneyline that left the listing may have settled 50-50 (a cancelled
    // game): read its final record once.
    if (held && provider === 'venue_2' && held.m.marketType === 'moneyline' && held.m.segment === 'full' && this.o.venueBaseUrl) {
      void this.probeVenue2(held.m.source.market_id);
    }
    this.drop(k, out);
  }

  /** A complete crawl is the venue's whole open listing: what it no longer lists has left it. */
  private completeCrawl(provider: Provider, r: RawRecord, out: { key: string; value: TopicValues['canonical.markets'] | null }[]): void {
    let startedAt = r.read_started_at;
    let delta: { vanished: string[] } | null = null;
    try {
      const detail = JSON.parse(r.payload) as { started_at?: number; delta?: boolean; vanished?: string[] };
      startedAt = detail.started_at ?? startedAt;
      if (detail.delta) delta = { vanished: detail.vanished ?? [] };
    } catch {
      /* marker without detail */
    }
    if (delta) this.completeDeltaCrawl(provider, r, delta.vanished, out);
    // Records of one crawl sit on several partitions, so its marker can be read before some of its
    // records: prune only what the previous complete crawl did not list either (a delisting shows
    // one crawl later, never a flap).
    const threshold = this.lastCrawlStart.get(provider);
    this.lastCrawlStart.set(provider, Math.max(startedAt, threshold ?? 0));
    if (threshold === undefined) return;
    for (const [nk, n] of this.natives) {
      if (!nk.startsWith(`${provider}|`) || n.readId === r.native_id || n.readAt >= threshold) continue;
      for (const k of n.keys) this.dropListed(provider, k, out);
      this.natives.delete(nk);
    }
    // Forget old final records.
    const now = this.clock();
    for (const [k, h] of this.markets)
      if (h.probedAt !== undefined && now - h.probedAt > PROBED_KEEP_MS) {
        this.markets.delete(k);
        this.touch(h.m);
      }
  }

  private async probeVenue2(marketId: string): Promise<void> {
    if (this.probing.has(marketId)) return;
    this.probing.add(marketId);
    try {
      const rec = await this.fetchJson(`${this.o.venueBaseUrl}/venue_2/markets/${encodeURIComponent(marketId)}`);
      const now = this.clock();
      for (const m of canonicalize('venue_2', rec, now)) {
        if (m.status !== 'settled') continue;
        const k = marketIdentity(m);
        if (!this.markets.has(k)) {
          this.markets.set(k, { m, nativeKey: `venue_2|final|${marketId}`, readId: null, readAt: now, probedAt: now });
          this.touch(m);
        }
      }
    } catch (err) {
      this.o.logger?.warn({ venue: 'venue_2', marketId, err: String(err) }, 'final record read failed');
    } finally {
      this.probing.delete(marketId);
    }
  }

  /** One publish round: match, move every lifecycle, write topics, publish the snapshot. */
  publish(): Promise<void> {
    if (this.publishing) return this.publishing;
    this.publishing = this.publishRound().finally(() => {
      this.publishing = null;
    });
    return this.publishing;
  }

  private async publishRound(): Promise<void> {
    const now = this.clock();
    const all = this.dirtyAll;
    const pairings = new Set(this.dirtyPairings);
    this.dirtyAll = false;
    this.dirtyPairings.clear();
    const markets = this.markets;
    const { state, lifecycleOut, eventsOut, changed } = matchRound(this.round, {
      // Read only when a pairing is matched (most rounds only tick).
      markets: { *[Symbol.iterator]() { for (const h of markets.values()) yield h.m; } },
      dirty: all ? 'all' : pairings,
      now,
    });
    this.round = state;
    const readsAdvanced = this.readsAdvanced;
    this.readsAdvanced = false;
    if (!changed && !readsAdvanced && this.rounds > 0) {
      // Nothing moved: the published snapshot stays current.
      this.rounds++;
      return;
    }
    const entries = roundEntries(this.round);
    // "snapshot.observed_at: when the oldest underlying read began" over the current population.
    let oldest: number | null = null;
    for (const e of entries) {
      if (e.population !== 'current') continue;
      for (const sm of e.event.submarkets)
        for (const src of sm.source_markets) {
          const t = this.markets.get(`${src.provider}:${src.market_id}`)?.readAt;
          if (t !== undefined && (oldest === null || t < oldest)) oldest = t;
        }
    }
    if (this.producer) {
      const send = async <Id extends TopicId>(id: Id, list: { key: string; value: TopicValues[Id] | null }[]) => {
        if (!list.length) return;
        const t = this.o.topics[id];
        await this.producer!.send(t.name, await Promise.all(list.map((x) => this.o.serde.encode(t, x.key, x.value))));
      };
      await send('lifecycle.states', lifecycleOut);
      await send('matched.events', eventsOut);
    }
    await this.o.store.publish(
      SPORTS_SNAPSHOT,
      entries.map((e) => ({ key: e.event.event_id, value: e })),
      {
        observedAt: oldest ?? (entries.length ? now : null),
        now,
        // Readers take the current snapshot and read its entries at once (sports cursors are not
        // bound to a snapshot), so an earlier one only has to outlive a read in flight. The store's
        // default (10 minutes, for catalog cursors) kept ~2,400 whole copies at a publish every
        // 250 ms: the embedded default's memory grew by gigabytes (bench/soak.md).
        retainMs: SPORTS_RETAIN_MS,
        // Per-entry versions let readers fetch only the entries that changed since their last load.
        meta: { events: entries.length, versions: Object.fromEntries(entries.map((e) => [e.event.event_id, this.round.entryVersion.get(e.event.event_id) ?? 0])) },
      },
    );
    this.rounds++;
    this.lastPublishedAt = now;
  }
}

/** How long a superseded sports snapshot stays readable: far longer than any read of one takes. */
export const SPORTS_RETAIN_MS = 30_000;

function sameMarket(a: CanonicalMarket, b: CanonicalMarket): boolean {
  return JSON.stringify({ ...a, observedAt: 0 }) === JSON.stringify({ ...b, observedAt: 0 });
}
