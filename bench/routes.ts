// Snapshot routes against a bare Fastify server sending the same bytes, alternating in one run
// (bench/routes.md). Routes: a catalog page (GET /v1/markets?limit=100), a catalog page behind a
// deep cursor, the sports list (GET /v1/matching-markets/sports?limit=25) and, for scale, market
// detail (live: one read of the simulated venue per request). Each at 1 and 32 connections, load
// from a second process (bench/api-load.ts, autocannon), embedded default (in-process
// SnapshotStore and key store) and, when REDIS_URL is set, with Redis for snapshots and keys as on
// the scale-out stack. Targets: catalog page and sports list >= 0.5x bare at 32 connections
// embedded, >= 0.3x with Redis. Besides throughput, each line gives the CPU-cost ratio (bare CPU per
// request over the service's, this process only), which a busy shared machine disturbs far less.
//
//   npx tsx bench/routes.ts [--rows 100000] [--events 600] [--duration 3] [--rounds 3] [--keys 50] [--connections 1,32] [--mode both|embedded|redis] [--routes 'market detail'] [--sim-thread] [--ids 200] [--profile DIR] [--floor]
//
// --ids N adds a spread variant of market detail: the requests rotate over N venue_3 markets (and
// the direct call over the same N venue paths), so requests that ask for one market at once, and
// so share its venue read, are rare; the single-market line shows what sharing gains.
//
// --floor: market detail's lines also measure, in the same alternating rounds, a minimal proxy in
// this process: a bare node:http server that for each request GETs the same venue URL through the
// service's own venue GET (venueGet, a keep-alive undici pool as VenueHttp's), parses the body and
// sends it serialized again; no key, no route, no body of the API's. Its ratio to the direct call is
// what one HTTP hop to the venue leaves at best (`floor_vs_direct`), the route's is measured against it.
//
// --profile DIR: after a line's measured rounds, one more round of the service alone under a CPU
// profile of this process's main thread (node:inspector, 100 us sampling), written to DIR as one
// .cpuprofile per mode, route and connection count (bench/profile-summary.ts reads them); with
// --floor, one round each of the floor and the direct call too (`-floor`, `-direct`). Those rounds
// are not in the figures: the profiler slows the thread it samples.
//
// The catalog is built the way the service builds it: listing crawls staged in chdb, one snapshot
// build, its pages laid out in the SnapshotStore. The sports snapshot is published in the sports
// publisher's format (key event_id, SportsEntry values, meta.versions), with synthetic events sized
// like the simulator's (about 3.5 KB each with the full-game moneyline only). The service's body for
// each URL is fetched once and the bare server sends exactly those bytes with the same content type.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { loadConfig } from '../lib/config.ts';
import { buildApp } from '../api/app.ts';
import { authDepsFor } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { RedisKeyStore } from '../api/auth/redis-store.ts';
import { createLiveDeps } from '../api/live/io.ts';
import { CATEGORIES, PROVIDERS, type Provider } from '../api/routes/table.ts';
import { ChdbHistory } from '../pipelines/readmodels/chdb-history.ts';
import { MemorySnapshotStore } from '../pipelines/readmodels/memory-store.ts';
import { RedisSnapshotStore } from '../pipelines/readmodels/redis-store.ts';
import type { SnapshotStore } from '../pipelines/readmodels/snapshots.ts';
import { createCatalog } from '../pipelines/catalog/index.ts';
import { newCrawlId, type StagedRow } from '../pipelines/catalog/store.ts';
import { FULL_MONEYLINE, SPORTS_SNAPSHOT, SportsReader, sortKey, type SportsEntry } from '../pipelines/matching/readmodel.ts';
import type { MatchedEvent } from '../pipelines/matching/types.ts';
import { venueGet } from '../pipelines/venues/client/http.ts';
import { startSimulator } from '../pipelines/venues/simulator/server.ts';
import { startSimulatorThread } from '../pipelines/venues/simulator/thread.ts';
import { benchKeys } from './bench-keys.ts';
import { benchArgs } from './args.ts';

const run = promisify(execFile);
const loadScript = fileURLToPath(new URL('./api-load.ts', import.meta.url));

const cli = benchArgs({ rows: 100000, events: 600, duration: 3, rounds: 3, keys: 50, ids: 0, connections: '1,32', mode: 'both', routes: '', profile: '', 'sim-thread': false, floor: false });
const ROWS = cli.rows;
const EVENTS = cli.events;
const DURATION = cli.duration;
const ROUNDS = cli.rounds;
const KEYS = cli.keys;
const CONNECTIONS = cli.connections.split(',').map(Number);
/** embedded, redis, or both (redis only where REDIS_URL is set). */
const MODE = cli.mode;
/** Only the routes whose name contains one of these (comma-separated); all by default. */
const ONLY = cli.routes.split(',').filter(Boolean);
/** The simulator on a worker thread of its own at nice 10, as the embedded default runs it (SIM_THREAD, WORKER_NICE); on this thread otherwise. */
const SIM_ON_THREAD = cli['sim-thread'];
/** Markets the spread variant of market detail rotates over (0: no spread variant). */
const IDS = cli.ids;
/** A minimal proxy to the venue measured beside market detail (see --floor above). */
const FLOOR = cli.floor;
/** Where an extra, unmeasured round of each line under a CPU profile is written ('' for none). */
const PROFILE = cli.profile;

interface Load {
  rps: number;
  total: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU microseconds of this process (the servers; the load runs elsewhere) per request. */
  cpuUsPerReq: number;
}

/** `pathsFile`: paths (one a line) each request rotates over, on the origin of `url`. */
async function load(url: string, connections: number, keysFile: string, duration = DURATION, pathsFile = ''): Promise<Load> {
  const c0 = process.cpuUsage();
  const { stdout } = await run(process.execPath, ['--import', 'tsx', loadScript, url, String(connections), String(duration), keysFile, '0', pathsFile], { maxBuffer: 1 << 24 });
  const c = process.cpuUsage(c0);
  const l = JSON.parse(stdout.trim().split('\n').pop()!) as Omit<Load, 'cpuUsPerReq'>;
  return { ...l, cpuUsPerReq: (c.user + c.system) / Math.max(1, l.total) };
}

const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const r3 = (x: number) => Number(x.toFixed(3));

/** Synthetic matched events, four venues on each game line, ids shaped as the venues shape them. */
function sportsEntries(n: number, now: number): SportsEntry[] {
  const hex = (i: number, salt: string) => `0x${(salt + String(i)).padEnd(8, '0')}${'a1b2c3d4'.repeat(7)}`;
  const teams = ['lal', 'bos', 'nyk', 'mia', 'gsw', 'den', 'phx', 'mil', 'dal', 'chi', 'atl', 'tor'];
  const out: SportsEntry[] = [];
  for (let i = 0; i < n; i++) {
    const away = `${teams[i % teams.length]}${Math.floor(i / teams.length)}`;
    const home = `${teams[(i + 5) % teams.length]}${Math.floor(i / teams.length)}`;
    const start = new Date(now + 3600_000 + i * 600_000);
    const date = start.toISOString().slice(0, 10);
    const source = (line: string) =>
      (['venue_1', 'venue_2', 'venue_3', 'venue_4'] as const).map((provider, v) => ({
        provider,
        event_id: provider === 'venue_1' ? `KXNBAGAME-${date.replace(/-/g, '')}${away.toUpperCase()}${home.toUpperCase()}` : `${provider}-event-${i}`,
        market_id: provider === 'venue_4' ? hex(i, `m${v}`) : `${provider}-${line}-${i}`,
        market_name: `${away.toUpperCase()} vs ${home.toUpperCase()}: ${line} (game ${i}, ${provider})`,
        ...(provider === 'venue_2' && { market_slug: `nba-${away}-${home}-${date}-${line}` }),
        outcomes: [
          { canonical_outcome_key: `winner:${away}`, label: away.toUpperCase(), outcome_id: provider === 'venue_1' ? 'yes' : hex(i, `a${v}`), ...(provider === 'venue_1' && { side: 'yes' }) },
          { canonical_outcome_key: `winner:${home}`, label: home.toUpperCase(), outcome_id: provider === 'venue_1' ? 'no' : hex(i, `h${v}`), ...(provider === 'venue_1' && { side: 'no' }) },
        ],
      }));
    const sub = (key: string, type: string, line?: number) => ({
      key,
      market_type: type,
      segment: 'full',
      display_name: `${type} ${line ?? ''}`.trim(),
      metric: type === 'moneyline' ? 'winner' : 'points',
      ...(line !== undefined && { line }),
      outcomes: [
        { key: `winner:${away}`, label: away.toUpperCase(), type: 'participant', side: 'win' },
        { key: `winner:${home}`, label: home.toUpperCase(), type: 'participant', side: 'win' },
      ],
      source_markets: source(type),
      settlement_equivalence: 'equivalent',
      rule_comparisons: [],
    });
    const event = {
      event_id: `nba-${away}-${home}-${date}`,
      sport: 'basketball',
      league: 'nba',
      title: `${away.toUpperCase()} at ${home.toUpperCase()}`,
      scheduled_date: date,
      scheduled_start: start.toISOString(),
      participants: [
        { key: away, name: away.toUpperCase(), role: 'away' },
        { key: home, name: home.toUpperCase(), role: 'home' },
      ],
      submarkets: [sub(FULL_MONEYLINE, 'moneyline'), sub(`spread|full|spread:${home}|4.5`, 'spread', -4.5), sub('total|full|total|221.5', 'total', 221.5)],
    } as unknown as MatchedEvent;
    out.push({ event, population: 'current', strictPropKeys: [], lookupIds: [], sortMs: sortKey(event) });
  }
  return out;
}

async function benchMode(mode: 'embedded' | 'redis', history: ChdbHistory, simUrl: string) {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const ns = `bench:routes:${randomBytes(4).toString('hex')}:`;
  const store: SnapshotStore = mode === 'redis' ? new RedisSnapshotStore({ url: process.env.REDIS_URL!, namespace: ns }) : new MemorySnapshotStore();
  const keyStore = mode === 'redis' ? new RedisKeyStore({ url: process.env.REDIS_URL!, prefix: `${ns}auth:` }) : new MemoryKeyStore();
  const auth = authDepsFor(keyStore, config.KEY_PEPPER);
  const keyLines = (await benchKeys(auth.admin, { permissions: ['markets.read', 'markets.matching.read'], count: KEYS, unlimited: true })).map((k) => `Bearer ${k}`);
  const keysFile = path.join(tmpdir(), `bench-routes-keys-${process.pid}.txt`);
  writeFileSync(keysFile, keyLines.join('\n'));

  // The catalog, built as the service builds it.
  const prefix = `b${randomBytes(3).toString('hex')}_`;
  const catalog = createCatalog({ ...config, CATALOG_CURSOR_SECRET: 'bench' }, history, store, prefix);
  await catalog.store.migrate();
  const share = [0.2, 0.2, 0.05, 0.05, 0.1, 0.1, 0.05, 0.15, 0.1];
  const cats = CATEGORIES.filter((c) => c !== 'unknown');
  let staged = 0;
  for (let v = 0; v < 9; v++) {
    const provider = PROVIDERS[v] as Provider;
    const n = v === 8 ? ROWS - staged : Math.round(ROWS * share[v]);
    const crawlId = newCrawlId(provider, Date.now());
    const batch: StagedRow[] = [];
    for (let i = 0; i < n; i++) {
      const id = `${provider.toUpperCase()}-M${String(i).padStart(8, '0')}`;
      batch.push({ provider, crawl_id: crawlId, record_id: id, native_id: id, title: `Will market ${i} of ${provider} resolve Yes by the end of the year?`, category: cats[(i * 7 + v) % cats.length], listed: 1 });
    }
    await catalog.store.stageCrawlRows(batch);
    await catalog.store.completeCrawls([{ provider, crawl_id: crawlId, started_at: Date.now(), completed_at: Date.now(), row_count: n }]);
    staged += n;
  }
  const t0 = Date.now();
  const meta = await catalog.store.buildSnapshot(Date.now());
  const buildMs = Date.now() - t0;

  const entries = sportsEntries(EVENTS, Date.now());
  await store.publish(
    SPORTS_SNAPSHOT,
    entries.map((e) => ({ key: e.event.event_id, value: e })),
    { observedAt: Date.now(), meta: { events: entries.length, versions: Object.fromEntries(entries.map((e) => [e.event.event_id, 1])) } },
  );

  const app = await buildApp(
    { config, clock: Date.now, auth, catalog: catalog.deps, sports: { reader: new SportsReader(store) }, live: createLiveDeps(simUrl) },
    undefined,
    { logger: false },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const appBase = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const venue3s = ((await (await request(`${simUrl}/venue_3/v1/markets?per_page=${Math.max(1, IDS)}`)).body.json()) as { data: { id: string }[] }).data;
  const venue3 = venue3s[0];
  if (IDS > 0 && venue3s.length < IDS) throw new Error(`the simulator lists ${venue3s.length} venue_3 markets, fewer than --ids ${IDS}`);
  const spread = (paths: string[]) => {
    const f = path.join(tmpdir(), `bench-routes-paths-${process.pid}-${randomBytes(3).toString('hex')}.txt`);
    writeFileSync(f, paths.join('\n'));
    return f;
  };
  const deep = Math.floor(meta.rowCount / 100) - 2;
  const deepCursor = catalog.deps.cursors.encode({ snapshotId: meta.snapshotId, category: null, provider: null, offset: deep * 100 });
  const routes: { name: string; url: string; direct?: string; paths?: string[]; directPaths?: string[] }[] = [
    { name: 'catalog page (limit=100)', url: '/v1/markets?limit=100' },
    { name: `catalog page behind a cursor (page ${deep + 1})`, url: `/v1/markets?limit=100&cursor=${encodeURIComponent(deepCursor)}` },
    { name: 'sports list (limit=25)', url: '/v1/matching-markets/sports?limit=25' },
    // Market detail also against a direct call of the venue endpoint the route reads (the issue's
    // target: >= 0.5x that), the same simulator in the same process.
    { name: 'market detail (venue_3, live)', url: `/v1/markets/venue_3:${venue3.id}`, direct: `${simUrl}/venue_3/v1/markets/${encodeURIComponent(venue3.id)}` },
  ];
  if (IDS > 0) {
    const ids = venue3s.slice(0, IDS).map((m) => m.id);
    routes.push({
      name: `market detail (venue_3, live, ${IDS} ids)`,
      url: `/v1/markets/venue_3:${ids[0]}`,
      paths: ids.map((id) => `/v1/markets/venue_3:${id}`),
      direct: `${simUrl}/venue_3/v1/markets/${encodeURIComponent(ids[0])}`,
      directPaths: ids.map((id) => `/venue_3/v1/markets/${encodeURIComponent(id)}`),
    });
  }
  const chosen = routes.filter((r) => ONLY.length === 0 || ONLY.some((o) => r.name.includes(o)));

  // The bare server: the same bytes and content type for each URL, nothing else.
  const bytes = new Map<string, Buffer>();
  for (const r of chosen) {
    for (const u of r.paths ?? [r.url]) {
      const res = await request(appBase + u, { headers: { authorization: keyLines[0] } });
      if (res.statusCode !== 200) throw new Error(`${u}: HTTP ${res.statusCode} ${await res.body.text()}`);
      bytes.set(u, Buffer.from(await res.body.arrayBuffer()));
    }
  }
  const bare = Fastify({ logger: false });
  bare.get('/*', (req, reply) => reply.type('application/json; charset=utf-8').send(bytes.get(req.url)));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

  // The floor (--floor): one venue GET per request, as the service's client makes it, nothing else.
  const floorAgent = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
  const noAbort = new AbortController().signal;
  const floor = createServer((req, res) => {
    venueGet(simUrl + req.url, { agent: floorAgent, signal: noAbort }).then(
      (v) => {
        const text = JSON.stringify(JSON.parse(v.text));
        res.writeHead(v.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
      () => res.writeHead(502).end(),
    );
  });
  if (FLOOR) await new Promise<void>((ok) => floor.listen(0, '127.0.0.1', ok));
  const floorBase = FLOOR ? `http://127.0.0.1:${(floor.address() as { port: number }).port}` : '';

  const results = [];
  try {
    for (const r of chosen) {
      const appPaths = r.paths ? spread(r.paths) : '';
      const directPaths = r.directPaths ? spread(r.directPaths) : '';
      for (const c of CONNECTIONS) {
        await load(bareBase + r.url, c, '', 1, appPaths);
        await load(appBase + r.url, c, keysFile, 1, appPaths);
        if (r.direct) await load(r.direct, c, '', 1, directPaths);
        // The floor asks the venue for the direct call's own path (and rotates over the same paths).
        const floorUrl = FLOOR && r.direct ? floorBase + new URL(r.direct).pathname : '';
        if (floorUrl) await load(floorUrl, c, '', 1, directPaths);
        const b: Load[] = [];
        const a: Load[] = [];
        const d: Load[] = [];
        const f: Load[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          b.push(await load(bareBase + r.url, c, '', DURATION, appPaths));
          a.push(await load(appBase + r.url, c, keysFile, DURATION, appPaths));
          if (r.direct) d.push(await load(r.direct, c, '', DURATION, directPaths));
          if (floorUrl) f.push(await load(floorUrl, c, '', DURATION, directPaths));
        }
        const ratios = a.map((x, i) => x.rps / b[i].rps);
        const direct = r.direct
          ? {
              direct_rps: Math.round(median(d.map((x) => x.rps))),
              ratio_vs_direct_median: r3(median(a.map((x, i) => x.rps / d[i].rps))),
              ratios_vs_direct: a.map((x, i) => r3(x.rps / d[i].rps)),
              direct_cpu_us_per_req: Math.round(median(d.map((x) => x.cpuUsPerReq))),
              ...(floorUrl && {
                floor_rps: Math.round(median(f.map((x) => x.rps))),
                floor_vs_direct_median: r3(median(f.map((x, i) => x.rps / d[i].rps))),
                floor_vs_direct: f.map((x, i) => r3(x.rps / d[i].rps)),
                floor_cpu_us_per_req: Math.round(median(f.map((x) => x.cpuUsPerReq))),
                floor_non2xx_or_errors: f.reduce((n, x) => n + x.non2xx + x.errors, 0),
                ratio_vs_floor_median: r3(median(a.map((x, i) => x.rps / f[i].rps))),
              }),
            }
          : {};
        const line = {
          mode,
          route: r.name,
          bytes: bytes.get(r.url)!.length,
          connections: c,
          bare_rps: Math.round(median(b.map((x) => x.rps))),
          app_rps: Math.round(median(a.map((x) => x.rps))),
          ratio_median: r3(median(ratios)),
          ratios: ratios.map(r3),
          // Less disturbed by a busy shared machine than throughput: bare CPU per request over the
          // service's (API process only; Redis's own CPU is not counted).
          bare_cpu_us_per_req: Math.round(median(b.map((x) => x.cpuUsPerReq))),
          app_cpu_us_per_req: Math.round(median(a.map((x) => x.cpuUsPerReq))),
          cpu_ratio_median: r3(median(a.map((x, i) => b[i].cpuUsPerReq / x.cpuUsPerReq))),
          bare_p99_ms: median(b.map((x) => x.p99)),
          app_p99_ms: median(a.map((x) => x.p99)),
          app_non2xx_or_errors: a.reduce((n, x) => n + x.non2xx + x.errors, 0),
          ...direct,
        };
        console.log(JSON.stringify(line));
        results.push(line);
        if (PROFILE) {
          // The service's round, then (with --floor) the floor's and the direct call's, each profiled alone.
          const profiled: [string, string, string, string][] = [['', appBase + r.url, keysFile, appPaths]];
          if (floorUrl) profiled.push(['-floor', floorUrl, '', directPaths], ['-direct', r.direct!, '', directPaths]);
          for (const [suffix, url, keys, paths] of profiled) {
            const session = new Session();
            session.connect();
            await session.post('Profiler.enable');
            await session.post('Profiler.setSamplingInterval', { interval: 100 });
            await session.post('Profiler.start');
            const l = await load(url, c, keys, DURATION, paths);
            const { profile } = await session.post('Profiler.stop');
            session.disconnect();
            mkdirSync(PROFILE, { recursive: true });
            const file = path.join(PROFILE, `${mode}-${r.name.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}-c${c}${suffix}.cpuprofile`);
            writeFileSync(file, JSON.stringify(profile));
            console.log(JSON.stringify({ profile: file, rps: Math.round(l.rps), total: l.total, cpu_us_per_req: Math.round(l.cpuUsPerReq) }));
          }
        }
      }
      for (const f of [appPaths, directPaths]) if (f) rmSync(f, { force: true });
    }
  } finally {
    rmSync(keysFile, { force: true });
    await app.close();
    await bare.close();
    if (FLOOR) await new Promise((ok) => floor.close(ok));
    await floorAgent.close();
    await store.dropSnapshots(SPORTS_SNAPSHOT);
    await store.dropSnapshots(`${prefix}catalog`);
    await keyStore.close();
    await store.close();
  }
  return { mode, rows: meta.rowCount, buildMs, results };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-routes-'));
  const history = await ChdbHistory.open(path.join(dir, 'chdb'), 'bench_routes');
  const sim = SIM_ON_THREAD ? await startSimulatorThread({ seed: 42, nice: 10 }) : await startSimulator({ seed: 42 });
  try {
    console.log(JSON.stringify({ date: new Date().toISOString(), sim_thread: SIM_ON_THREAD, rows: ROWS, events: EVENTS, duration_s: DURATION, rounds: ROUNDS, connections: CONNECTIONS }));
    const modes = (process.env.REDIS_URL ? (['embedded', 'redis'] as const) : (['embedded'] as const)).filter((m) => MODE === 'both' || MODE === m);
    for (const m of modes) {
      const r = await benchMode(m, history, sim.baseUrl);
      console.log(JSON.stringify({ mode: r.mode, catalog_rows: r.rows, catalog_build_ms: r.buildMs }));
    }
  } finally {
    await sim.close();
    await history.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
