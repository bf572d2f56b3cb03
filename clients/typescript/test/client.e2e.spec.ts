// The TypeScript client against the real service (the embedded default, as `make run` starts it):
// every call goes over HTTP to the API the pollers and pipeline feed. Shows the README's examples
// work: matched events with rules, a catalog followed across pages, typed errors from the catalog.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { runService, type RunningService } from '../../../bin/run.ts';
import { ApiError, PmClient } from '../src/index.ts';
import { eventually } from '../../../test/running-service.ts';

let svc: RunningService;
let dir: string;
let client: PmClient;

/** Only the warm-up answer is waited out. */
const warmingUp = (e: unknown) => e instanceof ApiError && e.status === 503;

describe('TypeScript client against the embedded service', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-client-'));
    svc = await runService(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', SPORTS_PUBLISH_MS: '500', POLL_INTERVAL_MS: '1000' }), { quiet: true });
    // No retries on 503 here: the warm-up is waited out explicitly, so the test does not hang in backoff.
    client = new PmClient({ baseUrl: svc.address!, apiKey: svc.demoKey!, maxRetries: 0 });
  });
  afterAll(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the plan catalog without a key and the categories with one', async () => {
    const anonymous = new PmClient({ baseUrl: svc.address! });
    expect((await anonymous.plans()).data.map((p) => p.key)).toEqual(['free', 'starter', 'pro', 'business', 'enterprise']);
    expect((await client.categories()).data.map((c) => c.id)).toContain('sports');
  });

  it('lists matched events with rules and finds one again by a source market id', async () => {
    const page = await eventually('matched events', async () => {
      const p = await client.sports({ limit: 5, include_submarkets: true, include_rules: true });
      return p.data.length ? p : undefined;
    }, undefined, warmingUp);
    const ev = page.data[0];
    expect(ev.event_id).toMatch(/^(nba|wnba|nfl|mlb|nhl)-/);
    const ml = ev.submarkets.find((s) => s.key === 'moneyline|full|winner') ?? ev.submarkets[0];
    expect(ml.source_markets.length).toBeGreaterThanOrEqual(2);
    expect(ml.rule_comparisons?.length).toBeGreaterThan(0);
    const src = ml.source_markets[0];
    const found = await client.sportsLookup({ source_id: `${src.provider}:${src.market_id}` });
    expect(found.lookups[`${src.provider}:${src.market_id}`].event_ids).toContain(ev.event_id);
  });

  it('follows the catalog across pages with cursors', async () => {
    await eventually('the first catalog snapshot', () => client.markets({ limit: 1 }), undefined, warmingUp);
    const first = await client.markets({ limit: 100, provider: 'venue_1' });
    const seen: string[] = [];
    for await (const row of client.allMarkets({ limit: 100, provider: 'venue_1' })) {
      seen.push(row.id);
      if (seen.length === 250) break;
    }
    expect(seen.slice(0, 100)).toEqual(first.data.map((r) => r.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(Math.min(250, first.pagination.total ?? 0));
    expect(seen.every((id) => id.startsWith('venue_1:'))).toBe(true);
  });

  it('opens the push stream: its first event is the subscription snapshot, with a resumable id', async () => {
    await eventually('matched events', async () => ((await client.sports({ limit: 1 })).data.length ? true : undefined), undefined, warmingUp);
    const ac = new AbortController();
    const first = await (async () => {
      for await (const ev of client.stream({ channel: 'sports', league: undefined }, { signal: ac.signal })) return ev;
    })();
    ac.abort();
    expect(first?.event).toBe('snapshot');
    expect(first?.id).toBeTruthy();
    expect((first?.data as { channel: string; data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('raises typed errors with the code, param and request id', async () => {
    const e = await client.markets({ limit: 1000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'limit' });
    expect((e as ApiError).message).toContain('1000');
    expect((e as ApiError).requestId).toBeTruthy();
    const bad = await new PmClient({ baseUrl: svc.address!, apiKey: 'pmk_not_a_key', maxRetries: 0 }).categories().catch((x: unknown) => x);
    expect(bad).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });
});
