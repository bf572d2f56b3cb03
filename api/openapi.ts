// The OpenAPI 3.1 document, generated from the route table (api/routes/table.ts) and the error
// catalog (api/errors.ts), so it cannot drift from what the router enforces. Served at
// GET /v1/openapi.json without a key. In: ROUTES, ERROR_CATALOG. Out: a plain JSON document.
import { ERROR_CATALOG, type ErrorCode } from './errors.ts';
import { PROVIDERS, ROUTES, type ParamSpec, type RouteId, type RouteSpec } from './routes/table.ts';
import { CategorySchema, PlanSchema, dataOf } from './schemas/shell.ts';
import { LIVE_OK_SCHEMAS, MarketDetailSchema } from './live/schemas.ts';
import { MarketHistorySchema } from './schemas/history.ts';
import { SPORTS_COMPONENTS, SPORTS_OK_SCHEMAS } from './schemas/sports.ts';
import type { RouteHandler } from './types.ts';

export const API_VERSION = '0.1.4';

function schemaOf(p: ParamSpec): Record<string, unknown> {
  switch (p.type) {
    case 'integer':
      return { type: 'integer', ...(p.min !== undefined && { minimum: p.min }), ...(p.max !== undefined && { maximum: p.max }), ...(p.default !== undefined && { default: p.default }) };
    case 'int64':
      // The spec's int64 times: any integer is accepted and clamped (negatives to 0, past ±2^53 to
      // ±2^53; router.ts), never refused for its size. So no format or bounds: a client or fuzzer
      // reads those as a promise to refuse what lies beyond (one found the history route "accepting"
      // a start_time past int64).
      return { type: 'integer' };
    case 'boolean':
      // A boolean whose empty value means its default (include_rules) says so: typed as boolean
      // alone, a client or fuzzer reads `include_rules=` as a promise of a 400 the spec does not make.
      if (!p.nonEmpty) return { oneOf: [{ type: 'boolean' }, { type: 'string', const: '' }], ...(p.default !== undefined && { default: p.default }) };
      return { type: 'boolean', ...(p.default !== undefined && { default: p.default }) };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'enum':
      return { type: 'string', enum: [...(p.values ?? [])], ...(p.default !== undefined && { default: p.default }) };
    default:
      return {
        type: 'string',
        ...(p.nonEmpty && { minLength: 1 }),
        ...(p.values && { enum: [...p.values] }),
        ...(p.pattern && { pattern: p.pattern }),
      };
  }
}

function parameter(p: ParamSpec, where: 'query' | 'path'): Record<string, unknown> {
  const schema = p.repeatable ? { type: 'array', items: schemaOf(p) } : schemaOf(p);
  return {
    name: p.name,
    in: where,
    required: where === 'path' || p.required === true,
    description: p.description,
    schema,
    ...(p.repeatable && { style: 'form', explode: true }),
  };
}

/** Typed 200 bodies; a route without one documents an open object. */
const OK_SCHEMAS: Partial<Record<RouteId, Record<string, unknown>>> = {
  plans: dataOf('#/components/schemas/Plan'),
  categories: dataOf('#/components/schemas/Category'),
  ...LIVE_OK_SCHEMAS,
  ...SPORTS_OK_SCHEMAS,
  market_history: MarketHistorySchema,
};

/** What the shell itself can answer on every route: router-level checks and 503 (api/app.ts). */
const SHELL_CODES: readonly ErrorCode[] = ['unknown_parameter', 'invalid_parameter', 'route_not_found', 'method_not_allowed', 'service_unavailable'];
/** The key check, rate limit and monthly allowance (api/plugins/app/authorize.ts). */
const KEY_CODES: readonly ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'payment_required', 'forbidden', 'rate_limited', 'usage_limit_exceeded', 'upstream_unavailable'];

/** Every code a route can answer, in catalog order: the shell's, its auth's, its own (RouteSpec.errors). */
export function errorCodesOf(r: RouteSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>([...SHELL_CODES, ...(r.errors ?? [])]);
  if (r.auth === 'api_key') for (const c of KEY_CODES) codes.add(c);
  // "a request without a session answers 401 missing_api_key" (README, the billing route).
  if (r.auth === 'session') codes.add('missing_api_key');
  // A path identifier no provider can have (over 512 characters).
  if (r.pathParams?.length) codes.add('invalid_identifier');
  return (Object.keys(ERROR_CATALOG) as ErrorCode[]).filter((c) => codes.has(c));
}

const ERROR_HEADERS: Record<number, Record<string, unknown>> = {
  405: { Allow: { description: 'The methods the path accepts.', schema: { type: 'string' } } },
  429: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  // A reader not built or not reachable yet (catalog, price history, the stream starting) says when to retry.
  503: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
};

const REQUEST_ID = { 'X-Request-Id': { description: 'Generated per request; one sent by the client is ignored.', required: true, schema: { type: 'string' } } };

/**
 * "Authenticated responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset";
 * "GET /v1/plans and router-level errors carry no rate-limit headers". Sure on every status only a
 * read key answers (200, 304, 402, 403, 429); possible on the statuses the router or an unverifiable
 * key also answer (400, 404, 409, 502, 503); never on 401 and 405.
 */
function rateLimitHeaders(required: boolean): Record<string, unknown> {
  const when = required ? '' : ' Present when the key was read (a handler\'s answer), absent on router-level errors.';
  return {
    'X-RateLimit-Limit': { description: `The plan's rate_limit_per_min.${when}`, required, schema: { type: 'integer' } },
    'X-RateLimit-Remaining': { description: `Advisory: requests left in the rolling 60 s.${when}`, required, schema: { type: 'integer' } },
    'X-RateLimit-Reset': { description: `Unix seconds: an upper bound on how long a 429 can last.${when}`, required, schema: { type: 'integer' } },
  };
}

function headersOf(r: RouteSpec, status: number): Record<string, unknown> {
  const keyed = r.auth === 'api_key' && status !== 401 && status !== 405;
  return { ...REQUEST_ID, ...(keyed && rateLimitHeaders([200, 304, 402, 403, 429].includes(status))), ...ERROR_HEADERS[status] };
}

/**
 * The push stream as far as OpenAPI can say it: a text/event-stream body, its events (type, id,
 * data) under `x-events`, the Last-Event-ID header, and the WebSocket form in the description.
 */
/** What the catalog channel says of a catalog snapshot (api/stream/catalog.ts catalogFacts). */
const CATALOG_FACTS = {
  type: 'object',
  required: ['snapshot', 'total', 'providers'],
  properties: {
    snapshot: {
      type: 'object',
      required: ['id', 'observed_at', 'published_at'],
      properties: { id: { type: 'string' }, observed_at: { type: ['string', 'null'], format: 'date-time' }, published_at: { type: 'string', format: 'date-time' } },
    },
    total: { type: 'integer', description: 'Rows of the snapshot (open markets, all providers).' },
    providers: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Rows per provider token.' },
  },
};
/** A market's quotes as the quotes channel sends them: market detail's outcomes[] and pricing envelope (api/stream/quotes.ts). */
const QUOTE = {
  type: 'object',
  required: ['market_id', 'status', 'outcomes', 'pricing'],
  properties: {
    market_id: { type: 'string', description: 'Composite id, as market detail `id`.' },
    status: MarketDetailSchema.properties.status,
    outcomes: MarketDetailSchema.properties.outcomes,
    pricing: MarketDetailSchema.properties.pricing,
  },
};
const STREAM_EVENT_ID = 'Opaque position in the log (`<layout>-<time>-<offsets>`); send the last one received as Last-Event-ID to resume.';
export const STREAM_EVENTS: Record<string, { description: string; data: Record<string, unknown> }> = {
  snapshot: {
    description:
      'First event after connect (and after `reset`). channel=sports: the subscription\'s current list, soonest scheduled start first, in the shape of GET /v1/matching-markets/sports `data`. channel=quotes: the current quote of each market named that the log has quoted, in the order named (a market not quoted yet is absent until its first `quote`). channel=catalog: the current catalog snapshot\'s facts as in `catalog.snapshot` (null before the first build).',
    data: {
      type: 'object',
      required: ['channel', 'data'],
      properties: { channel: { enum: ['sports', 'quotes', 'catalog'] }, data: { anyOf: [{ type: 'array', items: { type: 'object' } }, CATALOG_FACTS, { type: 'null' }] } },
    },
  },
  quote: {
    description:
      'channel=quotes: the quotes of a market named by market_id changed in the log (status, an outcome\'s price, bid, ask, last or sizes, or the pricing availability, source or neg_risk; a poll that reads the same quotes sends nothing). Built as market detail builds them from the venue record the pollers read, `pricing.observed_at` when that read began; fees are not included. The pollers read no order books, so venue_4 and venue_5 markets are `unavailable` and venue_6, venue_8 and venue_9 markets carry the record\'s marks (`indicative`), as market detail does when its book read fails.',
    data: QUOTE,
  },
  'catalog.snapshot': {
    description: 'channel=catalog: a new catalog snapshot was published (GET /v1/markets now serves it); id `catalog-<snapshot id>`.',
    data: CATALOG_FACTS,
  },
  'event.updated': { description: 'A matched sports event of the subscription changed or joined it: the full event in the list shape.', data: { type: 'object', required: ['event_id'] } },
  'event.removed': {
    description: 'An event left the subscription (without include_settled: archived; with it: removed from the archive), reason settled, cancelled or delisted; or, still listed, it no longer matches the subscription (postponed out of its scheduled_date, or no full-game moneyline left without include_submarkets): reason filtered.',
    data: { type: 'object', required: ['event_id', 'reason'], properties: { event_id: { type: 'string' }, reason: { enum: ['settled', 'cancelled', 'delisted', 'filtered'] } } },
  },
  reset: { description: 'The Last-Event-ID cannot be resumed (older than the resume window, stamped ahead of the clock, of another subscription or channel, past the end of the log, or from another deployment); a `snapshot` follows. No id.', data: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } },
  overflow: { description: 'Last event before the server closes a client that reads too slowly; reconnect with the last id received. No id.', data: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } },
};

/**
 * One event of the stream, as OpenAPI before 3.2 has `schema` describe an event-stream body (each
 * event: its `event` type, its `data` line of JSON, its `id`); schemathesis checks every event of
 * the streams it opens against it.
 */
const STREAM_EVENT_SCHEMA = {
  type: 'object',
  required: ['event', 'data'],
  properties: {
    event: { type: 'string', enum: Object.keys(STREAM_EVENTS) },
    data: { type: 'string', contentMediaType: 'application/json' },
    id: { type: 'string', description: STREAM_EVENT_ID },
    retry: { type: 'integer' },
  },
};

function streamResponse(r: RouteSpec): Record<string, unknown> {
  return {
    description: [
      'Server-Sent Events. Each event has `id:` (a log position), `event:` (its type) and one `data:` line of JSON; comment lines (`: heartbeat`) keep idle connections open.',
      'WebSocket: the same URL with an upgrade; the client first sends {"type":"start"} or {"type":"resume","last_event_id":"<id>"}; each message is {"id","event","data"}; pings are the heartbeat.',
      'Concurrent streams per account, across replicas: free 1, starter 5, pro 25, business and enterprise 100 (beyond: 429 rate_limited). The connect counts one request; events count nothing.',
    ].join(' '),
    headers: { ...headersOf(r, 200), 'Cache-Control': { schema: { type: 'string', const: 'no-cache, no-transform' } } },
    content: { 'text/event-stream': { schema: STREAM_EVENT_SCHEMA, 'x-event-id': STREAM_EVENT_ID, 'x-events': STREAM_EVENTS } },
  };
}

function responsesOf(r: RouteSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '200':
      r.id === 'stream'
        ? streamResponse(r)
        : { description: 'Success', headers: headersOf(r, 200), content: { 'application/json': { schema: OK_SCHEMAS[r.id] ?? { type: 'object', additionalProperties: true } } } },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of errorCodesOf(r)) {
    const st = ERROR_CATALOG[c].status;
    byStatus.set(st, [...(byStatus.get(st) ?? []), c]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const schema: Record<string, unknown> = {
      allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: codes } }, ...(status === 409 && { required: ['candidates', 'param'] }) }],
    };
    out[String(status)] = {
      description: codes.join(', '),
      headers: headersOf(r, status),
      content: { 'application/json': { schema } },
    };
  }
  if (r.etag) {
    out['304'] = {
      description: 'Not Modified: If-None-Match named the ETag of this snapshot page; no body',
      headers: { ...headersOf(r, 304), ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
    };
  }
  return out;
}

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Record<string, unknown> = {
      operationId: r.id,
      summary: r.summary,
      parameters: [
        ...(r.pathParams ?? []).map((p) => parameter(p, 'path')),
        ...r.params.map((p) => parameter(p, 'query')),
        ...(r.id === 'stream' ? [{ name: 'Last-Event-ID', in: 'header', required: false, description: `Resume after this event. ${STREAM_EVENT_ID}`, schema: { type: 'string' } }] : []),
      ],
      responses: responsesOf(r),
    };
    if (r.auth === 'none') op.security = [];
    if (r.permission) op['x-permission'] = r.permission;
    if (r.retired) op['x-retired-parameters'] = r.retired;
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Prediction-Market Matching and Catalog API', version: API_VERSION },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY> (at most 256 characters).' } },
      headers: {
        'X-Request-Id': { schema: { type: 'string' } },
        'X-RateLimit-Limit': { schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { schema: { type: 'integer' } },
        'X-RateLimit-Reset': { schema: { type: 'integer' } },
        'Retry-After': { schema: { type: 'integer' } },
      },
      schemas: {
        Plan: PlanSchema,
        Category: CategorySchema,
        ...SPORTS_COMPONENTS,
        Error: {
          type: 'object',
          required: ['code', 'message', 'status_code'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_CATALOG) },
            message: { type: 'string' },
            status_code: { type: 'integer', minimum: 400, maximum: 599 },
            param: { type: 'string' },
            errors: {
              type: 'array',
              items: { type: 'object', required: ['param', 'value', 'message'], properties: { param: { type: 'string' }, value: {}, message: { type: 'string' } } },
            },
            candidates: { type: 'array', items: { type: 'string', enum: [...PROVIDERS] } },
            action: { type: 'string', enum: ['upgrade_plan', 'resolve_payment'] },
            required_tier: { type: 'string' },
            current_tier: { type: 'string' },
            included_requests_per_month: { type: 'integer' },
            current_period_requests: { type: 'integer' },
          },
        },
      },
      responses: {
        Error: { description: 'Error (see the error catalog)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    },
  };
}

const doc = buildOpenApi();
export const openapi: RouteHandler = async () => ({ body: doc });
