// The OpenAPI 3.1 document, generated from the route table (api/routes/table.ts) and the error
// catalog (api/errors.ts), so it cannot drift from what the router enforces. Served at
// GET /v1/openapi.json without a key. In: ROUTES, ERROR_CATALOG. Out: a plain JSON document.
import { ERROR_CATALOG } from './errors.ts';
import { ROUTES, type ParamSpec, type RouteId, type RouteSpec } from './routes/table.ts';
import { CategorySchema, PlanSchema, dataOf } from './schemas/shell.ts';
import { LIVE_OK_SCHEMAS } from './live/schemas.ts';
import type { RouteHandler } from './types.ts';

export const API_VERSION = '0.1.4';

function schemaOf(p: ParamSpec): Record<string, unknown> {
  switch (p.type) {
    case 'integer':
      return { type: 'integer', ...(p.min !== undefined && { minimum: p.min }), ...(p.max !== undefined && { maximum: p.max }), ...(p.default !== undefined && { default: p.default }) };
    case 'int64':
      return { type: 'integer', format: 'int64' };
    case 'boolean':
      return { type: 'boolean', ...(p.default !== undefined && { default: p.default }) };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'enum':
      return { type: 'string', enum: [...(p.values ?? [])], ...(p.default !== undefined && { default: p.default }) };
    default:
      return { type: 'string', ...(p.nonEmpty && { minLength: 1 }) };
  }
}

function parameter(p: ParamSpec, where: 'query' | 'path'): Record<string, unknown> {
  const schema = p.repeatable ? { type: 'array', items: schemaOf(p) } : schemaOf(p);
  return {
    name: p.name,
    in: where,
    required: where === 'path',
    description: p.description,
    schema,
    ...(p.repeatable && { style: 'form', explode: true }),
  };
}

const errorRef = { $ref: '#/components/responses/Error' };

/** Typed 200 bodies where the shell owns the shape; other routes document an open object. */
const OK_SCHEMAS: Partial<Record<RouteId, Record<string, unknown>>> = {
  plans: dataOf('#/components/schemas/Plan'),
  categories: dataOf('#/components/schemas/Category'),
  ...LIVE_OK_SCHEMAS,
};

function responsesOf(r: RouteSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '200': { description: 'Success', content: { 'application/json': { schema: OK_SCHEMAS[r.id] ?? { type: 'object', additionalProperties: true } } } },
    '400': errorRef,
    '404': errorRef,
    '405': errorRef,
    '503': errorRef,
  };
  if (r.etag) {
    out['304'] = {
      description: 'Not Modified: If-None-Match named the ETag of this snapshot page; no body',
      headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
    };
  }
  if (r.auth === 'api_key') Object.assign(out, { '401': errorRef, '402': errorRef, '403': errorRef, '429': errorRef, '502': errorRef });
  return out;
}

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Record<string, unknown> = {
      operationId: r.id,
      summary: r.summary,
      parameters: [...(r.pathParams ?? []).map((p) => parameter(p, 'path')), ...r.params.map((p) => parameter(p, 'query'))],
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
        Error: {
          type: 'object',
          required: ['code', 'message', 'status_code'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_CATALOG) },
            message: { type: 'string' },
            status_code: { type: 'integer' },
            param: { type: 'string' },
            errors: {
              type: 'array',
              items: { type: 'object', required: ['param', 'value', 'message'], properties: { param: { type: 'string' }, value: {}, message: { type: 'string' } } },
            },
            candidates: { type: 'array', items: { type: 'string' } },
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
