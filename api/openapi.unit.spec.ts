import { describe, it, expect } from 'vitest';
import { build } from '../test/helper.ts';
import { ERROR_CATALOG } from './errors.ts';
import { PROVIDERS, ROUTES } from './routes/table.ts';
import { buildOpenApi } from './openapi.ts';
import { ADDRESS } from './live/wallet.ts';

describe('GET /v1/openapi.json', () => {
  it('serves an OpenAPI 3.1 document generated from the route table, without a key', async () => {
    const t = await build();
    const res = await t.app.inject({ url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.4');
    for (const r of ROUTES) {
      const path = r.url.replace(/:([a-z_]+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      expect(op, r.id).toBeDefined();
      expect(op.operationId).toBe(r.id);
      const names = op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
      expect(names).toEqual(r.params.map((p) => p.name));
      if (r.auth === 'none') expect(op.security).toEqual([]);
    }
    const limit = doc.paths['/v1/markets'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    const eid = doc.paths['/v1/matching-markets/sports/lookup'].get.parameters.find((p: { name: string }) => p.name === 'event_id');
    expect(eid.schema.type).toBe('array');
    // The snapshot routes answer 304 to a matching If-None-Match; the others never do.
    for (const r of ROUTES) {
      const op = doc.paths[r.url.replace(/:([a-z_]+)/g, '{$1}')][r.method.toLowerCase()];
      expect(op.responses['304'] !== undefined, r.id).toBe(r.id === 'markets_list' || r.id === 'sports_list');
    }
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(Object.keys(ERROR_CATALOG));
    expect(doc.paths['/v1/plans'].get.responses['200'].content['application/json'].schema.properties.data.items.$ref).toBe('#/components/schemas/Plan');
    // The published plans carry exactly the documented fields.
    const plans = (await t.app.inject({ url: '/v1/plans' })).json().data;
    for (const p of plans) expect(Object.keys(p).sort()).toEqual([...doc.components.schemas.Plan.required].sort());
    // Every $ref resolves.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) {
      const target = ref.split('/').reduce((o: Record<string, unknown> | undefined, k) => o?.[k] as Record<string, unknown> | undefined, doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('documents the push stream: an event-stream body with its event types (every channel), Last-Event-ID and the permission', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is read as loose JSON
    const doc = buildOpenApi() as any;
    const op = doc.paths['/v1/stream'].get;
    expect(op['x-permission']).toBe('stream.read');
    const ok = op.responses['200'].content['text/event-stream'];
    expect(Object.keys(ok['x-events'])).toEqual(['snapshot', 'quote', 'catalog.snapshot', 'event.updated', 'event.removed', 'reset', 'overflow']);
    expect(ok['x-events'].quote.data.required).toEqual(['market_id', 'status', 'outcomes', 'pricing']);
    expect(op.parameters.find((p: { name: string }) => p.name === 'market_id')).toMatchObject({ in: 'query', schema: { type: 'array' } });
    expect(ok['x-events']['event.removed'].data.properties.reason.enum).toEqual(['settled', 'cancelled', 'delisted', 'filtered']);
    expect(op.parameters.find((p: { name: string }) => p.name === 'Last-Event-ID')).toMatchObject({ in: 'header', required: false });
    expect(op.parameters.find((p: { name: string }) => p.name === 'channel').schema).toEqual({ type: 'string', enum: ['sports', 'quotes', 'catalog'] });
    expect(op.responses['200'].description).toContain('WebSocket');
    expect(op.responses['429'].content['application/json'].schema.allOf[1].properties.code.enum).toContain('rate_limited');
  });
});

type Op = { parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>; responses: Record<string, { content?: Record<string, { schema: { allOf?: Array<{ properties?: { code?: { enum: string[] } } }> } }> }> };

const opOf = (doc: { paths: Record<string, Record<string, Op>> }, r: (typeof ROUTES)[number]): Op => doc.paths[r.url.replace(/:([a-z_]+)/g, '{$1}')][r.method.toLowerCase()];
/** The codes the document lists under a status of an operation. */
const codesAt = (op: Op, status: number): string[] => op.responses[String(status)]?.content?.['application/json']?.schema.allOf?.[1].properties?.code?.enum ?? [];

describe('the OpenAPI document is held to the route table and the error catalog', () => {
  const doc = buildOpenApi() as unknown as { paths: Record<string, Record<string, Op>> };

  it('every code a route declares, and the shell answers on it, is listed under its catalog status', () => {
    const shell = ['unknown_parameter', 'invalid_parameter', 'route_not_found', 'method_not_allowed', 'service_unavailable'];
    const keyed = ['missing_api_key', 'invalid_api_key', 'payment_required', 'forbidden', 'rate_limited', 'usage_limit_exceeded', 'upstream_unavailable'];
    for (const r of ROUTES) {
      const op = opOf(doc, r);
      const want = new Set([...shell, ...(r.errors ?? []), ...(r.auth === 'api_key' ? keyed : []), ...(r.auth === 'session' ? ['missing_api_key'] : [])]);
      for (const code of want) expect(codesAt(op, ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status), `${r.id} ${code}`).toContain(code);
      // And nothing is listed under a status the catalog does not give it.
      for (const status of Object.keys(op.responses).filter((s) => s !== '200')) {
        for (const code of codesAt(op, Number(status))) expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status, `${r.id} ${code}`).toBe(Number(status));
      }
    }
  });

  it('every catalog code is documented somewhere; 409 ambiguous_identifier where a bare id can be ambiguous; the billing route its 401', () => {
    const documented = new Set(ROUTES.flatMap((r) => Object.keys(opOf(doc, r).responses).flatMap((s) => codesAt(opOf(doc, r), Number(s)))));
    expect([...documented].sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    for (const id of ['market_detail', 'event_detail']) expect(codesAt(opOf(doc, ROUTES.find((r) => r.id === id)!), 409)).toEqual(['ambiguous_identifier']);
    expect(codesAt(opOf(doc, ROUTES.find((r) => r.id === 'billing_portal')!), 401)).toEqual(['missing_api_key']);
  });

  it('provider has the nine tokens, wallet address its pattern, every integer parameter the bounds it is refused outside, and a clamped time none', () => {
    for (const r of ROUTES) {
      for (const p of opOf(doc, r).parameters) {
        const schema = (p.schema.type === 'array' ? p.schema.items : p.schema) as Record<string, unknown>;
        if (p.name === 'provider') expect(schema.enum, r.id).toEqual([...PROVIDERS]);
        if (p.name === 'address') {
          expect(schema.pattern, r.id).toBe(ADDRESS.source);
          expect(new RegExp(schema.pattern as string).test(`0x${'aB'.repeat(20)}`)).toBe(true);
        }
        const spec = r.params.find((x) => x.name === p.name);
        if (spec?.type === 'integer') {
          expect(typeof schema.minimum, `${r.id} ${p.name}`).toBe('number');
          expect(typeof schema.maximum, `${r.id} ${p.name}`).toBe('number');
        }
        // The spec's int64 times are clamped, never refused for size: no bound or format promises a 400.
        if (spec?.type === 'int64') expect(schema, `${r.id} ${p.name}`).toEqual({ type: 'integer' });
        // "include_rules ... empty value means false": its schema admits the empty value; every other
        // boolean sent empty is a 400, so it stays a plain boolean (a fuzzer found the difference).
        if (spec?.type === 'boolean')
          expect(schema, `${r.id} ${p.name}`).toEqual(
            p.name === 'include_rules' ? { oneOf: [{ type: 'boolean' }, { type: 'string', const: '' }], default: false } : { type: 'boolean', default: spec.default },
          );
      }
    }
  });

  it('what the routes answer is documented: status and code of each answer, per route', async () => {
    const t = await build();
    const key = await t.createKey();
    const noPerm = await t.createKey({ permissions: [] });
    const id600 = 'A'.repeat(600);
    const requests: Array<[string, string, Record<string, string>?]> = [];
    for (const r of ROUTES) {
      const path = r.url.replace(/:([a-z_]+)/g, 'venue_1:KX-1');
      const other = r.method === 'GET' ? 'POST' : 'GET';
      requests.push([r.method, path], [r.method, `${path}?zzz=1`], [other, path], [r.method, path, t.auth(key)], [r.method, path, t.auth('pmk_unknown')], [r.method, path, t.auth(noPerm)]);
      if (r.params.some((p) => p.name === 'cursor')) requests.push([r.method, `${path}?cursor=forged`, t.auth(key)]);
      if (r.pathParams) requests.push([r.method, r.url.replace(/:([a-z_]+)/g, id600), t.auth(key)]);
    }
    for (const [method, url, headers] of requests) {
      const res = await t.app.inject({ method: method as 'GET', url, headers });
      const route = ROUTES.find((r) => new RegExp(`^${r.url.replace(/:[a-z_]+/g, '[^/?]+')}(\\?|$)`).test(url))!;
      const op = opOf(doc, route);
      const at = `${method} ${url.slice(0, 60)} -> ${res.statusCode}`;
      // The headers the document promises under this status are sent; a rate-limit header sent is documented there.
      const documented = (op.responses[String(res.statusCode)] as { headers?: Record<string, { required?: boolean }> } | undefined)?.headers ?? {};
      for (const [name, h] of Object.entries(documented)) if (h.required) expect(res.headers[name.toLowerCase()], `${at}: ${name}`).toBeDefined();
      for (const name of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) {
        if (res.headers[name.toLowerCase()] !== undefined) expect(Object.keys(documented), `${at}: ${name} sent, not documented`).toContain(name);
      }
      if (res.statusCode === 200) continue;
      expect(codesAt(op, res.statusCode), `${at} ${res.json().code}`).toContain(res.json().code);
    }
  });

  it('documents the headers of every answer: X-Request-Id always, X-RateLimit-* on a keyed route\'s authenticated answers, none on /v1/plans', () => {
    for (const r of ROUTES) {
      for (const [status, resp] of Object.entries(opOf(doc, r).responses) as Array<[string, { headers?: Record<string, { required?: boolean }> }]>) {
        const h = resp.headers ?? {};
        expect(h['X-Request-Id']?.required, `${r.id} ${status}`).toBe(true);
        const charged = r.auth === 'api_key' && ['200', '304', '402', '403', '429'].includes(status);
        for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
          if (charged) expect(h[name]?.required, `${r.id} ${status} ${name}`).toBe(true);
          if (r.auth !== 'api_key' || ['401', '405'].includes(status)) expect(h[name], `${r.id} ${status} ${name}`).toBeUndefined();
        }
      }
    }
  });
});
