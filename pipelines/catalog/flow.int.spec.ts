// The catalog end to end on the embedded backbone: simulator -> nine pollers over HTTP -> raw
// topics -> catalog stage -> ClickHouse (chdb) -> snapshot build -> GET /v1/markets. The rows the
// API serves are checked against what the venue actually listed, read independently here; once with
// the catalog stage on this thread, once on the history worker (history-host.ts), as the service runs it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../venues/simulator/server.ts';
import { embeddedBackbone, randomPrefix, type Backbone } from '../runtime/testkit.ts';
import { testSerde } from '../runtime/test-services.ts';
import { startStage, type StageRunner } from '../runtime/runner.ts';
import type { Producer } from '../log/types.ts';
import type { RawRecord } from '../topics.ts';
import { PollerSupervisor } from '../venues/pollers/supervisor.ts';
import { logRawSink } from '../venues/pollers/sink.ts';
import { build } from '../../test/helper.ts';
import { catalogStage } from './stage.ts';
import { createCatalog } from './index.ts';
import { CatalogBuilder } from './builder.ts';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { avroSerde } from '../serde/index.ts';
import { HistoryHost } from '../runtime/history-host.ts';

describe.each([
  ['on this thread', false],
  ['on the history worker', true],
])('catalog flow, the catalog stage %s', (_where, onWorker) => {
  let dir: string;
  let sim: Simulator;
  let b: Backbone;
  let producer: Producer;
  let runner: StageRunner;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pm-catalog-flow-'));
    sim = await startSimulator({ seed: 11, scale: 0.05, scenario: 'default' });
    if (onWorker) {
      const registry = new EmbeddedRegistry(path.join(dir, 'registry'));
      b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: avroSerde(registry), historyWorker: { registry } });
      expect(b.offload).toBeInstanceOf(HistoryHost);
      expect(b.offload!.runs(catalogStage().name)).toBe(true);
    } else {
      b = await embeddedBackbone({ dir, prefix: randomPrefix(), serde: await testSerde(dir) });
      expect(b.offload).toBeUndefined();
    }
    producer = await b.log.producer();
    runner = await startStage(catalogStage(), b);
  });
  afterAll(async () => {
    await runner?.stop();
    await producer?.close();
    await b?.close();
    await sim?.close();
  });

  it('serves exactly the open, non-parlay markets the venue listed, in token order', async () => {
    const { store, deps } = createCatalog({ CATALOG_RETENTION_MS: 8 * 3600_000, CATALOG_CURSOR_SECRET: 's' }, b.history!, b.store);
    const seen: RawRecord[] = [];
    const toLog = logRawSink(producer, b.serde, b.topics);
    const sup = new PollerSupervisor({
      baseUrl: sim.baseUrl,
      crawlIntervalMs: 3_600_000,
      deadlineMs: 5_000,
      pollerOptions: { pageAttempts: 2, backoff: { baseMs: 50, maxMs: 200, maxRetryAfterMs: 1_000 } },
      sink: async (p, recs) => {
        seen.push(...recs);
        await toLog(p, recs);
      },
    });
    sup.start();
    const builder = new CatalogBuilder({ store, refreshMs: 3_600_000, firstBuildGraceMs: 0, checkMs: 100 });
    try {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !(await store.usableCrawls()).some((c) => c.provider === 'venue_1')) await new Promise((r) => setTimeout(r, 100));
      builder.start();
      while (Date.now() < deadline && (await store.currentSnapshotId()) === null) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await sup.stop();
      await builder.stop();
    }
    const usable = await store.usableCrawls();
    expect(usable.map((c) => c.provider)).toContain('venue_1');

    // What venue_1 listed, read from the records themselves.
    const v1 = seen.filter((r) => r.venue === 'venue_1' && r.record_type === 'market');
    const parlays = v1.filter((r) => 'mve_collection_ticker' in JSON.parse(r.payload));
    const expected = new Set(v1.filter((r) => !parlays.includes(r) && JSON.parse(r.payload).status === 'active').map((r) => `venue_1:${r.native_id}`));
    expect(expected.size).toBeGreaterThan(50);

    const t = await build({ deps: { catalog: deps } });
    const key = await t.createKey({ plan: 'business', permissions: ['markets.read'] });
    const got: Array<{ id: string; provider: string; category: string; title: string }> = [];
    let cursor: string | undefined;
    let body: { data: unknown[]; pagination: { total: number; next_cursor?: string }; snapshot: { observed_at: string | null } };
    do {
      const res = await t.app.inject({ url: `/v1/markets?provider=venue_1&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers: t.auth(key) });
      expect(res.statusCode).toBe(200);
      body = res.json();
      got.push(...(body.data as typeof got));
      cursor = body.pagination.next_cursor;
    } while (cursor);
    expect(new Set(got.map((r) => r.id))).toEqual(expected);
    expect(body.pagination.total).toBe(expected.size);
    if (parlays.length) expect(got.some((r) => r.id.includes('KXMVE'))).toBe(false);
    // Sports and some non-sports buckets come from the venue's own category words.
    const cats = new Set(got.map((r) => r.category));
    expect(cats.has('sports')).toBe(true);
    expect([...cats].some((c) => c !== 'sports' && c !== 'unknown')).toBe(true);
    // observed_at: when the oldest read of the crawls in the snapshot began.
    const oldest = Math.min(...usable.map((c) => c.started_at));
    expect(body.snapshot.observed_at).toBe(new Date(oldest).toISOString());

    const all = await t.app.inject({ url: '/v1/markets?limit=100', headers: t.auth(key) });
    const providers = all.json().data.map((r: { provider: string }) => r.provider);
    expect(providers).toEqual([...providers].sort());
  });
});
