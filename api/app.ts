// The /v1 service shell (spec: "Endpoints: Router-level behavior", "Authentication", "Errors",
// "Limits"). In: AppDeps (config, clock, auth store, each area's seams) and the handler registry.
// Out: a Fastify instance serving every route of api/routes/table.ts. Per request, in order:
//   1. router level, before the key is read: 404 route_not_found, 405 method_not_allowed,
//      malformed query string, unknown/retired/repeated/empty parameters (api/routes/router.ts);
//   2. the key: 401 missing_api_key / invalid_api_key, 403 forbidden, 502 when keys cannot be
//      verified; then the rolling-window rate limit (429) and the monthly allowance (402), decided
//      by ONE KeyStore.authorize call (one Redis round trip in the stack);
//   3. generic value checks of declared parameters (400 invalid_parameter);
//   4. the route's handler (503 service_unavailable when none is registered yet).
// Every response carries X-Request-Id (generated; a client's is ignored) and Vary: Accept-Encoding, and is
// gzipped for clients that accept gzip (api/plugins/external/compress.ts). A handler may return a body
// serialized once (EncodedJson, api/plugins/external/encoded.ts): its bytes and gzip are sent as kept,
// with its ETag, and a matching If-None-Match answers 304 without a body.
// Every error body comes from renderError (api/errors.ts); Fastify's own errors are mapped into it.
import websocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { VARY, acceptsGzip, gzipJson } from './plugins/external/compress.ts';
import { EncodedJson, JsonText, etagMatches } from './plugins/external/encoded.ts';
import { registerDocs } from './plugins/external/docs.ts';
import { nextRequestId } from './plugins/app/request-id.ts';
import { deadlineSignal } from './plugins/app/deadline.ts';
import { ApiError, isApiError, quote, renderError } from './errors.ts';
import { ROUTES, type RouteSpec } from './routes/table.ts';
import { handlers as defaultHandlers, type HandlerRegistry } from './routes/index.ts';
import { checkParams, isCredentialParam, checkPathParams, compilePathMatcher, compileRoute, parseQueryString, typeParams, undecodableWhy, type CompiledRoute, type PathMatcher } from './routes/router.ts';
import { readBearer } from './auth/keys.ts';
import { authorizeRequest } from './plugins/app/authorize.ts';
import { MAX_HEADER_BYTES, clientErrorHandler } from './plugins/app/client-errors.ts';
import type { AppDeps, KeyInfo, RawQuery, RouteContext, RouteResult, TypedQuery } from './types.ts';
import type { StreamSocket } from './routes/v1/stream.ts';

/** Where a checked WebSocket connect keeps its stream for the upgrade (GET /v1/stream). */
const STREAM_OPEN = Symbol('stream-open');
type WithStream = { [STREAM_OPEN]?: RouteResult };

export interface BuildOptions {
  /** false: no logger. Default: pino at config LOG_LEVEL, keys redacted (see below). */
  logger?: false;
  /** Where log lines go (default stdout); tests capture them. */
  logStream?: { write(line: string): void };
  /** Per-request access lines (default off: they cost a third of the throughput). */
  requestLogging?: boolean;
}

class Context implements RouteContext {
  private ac: AbortSignal | undefined;
  constructor(
    readonly query: RawQuery,
    readonly typed: TypedQuery,
    readonly params: Record<string, string>,
    readonly deps: AppDeps,
    readonly now: number,
    readonly key: KeyInfo | undefined,
    private readonly deadlineMs: number,
  ) {}
  /** Read on first use: most handlers never read upstream. Shared with requests of the same instant (deadline.ts). */
  get signal(): AbortSignal {
    return (this.ac ??= deadlineSignal(this.deadlineMs));
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A gzipped body sent once it is compressed: at once when compressed here, after the compression off the loop otherwise. */
function sendGzip(reply: FastifyReply, gz: Buffer | Promise<Buffer>): FastifyReply | Promise<FastifyReply> {
  return gz instanceof Promise ? gz.then((b) => reply.send(b)) : reply.send(gz);
}

/**
 * Every response leaves through here: X-Request-Id, Vary, JSON, gzip when acceptable. Not an async
 * function: a body sent as it is (no gzip, or gzip compressed here) is sent before it returns, with no
 * promise of its own per response.
 */
function sendJson(req: FastifyRequest, reply: FastifyReply, status: number, body: unknown): FastifyReply | Promise<FastifyReply> {
  reply.header('x-request-id', req.id);
  reply.header('vary', VARY);
  reply.code(status).header('content-type', JSON_TYPE);
  if (body instanceof EncodedJson) {
    // Serialized (and gzipped) once per snapshot page: sent as the bytes kept.
    reply.header('etag', body.etag);
    if (acceptsGzip(req.headers['accept-encoding'])) {
      reply.header('content-encoding', 'gzip');
      return sendGzip(reply, body.gzip());
    }
    return reply.send(body.json);
  }
  const json = body instanceof JsonText ? body.json : JSON.stringify(body);
  if (acceptsGzip(req.headers['accept-encoding'])) {
    reply.header('content-encoding', 'gzip');
    return sendGzip(reply, gzipJson(json));
  }
  return reply.send(json);
}

/** Every error body comes from renderError; the error's own headers (Allow, Retry-After) go with it. */
function sendError(req: FastifyRequest, reply: FastifyReply, e: ApiError): FastifyReply | Promise<FastifyReply> {
  const h = e.options.headers;
  if (h) for (const k in h) reply.header(k, h[k]);
  return sendJson(req, reply, e.statusCode, renderError(e));
}

function mapFrameworkError(err: { statusCode?: number; code?: string; message?: string; validation?: unknown }, req?: FastifyRequest, matcher?: PathMatcher): ApiError {
  if (isApiError(err)) return err;
  const status = err.statusCode ?? 500;
  if (req && matcher && (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH')) {
    const path = req.url.split('?')[0];
    const param = matcher.pathParamOf(path);
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      // No market or event id is that long on any provider (spec: invalid_identifier, "id that cannot exist").
      if (param === undefined) return new ApiError('route_not_found', `no route matches ${quote(path)}`);
      return new ApiError('invalid_identifier', `${param} ${quote(path.slice(path.lastIndexOf('/') + 1))} is longer than ${MAX_PATH_ID} characters; no provider has such an identifier`, { param });
    }
    return new ApiError('invalid_parameter', `malformed path ${quote(path)}: ${undecodableWhy(path)}`, param === undefined ? {} : { param });
  }
  if (status >= 400 && status < 500) return new ApiError('invalid_parameter', `malformed request: ${err.message ?? 'rejected'}`);
  return new ApiError('service_unavailable', 'the service could not complete the request; retry with backoff');
}

/** Longest path identifier: a composite venue_9 pair is 139 characters (Fastify's default limit is 100). */
const MAX_PATH_ID = 512;

export async function buildApp(deps: AppDeps, handlers: HandlerRegistry = defaultHandlers, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const config = deps.config;
  const matcher = compilePathMatcher(ROUTES);
  const auth = deps.auth;
  const logger =
    opts.logger === false || (config.LOG_LEVEL === 'silent' && !opts.logStream)
      ? false
      : {
          level: config.LOG_LEVEL === 'silent' ? 'info' : config.LOG_LEVEL,
          ...(opts.logStream && { stream: opts.logStream }),
          // Keys are never logged: the request serializer keeps method and path only (no headers,
          // no query string that might carry a key), and the header is redacted wherever it appears.
          redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization'], censor: '[redacted]' },
          serializers: {
            req: (req: { method: string; url: string; id: string }) => ({ method: req.method, path: req.url.split('?')[0], id: req.id }),
          },
        };

  const app = Fastify({
    logger,
    // Per-request access lines cost a third of the throughput; errors are still logged.
    logController: new LogController({ disableRequestLogging: !opts.requestLogging }),
    genReqId: nextRequestId,
    requestIdHeader: false,
    exposeHeadRoutes: false,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PATH_ID },
    // Node's parser answers oversized or malformed requests itself: these give the catalog's body.
    // A missing Host is left to serve() for the same reason (Node would answer a bare 400).
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    clientErrorHandler: clientErrorHandler(matcher),
    frameworkErrors: (err, req, reply) => {
      void sendError(req, reply, mapFrameworkError(err, req, matcher));
    },
  });

  const deadlineMs = config.UPSTREAM_DEADLINE_MS;

  // No route reads a body: every route is GET but the session-only billing route, which answers
  // 401 whatever it is sent. Fastify would parse a body before the method check (a JSON body on
  // POST /v1/markets answered 400, not 405), so every body is left unread; Node discards it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  /** 405 with Allow when the path exists under another method, else 404. */
  function noRoute(req: FastifyRequest): ApiError {
    const path = req.url.split('?')[0];
    const allowed = matcher.allowed(path);
    if (allowed) {
      const list = allowed.join(', ');
      return new ApiError('method_not_allowed', `method ${quote(req.method)} is not allowed on ${quote(path)}; allowed: ${list}`, { headers: { allow: list } });
    }
    return new ApiError('route_not_found', `no route matches ${quote(path)}`);
  }

  app.setNotFoundHandler((req, reply) => sendError(req, reply, noRoute(req)));

  /** Each route's serve, by "METHOD url", for requests the framework stopped before the handler. */
  const served = new Map<string, (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>>();

  app.setErrorHandler((err, req, reply) => {
    // A Content-Type the framework refused before any handler ran (QUERY without one, an unparsable
    // one): no route reads a body, so the request is answered as if it had none (405 on a GET-only
    // path, the route's own answer on the billing route).
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('FST_ERR_CTP_') || code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE')) {
      const own = served.get(`${req.method} ${req.routeOptions.url}`);
      return own ? own(req, reply) : sendError(req, reply, noRoute(req));
    }
    const e = mapFrameworkError(err as never);
    if (e.statusCode >= 500 && !isApiError(err)) req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, e);
  });

  // The push stream's WebSocket transport: an upgrade of GET /v1/stream passes every check of the
  // route (router, key, permission, rate limit, the handler's own) before it is accepted; a refused
  // one is answered with the same HTTP error body as the SSE request would be.
  const hub = deps.stream;
  const streams = hub !== undefined;
  if (hub) {
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    // Open streams never end on their own: closed first, so close() does not wait on them.
    app.addHook('preClose', async () => {
      for (const c of [...hub.connections]) c.close();
    });
  }

  for (const spec of ROUTES) {
    const route = compileRoute(spec);
    const handler = handlers[spec.id];
    const h = (req: FastifyRequest, reply: FastifyReply) => serve(route, handler, req, reply);
    served.set(`${spec.method} ${spec.url}`, h);
    if (streams && spec.id === 'stream') {
      app.route({
        method: spec.method,
        url: spec.url,
        handler: h,
        preValidation: async (req: FastifyRequest, reply: FastifyReply) => {
          if ((req as unknown as { ws?: boolean }).ws) await serve(route, handler, req, reply, true);
        },
        wsHandler: (socket: StreamSocket & { once(e: 'message', fn: (data: Buffer) => void): void }, req: FastifyRequest) => openWebSocket(socket, req),
      } as never);
    } else app.route({ method: spec.method, url: spec.url, handler: h });
  }

  /**
   * A WebSocket stream starts with the client's first message: {"type":"start"}, or
   * {"type":"resume","last_event_id":"<id>"} (browsers cannot send Last-Event-ID on an upgrade; a
   * client that does starts at once).
   */
  function openWebSocket(socket: StreamSocket & { once(e: 'message', fn: (data: Buffer) => void): void }, req: FastifyRequest): void {
    const r = (req as unknown as WithStream)[STREAM_OPEN];
    if (!r?.stream) return socket.close(1011);
    const open = r.stream;
    const header = req.headers['last-event-id'];
    if (typeof header === 'string' && header !== '') return open({ kind: 'ws', socket, lastEventId: header });
    let started = false;
    // The stream holds a plan slot from the upgrade on: a client that sends no first message within a
    // heartbeat interval (or vanished without a close) is told so and dropped, which frees the slot.
    const waitMs = hub!.heartbeatMs;
    const silent = setTimeout(() => {
      const e = new ApiError('invalid_parameter', `no first message within ${waitMs} ms of the upgrade: send {"type":"start"} or {"type":"resume","last_event_id":"<id>"} at once`);
      socket.send(JSON.stringify({ id: null, event: 'error', data: renderError(e) }));
      socket.close(1008);
      // A vanished client answers no closing handshake either.
      setTimeout(() => socket.terminate(), 1_000).unref();
    }, waitMs);
    silent.unref();
    socket.on('close', () => {
      clearTimeout(silent);
      if (!started) r.release?.();
    });
    socket.once('message', (data) => {
      clearTimeout(silent);
      type Hello = { type?: unknown; last_event_id?: unknown } | null;
      let msg: Hello;
      try {
        msg = JSON.parse(data.toString('utf8')) as Hello;
      } catch {
        msg = null;
      }
      const resume = msg?.type === 'resume' && typeof msg.last_event_id === 'string' && msg.last_event_id !== '';
      if (!resume && msg?.type !== 'start') {
        const text = data.toString('utf8').slice(0, 200);
        const e = new ApiError('invalid_parameter', `the first message must be {"type":"start"} or {"type":"resume","last_event_id":"<id>"}; got ${quote(text)}`);
        socket.send(JSON.stringify({ id: null, event: 'error', data: renderError(e) }));
        return socket.close(1008);
      }
      started = true;
      open({ kind: 'ws', socket, lastEventId: resume ? (msg!.last_event_id as string) : undefined });
    });
  }

  async function serve(route: CompiledRoute, handler: HandlerRegistry[keyof HandlerRegistry], req: FastifyRequest, reply: FastifyReply, upgrade = false): Promise<FastifyReply | undefined> {
    const spec: RouteSpec = route.spec;
    let query: RawQuery;
    let pairs: Array<[string, string]>;
    // RFC 9112: a server answers 400 to an HTTP/1.1 request without Host (Node's own check, off in
    // buildApp, answered with no body at all).
    if (req.headers.host === undefined && req.raw.httpVersion === '1.1') {
      return sendError(req, reply, new ApiError('invalid_parameter', 'malformed HTTP request: an HTTP/1.1 request must send a Host header'));
    }
    const url = req.url;
    try {
      // A trailing slash (empty path id) is no route at all, whatever the query holds.
      checkPathParams(route, req.params as Record<string, string>, url);
      const q = url.indexOf('?');
      pairs = q === -1 ? [] : parseQueryString(url.slice(q + 1));
      // A key sent in the query string is answered as the missing header it should have been
      // (spec: "the message says what was sent instead"), not as an unknown parameter; an empty
      // Authorization header is no header (readBearer reads it so).
      const cred = spec.auth === 'api_key' && !req.headers.authorization ? pairs.find(([k]) => isCredentialParam(k) && !route.byName.has(k)) : undefined;
      if (cred) {
        const b = readBearer(req.headers, cred[0]);
        if (b.kind !== 'key') return sendError(req, reply, new ApiError(b.kind === 'missing' ? 'missing_api_key' : 'invalid_api_key', b.message));
      }
      query = checkParams(route, pairs);
    } catch (e) {
      return sendError(req, reply, isApiError(e) ? e : mapFrameworkError(e as never));
    }

    const now = deps.clock();
    let key: KeyInfo | undefined;
    if (spec.auth === 'session') {
      return sendError(req, reply, new ApiError('missing_api_key', `${spec.url} requires an account session from the dashboard, not an API key; it is outside this API`));
    }
    if (spec.auth === 'api_key') {
      const verdict = await authorizeRequest(req, reply, spec, auth, now);
      if (verdict instanceof ApiError) return sendError(req, reply, verdict);
      key = verdict;
    }

    if (handler === undefined) {
      return sendError(req, reply, new ApiError('service_unavailable', `${spec.method} ${spec.url} is not available yet on this deployment; retry later`));
    }
    try {
      const typed = typeParams(route, query);
      const ctx = new Context(query, typed, req.params as Record<string, string>, deps, now, key, deadlineMs);
      const res = await handler(ctx);
      if (res.stream) {
        if (upgrade) {
          // Checked: the upgrade goes on to openWebSocket with this stream.
          (req as unknown as WithStream)[STREAM_OPEN] = res;
          // Not the reply: it is a thenable that settles only once a response is sent.
          return undefined;
        }
        reply.hijack();
        res.stream({
          kind: 'sse',
          req: req.raw,
          res: reply.raw,
          headers: {
            ...(reply.getHeaders() as Record<string, string | string[]>),
            'x-request-id': req.id,
            'content-type': 'text/event-stream; charset=utf-8',
            // No proxy may buffer or transform the stream.
            'cache-control': 'no-cache, no-transform',
            'x-accel-buffering': 'no',
          },
        });
        return reply;
      }
      if (res.headers) for (const k in res.headers) reply.header(k, res.headers[k]);
      const status = res.status ?? 200;
      if (status === 200 && res.body instanceof EncodedJson && etagMatches(req.headers['if-none-match'], res.body.etag)) {
        // The client holds this snapshot page already (RFC 9110 15.4.5): headers, no body.
        reply.header('x-request-id', req.id);
        reply.header('vary', VARY);
        reply.header('etag', res.body.etag);
        return reply.code(304).send();
      }
      return sendJson(req, reply, status, res.body);
    } catch (e) {
      if (isApiError(e)) return sendError(req, reply, e);
      if ((e as Error)?.name === 'AbortError' || (e as Error)?.name === 'TimeoutError') {
        return sendError(req, reply, new ApiError('upstream_unavailable', `no answer from upstream within the ${deadlineMs} ms request deadline`));
      }
      req.log.error({ err: e }, 'handler failed');
      return sendError(req, reply, new ApiError('service_unavailable', 'the service could not complete the request; retry with backoff'));
    }
  }

  // The reference for people (api/plugins/external/docs.ts), from the same document.
  await registerDocs(app);

  return app;
}
