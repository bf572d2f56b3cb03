// The embedded default as `make run` starts it (PIPELINE_THREAD, on by default with ROLES=all): the
// simulator, pollers and processors on a worker thread of their own, the API alone on the main
// thread. Proves what crosses the ports works: the catalog and sports snapshots the pipeline thread
// publishes are served from the main thread's store, candles come from the pipeline thread's
// history, the push stream tails its log (and resumes from a position), its stages' metrics are read
// there, and the stop ends both cleanly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config.ts';
import { openSse } from '../api/stream/sse-client.ts';
import { runService, type RunningService } from './run.ts';
import { parseMetrics } from '../pipelines/runtime/metrics.ts';
import { apiGetter, eventually } from '../test/running-service.ts';
import { freePort } from '../test/services/index.ts';

let svc: RunningService;
let dir: string;

const get = apiGetter(() => svc.address);

describe('embedded default with the pipeline on its own thread (PIPELINE_THREAD, the default)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-run-pt-'));
    // Embedded seams whatever the CI environment exports, and the pipeline thread as the default gives it.
    // The simulator's clock pinned (SIM_CLOCK_START): the stream test below moves it to two
    // postponements of this world (seed 42, eastern day 2026-11-27) so matching republishes events.
    // On a clock at now it waited for a change to come by itself, which depended on the time of day:
    // started at this instant (the whole file run twice, SIM_CLOCK_START=2026-11-28T04:30:00Z) none
    // came within its 150 s. A matched event carries no quotes or status, so it changes only when a
    // source joins or leaves it or its game is postponed, and after the warm-up that may not happen.
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SPORTS_PUBLISH_MS: '500',
      POLL_INTERVAL_MS: '1000',
      METRICS_PORT: String(await freePort()),
      SIM_CLOCK_START: '2026-11-28T04:30:00Z',
    });
    expect(config.PIPELINE_THREAD).toBe(true);
    svc = await runService(config, { quiet: true });
  });
  afterAll(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the catalog the pipeline thread published, page after page', async () => {
    expect(svc.venueBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await eventually('the first catalog snapshot', async () => {
      const r = await get('/v1/markets?limit=5', svc.demoKey);
      if (r.status !== 200) expect(r.status).toBe(503);
      return r.status === 200 ? r.body : undefined;
    });
    expect(page.data).toHaveLength(5);
    expect(page.pagination.total).toBeGreaterThan(5);
    const next = await get(`/v1/markets?limit=5&cursor=${encodeURIComponent(page.pagination.next_cursor)}`, svc.demoKey);
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).not.toBe(page.data[0].id);
  });

  it('serves matched sports events, and their source markets live', async () => {
    const ev = await eventually('a matched sports event', async () => {
      const r = await get('/v1/matching-markets/sports?limit=5', svc.demoKey);
      if (r.status === 503) return undefined;
      expect(r.status).toBe(200);
      return r.body.data.length > 0 ? r.body : undefined;
    });
    const sm = ev.data[0].submarkets[0].source_markets[0];
    const d = await get(`/v1/markets/${encodeURIComponent(`${sm.provider}:${sm.market_id}`)}`, svc.demoKey);
    expect(d.status).toBe(200);
    expect(d.body.provider).toBe(sm.provider);
  });

  it("answers candles from the pipeline thread's history", async () => {
    const page = await eventually('the first catalog snapshot', async () => {
      const r = await get('/v1/markets?limit=20', svc.demoKey);
      return r.status === 200 ? r.body : undefined;
    });
    const ids: string[] = page.data.map((m: { id: string }) => m.id);
    const candles = await eventually('candles of a catalog market', async () => {
      for (const id of ids) {
        const r = await get(`/v1/markets/${encodeURIComponent(id)}/history?interval=1m&start_time=0`, svc.demoKey);
        expect(r.status, id).toBe(200);
        if (r.body.data.length > 0) return r.body;
      }
      return undefined;
    });
    expect(candles.data[0].outcomes.length).toBeGreaterThan(0);
    expect(candles.data[0].outcomes[0].changes).toBeGreaterThan(0);
  });

  it("streams matched events from the pipeline thread's log, and resumes after a position", async () => {
    await eventually('a matched sports event', async () => {
      const r = await get('/v1/matching-markets/sports?limit=1', svc.demoKey);
      return r.status === 200 && r.body.data.length > 0 ? true : undefined;
    });
    const headers = { authorization: `Bearer ${svc.demoKey}` };
    // Moves the simulator's clock just past a postponement of the pinned world (see beforeAll): the
    // game's venues republish it with its new start, so matching republishes its event.
    const postpone = async (at: string) => {
      const r = await fetch(`${svc.venueBaseUrl}/__admin/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ set: at }) });
      expect(r.status).toBe(200);
    };
    const first = await openSse(`${svc.address}/v1/stream?channel=sports`, headers);
    try {
      expect(first.status).toBe(200);
      await first.waitFor((es) => es.length > 0, 150_000, 'the snapshot');
      await postpone('2026-11-28T16:00:01Z'); // nfl JAX at TEN, 18:00Z, postponed at 16:00Z
      // The snapshot event, then the events the hub tails from matched.events as matching republishes.
      await first.waitFor((es) => es.some((e) => e.event === 'event.updated'), 150_000, 'an event.updated');
      expect(first.events[0]!.event).toBe('snapshot');
    } finally {
      first.destroy();
    }
    const updated = first.events.find((e) => e.event === 'event.updated')!;
    expect(updated.id).toBeTruthy();
    expect(JSON.parse(updated.data).event_id).toMatch(/^(nba|wnba|nfl|mlb|nhl)-/);
    // Resumed after that event: what follows it comes (from the log), not a reset.
    const again = await openSse(`${svc.address}/v1/stream?channel=sports`, { ...headers, 'last-event-id': updated.id! });
    try {
      expect(again.status).toBe(200);
      await postpone('2026-11-29T00:40:01Z'); // mlb NYY at CLE, 02:40Z, postponed at 00:40Z
      await again.waitFor((es) => es.some((e) => e.event === 'event.updated' || e.event === 'reset'), 150_000, 'a resumed event');
      expect(again.events.map((e) => e.event)).not.toContain('reset');
    } finally {
      again.destroy();
    }
    // Each wait above allows 150 s: the e2e tier's 120 s default would end the test before either could.
  }, 330_000);

  it("answers its stages' metrics from the pipeline thread, by call and on its metrics port", async () => {
    // The catalog stage runs there only: its count reaches this thread through the metrics call.
    const [a, b] = await Promise.all([svc.pipelineMetricsText!(), svc.pipelineMetricsText!()]);
    // The metrics server (METRICS_PORT) runs there too, its address handed back to say.
    expect(svc.metricsAddress).toMatch(/^http:\/\/[^/]+:\d+$/);
    const served = await fetch(`${svc.metricsAddress}/metrics`);
    expect(served.status).toBe(200);
    for (const text of [a, b, await served.text()]) {
      const catalog = parseMetrics(text).filter((s) => s.name === 'pm_stage_records_in_total' && s.labels.stage === 'catalog');
      expect(catalog.reduce((n, s) => n + s.value, 0)).toBeGreaterThan(0);
    }
  });

  it('stops cleanly: nothing abandoned, the API closed', async () => {
    const address = svc.address!;
    await svc.stop();
    expect(svc.abandoned()).toBe(false);
    await expect(fetch(`${address}/v1/plans`)).rejects.toThrow();
  });
});
