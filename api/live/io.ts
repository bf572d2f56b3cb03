// The live routes' edge: binds the venue-client seam to one request. In: the handler context (its
// deadline signal, the app clock, deps.live). Out: a LiveIO/EventIO whose reads all share the
// request's deadline (spec: "Per-request deadline 9 seconds" across all upstream calls), plus
// `resolvePlan` which runs an identifier plan (one read, or the venue_2/venue_3 probe in
// parallel) and turns its outcome into the body or the spec's 404/409/502.
import { ApiError, quote } from '../errors.ts';
import type { LiveDeps, RouteContext } from '../types.ts';
import type { Provider } from '../routes/table.ts';
import { MalformedUpstream, NOT_FOUND, VenueHttp, boundedSignal, unavailable, type NotFound } from '../../pipelines/venues/client/http.ts';
import { VenueEndpoints } from '../../pipelines/venues/client/endpoints.ts';
import { BOOK_FAILED } from '../../pipelines/venues/adapters/live.ts';
import type { EventIO } from '../../pipelines/venues/adapters/live-event.ts';
import type { Plan } from './identifiers.ts';

export type { LiveDeps } from '../types.ts';

const byBase = new Map<string, LiveDeps>();

/** deps.live when composed by bin/run.ts or a test; otherwise one client per VENUE_BASE_URL (or
 * the base URL of deps.simulator). */
export function liveDeps(ctx: RouteContext): LiveDeps {
  const d = ctx.deps.live;
  if (d) return d;
  // The embedded default's in-process simulator, when the composition attached it.
  const sim = ctx.deps.simulator;
  const base = ctx.deps.config.VENUE_BASE_URL ?? (typeof sim?.baseUrl === 'string' ? sim.baseUrl : undefined);
  if (!base) throw new ApiError('service_unavailable', 'no venue upstream is configured on this deployment; retry later');
  let c = byBase.get(base);
  if (!c) byBase.set(base, (c = { venues: new VenueHttp({ baseUrl: base, endpoints: VenueEndpoints.fromConfig(ctx.deps.config, base) }) }));
  return c;
}

/** `endpoints`: per-venue base URLs, credentials and budgets (shared with the pollers of the process). */
export function createLiveDeps(baseUrl: string, endpoints?: VenueEndpoints): LiveDeps {
  return { venues: new VenueHttp({ baseUrl, endpoints }) };
}

/**
 * One request's reads. Optional reads get a share of the deadline so their failure degrades the
 * answer instead of eating the whole 9 s: the book (one bounded second fetch) a third of it,
 * venue_1 siblings four fifths (the primary keeps the full deadline).
 */
export function ioFor(ctx: RouteContext): EventIO {
  return new RequestIO(liveDeps(ctx).venues, ctx.signal, ctx.deps.config.UPSTREAM_DEADLINE_MS, ctx.deps);
}

/** No query: one object for every read without one. */
const NO_QUERY: Readonly<Record<string, string | number | undefined>> = Object.freeze({});

/** ioFor's reads as methods of one object: four closures made per live request cost more than the reads' own bookkeeping. */
class RequestIO implements EventIO {
  constructor(
    private readonly http: VenueHttp,
    private readonly signal: AbortSignal,
    private readonly deadline: number,
    private readonly deps: { clock: () => number },
  ) {}

  get(venue: Provider, path: string, q: Record<string, string | number | undefined> = NO_QUERY) {
    return this.http.getJson(venue, path, q, this.signal);
  }

  book(venue: Provider, path: string, q: Record<string, string | number | undefined> = NO_QUERY) {
    return this.http.getJson(venue, path, q, boundedSignal(this.signal, Math.ceil(this.deadline / 3))).catch(() => BOOK_FAILED);
  }

  sibling(venue: Provider, path: string) {
    return this.http.getJson(venue, path, NO_QUERY, boundedSignal(this.signal, Math.ceil((this.deadline * 4) / 5)));
  }

  now(): number {
    return this.deps.clock();
  }
}

/** Adapters throw MalformedUpstream for a body without the venue's documented shape: 502. Other errors as thrown. */
function malformedAs502(venue: string, e: unknown): unknown {
  return e instanceof MalformedUpstream ? unavailable(venue, `malformed answer (${e.message})`) : e;
}

/** A venue's read with MalformedUpstream answered as 502 (malformedAs502). */
export async function guarded<T>(venue: string, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw malformedAs502(venue, e);
  }
}

/** A function of its own, not a closure made by every runPlan: tsx names each closure made (keepNames), which cost a live request more than the rest of runPlan. */
function notFound(plan: Plan, what: 'market' | 'event', rawId: string): ApiError {
  return new ApiError(what === 'market' ? 'market_not_found' : 'event_not_found', `${what} ${quote(rawId)} was not found${plan.kind === 'direct' ? ` on ${plan.provider}` : ''}`, {
    param: what === 'market' ? 'market_id' : 'event_id',
  });
}

/**
 * Run a plan. Direct: that venue only. Probe: every candidate in parallel; "the answer is returned
 * only if exactly one holds the id, and 409 ambiguous_identifier with candidates otherwise. The
 * probe fails if either candidate is down." `as` turns the value found into what the caller
 * answers, in the same step (a route's result without an async step of its own).
 */
export function runPlan<T, R = T>(
  plan: Plan,
  read: (p: Provider, id: string) => Promise<T | NotFound>,
  what: 'market' | 'event',
  rawId: string,
  as?: (value: T) => R,
): Promise<R> {
  if (plan.kind !== 'direct') return runProbe(plan, read, what, rawId, as);
  // Not an async function, and the read followed by one step: from the venue's answer to the
  // caller's result is one promise turn here, not one per function between them.
  let r: Promise<T | NotFound>;
  try {
    r = read(plan.provider, plan.nativeId);
  } catch (e) {
    return Promise.reject(malformedAs502(plan.provider, e));
  }
  return r.then(
    (v) => {
      if (v === NOT_FOUND) throw notFound(plan, what, rawId);
      return as === undefined ? (v as unknown as R) : as(v as T);
    },
    (e: unknown) => {
      throw malformedAs502(plan.provider, e);
    },
  );
}

async function runProbe<T, R>(
  plan: Extract<Plan, { kind: 'probe' }>,
  read: (p: Provider, id: string) => Promise<T | NotFound>,
  what: 'market' | 'event',
  rawId: string,
  as: ((value: T) => R) | undefined,
): Promise<R> {
  const settled = await Promise.allSettled(plan.candidates.map((p) => guarded(p, read(p, plan.nativeId))));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const hits: { provider: Provider; value: T }[] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled' && s.value !== NOT_FOUND) hits.push({ provider: plan.candidates[i], value: s.value as T });
  });
  if (hits.length === 1) return as === undefined ? (hits[0].value as unknown as R) : as(hits[0].value);
  if (hits.length === 0) throw notFound(plan, what, rawId);
  const candidates = hits.map((h) => h.provider);
  throw new ApiError(
    'ambiguous_identifier',
    `${what} id ${quote(rawId)} exists on ${candidates.join(' and ')}; resend with provider set to one of them`,
    { param: what === 'market' ? 'market_id' : 'event_id', candidates },
  );
}
