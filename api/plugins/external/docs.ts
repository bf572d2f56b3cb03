// The API reference for people at /docs: Scalar's renderer over the same OpenAPI document the API
// serves at /v1/openapi.json (the page fetches it; nothing is copied). The renderer's script is
// bundled in the package and served from /docs/js/scalar.js: no CDN (these machines reach no
// internet), and no web fonts fetched (withDefaultFonts: false). Outside /v1, so no key and no rate
// limit: it is documentation, like /v1/openapi.json itself.
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';

export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: { url: '/v1/openapi.json', withDefaultFonts: false, title: 'Prediction-market data API' },
  });
}
