// Where each venue is reached, with what credentials, and how often. In: the configuration
// (VENUE_<n>_BASE_URL, VENUE_<n>_API_KEY, VENUE_<n>_RPS, lib/config.ts) and the shared base URL
// (VENUE_BASE_URL or the built-in simulator's). Out: for a venue path as the code writes it
// (`/venue_3/markets/123`, the simulator's layout), the URL to call and the headers to send; and the
// venue's request budget, which every caller in the process (the pollers and the live routes) takes
// from before each request, so the process never sends a venue more than it allows.
//
// The budget is a GCRA (generic cell rate algorithm, the token bucket as a single "theoretical
// arrival time"): rps requests a second with a burst of rps (at least 1). A caller reserves its slot
// at once and waits for it, so callers are served in the order they asked; one whose wait would
// outlast its own deadline (maxWaitMs) is refused before it reserves anything. Hand-written (twenty
// lines) because callers need to know before they queue: the pollers wait as long as it takes
// (abortable at stop), a live request only as long as its deadline allows, else it answers 429 at
// once; a throttling library queues the call and fails it later, if at all.
import { PROVIDERS, type Provider } from '../../../lib/vocabulary.ts';
import type { Config } from '../../../lib/config.ts';

export interface VenueEndpoint {
  baseUrl?: string;
  apiKey?: string;
  rps?: number;
}

/** A venue's request budget would make this call wait longer than it may. */
export class BudgetSpent extends Error {
  constructor(
    readonly venue: Provider,
    readonly rps: number,
    readonly waitMs: number,
  ) {
    super(`${venue}'s request budget (${rps} requests/s) is spent for the next ${Math.ceil(waitMs)} ms`);
  }
}

export class RequestBudget {
  private readonly intervalMs: number;
  private readonly toleranceMs: number;
  /** When the next request would be on time were requests exactly evenly spaced. */
  private tat = 0;

  constructor(
    readonly rps: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.intervalMs = 1000 / rps;
    this.toleranceMs = (Math.max(1, Math.floor(rps)) - 1) * this.intervalMs;
  }

  /** Reserves a slot: the ms to wait before sending (0: now), or null when that exceeds maxWaitMs. */
  reserve(maxWaitMs = Infinity): number | null {
    const now = this.clock();
    const tat = Math.max(this.tat, now);
    const wait = Math.max(0, tat - this.toleranceMs - now);
    if (wait > maxWaitMs) return null;
    this.tat = tat + this.intervalMs;
    return wait;
  }

  /** ms until a slot would be free, without reserving it. */
  waitFor(): number {
    const now = this.clock();
    return Math.max(0, Math.max(this.tat, now) - this.toleranceMs - now);
  }
}


export class VenueEndpoints {
  private readonly budgets = new Map<Provider, RequestBudget>();
  /** The shared base URL and each venue's own, without trailing slashes (trimmed once, not per request). */
  private readonly sharedBase: string | undefined;
  private readonly ownBase = new Map<Provider, string>();

  constructor(
    /** Where venues without their own base URL are read, with the `/venue_<n>` prefix kept. */
    shared: string | undefined,
    private readonly perVenue: Partial<Record<Provider, VenueEndpoint>> = {},
    clock: () => number = Date.now,
  ) {
    this.sharedBase = shared ? shared.replace(/\/+$/, '') : undefined;
    for (const [venue, e] of Object.entries(perVenue) as [Provider, VenueEndpoint][]) {
      if (e.rps) this.budgets.set(venue, new RequestBudget(e.rps, clock));
      if (e.baseUrl) this.ownBase.set(venue, e.baseUrl.replace(/\/+$/, ''));
    }
  }

  static fromConfig(config: Config, shared: string | undefined): VenueEndpoints {
    return new VenueEndpoints(shared, venueEndpointsOf(config));
  }

  /** Every venue has a base URL of its own (no shared host, e.g. the simulator, is needed). */
  get allOwn(): boolean {
    return PROVIDERS.every((p) => this.perVenue[p]?.baseUrl);
  }

  /**
   * The venue a path belongs to (`/venue_3/...`), or undefined for a path of no venue: `/venue_`, one
   * digit 1-9, then the end, `/` or `?` (string compares, not a regular expression: every live read asks).
   */
  static venueOf(pathQuery: string): Provider | undefined {
    if (!pathQuery.startsWith('/venue_')) return undefined;
    const d = pathQuery.charCodeAt(7);
    if (d < 49 || d > 57) return undefined;
    const next = pathQuery.charCodeAt(8);
    // NaN past the end; 47 '/', 63 '?'.
    if (next === next && next !== 47 && next !== 63) return undefined;
    return PROVIDERS[d - 49];
  }

  /** The URL of a venue path written in the simulator's layout (`/venue_<n>/...`); `venue` is venueOf(pathQuery), when the caller has it. */
  url(pathQuery: string, venue: Provider | undefined = VenueEndpoints.venueOf(pathQuery)): string {
    const own = venue ? this.ownBase.get(venue) : undefined;
    // The prefix `/venue_<n>` is 8 characters.
    if (own !== undefined) return own + pathQuery.slice(8);
    if (this.sharedBase === undefined) throw new Error(`no base URL for ${venue ?? pathQuery}: set VENUE_BASE_URL${venue ? ` or VENUE_${venue.slice(6)}_BASE_URL` : ''}`);
    return this.sharedBase + pathQuery;
  }

  /** Headers a request to the venue carries besides accept (its credentials). */
  headers(venue: Provider | undefined): Record<string, string> {
    const key = venue ? this.perVenue[venue]?.apiKey : undefined;
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  budget(venue: Provider | undefined): RequestBudget | undefined {
    return venue ? this.budgets.get(venue) : undefined;
  }

  /**
   * Waits for the venue's budget (at once when it has none). Refused with BudgetSpent, reserving
   * nothing, when the wait would exceed maxWaitMs; rejects when the signal aborts while waiting.
   */
  async admit(venue: Provider | undefined, opts: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<void> {
    const b = this.budget(venue);
    if (!b) return;
    const wait = b.reserve(opts.maxWaitMs);
    if (wait === null) throw new BudgetSpent(venue!, b.rps, b.waitFor());
    if (wait <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const signal = opts.signal;
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, wait);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal!.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** The per-venue settings of the configuration, by provider. */
export function venueEndpointsOf(config: Config): Partial<Record<Provider, VenueEndpoint>> {
  const out: Partial<Record<Provider, VenueEndpoint>> = {};
  for (const p of PROVIDERS) {
    const n = Number(p.slice('venue_'.length)) as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
    const e: VenueEndpoint = { baseUrl: config[`VENUE_${n}_BASE_URL`], apiKey: config[`VENUE_${n}_API_KEY`], rps: config[`VENUE_${n}_RPS`] };
    if (e.baseUrl || e.apiKey || e.rps) out[p] = e;
  }
  return out;
}
