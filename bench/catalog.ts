// Benchmarks of the catalog area:
//  1. With N catalog rows (default 1,000,000) in chdb: snapshot build time, and GET /v1/markets
//     page 1 against a page 10,000 pages deep, through the full API shell (app.inject), measured
//     interleaved in the same run; target deep/first <= 1.5 (cost must not grow with depth). The
//     deep cursor is made with the service's own cursor codec at the keyset position of the last
//     row of page 10,000, exactly what a client holding page 10,000's next_cursor would send.
//  2. Pollers' records per second against the built-in simulator (all nine venues, one listing
//     crawl each, in parallel), with a counting sink and with the embedded log, against a
//     baseline that only GETs and JSON-parses the same pages in the same run.
//
//   npx tsx bench/catalog.ts [--rows 1000000] [--samples 40] [--scale 1] [--rounds 3] [--part all|paging|pollers]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request, Agent } from 'undici';
import { loadConfig } from '../lib/config.ts';
import { buildApp } from '../api/app.ts';
import { authDepsFor } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { handlers } from '../api/routes/index.ts';
import { PROVIDERS, CATEGORIES, type Provider } from '../api/routes/table.ts';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { createCatalog } from '../pipelines/catalog/index.ts';
import { newCrawlId, type StagedRow } from '../pipelines/catalog/store.ts';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { VenuePoller, pathWithQuery, type RawSink } from '../pipelines/venues/pollers/poller.ts';
import { adapterFor } from '../pipelines/venues/adapters/index.ts';
import { logRawSink } from '../pipelines/venues/pollers/sink.ts';
import { embeddedBackbone, randomPrefix } from '../pipelines/runtime/testkit.ts';
import { testSerde } from '../pipelines/runtime/test-services.ts';
import { benchKey } from './bench-keys.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ rows: 1000000, samples: 40, scale: 1, rounds: 3, part: 'all' });
const ROWS = cli.rows;
const SAMPLES = cli.samples;
const SCALE = cli.scale;
const PART = cli.part;
const ROUNDS = cli.rounds;
const DEPTH = 10_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const ms = (t: bigint) => Number(t) / 1e6;

async function paging(dir: string) {
  const history = await ChdbHistory.open(path.join(dir, 'chdb'), 'bench_catalog');
  const { store, deps } = createCatalog({ CATALOG_RETENTION_MS: 8 * 3600_000, CATALOG_CURSOR_SECRET: 'bench' }, history, new MemorySnapshotStore());
  await store.migrate();

  // Rows spread over the nine venues like the simulator's catalog, categories cycling.
  const share = [0.2, 0.2, 0.05, 0.05, 0.1, 0.1, 0.05, 0.15, 0.1];
  const cats = CATEGORIES.filter((c) => c !== 'unknown');
  let t = process.hrtime.bigint();
  let staged = 0;
  for (let v = 0; v < 9; v++) {
    const provider = PROVIDERS[v] as Provider;
    const n = v === 8 ? ROWS - staged : Math.round(ROWS * share[v]);
    const crawlId = newCrawlId(provider, Date.now());
    for (let from = 0; from < n; from += 100_000) {
      const batch: StagedRow[] = [];
      for (let i = from; i < Math.min(n, from + 100_000); i++) {
        const id = `${provider.toUpperCase()}-M${String(i).padStart(8, '0')}`;
        batch.push({ provider, crawl_id: crawlId, record_id: id, native_id: id, title: `Will market ${i} of ${provider} resolve Yes by the end of the year?`, category: cats[(i * 7 + v) % cats.length], listed: 1 });
      }
      await store.stageCrawlRows(batch);
    }
    await store.completeCrawls([{ provider, crawl_id: crawlId, started_at: Date.now(), completed_at: Date.now(), row_count: n }]);
    staged += n;
  }
  const stageMs = ms(process.hrtime.bigint() - t);
  t = process.hrtime.bigint();
  const meta = await store.buildSnapshot(Date.now());
  const buildMs = ms(process.hrtime.bigint() - t);
  console.log(`rows=${meta.rowCount} stage_ms=${stageMs.toFixed(0)} build_ms=${buildMs.toFixed(0)}`);

  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const keys = new MemoryKeyStore();
  const auth = authDepsFor(keys, config.KEY_PEPPER);
  const app = await buildApp({ config, clock: Date.now, auth, catalog: deps }, handlers, { logger: false });
  const key = await benchKey(auth.admin, { permissions: ['markets.read'] });
  const headers = { authorization: `Bearer ${key}` };

  const results: string[] = [];
  for (const [label, category, limit] of [
    ['unfiltered, limit 25', null, 25],
    ['unfiltered, limit 100 (page 9,000)', null, 100],
    ['category=politics, limit 25', 'politics', 25],
  ] as const) {
    const filteredTotal = await store.total(meta.snapshotId, category, null);
    // As deep as the set allows, up to 10,000 pages (a filtered set may be smaller).
    const depth = Math.min(limit === 100 ? 9_000 : DEPTH, Math.floor(filteredTotal / limit) - 1);
    // The cursor a client holding page `depth`'s next_cursor sends: the offset of the next page's first row.
    const cursor = deps.cursors.encode({ snapshotId: meta.snapshotId, category, provider: null, offset: depth * limit });
    const q = `limit=${limit}${category ? `&category=${category}` : ''}`;
    // Page 2 too: it pays the keyset condition like the deep page, at the smallest depth.
    const page1 = (await app.inject({ url: `/v1/markets?${q}`, headers })).json();
    const urls = {
      first: `/v1/markets?${q}`,
      second: `/v1/markets?${q}&cursor=${encodeURIComponent(page1.pagination.next_cursor)}`,
      deep: `/v1/markets?${q}&cursor=${encodeURIComponent(cursor)}`,
    };
    // Pages are kept serialized once served (per snapshot page), so the three URLs above are read
    // from that memo after their first request. The cold pair reads a page never served before at
    // every sample: a shallow one (page 2 + i) and a deep one (page depth + 1 - i).
    const at = (offset: number) => `/v1/markets?${q}&cursor=${encodeURIComponent(deps.cursors.encode({ snapshotId: meta.snapshotId, category, provider: null, offset }))}`;
    const times = { first: [] as number[], second: [] as number[], deep: [] as number[], secondCold: [] as number[], deepCold: [] as number[] };
    for (let i = 0; i < SAMPLES + 5; i++) {
      const order = ['first', 'second', 'deep', 'secondCold', 'deepCold'] as const;
      for (const which of i % 2 ? [...order].reverse() : order) {
        const url = which === 'secondCold' ? at(limit * (1 + i)) : which === 'deepCold' ? at(limit * (depth - i)) : urls[which];
        const s = process.hrtime.bigint();
        const res = await app.inject({ url, headers });
        const el = ms(process.hrtime.bigint() - s);
        if (res.statusCode !== 200) throw new Error(`${which}: ${res.statusCode} ${res.body}`);
        const body = res.json();
        if (body.data.length !== limit) throw new Error(`${which}: ${body.data.length} rows`);
        if (i >= 5) times[which].push(el); // the first five of each are warm-up
      }
    }
    const f = median(times.first);
    const d = median(times.deep);
    const sec = median(times.second);
    const sc = median(times.secondCold);
    const dc = median(times.deepCold);
    const line = `${label}: page 1 median ${f.toFixed(2)} ms (p90 ${p90(times.first).toFixed(2)}), page 2 median ${sec.toFixed(2)} ms, page ${depth + 1} median ${d.toFixed(2)} ms (p90 ${p90(times.deep).toFixed(2)}), deep/first ${(d / f).toFixed(2)}, deep/page 2 ${(d / sec).toFixed(2)}; never served before: shallow median ${sc.toFixed(2)} ms, deep median ${dc.toFixed(2)} ms, deep/shallow ${(dc / sc).toFixed(2)}, deep/page 1 ${(dc / f).toFixed(2)}`;
    console.log(line);
    results.push(line);
  }
  await app.close();
  await keys.close();
  await history.close();
  return results;
}

async function pollers(dir: string) {
  const sim = await startSimulator({ seed: 42, scale: SCALE, scenario: 'default' });
  try {
    // Baseline: GET + JSON.parse of the same listing pages, venues in parallel (one connection
    // pool per venue, as the pollers have), nothing else.
    const baseline = async () => {
      const t0 = process.hrtime.bigint();
      let n = 0;
      await Promise.all(
        PROVIDERS.map(async (p) => {
          const agent = new Agent({ connections: 4 });
          for (const step of adapterFor(p).listingSteps()) {
            let req: ReturnType<typeof step.first> | null = step.first();
            while (req) {
              const res = await request(sim.baseUrl + pathWithQuery(req), { dispatcher: agent });
              if (res.statusCode !== 200) {
                await res.body.text();
                break;
              }
              const page = step.parse(JSON.parse(await res.body.text()), req);
              n += page.records.length;
              req = page.next;
            }
          }
          await agent.close();
        }),
      );
      return { n, secs: ms(process.hrtime.bigint() - t0) / 1000 };
    };
    const crawlAll = async (sink: RawSink) => {
      let n = 0;
      const counting: RawSink = async (p, recs) => {
        n += recs.length;
        await sink(p, recs);
      };
      const ps = PROVIDERS.map((provider) => new VenuePoller({ provider, baseUrl: sim.baseUrl, sink: counting, crawlIntervalMs: 3_600_000, deadlineMs: 9_000, pageAttempts: 1 }));
      const s = process.hrtime.bigint();
      const ok = await Promise.all(ps.map((p) => p.crawlOnce()));
      const secs = ms(process.hrtime.bigint() - s) / 1000;
      await Promise.all(ps.map((p) => p.stop()));
      return { n, secs, completed: PROVIDERS.filter((_, i) => ok[i]) };
    };
    // Warm-up (the simulator renders its records on first read), then rounds alternating the
    // baseline and the pollers; the best round of each is reported.
    await baseline();
    const best = <T extends { n: number; secs: number }>(xs: T[]): T => xs.reduce((a, b) => (b.n / b.secs > a.n / a.secs ? b : a));
    const bases: Array<{ n: number; secs: number }> = [];
    const counts: Array<Awaited<ReturnType<typeof crawlAll>>> = [];
    for (let r = 0; r < ROUNDS; r++) {
      bases.push(await baseline());
      counts.push(await crawlAll(async () => undefined));
    }
    const { n: baseRecords, secs: baseS } = best(bases);
    const counted = best(counts);
    const b = await embeddedBackbone({ dir: path.join(dir, 'backbone'), prefix: randomPrefix(), serde: await testSerde(path.join(dir, 'registry')) });
    const producer = await b.log.producer();
    const logged = await crawlAll(logRawSink(producer, b.serde, b.topics));
    await producer.close();
    await b.close();
    const lines = [
      `baseline (GET + JSON.parse only): ${baseRecords} records in ${baseS.toFixed(2)} s = ${(baseRecords / baseS).toFixed(0)} records/s`,
      `pollers, counting sink: ${counted.n} records in ${counted.secs.toFixed(2)} s = ${(counted.n / counted.secs).toFixed(0)} records/s (ratio to baseline ${((counted.n / counted.secs) / (baseRecords / baseS)).toFixed(2)}); complete crawls: ${counted.completed.join(', ')}`,
      `pollers, embedded log sink (Avro, embedded registry, one round): ${logged.n} records in ${logged.secs.toFixed(2)} s = ${(logged.n / logged.secs).toFixed(0)} records/s (ratio to baseline ${((logged.n / logged.secs) / (baseRecords / baseS)).toFixed(2)})`,
    ];
    for (const l of lines) console.log(l);
    return lines;
  } finally {
    await sim.close();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-catalog-'));
try {
  if (PART === 'all' || PART === 'paging') await paging(dir);
  if (PART === 'all' || PART === 'pollers') await pollers(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
