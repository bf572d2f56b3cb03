// How much one sports-only crawl of the nine venues writes to the raw topics (records and payload
// bytes), and how much a delta crawl right after it writes: the figure behind the sports feed's
// delta mode (bench/catalog.md, section 3).
//
//   npx tsx bench/catalog-sports-volume.ts [--scale 1]
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { VenuePoller } from '../pipelines/venues/pollers/poller.ts';
import { PROVIDERS } from '../api/routes/table.ts';

const i = process.argv.indexOf('--scale');
const scale = i === -1 ? 1 : Number(process.argv[i + 1]);
const sim = await startSimulator({ seed: 42, scale, scenario: 'default' });
const tally = { full: { records: 0, bytes: 0 }, delta: { records: 0, bytes: 0 } };
let phase: 'full' | 'delta' = 'full';
const pollers = PROVIDERS.map(
  (provider) =>
    new VenuePoller({
      provider,
      baseUrl: sim.baseUrl,
      sink: async (_p, rs) => {
        for (const r of rs) {
          if (r.record_type === 'crawl_complete') continue;
          tally[phase].records++;
          tally[phase].bytes += r.payload.length;
        }
      },
      crawlIntervalMs: 3_600_000,
      sportsIntervalMs: 2_000,
      sportsFullEveryMs: 60_000,
      deadlineMs: 9_000,
    }),
);
const t0 = Date.now();
await Promise.all(pollers.map((p) => p.crawlOnce('sports')));
const fullMs = Date.now() - t0;
phase = 'delta';
const t1 = Date.now();
await Promise.all(pollers.map((p) => p.crawlOnce('sports')));
const deltaMs = Date.now() - t1;
await Promise.all(pollers.map((p) => p.stop()));
await sim.close();
const mb = (b: number) => (b / 1e6).toFixed(2);
console.log(`scale ${scale}: full sports crawl ${tally.full.records} records, ${mb(tally.full.bytes)} MB in ${fullMs} ms`);
console.log(`immediately after: delta sports crawl ${tally.delta.records} records, ${mb(tally.delta.bytes)} MB in ${deltaMs} ms`);
console.log(`every 2 s without delta mode: ${mb((tally.full.bytes / 2) * 86_400 / 1000)} GB/day`);
