// One venue's poller. In: the venue's open-market listing over HTTP (the
// simulator by default, VENUE_BASE_URL otherwise). Out: every listed record, as read, to the raw
// topic `raw.<venue>` through a RawSink, each stamped with the time its read began
// (`read_started_at`, from which the catalog's `snapshot.observed_at` is derived), and one
// `crawl_complete` record when a whole listing has been read.
// Faults (down, refused, slower than the deadline, 429 with or without Retry-After, malformed body,
// rejection, a failing sink) are caught, logged with the venue and retried with bounded exponential
// backoff that honours Retry-After; a crawl that keeps failing is abandoned and started afresh
// later. Nothing here throws out of run(): one venue's trouble never stops another.
import { Agent } from 'undici';
import type { Provider } from '../../../lib/vocabulary.ts';
import type { RawRecord } from '../../topics.ts';
import { ulid } from 'ulid';
import { backoffDelay, parseRetryAfter, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import { adapterFor } from '../adapters/index.ts';
import { MalformedBody, type ListingStep, type PageRequest } from '../adapters/listing.ts';
import { VenueEndpoints } from '../client/endpoints.ts';
import { ChangeDetector, recordKey } from './changes.ts';
import type { PollerState, StateChange } from './state.ts';
import { firstCrawlDelay } from './cadence.ts';
import { readDeadline, venueGet, type VenueResponse } from '../client/http.ts';

/**
 * A feed: one kind of crawl a poller repeats. `listing` reads the whole open listing (the catalog's
 * source, every CATALOG_CRAWL_MS); `sports` reads the sports-only listing (the sports matching's
 * source, every POLL_INTERVAL_MS). Each feed runs its own loop, so a long listing crawl never holds
 * up the sports reads.
 */
export interface FeedSpec {
  name: string;
  steps: ListingStep[];
  intervalMs: number;
  /**
   * Delta mode: between full crawls (one every fullEveryMs) only records whose payload changed
   * since the previous crawl are emitted. The crawl_complete marker of a delta crawl carries
   * `delta: true` and `started_at` = the start of the last full crawl: every record it did not
   * re-emit was emitted unchanged at or after that time, so a consumer pruning "what was not read
   * since started_at" prunes exactly what a full crawl would. It also lists `vanished`
   * (`<record_type>:<native_id>` of records the previous crawl listed and this one did not): every
   * other record was read, unchanged, by this crawl: the marker is the crawl's "still listed"
   * heartbeat. Without it, a sports feed every 2 s writes every sports record (about 4 MB at
   * SIM_SCALE=1) to the raw topic every 2 s. With PollerOptions.state the feed's memory (content
   * hashes, last full crawl) survives a restart, so a restarted poller goes on with delta crawls.
   */
  fullEveryMs?: number;
  /**
   * The feed's cadence goes on across a restart (cadence.ts): each complete crawl's start is kept in
   * PollerOptions.state, and the first crawl after a start waits for what is left of intervalMs since
   * the last one began. The listing feed: the catalog is a snapshot refreshed about every 30 minutes
   * and builds at a start from the crawls it staged before, so a crawl at every start only wrote the
   * whole listing into the raw topics again, ahead of the sports crawls. Without a state, or without
   * a complete crawl on record, the first crawl comes at once.
   */
  resumes?: boolean;
}

interface FeedState {
  /** Delta mode: content hash of each record's last publish by a crawl that completed. */
  changes: ChangeDetector;
  /**
   * Delta mode: hashes of what the crawl in progress published. They join `changes` (and the
   * PollerState) only once its marker is written: a consumer that assembles a listing from complete
   * crawls (the catalog) never sees the rows of a crawl that did not complete, so a record such a
   * crawl published is published again by the next one.
   */
  pending: Map<string, string>;
  /** Keys published by crawls that did not complete since the last one that did: the next complete crawl names those it no longer lists as vanished. */
  unconfirmed: Set<string>;
  lastFullStartedAt: number | null;
  /** The feed's memory was read from PollerOptions.state (once, before its first crawl). */
  restored: boolean;
  /**
   * Records (`<record_type>:<native_id>`) the feed's previous complete crawl listed; null before one.
   * 'changes' in delta mode: after a complete crawl the keys of `changes` are those records, so the
   * feed keeps the keys once (1,000,000 of them at SIM_SCALE=100, bench/poller-memory.md).
   */
  lastSeen: Set<string> | 'changes' | null;
}

/** The listing feed's name (the catalog stages the crawls whose read ids begin `listing:`). */
export const LISTING_FEED = 'listing';

/** The sports feed's name (its read ids and markers say `sports`). */
export const SPORTS_FEED = 'sports';

/** State records written in one send (PollerState.save) when a crawl completes. */
const STATE_SLICE = 10_000;

/** Final records read after one crawl at most (a venue delisting thousands at once is read over several). */
const FINAL_READS_PER_CRAWL = 100;

/** Read ids: `<feed>:<provider>:<ulid>`, shared by every record of one crawl and its marker. */
export const newReadId = (feed: string, provider: Provider, now: number): string => `${feed}:${provider}:${ulid(now)}`;

/** Where raw records go (the raw topic, through the serde and a producer). */
export type RawSink = (provider: Provider, records: RawRecord[]) => Promise<void>;

export type FaultKind = 'unavailable' | 'unreachable' | 'timeout' | 'rate_limited' | 'malformed' | 'rejected' | 'sink';

export interface Fault {
  kind: FaultKind;
  message: string;
  at: number;
  /** Retry-After the venue sent, in ms (rate_limited only). */
  retryAfterMs?: number;
  status?: number;
}

export class VenueFault extends Error {
  constructor(
    readonly kind: FaultKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface PollerLogger {
  /** Per-crawl lines: an operator reads the per-minute summary (pipelines/runtime/summary.ts) instead. */
  debug?(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: PollerLogger = { info() {}, warn() {}, error() {} };

export interface PollerOptions {
  provider: Provider;
  baseUrl: string;
  sink: RawSink;
  /** Time between the starts of two listing crawls. */
  crawlIntervalMs: number;
  /** Time between the starts of two sports crawls; no sports feed when absent. */
  sportsIntervalMs?: number;
  /** Sports feed: a full crawl this often, changed records only in between (FeedSpec.fullEveryMs). */
  sportsFullEveryMs?: number;
  /** Listing feed: the same; every crawl is full when absent. */
  listingFullEveryMs?: number;
  /** Per-request deadline (spec: 9 s). */
  deadlineMs: number;
  /** Tries of one page before the crawl is abandoned. */
  pageAttempts?: number;
  backoff?: BackoffPolicy;
  logger?: PollerLogger;
  clock?: () => number;
  rand?: () => number;
  /** Listing steps; defaults to the venue's documented listing (its adapter's listingSteps). */
  steps?: ListingStep[];
  /** Every feed, replacing the listing (and sports) feed built from the options above. */
  feeds?: FeedSpec[];
  agent?: Agent;
  /** Per-venue base URLs, credentials and request budgets (shared with the live routes); baseUrl otherwise. */
  endpoints?: VenueEndpoints;
  /**
   * Where delta-mode feeds keep their memory between runs (change-only ingestion, POLL_CHANGE_ONLY);
   * without it the memory is this process's alone and a restart begins with a full crawl.
   */
  state?: PollerState;
}

export interface PollerStatus {
  provider: Provider;
  state: 'idle' | 'crawling' | 'backoff' | 'stopped';
  crawlsCompleted: number;
  crawlsAbandoned: number;
  recordsEmitted: number;
  consecutiveFaults: number;
  faults: Partial<Record<FaultKind, number>>;
  lastFault: Fault | null;
  /** `records`: distinct records the crawl listed; `emitted`: those it wrote (fewer in a delta crawl). */
  lastCrawl: { crawlId: string; startedAt: number; completedAt: number; records: number; emitted: number } | null;
  /** Per feed: completed crawls and the last one. */
  feeds: Record<string, { crawlsCompleted: number; lastCrawl: PollerStatus['lastCrawl'] }>;
}

export class VenuePoller {
  readonly provider: Provider;
  private readonly o: Required<Omit<PollerOptions, 'agent' | 'steps' | 'feeds' | 'sportsIntervalMs' | 'sportsFullEveryMs' | 'listingFullEveryMs' | 'endpoints' | 'state'>>;
  readonly feeds: FeedSpec[];
  private readonly feedState = new Map<string, FeedState>();
  private readonly agent: Agent;
  private readonly endpoints: VenueEndpoints;
  private readonly ownsAgent: boolean;
  private readonly state: PollerState | undefined;
  private stopping = false;
  private readonly stopController = new AbortController();
  private loop: Promise<void> | null = null;
  readonly status: PollerStatus;

  constructor(options: PollerOptions) {
    this.provider = options.provider;
    this.o = {
      pageAttempts: 5,
      backoff: DEFAULT_BACKOFF,
      logger: silentLogger,
      clock: Date.now,
      rand: Math.random,
      // Options given as undefined take the defaults too.
      ...(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as PollerOptions),
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    this.feeds = options.feeds ?? [
      { name: LISTING_FEED, steps: options.steps ?? adapterFor(options.provider).listingSteps(), intervalMs: options.crawlIntervalMs, fullEveryMs: options.listingFullEveryMs, resumes: true },
      ...(options.sportsIntervalMs !== undefined
        ? [{ name: SPORTS_FEED, steps: adapterFor(options.provider).sportsSteps(), intervalMs: options.sportsIntervalMs, fullEveryMs: options.sportsFullEveryMs }]
        : []),
    ];
    for (const f of this.feeds)
      this.feedState.set(f.name, { changes: new ChangeDetector(), pending: new Map(), unconfirmed: new Set(), lastFullStartedAt: null, restored: false, lastSeen: null });
    this.state = options.state;
    this.endpoints = options.endpoints ?? new VenueEndpoints(this.o.baseUrl);
    this.ownsAgent = options.agent === undefined;
    this.agent = options.agent ?? new Agent({ connections: 4, keepAliveTimeout: 10_000 });
    this.status = {
      provider: this.provider,
      state: 'idle',
      crawlsCompleted: 0,
      crawlsAbandoned: 0,
      recordsEmitted: 0,
      consecutiveFaults: 0,
      faults: {},
      lastFault: null,
      lastCrawl: null,
      feeds: Object.fromEntries(this.feeds.map((f) => [f.name, { crawlsCompleted: 0, lastCrawl: null }])),
    };
  }

  /** Starts the crawl loop; returns at once. */
  start(): void {
    if (this.loop) return;
    // Belt and braces: run() contains its own errors; a rejection here must still not become an
    // unhandled rejection that stops the process.
    this.loop = this.run().catch((e) => this.o.logger.error({ venue: this.provider, err: String(e) }, 'poller loop ended unexpectedly'));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopController.abort();
    await this.loop;
    this.status.state = 'stopped';
    if (this.ownsAgent) await this.agent.close().catch(() => undefined);
  }

  private async run(): Promise<void> {
    await Promise.all(this.feeds.map((f) => this.runFeed(f)));
  }

  private async runFeed(feed: FeedSpec): Promise<void> {
    if (feed.resumes && this.state) {
      const last = this.state.lastCompleteStart(this.provider, feed.name);
      const wait = firstCrawlDelay(last, this.o.clock(), feed.intervalMs);
      if (wait > 0) {
        this.o.logger.info({ venue: this.provider, feed: feed.name, lastCrawlStartedAt: new Date(last!).toISOString(), nextCrawlInMs: wait }, 'crawl cadence resumed: the last complete crawl is recent');
        await this.sleep(wait);
      }
    }
    while (!this.stopping) {
      const started = this.o.clock();
      let ok = false;
      try {
        ok = await this.crawlOnce(feed.name);
      } catch (e) {
        // crawlOnce handles every venue fault itself; anything reaching here is a bug, still contained.
        this.o.logger.error({ venue: this.provider, err: String(e) }, 'poller crawl failed unexpectedly');
      }
      if (this.stopping) break;
      const wait = ok
        ? Math.max(0, started + feed.intervalMs - this.o.clock())
        : backoffDelay(Math.max(1, this.status.consecutiveFaults), this.status.lastFault?.retryAfterMs, this.o.backoff, this.o.rand);
      this.status.state = ok ? 'idle' : 'backoff';
      await this.sleep(wait);
    }
  }

  /**
   * One whole listing crawl. Returns true when it completed (its crawl_complete record written),
   * false when it was abandoned after repeated faults or stopped.
   */
  async crawlOnce(feedName = LISTING_FEED): Promise<boolean> {
    const feed = this.feeds.find((f) => f.name === feedName);
    if (!feed) throw new Error(`${this.provider} has no feed ${JSON.stringify(feedName)}`);
    this.status.state = 'crawling';
    const crawlStartedAt = this.o.clock();
    const crawlId = newReadId(feed.name, this.provider, crawlStartedAt);
    const state = this.feedState.get(feed.name)!;
    if (feed.fullEveryMs !== undefined && !state.restored) this.restoreFeed(feed.name, state);
    // What a crawl that did not complete published stays unconfirmed until one does.
    for (const k of state.pending.keys()) state.unconfirmed.add(k);
    state.pending = new Map();
    const full = feed.fullEveryMs === undefined || state.lastFullStartedAt === null || crawlStartedAt - state.lastFullStartedAt >= feed.fullEveryMs;
    const dedupe = feed.fullEveryMs === undefined ? null : { changes: state.changes, pending: state.pending, full };
    let emitted = 0;
    // Distinct records (type and id): a listing can shift while it is paged, so a record may be
    // read twice; the catalog stage checks completeness against distinct records.
    const seen = new Set<string>();
    let pages = 0;
    for (const step of feed.steps) {
      let req: PageRequest | null = step.first();
      while (req !== null) {
        if (this.stopping) return false;
        const page = await this.readPage(step, req, crawlId, seen, dedupe);
        if (page === null && this.stopping) return false;
        if (page === null) {
          this.status.crawlsAbandoned++;
          this.o.logger.warn({ venue: this.provider, feed: feed.name, crawlId, pages, records: seen.size }, 'crawl abandoned after repeated faults');
          return false;
        }
        pages++;
        emitted += page.emitted;
        req = page.next;
      }
    }
    const completedAt = this.o.clock();
    const count = seen.size;
    // Delta mode: what was published before and this crawl did not list has left the venue's
    // listing now, so consumers can drop it at once instead of at the next full crawl.
    const left = state.lastSeen === 'changes' ? state.changes.gone(seen) : state.lastSeen ? [...state.lastSeen].filter((k) => !seen.has(k)) : [];
    const gone = dedupe ? [...new Set([...(state.lastSeen === 'changes' ? left : dedupe.changes.gone(seen)), ...[...state.unconfirmed].filter((k) => !seen.has(k))])] : [];
    const vanished = full ? [] : gone;
    // What left the listing since the previous crawl: where the venue keeps a final record that
    // matters downstream (the adapter's finalRecordRequest), read it once and write it to the log before the marker.
    if (!(await this.readFinals(left))) return false;
    const marker: RawRecord = {
      venue: this.provider,
      record_type: 'crawl_complete',
      native_id: crawlId,
      read_started_at: crawlStartedAt,
      payload: JSON.stringify({
        feed: feed.name,
        records: count,
        pages,
        started_at: full ? crawlStartedAt : state.lastFullStartedAt,
        completed_at: completedAt,
        ...(full ? {} : { delta: true, emitted, vanished }),
      }),
      read_id: crawlId,
      source_url: null,
    };
    if (!(await this.emit([marker]))) return false;
    state.lastSeen = dedupe ? 'changes' : seen;
    if (dedupe) {
      dedupe.changes.forget(gone);
      dedupe.changes.published(dedupe.pending);
      const published = dedupe.pending;
      state.pending = new Map();
      state.unconfirmed.clear();
      if (full) state.lastFullStartedAt = crawlStartedAt;
      // In slices, never copied whole: a full listing crawl at SIM_SCALE=100 publishes 1,000,000 records.
      let slice: [string, string][] = [];
      for (const e of published) {
        slice.push(e);
        if (slice.length < STATE_SLICE) continue;
        await this.persist(feed.name, state, { set: slice }, completedAt);
        slice = [];
      }
      if (slice.length > 0) await this.persist(feed.name, state, { set: slice }, completedAt);
      await this.persist(feed.name, state, { gone, ...(full ? { lastFullStartedAt: crawlStartedAt } : {}), ...(feed.resumes ? { lastCompleteStartedAt: crawlStartedAt } : {}) }, completedAt);
    } else if (feed.resumes) await this.persistStart(feed.name, crawlStartedAt, completedAt);
    this.status.crawlsCompleted++;
    const last = { crawlId, startedAt: crawlStartedAt, completedAt, records: count, emitted };
    this.status.lastCrawl = last;
    const fs = this.status.feeds[feed.name];
    fs.crawlsCompleted++;
    fs.lastCrawl = last;
    this.o.logger.debug?.({ venue: this.provider, feed: feed.name, crawlId, records: count, emitted, pages, ms: completedAt - crawlStartedAt }, 'crawl complete');
    return true;
  }

  /** Reads, parses and emits one page, retrying faults with backoff; null when given up. */
  private async readPage(
    step: ListingStep,
    req: PageRequest,
    crawlId: string,
    seen: Set<string>,
    dedupe: { changes: ChangeDetector; pending: Map<string, string>; full: boolean } | null,
  ): Promise<{ emitted: number; next: PageRequest | null } | null> {
    for (let attempt = 1; attempt <= this.o.pageAttempts; attempt++) {
      if (this.stopping) return null;
      const readStartedAt = this.o.clock();
      const sourceUrl = pathWithQuery(req);
      try {
        const body = await this.fetchJson(sourceUrl);
        let parsed;
        try {
          parsed = step.parse(body, req);
        } catch (e) {
          if (e instanceof MalformedBody) throw new VenueFault('malformed', `${step.name} page: ${e.message}`);
          throw e;
        }
        const recs: RawRecord[] = parsed.records.map((r) => ({
          venue: this.provider,
          record_type: r.recordType,
          native_id: r.nativeId,
          read_started_at: readStartedAt,
          payload: JSON.stringify(r.payload),
          read_id: crawlId,
          source_url: sourceUrl,
        }));
        // Each record's key made once: the crawl's `seen` and the feed's memory hold the same string.
        const keys = recs.map((r) => recordKey(r.record_type, r.native_id));
        // Once per crawl: overlapping pages (adapters/listing.ts PAGE_OVERLAP) read some records twice.
        let picked = keys.flatMap((k, i) => (seen.has(k) ? [] : [i]));
        // Delta mode: emit only what changed since its last publish (everything in a full crawl).
        const published: [string, string][] = [];
        if (dedupe) {
          picked = picked.filter((i) => {
            const { hash, publish } = dedupe.changes.check(keys[i]!, recs[i]!.payload, dedupe.full);
            if (publish) published.push([keys[i]!, hash]);
            return publish;
          });
        }
        if (!(await this.emit(picked.map((i) => recs[i]!)))) return null;
        // Confirmed (kept in the feed's memory and its PollerState) once the crawl's marker is written.
        if (dedupe) for (const [k, h] of published) dedupe.pending.set(k, h);
        for (const k of keys) seen.add(k);
        // Each fault was a warn line; the first good page after them is the line an operator waits for.
        if (this.status.consecutiveFaults > 0) this.o.logger.info({ venue: this.provider, afterFaults: this.status.consecutiveFaults }, 'venue recovered');
        this.status.consecutiveFaults = 0;
        return { emitted: picked.length, next: parsed.next };
      } catch (e) {
        // stop() aborts the request in flight: that is the stop, not a venue fault (it was logged
        // as a deadline timeout and an abandoned crawl, bench/soak.md finding 7).
        if (this.stopping) return null;
        const f = e instanceof VenueFault ? e : new VenueFault('unavailable', String(e));
        this.noteFault(f, sourceUrl);
        if (attempt < this.o.pageAttempts) {
          this.status.state = 'backoff';
          await this.sleep(backoffDelay(this.status.consecutiveFaults, f.retryAfterMs, this.o.backoff, this.o.rand));
          this.status.state = 'crawling';
        }
      }
    }
    return null;
  }

  /**
   * Reads the final record of each gone `<record_type>:<native_id>` the venue serves one for and
   * emits it as a `final` record. A read that fails is logged and skipped (the market is gone from
   * the listing either way); false only when the sink or a stop ended it.
   */
  private async readFinals(gone: string[]): Promise<boolean> {
    let reads = 0;
    for (const k of gone) {
      if (this.stopping) return false;
      const sep = k.indexOf(':');
      const req = adapterFor(this.provider).finalRecordRequest(k.slice(0, sep), k.slice(sep + 1));
      if (!req || reads++ >= FINAL_READS_PER_CRAWL) continue;
      const sourceUrl = pathWithQuery(req);
      const readStartedAt = this.o.clock();
      let body: unknown;
      try {
        body = await this.fetchJson(sourceUrl);
      } catch (e) {
        if (this.stopping) return false;
        this.o.logger.warn({ venue: this.provider, where: sourceUrl, err: String(e) }, 'final record read failed');
        continue;
      }
      // No read id: a final record is not part of the crawl's listing (the catalog counts a crawl's records by it).
      const rec: RawRecord = { venue: this.provider, record_type: 'final', native_id: k.slice(sep + 1), read_started_at: readStartedAt, payload: JSON.stringify(body), read_id: null, source_url: sourceUrl };
      if (!(await this.emit([rec]))) return false;
    }
    return true;
  }

  /**
   * A delta feed's memory as PollerOptions.state last kept it (a restarted poller goes on where it
   * stopped): the hashes of what it published and the start of its last full crawl, whose records it
   * listed. Without a full crawl on record the next crawl is full.
   */
  private restoreFeed(feed: string, state: FeedState): void {
    state.restored = true;
    const m = this.state?.load(this.provider, feed);
    if (!m) return;
    state.changes = new ChangeDetector(m.hashes);
    state.lastFullStartedAt = m.lastFullStartedAt;
    if (m.lastFullStartedAt !== null) state.lastSeen = 'changes';
  }

  /**
   * Writes what a delta feed just published or dropped to PollerOptions.state, after the raw topic
   * has it (a crash in between publishes those records once more, never loses one). When the write
   * fails, the stored memory is behind what was published: the next crawl is full, which writes
   * every hash again.
   */
  private async persist(feed: string, state: FeedState, change: StateChange, at: number): Promise<void> {
    if (!this.state) return;
    try {
      await this.state.save(this.provider, feed, change, at);
    } catch (e) {
      state.lastFullStartedAt = null;
      this.o.logger.warn({ venue: this.provider, feed, err: String(e) }, 'poller state not written; the next crawl is full');
    }
  }

  /**
   * Keeps a complete crawl's start (FeedSpec.resumes), after its marker reached the raw topic. A
   * failed write leaves an older start on record: the next start's first crawl comes sooner, never later.
   */
  private async persistStart(feed: string, startedAt: number, at: number): Promise<void> {
    if (!this.state) return;
    try {
      await this.state.save(this.provider, feed, { lastCompleteStartedAt: startedAt }, at);
    } catch (e) {
      this.o.logger.warn({ venue: this.provider, feed, err: String(e) }, 'crawl start not written; the next start may crawl sooner');
    }
  }

  /** Hands records to the sink; a failing sink is a fault too, retried with backoff. */
  private async emit(records: RawRecord[]): Promise<boolean> {
    if (records.length === 0) return true;
    for (let attempt = 1; attempt <= this.o.pageAttempts; attempt++) {
      if (this.stopping) return false;
      try {
        await this.o.sink(this.provider, records);
        this.status.recordsEmitted += records.length;
        return true;
      } catch (e) {
        this.noteFault(new VenueFault('sink', `raw sink failed: ${(e as Error).message}`), 'sink');
        await this.sleep(backoffDelay(this.status.consecutiveFaults, undefined, this.o.backoff, this.o.rand));
      }
    }
    return false;
  }

  private noteFault(f: VenueFault, where: string): void {
    this.status.consecutiveFaults++;
    this.status.faults[f.kind] = (this.status.faults[f.kind] ?? 0) + 1;
    this.status.lastFault = { kind: f.kind, message: f.message, at: this.o.clock(), retryAfterMs: f.retryAfterMs, status: f.status };
    this.o.logger.warn(
      { venue: this.provider, fault: f.kind, status: f.status, retryAfterMs: f.retryAfterMs, where, consecutive: this.status.consecutiveFaults },
      `venue fault: ${f.message}`,
    );
  }

  private async fetchJson(pathQuery: string): Promise<unknown> {
    // The venue's budget first (a crawl waits its turn; only a stop ends the wait), then the deadline.
    await this.endpoints.admit(this.provider, { signal: this.stopController.signal }).catch(() => {
      throw new VenueFault('timeout', 'stopped while waiting for the venue request budget');
    });
    // The deadline or the stop, whichever comes first (readDeadline says why not AbortSignal.any).
    const deadline = readDeadline(this.stopController.signal, this.o.deadlineMs);
    let res: VenueResponse;
    try {
      res = await venueGet(this.endpoints.url(pathQuery), { agent: this.agent, headers: this.endpoints.headers(this.provider), signal: deadline.signal });
    } catch (e) {
      throw connectionFault(e, deadline.signal, this.o.deadlineMs);
    } finally {
      deadline.release();
    }
    const { text, status } = res;
    if (status === 429) {
      const ra = parseRetryAfter(res.headers['retry-after'], this.o.clock());
      throw new VenueFault('rate_limited', `HTTP 429${ra !== undefined ? `, Retry-After ${Math.round(ra / 1000)} s` : ' without Retry-After'}`, 429, ra);
    }
    if (status >= 500) throw new VenueFault('unavailable', `HTTP ${status}`, status);
    if (status >= 400) throw new VenueFault('rejected', `HTTP ${status}: ${text.slice(0, 200)}`, status);
    if (status !== 200) throw new VenueFault('unavailable', `unexpected HTTP ${status}`, status);
    try {
      return JSON.parse(text);
    } catch {
      throw new VenueFault('malformed', `body is not JSON (${text.length} bytes)`);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      const signal = this.stopController.signal;
      function done() {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

function connectionFault(e: unknown, signal: AbortSignal, deadlineMs: number): VenueFault {
  if (signal.aborted) return new VenueFault('timeout', `no answer within the ${deadlineMs} ms deadline`);
  return new VenueFault('unreachable', `connection failed (${(e as Error).message})`);
}

export function pathWithQuery(req: PageRequest): string {
  const qs = new URLSearchParams(Object.entries(req.query).map(([k, v]) => [k, String(v)])).toString();
  return qs ? `${req.path}?${qs}` : req.path;
}
