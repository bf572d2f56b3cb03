// Starts and stops the nine venue pollers: a fault in one venue never stops another, and
// nothing crashes the process. In: config (venue base URL, cadence, deadline) and the raw sink.
// Out: nine independent crawl loops and their status for operators. Each poller owns its own
// connection pool and its own loop, so a venue that hangs or floods 429s holds up nothing else.
import { PROVIDERS, type Provider } from '../../../lib/vocabulary.ts';
import type { Config } from '../../../lib/config.ts';
import type { VenueEndpoints } from '../client/endpoints.ts';
import type { PollerState } from './state.ts';
import { VenuePoller, silentLogger, type PollerLogger, type PollerOptions, type PollerStatus, type RawSink } from './poller.ts';

export interface SupervisorOptions {
  baseUrl: string;
  sink: RawSink;
  crawlIntervalMs: number;
  /** Sports feed cadence (POLL_INTERVAL_MS); no sports feed when absent. */
  sportsIntervalMs?: number;
  /** Sports feed: full crawl this often, changed records only in between (POLL_FULL_MS). */
  sportsFullEveryMs?: number;
  /** Listing feed: full crawl this often, changed records only in between; every crawl full when absent. */
  listingFullEveryMs?: number;
  deadlineMs: number;
  /** Where delta feeds keep their memory between runs (change-only ingestion); per process when absent. */
  state?: PollerState;
  logger?: PollerLogger;
  /** Defaults to all nine. */
  providers?: readonly Provider[];
  /** Per-poller overrides (tests: backoff, page attempts). */
  pollerOptions?: Partial<Omit<PollerOptions, 'provider' | 'baseUrl' | 'sink'>>;
}

export class PollerSupervisor {
  readonly pollers: VenuePoller[];
  private started = false;

  constructor(o: SupervisorOptions) {
    const logger = o.logger ?? silentLogger;
    this.pollers = (o.providers ?? PROVIDERS).map(
      (provider) =>
        new VenuePoller({
          provider,
          baseUrl: o.baseUrl,
          sink: o.sink,
          crawlIntervalMs: o.crawlIntervalMs,
          sportsIntervalMs: o.sportsIntervalMs,
          sportsFullEveryMs: o.sportsFullEveryMs,
          listingFullEveryMs: o.listingFullEveryMs,
          deadlineMs: o.deadlineMs,
          state: o.state,
          logger,
          ...o.pollerOptions,
        }),
    );
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const p of this.pollers) p.start();
  }

  async stop(): Promise<void> {
    // Stop them together: each stop waits for its own loop only.
    await Promise.allSettled(this.pollers.map((p) => p.stop()));
  }

  status(): PollerStatus[] {
    return this.pollers.map((p) => ({ ...p.status, faults: { ...p.status.faults }, feeds: { ...p.status.feeds } }));
  }

  poller(provider: Provider): VenuePoller | undefined {
    return this.pollers.find((p) => p.provider === provider);
  }
}

/**
 * The nine pollers as the configuration asks (cadences, change-only feeds, deadline), whichever
 * thread runs them: the process's own (pipelines/catalog/area.ts) or the pollers' thread
 * (thread-worker.ts). `baseUrl`: the shared venue host (VENUE_BASE_URL or the simulator's).
 */
export function pollersFromConfig(
  config: Config,
  parts: { baseUrl: string; sink: RawSink; state?: PollerState; logger?: PollerLogger; endpoints: VenueEndpoints },
): PollerSupervisor {
  const listingChangeOnly = config.POLL_CHANGE_ONLY && config.POLL_CHANGE_ONLY_LISTING;
  return new PollerSupervisor({
    baseUrl: parts.baseUrl,
    sink: parts.sink,
    crawlIntervalMs: config.CATALOG_CRAWL_MS ?? config.CATALOG_REFRESH_MS,
    sportsIntervalMs: config.POLL_INTERVAL_MS,
    sportsFullEveryMs: config.POLL_CHANGE_ONLY ? config.POLL_REFRESH_MS : config.POLL_FULL_MS,
    // The catalog assembles each venue's listing from its last full crawl and the delta crawls after it (store.ts).
    listingFullEveryMs: listingChangeOnly ? config.POLL_REFRESH_MS : undefined,
    deadlineMs: config.UPSTREAM_DEADLINE_MS,
    state: parts.state,
    logger: parts.logger,
    pollerOptions: { endpoints: parts.endpoints },
  });
}
