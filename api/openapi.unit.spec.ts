import { describe, it, expect } from 'vitest';
import { build } from '../test/helper.ts';
import { ERROR_CATALOG } from './errors.ts';
import { ROUTES } from './routes/table.ts';

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
});
