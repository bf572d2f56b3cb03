// The embedded default in one process on the in-process seams, its single-thread path
// (PIPELINE_THREAD=false): simulator, pollers, processors and API on one main thread. Proves the composition root wires every area: a matched sports
// event and a catalog page come out of the API from what the pollers read, and a source market of
// the matched event resolves live on market detail. The history SQL port (HISTORY_SQL_PORT) serves
// what the pipeline wrote, read-only, while it runs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config.ts';
import { runService, type RunningService } from './run.ts';
import { apiGetter, eventually } from '../test/running-service.ts';

let svc: RunningService;
let dir: string;
const SQL_TOKEN = randomBytes(24).toString('base64url');

const get = apiGetter(() => svc.address);

describe('embedded default (bin/run.ts)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-run-'));
    // Embedded seams whatever the CI environment exports: this test is about the default mode, on
    // its single-thread path (PIPELINE_THREAD=false: the pipeline on the API's thread); the default's
    // pipeline thread has bin/run-pipeline-thread.e2e.spec.ts.
    const config = loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', SPORTS_PUBLISH_MS: '500', POLL_INTERVAL_MS: '1000', HISTORY_SQL_PORT: '0', HISTORY_SQL_TOKEN: SQL_TOKEN, PIPELINE_THREAD: 'false' });
    svc = await runService(config, { quiet: true });
  });
  afterAll(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a usable demo key on the pro plan', async () => {
    expect(svc.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(svc.demoKey).toBeTruthy();
    const plans = await get('/v1/plans');
    expect(plans.status).toBe(200);
    expect(plans.body.data.map((p: { key: string }) => p.key)).toEqual(['free', 'starter', 'pro', 'business', 'enterprise']);
    const cats = await get('/v1/categories', svc.demoKey);
    expect(cats.status).toBe(200);
    expect(cats.body.data).toHaveLength(11);
  });

  it('serves matched sports events built from what the pollers read, and their markets live', async () => {
    const ev = await eventually('a matched sports event', async () => {
      const r = await get('/v1/matching-markets/sports?limit=5', svc.demoKey);
      // 503 until the first sports snapshot is published; nothing else is acceptable.
      if (r.status === 503) return undefined;
      expect(r.status).toBe(200);
      return r.body.data.length > 0 ? r.body : undefined;
    });
    expect(ev.snapshot.observed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const first = ev.data[0];
    // A doubleheader's second game carries -g2 before the date (match.ts, a choice where the spec is silent).
    expect(first.event_id).toMatch(/^(nba|wnba|nfl|mlb|nhl)-[a-z0-9]+-[a-z0-9]+(-g\d+)?-\d{4}-\d{2}-\d{2}$/);
    const ml = first.submarkets[0];
    expect(ml.key).toBe('moneyline|full|winner');
    const providers = new Set(ml.source_markets.map((s: { provider: string }) => s.provider));
    expect(providers.size).toBeGreaterThanOrEqual(2);
    for (const sm of ml.source_markets.slice(0, 3)) {
      const d = await get(`/v1/markets/${encodeURIComponent(`${sm.provider}:${sm.market_id}`)}`, svc.demoKey);
      expect(d.status).toBe(200);
      expect(d.body.provider).toBe(sm.provider);
      expect(d.body.outcomes.map((o: { outcome_id: string }) => o.outcome_id)).toEqual(expect.arrayContaining(sm.outcomes.map((o: { outcome_id: string }) => o.outcome_id)));
    }
  });

  it("prices venue_1's quotes with the fee schedules the pollers read (include_prices)", async () => {
    type Quote = { provider: string; ask: number | null; fee_availability: string | null; effective_ask: number | null };
    const quote = await eventually('a venue_1 quote priced with its fee schedule', async () => {
      const r = await get('/v1/matching-markets/sports?limit=50&include_prices=true', svc.demoKey);
      if (r.status === 503) return undefined;
      expect(r.status).toBe(200);
      const quotes: Quote[] = r.body.data.flatMap((e: { submarkets: { prices: { outcomes: { quotes: Quote[] }[] } }[] }) => e.submarkets.flatMap((sm) => sm.prices.outcomes.flatMap((o) => o.quotes)));
      return quotes.find((q) => q.provider === 'venue_1' && q.ask !== null && q.fee_availability === 'published');
    });
    // The simulator's series charge 0.07 x P(1-P), up to the cent: at least a cent on any ask.
    expect(quote.effective_ask).toBeGreaterThanOrEqual(quote.ask! + 0.01 - 1e-9);
  });

  it('serves the catalog once the first crawl is built', async () => {
    const page = await eventually('the first catalog snapshot', async () => {
      const r = await get('/v1/markets?limit=5', svc.demoKey);
      return r.status === 200 ? r.body : undefined;
    });
    expect(page.data).toHaveLength(5);
    expect(page.data[0].provider).toBe('venue_1');
    expect(page.pagination.total).toBeGreaterThan(5);
    const next = await get(`/v1/markets?limit=5&cursor=${encodeURIComponent(page.pagination.next_cursor)}`, svc.demoKey);
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).not.toBe(page.data[0].id);
  });

  it('serves the history over the SQL port while it runs: a served event is in matched_events, and a DROP is refused', async () => {
    expect(svc.sqlAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = createClient({ url: svc.sqlAddress, username: 'default', password: SQL_TOKEN, log: { level: ClickHouseLogLevel.OFF } });
    try {
      const served = await eventually('a matched sports event', async () => {
        const r = await get('/v1/matching-markets/sports?limit=1', svc.demoKey);
        return r.status === 200 && r.body.data.length > 0 ? (r.body.data[0].event_id as string) : undefined;
      });
      const versions = await eventually(`event ${served} in matched_events`, async () => {
        const rs = await client.query({ query: 'SELECT count() AS n FROM matched_events FINAL WHERE event_id = {id:String}', query_params: { id: served }, format: 'JSONEachRow' });
        const [row] = (await rs.json()) as { n: number | string }[];
        return Number(row?.n) > 0 ? Number(row!.n) : undefined;
      });
      expect(versions).toBeGreaterThan(0);
      await expect(client.command({ query: 'DROP TABLE matched_events' })).rejects.toMatchObject({ code: '164', type: 'READONLY' });
    } finally {
      await client.close();
    }
  });
});
