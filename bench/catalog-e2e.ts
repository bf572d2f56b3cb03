// The catalog end to end at scale: simulator (SIM_SCALE) -> nine pollers -> embedded log (Avro) ->
// catalog stage -> chdb -> first snapshot -> GET /v1/markets. Reports the crawl time per venue,
// the time until the first snapshot is served, its row count, and page 1 against the deepest page.
//
//   npx tsx bench/catalog-e2e.ts [--scale 20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { embeddedBackbone, randomPrefix } from '../pipelines/runtime/testkit.ts';
import { testSerde } from '../pipelines/runtime/test-services.ts';
import { startCatalog, startPollers } from '../pipelines/catalog/area.ts';

const i = process.argv.indexOf('--scale');
const scale = i === -1 ? 20 : Number(process.argv[i + 1]);
const dir = mkdtempSync(path.join(tmpdir(), 'pm-catalog-e2e-'));
const sim = await startSimulator({ seed: 42, scale, scenario: 'default' });
const b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(path.join(dir, 'registry')) });
const config = loadConfig({ LOG_LEVEL: 'silent', CATALOG_REFRESH_MS: '3600000', POLL_INTERVAL_MS: '3600000' });
const backbone = { log: b.log, serde: b.serde, topics: b.topics, history: b.history, store: b.store };
const t0 = Date.now();
const catalog = await startCatalog(config, backbone);
const pollers = await startPollers(config, backbone, sim.baseUrl);
let meta = null;
while (Date.now() - t0 < 1_800_000) {
  const id = await catalog.store.currentSnapshotId();
  if (id) {
    meta = (await catalog.store.listSnapshots()).find((s) => s.snapshotId === id) ?? null;
    break;
  }
  await new Promise((r) => setTimeout(r, 1000));
}
const firstMs = Date.now() - t0;
await pollers.stop();
for (const s of pollers.status()) {
  const c = s.feeds.listing.lastCrawl;
  console.log(`${s.provider}: ${c ? `${c.records} records in ${((c.completedAt - c.startedAt) / 1000).toFixed(1)} s` : 'no complete crawl'}`);
}
console.log(`scale ${scale}: first snapshot served after ${(firstMs / 1000).toFixed(1)} s with ${meta?.rowCount} rows`);
const reader = catalog.store;
const time = async (after: { pos: number; id: string } | null) => {
  const s = process.hrtime.bigint();
  for (let k = 0; k < 20; k++) await reader.page({ snapshotId: meta!.snapshotId, category: null, provider: null, after, limit: 25 });
  return Number(process.hrtime.bigint() - s) / 1e6 / 20;
};
const [last] = await b.history.query<{ pos: number; id: string }>(
  `SELECT pos, id FROM catalog_rows WHERE snapshot_id = '${meta!.snapshotId}' ORDER BY pos DESC, id DESC LIMIT 1 OFFSET 25`,
);
await time(null);
console.log(`store page 1: ${(await time(null)).toFixed(2)} ms, last page: ${(await time({ pos: Number(last.pos), id: last.id })).toFixed(2)} ms`);
await catalog.stop();
await b.close();
await sim.close();
rmSync(dir, { recursive: true, force: true });
