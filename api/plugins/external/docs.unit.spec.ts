// /docs: the reference page loads from this service alone (its script is served here, not from a
// CDN) and reads the API's own OpenAPI document.
import { describe, expect, it } from 'vitest';
import { build } from '../../../test/helper.ts';

describe('/docs', () => {
  it('serves the reference page, its bundled script and a redirect from /docs', async () => {
    const t = await build();
    const page = await t.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('/v1/openapi.json');
    const src = /<script[^>]+src="([^"]+)"/.exec(page.body)?.[1];
    expect(src).toBe('js/scalar.js');
    expect(page.body).not.toMatch(/https?:\/\/(cdn\.|fonts\.)/);
    const js = await t.app.inject({ url: '/docs/js/scalar.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.body.length).toBeGreaterThan(100_000);
    const bare = await t.app.inject({ url: '/docs' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/docs/');
    // The document the page reads is the one the API serves.
    const doc = await t.app.inject({ url: '/v1/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\.1/);
  });
});
