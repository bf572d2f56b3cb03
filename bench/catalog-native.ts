// What chdb's native side holds through the scale-1 listing crawl and catalog rebuild, without the rest of
// the service: one process, one chdb session (ChdbHistory, the service's own pool arguments), the catalog
// store's tables. Each cycle stages one full listing crawl of the nine venues the way the catalog stage
// writes it (the venues interleaved, one insert per batch of --batch rows), records the crawls, builds a
// snapshot (the service's buildSnapshot: the FINAL read of the staged rows, the two row tables, the counts,
// the janitor's drops), then idles --idle-s for the background merges. Per phase: the process's RSS at its
// end and its peak (VmHWM, reset before the phase through /proc/self/clear_refs).
//
//   node --expose-gc --import tsx bench/catalog-native.ts [--rows 13860] [--batch 128] [--cycles 3] [--idle-s 5]
//                                             [--args '--max_threads=1 ...']  (more chdb connection arguments)
//
// A/B: run it alternately with and without an argument in fresh processes (the peak is per process).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROVIDERS, CATEGORIES, type Provider } from '../api/routes/table.ts';
import { ChdbHistory, CHDB_POOL_ARGS } from '../pipelines/readmodels/chdb-history.ts';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { createCatalog } from '../pipelines/catalog/index.ts';
import { newCrawlId, type StagedRow } from '../pipelines/catalog/store.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ rows: 13860, batch: 128, cycles: 3, 'idle-s': 5, args: '' });
const ROWS = cli.rows;
const BATCH = cli.batch;
const CYCLES = cli.cycles;
const IDLE_MS = cli['idle-s'] * 1000;
const EXTRA = cli.args.split(/\s+/).filter((a) => a.length > 0);

const mb = (kb: number) => Math.round(kb / 1024);
function status(): { rss: number; hwm: number; threads: number } {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)![1]);
  return { rss: mb(kb('VmRSS')), hwm: mb(kb('VmHWM')), threads: kb('Threads') };
}
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const phases: string[] = [];
async function phase(name: string, fn: () => Promise<void>): Promise<void> {
  resetPeak();
  const t = Date.now();
  await fn();
  // The probe's own garbage out of the JS heap (node --expose-gc), so RSS minus the heap is the native side.
  (globalThis as { gc?: () => void }).gc?.();
  const s = status();
  const m = process.memoryUsage();
  const native = s.rss - Math.round((m.heapTotal + m.arrayBuffers) / 2 ** 20);
  phases.push(`${name}: rss ${s.rss} peak ${s.hwm} native ${native} (${Date.now() - t} ms; js heap ${Math.round(m.heapTotal / 2 ** 20)}, buffers ${Math.round(m.arrayBuffers / 2 ** 20)}, threads ${s.threads})`);
}

const dir = mkdtempSync(path.join(tmpdir(), 'catalog-native-'));
try {
  CHDB_POOL_ARGS.push(...EXTRA);
  const start = status();
  let history!: ChdbHistory;
  const { store } = await (async () => {
    history = await ChdbHistory.open(path.join(dir, 'chdb'), 'bench_catalog_native');
    return createCatalog({ CATALOG_RETENTION_MS: 2 * 420_000, CATALOG_CURSOR_SECRET: 'bench' }, history, new MemorySnapshotStore());
  })();
  await store.migrate();
  phases.push(`open: rss ${status().rss} (before ${start.rss})`);
  const share = [0.2, 0.2, 0.05, 0.05, 0.1, 0.1, 0.05, 0.15, 0.1];
  const cats = CATEGORIES.filter((c) => c !== 'unknown');
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const now = Date.now() + cycle * 420_000;
    const crawls = PROVIDERS.map((p, v) => ({ provider: p as Provider, crawlId: newCrawlId(p as Provider, now + v), n: Math.round(ROWS * share[v]!), next: 0 }));
    await phase(`cycle ${cycle} stage`, async () => {
      for (let left = true; left; ) {
        left = false;
        for (const c of crawls) {
          if (c.next >= c.n) continue;
          const batch: StagedRow[] = [];
          for (let i = c.next; i < Math.min(c.n, c.next + BATCH); i++) {
            const id = `${c.provider.toUpperCase()}-M${String(i).padStart(8, '0')}`;
            batch.push({ provider: c.provider, crawl_id: c.crawlId, record_id: `market:${id}`, native_id: id, title: `Will market ${i} of ${c.provider} resolve Yes by the end of the year ${2026 + cycle}?`, category: cats[(i * 7) % cats.length]!, listed: 1 });
          }
          c.next += batch.length;
          await store.stageCrawlRows(batch);
          left = true;
        }
      }
      await store.completeCrawls(crawls.map((c) => ({ provider: c.provider, crawl_id: c.crawlId, started_at: now, completed_at: now + 1, row_count: c.n })));
    });
    await phase(`cycle ${cycle} build`, async () => {
      const meta = await store.buildSnapshot(now + 2);
      if (meta.rowCount !== ROWS) throw new Error(`built ${meta.rowCount} rows, expected ${ROWS}`);
    });
    await phase(`cycle ${cycle} idle`, () => sleep(IDLE_MS));
  }
  // What ClickHouse's own memory tracker and caches hold at the end, beside the RSS.
  const chdb = await history.query<{ metric: string; value: number }>(
    `SELECT metric, value FROM system.metrics WHERE metric IN ('MemoryTracking') UNION ALL
     SELECT metric, value FROM system.metrics WHERE metric LIKE '%Cache%Bytes%' AND value > 0`,
  );
  await history.close();
  const end = status();
  console.log(JSON.stringify({ args: EXTRA.join(' '), env: `MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? ''} GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? ''}`, rows: ROWS, batch: BATCH, phases, end: end.rss, chdb: Object.fromEntries(chdb.map((r) => [r.metric, Math.round(Number(r.value) / 1024 / 1024 * 10) / 10])) }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
