// The venue-client seam used at request time (spec: "Errors" upstream rows, "Limits" per-request
// deadline). In: a venue path and the request's AbortSignal (one 9 s deadline shared by every
// upstream call of the request). Out: the parsed JSON body, `NOT_FOUND` for a venue 404, or an
// ApiError mapped from the venue's fault:
//   venue 429                      -> 429 upstream_rate_limited (Retry-After when the venue gave one)
//   venue rejection (other 4xx)    -> 400 upstream_rejected
//   down, timeout, 5xx, bad body   -> 502 upstream_unavailable
// HTTP goes through undici with one keep-alive pool per base address; nothing is cached: requests
// for the same venue resource that ask before its read is sent share that read (SharedRead) and
// its parsed body, which no reader writes into.
import { Agent, getGlobalDispatcher, type Dispatcher } from 'undici';
import { ApiError } from '../../../lib/errors.ts';
import { BudgetSpent, VenueEndpoints } from './endpoints.ts';

/** The longest a live read waits for its venue's request budget before it answers 429. */
const BUDGET_WAIT_MS = 1000;

export const NOT_FOUND: unique symbol = Symbol('venue-not-found');
export type NotFound = typeof NOT_FOUND;

/** Thrown by adapters when a 200 body does not have the venue's documented shape. */
export class MalformedUpstream extends Error {}

export interface VenueHttpOptions {
  baseUrl: string;
  /** Per-venue base URLs, credentials and request budgets (endpoints.ts); baseUrl serves the rest. */
  endpoints?: VenueEndpoints;
  /** Keep-alive connections per origin. */
  connections?: number;
  /** The keep-alive pool; one of `connections` per origin by default (tests pass one that records its dispatches). */
  agent?: Agent;
}

export type Query = Record<string, string | number | undefined>;

/** Retry-After as whole seconds (the venue may send seconds or an HTTP date). */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): string | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(v)) return String(parseInt(v, 10));
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return String(Math.max(0, Math.ceil((at - now) / 1000)));
}

/** Map a venue status to the API's error (pure, unit-tested). 404 is handled by the caller. */
export function faultFor(venue: string, status: number, retryAfter: string | undefined, detail: string): ApiError {
  if (status === 429) {
    return new ApiError('upstream_rate_limited', `${venue} rate-limited the request${retryAfter ? `; retry after ${retryAfter} s` : ''}`, {
      headers: retryAfter ? { 'Retry-After': retryAfter } : undefined,
    });
  }
  if (status >= 400 && status < 500) {
    return new ApiError('upstream_rejected', `${venue} rejected the request (HTTP ${status})${detail ? `: ${detail}` : ''}`);
  }
  return new ApiError('upstream_unavailable', `${venue} gave no valid answer (HTTP ${status})`);
}

export function unavailable(venue: string, why: string): ApiError {
  return new ApiError('upstream_unavailable', `${venue} gave no valid answer: ${why}`);
}

/** A GET that got no complete answer: the connection failed (`connect`) or the body was cut off (`body`). */
export class VenueConnectionError extends Error {
  /** The cause's code (ECONNRESET, UND_ERR_SOCKET, ECONNREFUSED, ...), when it has one. */
  readonly code: string | undefined;
  constructor(
    readonly phase: 'connect' | 'body',
    cause: unknown,
  ) {
    super(String((cause as Error)?.message ?? cause));
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** Codes of a connection closed under a request before any answer: the venue's side ended it. */
const CLOSED_UNDER_US = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * A read worth sending once more: the connection was closed under it before the headers came (a
 * keep-alive connection the venue closed just as it was reused is the usual one: the read never
 * reached the venue's handler, or a GET that did changes nothing there). Not a refused connection
 * (the venue is down: a second try only adds load), not a deadline, not a body cut off.
 */
export const worthAnotherTry = (e: unknown): boolean => e instanceof VenueConnectionError && e.phase === 'connect' && e.code !== undefined && CLOSED_UNDER_US.has(e.code);

export interface VenueResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /**
   * The body parsed, once, by the first reader that parses it (VenueHttp.getJson): a read shared by
   * several requests (SharedRead) hands each the same VenueResponse. Held as long as the answer.
   */
  parsed?: unknown;
}

/**
 * One GET's answer gathered straight from undici's dispatch (its documented handler interface):
 * the status, the raw headers (parsed only if a caller reads them: only a fault's Retry-After is
 * ever read) and the body's bytes. `request()` would wrap every answer in a Readable stream, an
 * async resource and a parsed header object first, which on the live routes cost more than the
 * venue's own answer; what a caller sees is the same (the body as UTF-8 text, a leading BOM
 * skipped as undici's `text()` does; a failure before the headers is `connect`, after them `body`).
 */
class TextAnswer implements Dispatcher.DispatchHandler {
  private abortFn: ((reason?: Error) => void) | undefined;
  private status = 0;
  private raw: Buffer[] | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly onAbort: () => void;
  private readonly watching: Set<() => void> | undefined;

  constructor(
    private readonly signal: AbortSignal,
    private readonly resolve: (r: VenueResponse) => void,
    private readonly reject: (e: VenueConnectionError) => void,
  ) {
    this.onAbort = () => this.abortFn?.(signal.reason as Error);
    if (!signal.aborted) this.watching = watch(signal, this.onAbort);
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.signal.aborted) return abort(this.signal.reason as Error);
    this.abortFn = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx: informational, the answer follows.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.raw = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  onComplete(): void {
    this.done();
    const b = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    const start = b.length > 2 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    const raw = this.raw ?? [];
    let headers: VenueResponse['headers'] | undefined;
    this.resolve({
      status: this.status,
      get headers() {
        return (headers ??= parseHeaders(raw));
      },
      text: b.toString('utf8', start),
      parsed: undefined,
    });
  }

  onError(err: Error): void {
    this.done();
    this.reject(new VenueConnectionError(this.raw === undefined ? 'connect' : 'body', err));
  }

  private done(): void {
    this.watching?.delete(this.onAbort);
  }
}

/**
 * The reads waiting on each signal, behind one abort listener per signal. Many reads share a
 * signal (a request's deadline is shared by the requests of its instant, api/plugins/app/deadline.ts;
 * a poller's stop signal by all its reads), and an EventTarget finds a listener to remove by walking
 * its list: with a read in flight per request that walk cost more than the signal it replaced.
 */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

function watch(signal: AbortSignal, fn: () => void): Set<() => void> {
  let set = watchers.get(signal);
  if (set === undefined) {
    const s = (set = new Set());
    watchers.set(signal, s);
    signal.addEventListener(
      'abort',
      () => {
        for (const f of s) f();
        s.clear();
      },
      { once: true },
    );
  }
  set.add(fn);
  return set;
}

/** Raw header pairs as one record, names in lower case, a repeated header as an array. */
function parseHeaders(raw: Buffer[]): VenueResponse['headers'] {
  const out: VenueResponse['headers'] = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i].toString('latin1').toLowerCase();
    const v = raw[i + 1].toString('latin1');
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

/**
 * The last URL text venueGet parsed, with its origin and path: the reads of a live route ask for the
 * same venue URL again and again (one market's detail), and parsing it (a URL object, its origin and
 * path) cost a read about as much as the rest of its dispatch (bench/routes.md, 2026-11-28 06:38-07:11).
 * The parts depend on the text alone, so a read gets what parsing its own text would give.
 */
let lastUrl = '';
let lastOrigin = '';
let lastPath = '';

/**
 * The one GET every venue read makes (the live routes' VenueHttp, the pollers, the roster reader):
 * JSON accepted, the venue's own headers (its credentials, endpoints.ts), the caller's keep-alive
 * pool and signal; the whole body as text. What a status means is the caller's to say (the live
 * routes answer the spec's upstream errors, the pollers classify faults and back off).
 */
export function venueGet(url: string | URL, o: { agent?: Agent; headers?: Record<string, string>; signal: AbortSignal }): Promise<VenueResponse> {
  return new Promise<VenueResponse>((resolve, reject) => {
    let origin: string;
    let path: string;
    if (typeof url !== 'string') {
      origin = url.origin;
      path = url.search ? `${url.pathname}${url.search}` : url.pathname;
    } else {
      if (url !== lastUrl) {
        // Parsed as before (a URL that does not parse rejects the read); its parts kept for the next read of the same text.
        const u = new URL(url);
        lastOrigin = u.origin;
        lastPath = u.search ? `${u.pathname}${u.search}` : u.pathname;
        lastUrl = url;
      }
      origin = lastOrigin;
      path = lastPath;
    }
    const handler = new TextAnswer(o.signal, resolve, reject);
    try {
      (o.agent ?? getGlobalDispatcher()).dispatch(
        { origin, path, method: 'GET', headers: { accept: 'application/json', ...o.headers } },
        handler,
      );
    } catch (e) {
      handler.onError(e as Error);
    }
  });
}

/** A request that left a shared read (its own signal aborted) before that read answered. */
class LeftRead extends Error {
  constructor(
    /** Whether the read had been sent: before it, the request was still waiting for the venue's budget. */
    readonly sent: boolean,
  ) {
    super('the request left the read');
  }
}

/** One request waiting on a shared read; `venue` names the venue in its errors (getJson's `venue`). */
interface Joiner {
  resolve(v: unknown): void;
  reject(e: unknown): void;
  done: boolean;
  readonly venue: string;
}

/**
 * The joiners of a read that wait under one signal, behind one entry in that signal's watch set:
 * requests of the same instant share their deadline's signal (api/plugins/app/deadline.ts), so the
 * requests of one read are mostly one group, and a joiner costs no listener of its own.
 */
class Group {
  readonly joiners: Joiner[] = [];
  /** Joiners of the group still waiting. */
  live = 0;
  readonly onAbort: () => void;
  readonly watching: Set<() => void>;

  constructor(
    readonly signal: AbortSignal,
    read: SharedRead,
  ) {
    // Assigned, not bound to a name: tsx's keepNames would name a `const` arrow at every read.
    this.onAbort = () => read.leave(this);
    this.watching = watch(signal, this.onAbort);
  }
}

/** A fault body's message (`message`, `error` or `msg`, at most 200 characters), or '' (it need not be JSON). */
function faultDetail(text: string): string {
  try {
    const b = JSON.parse(text) as Record<string, unknown>;
    const m = b.message ?? b.error ?? b.msg;
    if (typeof m === 'string') return m.slice(0, 200);
  } catch {
    /* a fault body need not be JSON */
  }
  return '';
}

/** A read that gave no answer, as the error of one request under `signal` (checked when the request is told). */
function failureOf(venue: string, e: unknown, signal: AbortSignal): ApiError {
  if (e instanceof BudgetSpent) {
    const after = String(Math.max(1, Math.ceil(e.waitMs / 1000)));
    return new ApiError('upstream_rate_limited', `${venue} allows ${e.rps} requests/s and this service's share is spent; retry after ${after} s`, { headers: { 'Retry-After': after } });
  }
  if (e instanceof LeftRead && !e.sent) return unavailable(venue, 'the request deadline passed');
  const phase = (e as VenueConnectionError).phase;
  return unavailable(venue, signal.aborted ? 'no answer within the request deadline' : phase === 'body' ? 'the body was cut off' : `connection failed (${(e as Error).message})`);
}

/**
 * One GET of a venue resource shared by the requests that asked for it before it was sent (request
 * collapsing, made strict so nothing is kept: spec, market detail, "read live from the venue at
 * request time", "Nothing is cached on this route"). The first request opens it and the read is sent
 * at the next turn of the event loop (setImmediate), so every request for the same URL that arrives
 * in the same poll phase joins it; from the moment it is sent no request joins (a later one opens a
 * new read), so every answer comes from a read sent after its request asked, and the answer is
 * dropped once handed out. Each joiner keeps its own signal: one that aborts leaves (its promise
 * rejects at once, with every joiner under the same signal); the read itself is aborted, or never
 * sent, only when every joiner has left. The venue's answer reaches every joiner as it would have
 * reached it alone: a 404 is NOT_FOUND, a fault is each joiner's own error (its venue's name, its
 * signal), a 2xx body is parsed once and every joiner gets the one parsed value (its readers never
 * write into it).
 */
class SharedRead {
  private readonly groups: Group[] = [];
  private live = 0;
  /** Past the venue's budget and dispatched: no request joins any more. */
  sent = false;
  /** The read's own signal when joiners under more than one signal wait on it (or its budget is awaited). */
  private ac: AbortController | undefined;

  /** Resolves with the parsed answer or NOT_FOUND; rejects with the ApiError getJson answers. */
  join(signal: AbortSignal, venue: string): Promise<unknown> {
    let g: Group | undefined;
    for (let i = this.groups.length - 1; i >= 0; i--) {
      if (this.groups[i].signal === signal) {
        g = this.groups[i];
        break;
      }
    }
    if (g === undefined) this.groups.push((g = new Group(signal, this)));
    const into = g;
    return new Promise<unknown>((resolve, reject) => {
      into.joiners.push({ resolve, reject, done: false, venue });
      into.live++;
      this.live++;
    });
  }

  /**
   * The signal to send the read under: aborts when every joiner has left. `final`: nobody joins any
   * more, so when every joiner still waiting waits under one signal, that signal serves (the usual
   * case: no controller and no listener of the read's own).
   */
  signal(final: boolean): AbortSignal {
    if (final && this.ac === undefined) {
      let only: Group | undefined;
      let groups = 0;
      for (const g of this.groups) if (g.live > 0 && groups++ === 0) only = g;
      if (groups === 1) return only!.signal;
    }
    return (this.ac ??= new AbortController()).signal;
  }

  /** Nobody waits any more: the read need not be sent, or can be aborted. */
  get abandoned(): boolean {
    return this.live === 0;
  }

  /** The group's signal aborted: each of its joiners still waiting leaves. */
  leave(g: Group): void {
    if (g.live === 0) return;
    const left = new LeftRead(this.sent);
    for (const j of g.joiners) {
      if (j.done) continue;
      j.done = true;
      g.live--;
      this.live--;
      j.reject(failureOf(j.venue, left, g.signal));
    }
    if (this.live === 0) this.ac?.abort(g.signal.reason);
  }

  /** The venue answered: what its answer means, made once, to every joiner still waiting. */
  settle(res: VenueResponse): void {
    if (res.status === 404) return this.finish((j) => j.resolve(NOT_FOUND));
    if (res.status < 200 || res.status >= 300) {
      const detail = faultDetail(res.text);
      const retryAfter = retryAfterSeconds(res.headers['retry-after']);
      return this.finish((j) => j.reject(faultFor(j.venue, res.status, retryAfter, detail)));
    }
    // One parse per answer: the requests that shared the read share its parsed value (nothing
    // that reads it writes into it: the live routes build their bodies as new objects).
    if (res.parsed === undefined) {
      try {
        res.parsed = JSON.parse(res.text) as unknown;
      } catch {
        return this.finish((j) => j.reject(unavailable(j.venue, 'the body was not valid JSON')));
      }
    }
    const parsed = res.parsed;
    this.finish((j) => j.resolve(parsed));
  }

  /** No answer (the budget refused, the connection failed, the body was cut off). */
  fail(e: unknown): void {
    this.finish((j, g) => j.reject(failureOf(j.venue, e, g.signal)));
  }

  /** Every joiner still waiting gets `end`, once, and no group watches its signal any more. */
  private finish(end: (j: Joiner, g: Group) => void): void {
    for (const g of this.groups) {
      g.watching.delete(g.onAbort);
      if (g.live === 0) continue;
      g.live = 0;
      for (const j of g.joiners) {
        if (j.done) continue;
        j.done = true;
        end(j, g);
      }
    }
  }
}

export class VenueHttp {
  readonly baseUrl: string;
  private readonly agent: Agent;

  private readonly endpoints: VenueEndpoints;
  /** The reads asked for and not yet sent, by URL (one URL is one resource of one venue). */
  private readonly unsent = new Map<string, SharedRead>();

  constructor(opts: VenueHttpOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.endpoints = opts.endpoints ?? new VenueEndpoints(this.baseUrl);
    this.agent = opts.agent ?? new Agent({ connections: opts.connections ?? 64, keepAliveTimeout: 10_000 });
  }

  /**
   * GET `{baseUrl}{path}` as JSON. `venue` names the venue in error messages. The signal carries
   * the request's deadline; an abort is "no valid answer" (502). Requests for the same URL before
   * its read is sent share that read (SharedRead), which tells each what the answer means for it:
   * the parsed body (one parse per read), NOT_FOUND, or its own error. Not an async function: the
   * promise returned is the request's own place in the read, with no further step per request.
   */
  getJson(venue: string, path: string, query: Query, signal: AbortSignal): Promise<unknown | NotFound> {
    const provider = VenueEndpoints.venueOf(path);
    let url: string | URL;
    try {
      // A URL object only when there is a query to add (undici reads a string the same way).
      url = this.endpoints.url(path, provider);
      for (const k in query) {
        const v = query[k];
        if (v === undefined) continue;
        if (typeof url === 'string') url = new URL(url);
        url.searchParams.set(k, String(v));
      }
    } catch (e) {
      return Promise.reject(e as Error);
    }
    if (signal.aborted) return Promise.reject(unavailable(venue, 'the request deadline passed'));
    return this.read(url, provider, venue, signal);
  }

  /** Join the unsent read of this URL, or open one and send it at the next turn of the loop. */
  private read(url: string | URL, provider: ReturnType<typeof VenueEndpoints.venueOf>, venue: string, signal: AbortSignal): Promise<unknown> {
    const key = typeof url === 'string' ? url : url.href;
    let r = this.unsent.get(key);
    if (r === undefined) {
      const opened = (r = new SharedRead());
      this.unsent.set(key, opened);
      setImmediate(() => void this.send(key, url, provider, opened));
    }
    return r.join(signal, venue);
  }

  private async send(key: string, url: string | URL, provider: ReturnType<typeof VenueEndpoints.venueOf>, r: SharedRead): Promise<void> {
    try {
      // Never more than the venue allows: wait for its budget only while the deadline would still
      // leave time to answer (a second), else answer as the venue itself would, 429. A shared read
      // counts once. A venue without a budget is not awaited at all. Requests that ask while the
      // budget is awaited still join: the read is not sent yet.
      if (!r.abandoned && this.endpoints.budget(provider)) await this.endpoints.admit(provider, { signal: r.signal(false), maxWaitMs: BUDGET_WAIT_MS });
    } catch (e) {
      this.unsent.delete(key);
      return r.fail(e);
    }
    this.unsent.delete(key);
    if (r.abandoned) return;
    r.sent = true;
    let res: VenueResponse;
    try {
      res = await venueGet(url, { agent: this.agent, headers: this.endpoints.headers(provider), signal: r.signal(true) });
    } catch (e) {
      if (!worthAnotherTry(e) || r.abandoned) return r.fail(e);
      // Once more, within the venue's budget like any read, on a fresh connection of the pool: a
      // request answered 502 for a connection the venue closed under it is what clients of a
      // first-class API never see.
      try {
        if (this.endpoints.budget(provider)) await this.endpoints.admit(provider, { signal: r.signal(true), maxWaitMs: BUDGET_WAIT_MS });
        if (r.abandoned) return r.fail(e);
        res = await venueGet(url, { agent: this.agent, headers: this.endpoints.headers(provider), signal: r.signal(true) });
      } catch (again) {
        return r.fail(again);
      }
    }
    r.settle(res);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** One read's deadline under a longer-lived signal (readDeadline); `release()` once the read has ended. */
export interface ReadDeadline {
  readonly signal: AbortSignal;
  release(): void;
}

/**
 * The signal of one read by a long-lived reader (a poller's read under its stop): aborts after `ms`
 * with a TimeoutError, or when `outer` aborts, whichever comes first. `release()` when the read has
 * ended clears the timer and takes the listener off `outer`, so a stop signal that outlives a
 * million reads holds none of them.
 *
 * Not `AbortSignal.any([AbortSignal.timeout(ms), outer])`: on Node 20 the combined signal holds its
 * timeout source only through a weak reference, and the timeout's timer holds its signal weakly too
 * (nodejs/node#57736), so a full garbage collection while the read waits takes the timeout away: the
 * read then waits for the venue however long it takes (a venue held 1 s behind a 300 ms deadline
 * was seen to complete a crawl). Here the timer's callback holds the controller.
 */
export function readDeadline(outer: AbortSignal, ms: number): ReadDeadline {
  const ac = new AbortController();
  if (outer.aborted) {
    ac.abort(outer.reason);
    return { signal: ac.signal, release() {} };
  }
  const onOuter = () => ac.abort(outer.reason);
  const timer = setTimeout(() => ac.abort(new DOMException(`no answer within the ${ms} ms deadline`, 'TimeoutError')), Math.max(1, ms));
  // Like AbortSignal.timeout's: a deadline alone does not keep the process running.
  timer.unref();
  // Every read in flight waits on `outer` (a poller's stop) until released: one abort listener per
  // signal and a set of waiting reads (watch), so a crawl's concurrent reads add no listeners.
  const waiting = watch(outer, onOuter);
  return {
    signal: ac.signal,
    release() {
      clearTimeout(timer);
      waiting.delete(onOuter);
    },
  };
}

/**
 * A sub-deadline for an optional read (the bounded second fetch to a book). Built from a plain
 * controller and an unref'd timer: on node 20 `AbortSignal.any` + `AbortSignal.timeout` cost ~90 us
 * per call, this ~2 us.
 */
export function boundedSignal(outer: AbortSignal, ms: number): AbortSignal {
  const ac = new AbortController();
  if (outer.aborted) {
    ac.abort(outer.reason);
    return ac.signal;
  }
  const timer = setTimeout(() => ac.abort(new DOMException('bounded read timed out', 'TimeoutError')), Math.max(1, ms));
  timer.unref();
  outer.addEventListener('abort', () => ac.abort(outer.reason), { once: true });
  ac.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return ac.signal;
}
