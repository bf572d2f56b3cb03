// Soak test of the embedded default: chdb crashed twice under load during
// development (a libc++ "vector index out of bounds" assertion, a segfault in libchdb's background
// pool), and chdb now lives on the history worker thread (pipelines/runtime/history-host.ts). This
// runs the real service as a child process, as a user would, keeps its pipeline busy and puts steady
// API load on it, and watches for a crash, memory growth, errors and a stalled pipeline.
//
//   npx tsx bench/soak.ts [--minutes 10] [--sample-s 30] [--rps 4.5] [--public-rps 5] [--scale 3]
//                         [--refresh-ms 30000] [--poll-full-ms 60000] [--launcher tsx|npx|node] [--sigint group|service]
//                         [--stop-timeout-s 60] [--heap] [--keep] [--rss-budget-mb by scale: 1200 at 1, 1800 at 10, 3000 at 100]
//                         [--defaults] [--profile-at-s N] [--heap-snapshot-at-s 600,3600] [--heap-snapshot-of stage-worker] [--change-only on]
//
// In: the repository's bin/run.ts on a fresh temp DATA_DIR, every seam embedded (the server
// addresses of the environment are removed), a fast catalog cadence (CATALOG_REFRESH_MS, retention
// of three refreshes so the janitor's DROP PARTITION / ALTER DELETE run during the soak), a larger
// simulator (SIM_SCALE), a full sports crawl every minute (POLL_FULL_MS; change-only ingestion off,
// which would ignore it: --change-only on soaks the default instead), and METRICS_PORT for the stage
// metrics.
// Out: a line per sample (child alive, RSS and threads, CPU, API status counts and latency of the
// window, stage lag, catalog and sports totals and snapshot ages as the API shows them), then the
// stop (SIGINT, see Stop below), a restart on the same DATA_DIR (with the seconds until a sports
// snapshot read after it is served: over FRESH_SPORTS_BOUND_S fails) and a verdict; exit 1 when any
// check fails. Logs and the samples as JSON go to bench/out/ (the samples
// also to soak-<date>.partial.json after every sample, for a run that does not reach its end).
//
// Launcher: `tsx` (default) spawns node_modules/.bin/tsx bin/run.ts, which is what `npx tsx` runs,
// so the child's exit code is the service's own (tsx passes it through; a native crash of the
// service shows as 128 + signal, e.g. 134 SIGABRT, 139 SIGSEGV). `npx` spawns `npx tsx bin/run.ts`
// literally; there npm's `sh -c` dies on the group's SIGINT at once and npm exits by SIGINT while
// the service is still shutting down, so the stop check can only wait for the service's process to
// be gone, not read its exit code. `node` spawns what `make run` runs, `WORKER_CPUS=auto MALLOC_ARENA_MAX=2
// GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 node --single-threaded-gc --no-memory-reducer --max-semi-space-size=16 bin/start.mjs` (the
// bundle of bin/run.ts when current, else bin/run.ts through tsx): the service is the child itself, and
// the semi-space flag (the main thread's young generation), glibc's arena cap and its fixed mmap
// threshold count in its memory (MALLOC_ARENA_MAX, GLIBC_TUNABLES or WORKER_CPUS set in the shell wins; an empty
// GLIBC_TUNABLES gives glibc's defaults).
//
// Stop: --sigint group (default) signals the whole process group, as Ctrl-C in a terminal does.
// tsx then relays SIGINT to the service and, when the service's main thread has not acknowledged
// it within 30 ms (twice), kills it with SIGKILL and exits 130 (node_modules/tsx/dist/cli.mjs,
// relaySignalToChild): a busy service is killed rather than shut down. --sigint service signals the
// service's process only, which tests bin/run.ts's own shutdown without tsx's relay.
//
// --heap: where the RSS is. Starts the service with NODE_OPTIONS=--inspect=127.0.0.1:0 and reads
// process.memoryUsage() of the main thread and of every worker thread (the history worker among
// them) through the inspector each
// sample, so RSS minus both V8 heaps and their array buffers is what the rest (chdb) holds; and
// runs V8's sampling heap profiler on the main thread from the first sample: once the main heap
// passes 1.5 GB (or half the run is over) it prints the allocation sites holding the most live
// memory and writes the profile (bench/out/*.heapprofile, opens in Chrome DevTools). It changes
// the process under test (an inspector per isolate, the profiler's sampling), so it is off by default.
//
// Load: the demo key (pro plan, 300 requests per rolling minute per key) carries --rps authenticated
// requests a second over the routes of api/routes/table.ts that reach the read models and the venues
// (catalog pages followed by cursor under random filters, market detail for ids seen in the catalog,
// sports pages and lookups, event detail, categories, spot); at the default 4.5/s plus two probes a
// sample it stays under the limit, so a 429 here means the limiter counted more than was sent.
// --public-rps adds the keyless routes (/v1/plans, /v1/openapi.json). Both are open-loop: a request
// leaves on each tick unless 8 are in flight, and ticks dropped that way are counted.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants as osConstants, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Node 20 has no global WebSocket without a flag; undici (a dependency) has the same class.
import { WebSocket } from 'undici';
import { embeddedDiskUse } from '../pipelines/runtime/disk.ts';
import { parseMetrics, summarize, type Sample as MetricSample } from '../pipelines/runtime/metrics.ts';
import { benchArgs } from './args.ts';

const cli = benchArgs({ minutes: 10, 'sample-s': 30, rps: 4.5, 'public-rps': 5, 'refresh-ms': 30000, 'poll-full-ms': 60000, 'stop-timeout-s': 60, 'profile-at-s': 0, scale: '3', 'change-only': 'off', launcher: 'tsx', 'node-flags': '', sigint: 'group', 'heap-snapshot-at-s': '', 'heap-snapshot-of': '', 'rss-budget-mb': '', keep: false, defaults: false, heap: false });
const MINUTES = cli.minutes;
const SAMPLE_MS = cli['sample-s'] * 1000;
const RPS = cli.rps;
const PUBLIC_RPS = cli['public-rps'];
const SCALE = cli.scale;
const REFRESH_MS = cli['refresh-ms'];
const POLL_FULL_MS = cli['poll-full-ms'];
// The soak's documented load re-reads the sports listing in full every POLL_FULL_MS; change-only
// ingestion (the service's default) publishes only what changed, a lighter load.
const CHANGE_ONLY = cli['change-only'] === 'on';
const LAUNCHER = cli.launcher;
// --node-flags "...": more node/V8 flags for --launcher node (space-separated), to try one on the service.
const NODE_FLAGS = cli['node-flags'].split(' ').filter(Boolean);
const SIGINT_TO = cli.sigint;
const STOP_TIMEOUT_MS = cli['stop-timeout-s'] * 1000;
const KEEP = cli.keep;
// --defaults: the service's own cadences and retention (make run), only SIM_SCALE from --scale: for
// the storage budget, where the soak's fast catalog cadence and short catalog retention would
// measure another service.
const DEFAULTS = cli.defaults;
const HEAP = cli.heap;
// --profile-at-s: when (seconds after the service's start) --heap reads the sampling profiles; the
// default is half the run. The start-up peak comes within the first two minutes.
const PROFILE_AT_S = cli['profile-at-s'];
// --heap-snapshot-at-s 600,3600: with --heap, a V8 heap snapshot of every isolate (the main thread and
// each worker) at those seconds after the service's start, to bench/out/<run>-<s>s-<isolate>.heapsnapshot;
// two far apart, compared by bench/heap-diff.ts, name what a slow growth is made of. Each snapshot
// stops its isolate for a few seconds (up to ~35 s under load), and writing them left the process's
// RSS about 1.1 GB higher for the rest of a scale-1 run (the snapshot generator's malloc'd memory is
// not given back): per-isolate figures stay comparable after one, RSS does not.
const HEAP_SNAPSHOT_AT_S = cli['heap-snapshot-at-s']
  .split(',')
  .filter(Boolean)
  .map(Number);
// --heap-snapshot-of stage-worker: only the isolates whose worker entry names that (main, stage-worker, ...):
// one isolate's live set without stopping the others for theirs (a snapshot collects its isolate first).
const HEAP_SNAPSHOT_OF = cli['heap-snapshot-of'];
// The README's memory budget per scale ("Memory"): the run fails when the service's peak RSS passes
// the budget of the smallest stated scale at or above SIM_SCALE (none above 100 unless given here).
const RSS_BUDGET_MB_BY_SCALE: [scale: number, mb: number][] = [
  [1, 1200],
  [10, 1800],
  [100, 3000],
];
const budgetFor = (scale: number) => RSS_BUDGET_MB_BY_SCALE.find(([s]) => scale <= s)?.[1] ?? Infinity;
const RSS_BUDGET_MB = cli['rss-budget-mb'] === '' ? budgetFor(Number(SCALE)) : Number(cli['rss-budget-mb']);
const MAX_IN_FLIGHT = 8;
const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat times are in 1/100 s
const REPO = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------- the child service

interface Child {
  proc: ChildProcess;
  startedAt: number;
  address: string;
  demoKey: string;
  metricsUrl?: string;
  /** The node process running bin/run.ts (below tsx, and below npm + sh with --launcher npx). */
  servicePid: number;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  stdoutTail: string[];
  stderrTail: string[];
  /** `Debugger listening on ws://...` lines (--heap): one per node process of the launcher chain. */
  inspectorUrls: string[];
  /** pino lines at warn (40) and above, counted by level and kept for the report. */
  logLevels: Map<number, number>;
  logSamples: string[];
}

const tail = (buf: string[], line: string, max = 200) => {
  buf.push(line);
  if (buf.length > max) buf.splice(0, buf.length - max);
};

function freePort(): Promise<number> {
  const s = createServer();
  return new Promise((resolve, reject) => {
    s.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The embedded default whatever this shell has set: no server seams, no scale-out roles. */
function childEnv(dataDir: string, metricsPort: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(HEAP ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:0`.trim() } : {}) };
  for (const k of ['KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL', 'SCHEMA_REGISTRY_URL', 'VENUE_BASE_URL', 'ROLES', 'HISTORY_WORKER', 'TOPIC_PREFIX', 'SIM_SCENARIO'])
    delete env[k];
  return {
    ...env,
    DATA_DIR: dataDir,
    PORT: '0',
    METRICS_PORT: String(metricsPort),
    SIM_SCALE: SCALE,
    ...(DEFAULTS
      ? {}
      : {
          CATALOG_REFRESH_MS: String(REFRESH_MS),
          CATALOG_RETENTION_MS: String(3 * REFRESH_MS),
          POLL_FULL_MS: String(POLL_FULL_MS),
          POLL_CHANGE_ONLY: CHANGE_ONLY ? 'true' : 'false',
        }),
    LOG_LEVEL: 'warn',
  };
}

function procStat(pid: number): { ppid: number; cpuTicks: number } | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), cpuTicks: Number(rest[11]) + Number(rest[12]) };
  } catch {
    return null;
  }
}

/** The deepest descendant of `root` whose command line runs bin/run.ts: the service itself. */
function findServicePid(root: number): number | null {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (st) children.set(st.ppid, [...(children.get(st.ppid) ?? []), Number(name)]);
  }
  let found: number | null = null;
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      try {
        if (/bin\/(run\.ts|start\.mjs)/.test(readFileSync(`/proc/${c}/cmdline`, 'utf8'))) found = c;
      } catch {
        // gone meanwhile
      }
      walk(c);
    }
  };
  walk(root);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startChild(dataDir: string, logPrefix: string): Promise<Child> {
  const metricsPort = await freePort();
  const [cmd, args] =
    LAUNCHER === 'npx'
      ? ['npx', ['tsx', 'bin/run.ts']]
      : LAUNCHER === 'node'
        ? [process.execPath, ['--single-threaded-gc', '--no-memory-reducer', '--max-semi-space-size=16', ...NODE_FLAGS, 'bin/start.mjs']]
        : [join(REPO, 'node_modules/.bin/tsx'), ['bin/run.ts']];
  // detached: its own process group, so SIGINT reaches every process of it as Ctrl-C would.
  const env = childEnv(dataDir, metricsPort);
  if (LAUNCHER === 'node') {
    env.MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX ?? '2';
    env.GLIBC_TUNABLES = process.env.GLIBC_TUNABLES ?? 'glibc.malloc.mmap_threshold=131072';
    env.WORKER_CPUS = process.env.WORKER_CPUS ?? 'auto';
  }
  const proc = spawn(cmd, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const startedAt = Date.now();
  const out = createWriteStream(`${logPrefix}.stdout`);
  const err = createWriteStream(`${logPrefix}.stderr`);
  const partial: Child = {
    proc,
    startedAt,
    address: '',
    demoKey: '',
    servicePid: 0,
    exit: new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() }))),
    stdoutTail: [],
    stderrTail: [],
    inspectorUrls: [],
    logLevels: new Map(),
    logSamples: [],
  };
  const ready = new Promise<void>((resolve) => {
    const lines = (stream: NodeJS.ReadableStream, file: NodeJS.WritableStream, buf: string[]) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => {
        file.write(d);
        const parts = (rest + d).split('\n');
        rest = parts.pop()!;
        for (const line of parts) {
          tail(buf, line);
          let m = /^API listening on (\S+)/.exec(line);
          if (m) partial.address = m[1]!;
          m = /^demo key \(.*\): (\S+)/.exec(line);
          if (m) partial.demoKey = m[1]!;
          m = /^metrics: (\S+)\/metrics/.exec(line);
          if (m) partial.metricsUrl = `${m[1]}/metrics`;
          m = /^Debugger listening on (ws:\/\/\S+)/.exec(line);
          if (m) partial.inspectorUrls.push(m[1]!);
          if (partial.address && partial.demoKey) resolve();
          const level = /^\{"level":(\d+)/.exec(line);
          if (level && Number(level[1]) >= 40) {
            partial.logLevels.set(Number(level[1]), (partial.logLevels.get(Number(level[1])) ?? 0) + 1);
            if (partial.logSamples.length < 20) partial.logSamples.push(line.slice(0, 600));
          }
        }
      });
    };
    lines(proc.stdout!, out, partial.stdoutTail);
    lines(proc.stderr!, err, partial.stderrTail);
  });
  const started = await Promise.race([ready.then(() => 'ready' as const), partial.exit.then(() => 'exited' as const), sleep(180_000).then(() => 'timeout' as const)]);
  if (started !== 'ready') {
    const e = started === 'exited' ? await partial.exit : null;
    throw new Error(
      `service did not start (${started}${e ? `: code ${e.code} signal ${e.signal}` : ''})\nstderr tail:\n${partial.stderrTail.slice(-30).join('\n')}`,
    );
  }
  partial.servicePid = findServicePid(proc.pid!) ?? proc.pid!;
  return partial;
}

function signalOfCode(code: number | null): string {
  if (code === null || code <= 128) return '';
  const name = Object.entries(osConstants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? ` (128 + ${name})` : '';
}

/** SIGINT (see --sigint); resolves with how the service ended (or not) within the timeout. */
async function stopChild(c: Child): Promise<{ ok: boolean; text: string; stopFailed: string[] }> {
  const t0 = Date.now();
  try {
    process.kill(SIGINT_TO === 'service' ? c.servicePid : -c.proc.pid!, 'SIGINT');
  } catch {
    // already gone: its exit is reported below
  }
  const ended = await Promise.race([c.exit, sleep(STOP_TIMEOUT_MS).then(() => null)]);
  // With npx the wrapper goes first; the service itself must be gone too.
  while (alive(c.servicePid) && Date.now() - t0 < STOP_TIMEOUT_MS) await sleep(100);
  const stopFailed = [...c.stderrTail, ...c.stdoutTail].filter((l) => l.includes('stop failed'));
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (!ended || alive(c.servicePid)) {
    try {
      process.kill(-c.proc.pid!, 'SIGKILL');
    } catch {
      // gone between the check and the kill
    }
    return { ok: false, text: `did not exit within ${STOP_TIMEOUT_MS / 1000} s (SIGKILL sent)`, stopFailed };
  }
  const how = `code ${ended.code}${signalOfCode(ended.code)} signal ${ended.signal}`;
  if (LAUNCHER === 'npx') return { ok: stopFailed.length === 0, text: `npx ${how}; service process gone after ${secs} s (its own exit code is not visible through npm)`, stopFailed };
  // bin/run.ts answers SIGINT with its shutdown and exit 0, so 130 can only be tsx's: its relay's
  // SIGKILL, or its preflight exiting a process with no SIGINT listener (before main() set one).
  const why = ended.code === 130 ? ' = tsx: the service did not acknowledge the relayed SIGINT in time and was killed (SIGKILL); its shutdown did not run' : '';
  return { ok: ended.code === 0 && stopFailed.length === 0, text: `${how} after ${secs} s${why}`, stopFailed };
}

// ---------------------------------------------------------------- the load

interface Window {
  statuses: Map<string, number>;
  latencies: number[];
  dropped: number;
}
const newWindow = (): Window => ({ statuses: new Map(), latencies: [], dropped: 0 });
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
const bump = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/** Ids seen in answers, for the detail routes: at most `max`, replaced at random when full. */
class Reservoir {
  readonly items: string[] = [];
  constructor(private readonly max = 500) {}
  add(x: string) {
    if (this.items.length < this.max) this.items.push(x);
    else this.items[Math.floor(Math.random() * this.max)] = x;
  }
  any(): string | undefined {
    return this.items.length ? pick(this.items) : undefined;
  }
}

interface Walker {
  busy: boolean;
  base: string;
  cursor?: string;
  pages: number;
  /** When page 1 was read: its snapshot stays retained at least CATALOG_RETENTION_MS after that. */
  startedAt: number;
}

const CATEGORIES = ['sports', 'politics', 'crypto', 'finance', 'economics', 'weather', 'culture', 'technology', 'entertainment', 'other'];
const PROVIDERS = ['venue_1', 'venue_2', 'venue_3', 'venue_4', 'venue_5', 'venue_6', 'venue_7', 'venue_8', 'venue_9'];
const LEAGUES = ['nba', 'wnba', 'nfl', 'mlb', 'nhl'];

class Load {
  window = newWindow();
  /** Over the whole run: `${route} ${status}[ ${code}]` -> count. */
  readonly totals = new Map<string, number>();
  /** Over the whole run, per route: latencies in ms. */
  readonly routeLatencies = new Map<string, number[]>();
  /**
   * Catalog cursors refused as invalid before their snapshot's retention could have passed (page 1
   * read less than CATALOG_RETENTION_MS ago), with the message. The spec allows eviction sooner
   * than promised, so these are reported, not failed.
   */
  readonly earlyStaleCursors: string[] = [];
  inFlight = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly marketIds = new Reservoir();
  private readonly eventIds = new Reservoir(); // provider:event_id
  private readonly sportsIds = new Reservoir(); // canonical event keys
  private readonly catalogWalkers: Walker[] = [0, 1, 2].map(() => ({ busy: false, base: '', pages: 0, startedAt: 0 }));
  private readonly sportsWalkers: Walker[] = [0, 1].map(() => ({ busy: false, base: '', pages: 0, startedAt: 0 }));

  constructor(
    private address: string,
    private key: string,
  ) {}

  /** One request, counted in the window and the totals; answers the parsed body of a JSON 2xx. */
  async request(route: string, path: string, auth = true): Promise<{ status: number; body?: Record<string, unknown>; error?: Record<string, unknown> }> {
    this.inFlight++;
    const t0 = performance.now();
    let status = 0;
    let label: string;
    let body: Record<string, unknown> | undefined;
    let error: Record<string, unknown> | undefined;
    try {
      const res = await fetch(this.address + path, { headers: auth ? { authorization: `Bearer ${this.key}` } : {}, signal: AbortSignal.timeout(30_000) });
      status = res.status;
      const text = await res.text();
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = undefined;
      }
      if (status < 300) body = parsed;
      else error = parsed;
      label = status < 300 ? String(status) : `${status} ${String(parsed?.code ?? '?')}`;
    } catch (e) {
      label = `ERR ${(e as Error).name === 'TimeoutError' ? 'timeout' : ((e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message)}`;
    } finally {
      this.inFlight--;
    }
    const ms = performance.now() - t0;
    this.window.latencies.push(ms);
    if (!this.routeLatencies.has(route)) this.routeLatencies.set(route, []);
    this.routeLatencies.get(route)!.push(ms);
    bump(this.window.statuses, label.split(' ')[0]!);
    bump(this.totals, `${route} ${label}`);
    return { status, body, error };
  }

  start() {
    this.every(1000 / RPS, () => this.authed());
    if (PUBLIC_RPS > 0) this.every(1000 / PUBLIC_RPS, () => this.request(Math.random() < 0.8 ? 'plans' : 'openapi', Math.random() < 0.8 ? '/v1/plans' : '/v1/openapi.json', false));
  }

  async stop() {
    for (const t of this.timers) clearInterval(t);
    while (this.inFlight > 0) await sleep(50);
  }

  private every(ms: number, fn: () => Promise<unknown>) {
    this.timers.push(
      setInterval(() => {
        if (this.inFlight >= MAX_IN_FLIGHT) this.window.dropped++;
        else void fn();
      }, ms),
    );
  }

  private authed(): Promise<unknown> {
    const r = Math.random();
    if (r < 0.4) return this.catalogPage();
    if (r < 0.55) return this.marketDetail();
    if (r < 0.7) return this.sportsPage();
    if (r < 0.78) return this.sportsLookup();
    if (r < 0.88) return this.eventDetail();
    if (r < 0.94) return this.request('categories', '/v1/categories');
    return this.request('spot', '/v1/crypto-prices/spot?currency=btcusd');
  }

  private async catalogPage() {
    const w = this.catalogWalkers.find((x) => !x.busy);
    if (!w) return this.request('markets', `/v1/markets?limit=100&category=${pick(CATEGORIES)}`);
    w.busy = true;
    if (!w.cursor || w.pages >= 50) {
      const q = new URLSearchParams({ limit: String(pick([25, 100])) });
      const f = Math.random();
      if (f < 0.3) q.set('category', pick(CATEGORIES));
      else if (f < 0.6) q.set('provider', pick(PROVIDERS));
      else if (f < 0.7) {
        q.set('category', pick(CATEGORIES));
        q.set('provider', pick(PROVIDERS));
      }
      w.base = `/v1/markets?${q}`;
      w.cursor = undefined;
      w.pages = 0;
      w.startedAt = Date.now();
    }
    const { body, error } = await this.request('markets', w.cursor ? `${w.base}&cursor=${encodeURIComponent(w.cursor)}` : w.base);
    w.pages++;
    const walkS = (Date.now() - w.startedAt) / 1000;
    if (error?.code === 'invalid_cursor' && walkS * 1000 < 3 * REFRESH_MS)
      this.earlyStaleCursors.push(`page ${w.pages} after ${walkS.toFixed(0)} s: ${String(error.message)}`);
    // Any failure (a stale cursor included) restarts the walk from page 1, as the spec tells clients.
    const page = body?.pagination as { next_cursor?: string } | undefined;
    w.cursor = page?.next_cursor;
    for (const row of (body?.data as { id: string }[] | undefined) ?? []) if (Math.random() < 0.1) this.marketIds.add(row.id);
    w.busy = false;
  }

  private async marketDetail() {
    const id = this.marketIds.any();
    if (!id) return this.catalogPage();
    const { body } = await this.request('market_detail', `/v1/markets/${encodeURIComponent(id)}`);
    if (body && typeof body.event_id === 'string' && typeof body.provider === 'string') this.eventIds.add(`${body.provider}:${body.event_id}`);
  }

  private async sportsPage() {
    const w = this.sportsWalkers.find((x) => !x.busy);
    if (!w) return this.request('sports', '/v1/matching-markets/sports');
    w.busy = true;
    if (!w.cursor || w.pages >= 20) {
      const q = new URLSearchParams({ limit: String(pick([10, 25, 100])) });
      if (Math.random() < 0.3) q.set('league', pick(LEAGUES));
      if (Math.random() < 0.5) q.set('include_submarkets', 'true');
      if (Math.random() < 0.2) q.set('include_rules', 'true');
      w.base = `/v1/matching-markets/sports?${q}`;
      w.cursor = undefined;
      w.pages = 0;
    }
    const { body } = await this.request('sports', w.cursor ? `${w.base}&cursor=${encodeURIComponent(w.cursor)}` : w.base);
    w.pages++;
    w.cursor = (body?.pagination as { next_cursor?: string } | undefined)?.next_cursor;
    type SportsEvent = { event_id: string; submarkets?: { source_markets?: { provider: string; event_id?: string }[] }[] };
    for (const ev of (body?.data as SportsEvent[] | undefined) ?? []) {
      this.sportsIds.add(ev.event_id);
      for (const s of ev.submarkets ?? []) for (const m of s.source_markets ?? []) if (m.event_id && Math.random() < 0.2) this.eventIds.add(`${m.provider}:${m.event_id}`);
    }
    w.busy = false;
  }

  private sportsLookup() {
    const id = this.sportsIds.any();
    return id ? this.request('sports_lookup', `/v1/matching-markets/sports/lookup?event_id=${encodeURIComponent(id)}`) : this.sportsPage();
  }

  private eventDetail() {
    const id = this.eventIds.any();
    return id ? this.request('event_detail', `/v1/events/${encodeURIComponent(id)}`) : this.sportsPage();
  }
}

// ---------------------------------------------------------------- heap (--heap)

interface Mem {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}
const MEMORY_EXPR = 'JSON.stringify(process.memoryUsage())';

/** process.memoryUsage() of the service's main thread and of its workers, through the inspector. */
class HeapProbe {
  private nextId = 1;
  private readonly replies = new Map<string, (r: unknown) => void>();
  /** Where each session's heap snapshot chunks go while one is being taken. */
  private readonly chunkSinks = new Map<string, (chunk: string) => void>();
  private readonly workerSessions: string[] = [];
  /** Each worker's inspector title and URL, in the order attached (same order as workerSessions). */
  readonly workerTitles: string[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (ev: { data: unknown }) => {
      const msg = JSON.parse(String(ev.data)) as { id?: number; method?: string; result?: unknown; params?: Record<string, unknown> };
      if (msg.id !== undefined) this.replies.get(`main ${msg.id}`)?.(msg.result);
      else if (msg.method === 'HeapProfiler.addHeapSnapshotChunk') this.chunkSinks.get('main')?.(String(msg.params!.chunk));
      else if (msg.method === 'NodeWorker.attachedToWorker') {
        this.workerSessions.push(String(msg.params!.sessionId));
        const info = msg.params!.workerInfo as { title?: string; url?: string } | undefined;
        this.workerTitles.push(`${info?.title ?? '?'} ${(info?.url ?? '').replace(`file://${REPO}`, '')}`);
        // Each worker's own sampling profile too: a worker's heap is invisible to the main thread's.
        void this.call(String(msg.params!.sessionId), 'HeapProfiler.startSampling', { samplingInterval: 32768 }).catch(() => undefined);
      }
      else if (msg.method === 'NodeWorker.receivedMessageFromWorker') {
        const inner = JSON.parse(String(msg.params!.message)) as { id?: number; result?: unknown; method?: string; params?: { chunk?: string } };
        if (inner.id !== undefined) this.replies.get(`${String(msg.params!.sessionId)} ${inner.id}`)?.(inner.result);
        else if (inner.method === 'HeapProfiler.addHeapSnapshotChunk') this.chunkSinks.get(String(msg.params!.sessionId))?.(String(inner.params!.chunk));
      }
    });
  }

  /** Connects to the inspector whose main module is bin/run.ts or bin/start.mjs (not tsx's own process). */
  static async connect(urls: string[]): Promise<HeapProbe | null> {
    for (const u of urls) {
      const list = (await (await fetch(`http://${new URL(u).host}/json/list`)).json()) as { url: string; webSocketDebuggerUrl: string }[];
      const target = list.find((t) => /bin\/(run\.ts|start\.mjs)/.test(t.url));
      if (!target) continue;
      const ws = new WebSocket(target.webSocketDebuggerUrl);
      await new Promise((resolve, reject) => {
        ws.addEventListener('open', resolve);
        ws.addEventListener('error', reject);
      });
      const probe = new HeapProbe(ws);
      await probe.call('main', 'NodeWorker.enable', { waitForDebuggerOnStart: false });
      await probe.call('main', 'HeapProfiler.startSampling', { samplingInterval: 32768 });
      return probe;
    }
    return null;
  }

  private call(session: string, method: string, params: Record<string, unknown>, timeoutMs = 15_000): Promise<unknown> {
    const id = this.nextId++;
    const reply = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), timeoutMs);
      this.replies.set(`${session} ${id}`, (r) => {
        clearTimeout(timer);
        this.replies.delete(`${session} ${id}`);
        resolve(r);
      });
    });
    const message = { id, method, params };
    if (session === 'main') this.ws.send(JSON.stringify(message));
    else this.ws.send(JSON.stringify({ id: this.nextId++, method: 'NodeWorker.sendMessageToWorker', params: { sessionId: session, message: JSON.stringify(message) } }));
    return reply;
  }

  private async memory(session: string): Promise<Mem> {
    const r = (await this.call(session, 'Runtime.evaluate', { expression: MEMORY_EXPR, returnByValue: true })) as { result: { value: string } };
    return JSON.parse(r.result.value) as Mem;
  }

  async sample(): Promise<{ main: Mem; workers: Mem[] } | null> {
    try {
      return { main: await this.memory('main'), workers: await Promise.all(this.workerSessions.map((s) => this.memory(s))) };
    } catch {
      return null;
    }
  }

  /** An isolate's worker entry (`main` for the main thread): every worker starts from ts-worker.mjs, its title says no more. */
  private async entryOf(session: string): Promise<string> {
    const expression = `(() => { const wt = process.getBuiltinModule('worker_threads'); return wt.isMainThread ? 'main' : String(wt.workerData?.entry ?? ''); })()`;
    const r = (await this.call(session, 'Runtime.evaluate', { expression, returnByValue: true }).catch(() => null)) as { result?: { value?: string } } | null;
    return r?.result?.value ?? '';
  }

  /**
   * A V8 heap snapshot of every isolate, one file each (`<prefix>-main.heapsnapshot`,
   * `<prefix>-worker<N>.heapsnapshot`), one isolate at a time so only one is stopped at once.
   */
  async heapSnapshots(prefix: string): Promise<string[]> {
    const lines: string[] = [];
    const all: [string, string][] = [['main', 'main'], ...this.workerSessions.map((s, i): [string, string] => [s, `worker${i + 1}`])];
    const sessions: [string, string][] = [];
    for (const [session, name] of all) if (!HEAP_SNAPSHOT_OF || (await this.entryOf(session)).includes(HEAP_SNAPSHOT_OF)) sessions.push([session, name]);
    for (const [session, name] of sessions) {
      const file = `${prefix}-${name}.heapsnapshot`;
      const out = createWriteStream(file);
      this.chunkSinks.set(session, (chunk) => out.write(chunk));
      const t0 = Date.now();
      try {
        await this.call(session, 'HeapProfiler.takeHeapSnapshot', { reportProgress: false }, 600_000);
        lines.push(`heap snapshot of ${name} in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${file}`);
      } catch (e) {
        lines.push(`heap snapshot of ${name} failed: ${(e as Error).message}`);
      } finally {
        this.chunkSinks.delete(session);
        await new Promise((resolve) => out.end(resolve));
      }
    }
    return lines;
  }

  /** The live allocations sampled since the start on the main thread and on every worker. */
  async profile(file: string): Promise<string[]> {
    const lines = await this.profileOf('main', 'the main thread', file);
    for (const [i, session] of this.workerSessions.entries()) {
      const out = await this.profileOf(session, `worker #${i + 1} ${this.workerTitles[i]}`, file.replace(/\.heapprofile$/, `-worker${i + 1}.heapprofile`)).catch((e: Error) => [
        `worker #${i + 1}: no profile (${e.message})`,
      ]);
      lines.push(...out);
    }
    return lines;
  }

  /** One isolate's live sampled allocations, by allocating function and by nearest repository frame. */
  private async profileOf(session: string, label: string, file: string): Promise<string[]> {
    type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
    const { profile } = (await this.call(session, 'HeapProfiler.getSamplingProfile', {})) as { profile: { head: Node } };
    writeFileSync(file, JSON.stringify(profile));
    const bySite = new Map<string, number>();
    const byOwnFrame = new Map<string, number>();
    const frame = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(`file://${REPO}`, '')}:${n.callFrame.lineNumber + 1}`;
    const walk = (n: Node, own: string) => {
      const url = n.callFrame.url;
      const mine = url.startsWith(`file://${REPO}`) && !url.includes('/node_modules/') ? frame(n) : own;
      bump(bySite, frame(n), n.selfSize);
      bump(byOwnFrame, mine, n.selfSize);
      for (const c of n.children) walk(c, mine);
    };
    walk(profile.head, '(no repository frame)');
    const top = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([k, v]) => `    ${String(MB(v)).padStart(6)} MB  ${k}`);
    const total = [...bySite.values()].reduce((a, b) => a + b, 0);
    return [
      `sampled live allocations on ${label}: ${MB(total)} MB (profile: ${file})`,
      '  by allocating function:',
      ...top(bySite),
      '  by nearest repository frame on the stack:',
      ...top(byOwnFrame),
    ];
  }

  close() {
    this.ws.close();
  }
}

const MB = (b: number) => Math.round(b / 2 ** 20);

/** `heap main 120/150 MB, workers 80/95 MB, buffers 30 MB, rest 900 MB` (used/total; rest = RSS minus those). */
function heapText(h: { main: Mem; workers: Mem[] }): string {
  const w = h.workers.reduce((a, m) => ({ used: a.used + m.heapUsed, total: a.total + m.heapTotal, ab: a.ab + m.arrayBuffers }), { used: 0, total: 0, ab: 0 });
  const buffers = h.main.arrayBuffers + w.ab;
  const rest = h.main.rss - h.main.heapTotal - w.total - buffers;
  const each = h.workers.map((m) => `${MB(m.heapUsed)}/${MB(m.heapTotal)}`).join(' ');
  return `heap main ${MB(h.main.heapUsed)}/${MB(h.main.heapTotal)} MB, ${h.workers.length} worker(s) ${MB(w.used)}/${MB(w.total)} MB (each ${each}), array buffers ${MB(buffers)} MB, rest (native) ${MB(rest)} MB`;
}

// ---------------------------------------------------------------- samples

interface SampleRow {
  t: number;
  alive: boolean;
  rssMB: number;
  hwmMB: number;
  threads: number;
  cpuPct: number;
  requests: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  dropped: number;
  lagTotal: number | null;
  lagMax: string;
  inPerSec: number | null;
  stageErrors: number | null;
  worstBatchMs: string;
  catalogTotal: number | null;
  catalogAgeS: number | null;
  catalogObservedAt: string | null;
  sportsTotal: number | null;
  sportsAgeS: number | null;
  sportsObservedAt: string | null;
  dataDirMB: number;
  /** Bytes per topic and per history table (bin/status.ts's disk lines), for the storage budget. */
  disk: { topics: Record<string, number>; tables: Record<string, number> };
  heap?: string;
  /** The same per isolate, in bytes (process.memoryUsage() of the main thread and each worker). */
  heapMem?: { main: Mem; workers: Mem[] };
}

function procStatus(pid: number): { rssMB: number; hwmMB: number; threads: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024, threads: kb('Threads') };
  } catch {
    return null;
  }
}

/** Threads of the service by name (chdb's pools, libuv, V8, the worker), for the first and last sample. */
function threadNames(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out[name] = (out[name] ?? 0) + 1;
    }
  } catch {
    // the process is gone
  }
  return out;
}

function dirBytes(dir: string): number {
  let n = 0;
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) n += dirBytes(p);
      else if (e.isFile()) n += statSync(p).size;
    }
  } catch {
    // a part removed while walking (chdb merges, log segments)
  }
  return n;
}

/** Kernel lines about faults since `since` (seconds since boot): which thread died, where. */
function kernelFaults(since: number): string[] {
  try {
    const text = execFileSync('dmesg', [], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return text.split('\n').filter((l) => {
      const t = Number(/^\[\s*([\d.]+)\]/.exec(l)?.[1] ?? -1);
      return t > since && /segfault|trap|general protection|Out of memory|Killed process|Code:/i.test(l);
    });
  } catch {
    return ['(dmesg not readable)'];
  }
}
const uptimeS = () => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);

async function snapshotProbe(load: Load, route: string, path: string): Promise<{ total: number | null; observedAt: string | null }> {
  const { body } = await load.request(route, path);
  const total = (body?.pagination as { total?: number } | undefined)?.total ?? null;
  const observedAt = (body?.snapshot as { observed_at?: string } | undefined)?.observed_at ?? null;
  return { total, observedAt };
}

async function scrape(url: string | undefined): Promise<MetricSample[] | null> {
  if (!url) return null;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return res.ok ? parseMetrics(await res.text()) : null;
  } catch {
    return null;
  }
}

class Sampler {
  rows: SampleRow[] = [];
  private lastCpu: number;
  private lastAt = Date.now();
  private lastMetrics: MetricSample[] | null = null;
  /** Batches per stage at the previous sample: the slowest stage is picked among those that ran since. */
  private lastBatches = new Map<string, number>();
  /** The heap profile's report once taken (--heap). */
  profileLines: string[] | null = null;
  /** The --heap-snapshot-at-s times already taken. */
  private snapshotsTaken = new Set<number>();

  constructor(
    private child: Child,
    private load: Load,
    private dataDir: string,
    private heap: HeapProbe | null,
    private profileFile: string,
  ) {
    this.lastCpu = procStat(child.servicePid)?.cpuTicks ?? 0;
  }

  async prime() {
    this.lastMetrics = await scrape(this.child.metricsUrl);
    this.lastCpu = procStat(this.child.servicePid)?.cpuTicks ?? 0;
    this.lastAt = Date.now();
    this.load.window = newWindow();
  }

  async sample(): Promise<SampleRow> {
    const now = Date.now();
    const pid = this.child.servicePid;
    const st = procStatus(pid);
    const cpu = procStat(pid)?.cpuTicks ?? this.lastCpu;
    const isAlive = this.child.proc.exitCode === null && this.child.proc.signalCode === null && st !== null;
    const cat = isAlive ? await snapshotProbe(this.load, 'markets', '/v1/markets?limit=1') : { total: null, observedAt: null };
    const sp = isAlive ? await snapshotProbe(this.load, 'sports', '/v1/matching-markets/sports?limit=1') : { total: null, observedAt: null };
    const metrics = isAlive ? await scrape(this.child.metricsUrl) : null;
    const heap = isAlive && this.heap ? await this.heap.sample() : null;
    if (heap && this.heap && !this.profileLines && (heap.main.heapUsed > 1.5 * 2 ** 30 || now - this.child.startedAt > (PROFILE_AT_S ? PROFILE_AT_S * 1000 : (MINUTES * 60_000) / 2))) {
      this.profileLines = await this.heap.profile(`${this.profileFile}`).catch((e: Error) => [`heap profile failed: ${e.message}`]);
      for (const l of this.profileLines) console.log(l);
    }
    const dueSnapshot = HEAP_SNAPSHOT_AT_S.find((at) => !this.snapshotsTaken.has(at) && now - this.child.startedAt >= at * 1000);
    if (isAlive && this.heap && dueSnapshot !== undefined) {
      this.snapshotsTaken.add(dueSnapshot);
      const at = Math.round((now - this.child.startedAt) / 1000);
      for (const l of await this.heap.heapSnapshots(this.profileFile.replace(/\.heapprofile$/, `-${at}s`))) console.log(l);
    }
    const w = this.load.window;
    this.load.window = newWindow();
    const lat = [...w.latencies].sort((a, b) => a - b);
    let lagTotal: number | null = null;
    let lagMax = '-';
    let inPerSec: number | null = null;
    let stageErrors: number | null = null;
    let worstBatchMs = '-';
    if (metrics) {
      const stages = summarize(this.lastMetrics ?? [], metrics, now - this.lastAt);
      lagTotal = stages.reduce((a, s) => a + s.lag, 0);
      const top = [...stages].sort((a, b) => b.lag - a.lag)[0];
      if (top) lagMax = `${top.stage}=${top.lag}`;
      inPerSec = stages.reduce((a, s) => a + s.inPerSec, 0);
      stageErrors = stages.reduce((a, s) => a + s.errors, 0);
      const ran = stages.filter((s) => s.meanBatchMs !== null && s.batches > (this.lastBatches.get(s.stage) ?? 0));
      const slow = ran.sort((a, b) => b.meanBatchMs! - a.meanBatchMs!)[0];
      if (slow) worstBatchMs = `${slow.stage}=${slow.meanBatchMs!.toFixed(0)}`;
      this.lastBatches = new Map(stages.map((s) => [s.stage, s.batches]));
    }
    const age = (iso: string | null) => (iso ? Math.round((now - Date.parse(iso)) / 1000) : null);
    const row: SampleRow = {
      t: Math.round((now - this.child.startedAt) / 1000),
      alive: isAlive,
      rssMB: Math.round(st?.rssMB ?? NaN),
      hwmMB: Math.round(st?.hwmMB ?? NaN),
      threads: st?.threads ?? NaN,
      cpuPct: Math.round(((cpu - this.lastCpu) / CLK_TCK / ((now - this.lastAt) / 1000)) * 100),
      requests: w.latencies.length,
      statuses: Object.fromEntries(w.statuses),
      p50: Math.round(pct(lat, 50)),
      p99: Math.round(pct(lat, 99)),
      dropped: w.dropped,
      lagTotal,
      lagMax,
      inPerSec,
      stageErrors,
      worstBatchMs,
      catalogTotal: cat.total,
      catalogAgeS: age(cat.observedAt),
      catalogObservedAt: cat.observedAt,
      sportsTotal: sp.total,
      sportsAgeS: age(sp.observedAt),
      sportsObservedAt: sp.observedAt,
      dataDirMB: Math.round(dirBytes(this.dataDir) / 2 ** 20),
      disk: await embeddedDiskUse(this.dataDir, 'pm').then(
        (d) => ({ topics: Object.fromEntries(d.topics), tables: Object.fromEntries(d.tables) }),
        () => ({ topics: {}, tables: {} }),
      ),
      heap: heap ? heapText(heap) : undefined,
      heapMem: heap ?? undefined,
    };
    this.rows.push(row);
    this.lastCpu = cpu;
    this.lastAt = now;
    if (metrics) this.lastMetrics = metrics;
    return row;
  }
}

const mb = (m: Record<string, number>) => (Object.values(m).reduce((a, b) => a + b, 0) / 2 ** 20).toFixed(1);

function formatRow(r: SampleRow): string {
  const codes = Object.entries(r.statuses)
    .sort()
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');
  return [
    `t=${String(r.t).padStart(5)}s ${r.alive ? 'alive' : 'DEAD '}`,
    `rss ${r.rssMB} MB (hwm ${r.hwmMB}) thr ${r.threads} cpu ${r.cpuPct}%`,
    `api ${r.requests} [${codes}] p50 ${r.p50} ms p99 ${r.p99} ms${r.dropped ? ` dropped ${r.dropped}` : ''}`,
    `lag ${r.lagTotal ?? '-'} (max ${r.lagMax}) in ${r.inPerSec?.toFixed(0) ?? '-'}/s stage errors ${r.stageErrors ?? '-'} slowest mean batch ms ${r.worstBatchMs}`,
    `catalog ${r.catalogTotal ?? '-'} (age ${r.catalogAgeS ?? '-'} s) sports ${r.sportsTotal ?? '-'} (age ${r.sportsAgeS ?? '-'} s)`,
    `data ${r.dataDirMB} MB (log ${mb(r.disk.topics)} MB, history ${mb(r.disk.tables)} MB)`,
    ...(r.heap ? [r.heap] : []),
  ].join(' | ');
}

/** Least-squares slope of y over x (per unit of x). */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den ? num / den : NaN;
}

// ---------------------------------------------------------------- restart

/**
 * After a restart the sports routes serve the snapshot of before it at once; a snapshot read after
 * the restart (its observed_at past the start) must follow within this many seconds.
 */
const FRESH_SPORTS_BOUND_S = 60;

/** Starts the service again on the same DATA_DIR; the API must answer the catalog and sports again. */
async function restartCheck(dataDir: string, logPrefix: string): Promise<{ ok: boolean; fresh: boolean; lines: string[] }> {
  const lines: string[] = [];
  let child: Child;
  const t0 = Date.now();
  try {
    child = await startChild(dataDir, logPrefix);
  } catch (e) {
    return { ok: false, fresh: false, lines: [`restart: ${(e as Error).message}`] };
  }
  lines.push(`restart: listening after ${((Date.now() - t0) / 1000).toFixed(1)} s at ${child.address}`);
  const probe = new Load(child.address, child.demoKey);
  const first = async (route: string, path: string) => {
    const t = Date.now();
    const seen: string[] = [];
    while (Date.now() - t < 5 * REFRESH_MS && child.proc.exitCode === null) {
      const { status, body } = await probe.request(route, path);
      if (seen.at(-1) !== String(status)) seen.push(String(status));
      if (status === 200) {
        const observedAt = (body?.snapshot as { observed_at?: string } | undefined)?.observed_at ?? '';
        const total = (body?.pagination as { total?: number } | undefined)?.total;
        const from = Date.parse(observedAt) < child.startedAt ? 'a snapshot from before the restart' : 'a snapshot built after the restart';
        return { ok: true, text: `${route}: 200 after ${((Date.now() - t) / 1000).toFixed(1)} s (statuses ${seen.join(' -> ')}), total ${total}, ${from} (observed_at ${observedAt})` };
      }
      await sleep(1000);
    }
    return { ok: false, text: `${route}: no 200 within ${(5 * REFRESH_MS) / 1000} s (statuses ${seen.join(' -> ')})` };
  };
  const m = await first('markets', '/v1/markets?limit=1');
  const s = await first('sports', '/v1/matching-markets/sports?limit=1');
  lines.push(`restart ${m.text}`, `restart ${s.text}`);
  // A sports snapshot served right after a restart is the one of before it; how long until one read
  // after the restart is served (observed_at at or after the start), polled every second.
  let freshS: number | null = null;
  while (child.proc.exitCode === null && Date.now() - child.startedAt < 2 * FRESH_SPORTS_BOUND_S * 1000) {
    const p = await snapshotProbe(probe, 'sports', '/v1/matching-markets/sports?limit=1');
    if (p.observedAt && Date.parse(p.observedAt) >= child.startedAt) {
      freshS = (Date.now() - child.startedAt) / 1000;
      lines.push(`restart sports: the first snapshot read after the restart served ${freshS.toFixed(1)} s after the start (observed_at ${p.observedAt}; bound ${FRESH_SPORTS_BOUND_S} s)`);
      break;
    }
    await sleep(1000);
  }
  if (freshS === null) lines.push(`restart sports: no snapshot read after the restart within ${2 * FRESH_SPORTS_BOUND_S} s of the start (bound ${FRESH_SPORTS_BOUND_S} s)`);
  const fresh = freshS !== null && freshS <= FRESH_SPORTS_BOUND_S;
  // A snapshot served right after a restart may be an old one; the pipeline must move it on.
  await sleep(Math.max(0, Math.min(60_000, REFRESH_MS + 10_000) - (Date.now() - child.startedAt)));
  for (const [route, path] of [
    ['markets', '/v1/markets?limit=1'],
    ['sports', '/v1/matching-markets/sports?limit=1'],
  ] as const) {
    const p = await snapshotProbe(probe, route, path);
    const age = p.observedAt ? Math.round((Date.now() - Date.parse(p.observedAt)) / 1000) : null;
    lines.push(`restart ${route} ${((Date.now() - child.startedAt) / 1000).toFixed(0)} s after the start: total ${p.total}, observed_at ${p.observedAt} (age ${age ?? '-'} s)`);
  }
  const metrics = await scrape(child.metricsUrl);
  if (metrics) lines.push(`restart: stage errors ${metrics.filter((x) => x.name === 'pm_stage_errors_total').reduce((a, x) => a + x.value, 0)}`);
  const stop = await stopChild(child);
  lines.push(`restart stop (SIGINT): ${stop.text}${stop.stopFailed.length ? `; ${stop.stopFailed.join(' / ')}` : ''}`);
  const crashed = child.proc.exitCode !== null && child.proc.exitCode !== 0;
  return { ok: m.ok && s.ok && stop.ok && !crashed, fresh, lines };
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = join(REPO, 'bench/out');
  mkdirSync(outDir, { recursive: true });
  const logPrefix = join(outDir, `soak-${stamp}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-soak-'));
  const bootSecs = uptimeS();
  const load0 = loadavg();
  console.log(`soak: ${MINUTES} min, sample every ${SAMPLE_MS / 1000} s, launcher ${LAUNCHER}, DATA_DIR ${dataDir}`);
  console.log(
    DEFAULTS
      ? `service: SIM_SCALE=${SCALE}, the service's own cadences and retention (--defaults), LOG_LEVEL=warn; load ${RPS}/s with the demo key + ${PUBLIC_RPS}/s keyless; SIGINT to the ${SIGINT_TO}`
      : `service: SIM_SCALE=${SCALE} CATALOG_REFRESH_MS=${REFRESH_MS} CATALOG_RETENTION_MS=${3 * REFRESH_MS} POLL_FULL_MS=${POLL_FULL_MS} LOG_LEVEL=warn; load ${RPS}/s with the demo key + ${PUBLIC_RPS}/s keyless; SIGINT to the ${SIGINT_TO}`,
  );
  console.log(`machine load average at start: ${load0.map((x) => x.toFixed(2)).join(', ')}`);

  const child = await startChild(dataDir, logPrefix);
  console.log(`service pid ${child.servicePid} (launcher pid ${child.proc.pid}) at ${child.address}, metrics ${child.metricsUrl ?? 'none'}`);
  const load = new Load(child.address, child.demoKey);

  // Ready: the first catalog and sports snapshots served (503 until then is the documented start-up).
  const tReady = Date.now();
  const warmup = new Map<string, number>();
  for (const [route, path] of [
    ['markets', '/v1/markets?limit=1'],
    ['sports', '/v1/matching-markets/sports?limit=1'],
  ] as const) {
    while (Date.now() - tReady < 300_000 && child.proc.exitCode === null) {
      const { status } = await load.request(route, path);
      bump(warmup, `${route} ${status}`);
      if (status === 200) break;
      await sleep(1000);
    }
  }
  load.totals.clear();
  load.routeLatencies.clear();
  console.log(`ready after ${((Date.now() - tReady) / 1000).toFixed(1)} s (warm-up answers: ${[...warmup].map(([k, v]) => `${k}x${v}`).join(', ')})`);

  const heap = HEAP ? await HeapProbe.connect(child.inspectorUrls) : null;
  if (HEAP) console.log(heap ? 'heap probe: connected to the service inspector' : `heap probe: no inspector found (${child.inspectorUrls.join(', ')})`);
  const sampler = new Sampler(child, load, dataDir, heap, `${logPrefix}.heapprofile`);
  await sampler.prime();
  if (heap) console.log(`heap probe: workers ${heap.workerTitles.map((t, i) => `#${i + 1} ${t}`).join(', ')}`);
  const firstThreads = threadNames(child.servicePid);
  load.start();
  const end = Date.now() + MINUTES * 60_000;
  // An exit before the stop below is a crash (the service never exits on its own).
  let stopping = false;
  let crash: { code: number | null; signal: NodeJS.Signals | null; at: number } | null = null;
  void child.exit.then((e) => {
    if (!stopping) crash = e;
  });
  while (Date.now() < end && !crash) {
    await Promise.race([sleep(Math.min(SAMPLE_MS, end - Date.now())), child.exit]);
    const row = await sampler.sample();
    console.log(formatRow(row));
    // The samples so far, rewritten each sample: a long run (a day) stopped before its end by anything
    // but itself still leaves what bench/soak-growth.ts reads.
    writeFileSync(`${logPrefix}.partial.json`, JSON.stringify({ args: process.argv.slice(2), dataDir, samples: sampler.rows }));
  }
  const lastThreads = threadNames(child.servicePid);
  await load.stop();
  heap?.close();

  const lines: string[] = [];
  const fail: string[] = [];
  if (crash) {
    const c = crash as { code: number | null; signal: NodeJS.Signals | null; at: number };
    fail.push('crashed');
    lines.push(`CRASHED at t=${Math.round((c.at - child.startedAt) / 1000)} s: code ${c.code}${signalOfCode(c.code)} signal ${c.signal}`);
    lines.push('stderr tail:', ...child.stderrTail.slice(-40).map((l) => `  ${l}`));
    lines.push('stdout tail:', ...child.stdoutTail.slice(-15).map((l) => `  ${l.slice(0, 400)}`));
  } else {
    lines.push('crashed: no');
    stopping = true;
    const stop = await stopChild(child);
    lines.push(`stop (SIGINT to the ${SIGINT_TO === 'service' ? 'service process' : 'process group'}): ${stop.text}`);
    if (!stop.ok) fail.push('stop');
    for (const l of stop.stopFailed) lines.push(`  ${l}`);
  }
  const faults = kernelFaults(bootSecs);
  lines.push(`kernel fault lines since start: ${faults.length ? '' : 'none'}`, ...faults.map((l) => `  ${l}`));

  const rows = sampler.rows.filter((r) => r.alive);
  if (rows.length > 0) {
    const a = rows[0]!;
    const z = rows.at(-1)!;
    const half = rows.slice(Math.floor(rows.length / 2));
    const rssSlope = slope(
      half.map((r) => r.t / 60),
      half.map((r) => r.rssMB),
    );
    lines.push(
      `RSS: first ${a.rssMB} MB -> last ${z.rssMB} MB (${z.rssMB - a.rssMB >= 0 ? '+' : ''}${z.rssMB - a.rssMB} MB), max ${Math.max(...rows.map((r) => r.rssMB))} MB, second-half slope ${rssSlope.toFixed(1)} MB/min; threads ${a.threads} -> ${z.threads}`,
    );
    const lags = rows.map((r) => r.lagTotal ?? 0);
    lines.push(
      `stage lag: first ${a.lagTotal ?? '-'} -> last ${z.lagTotal ?? '-'}, max ${Math.max(...lags)}, second-half slope ${slope(
        half.map((r) => r.t / 60),
        half.map((r) => r.lagTotal ?? 0),
      ).toFixed(0)} records/min; stage errors (batches redelivered) ${z.stageErrors ?? '-'}`,
    );
    const distinct = (xs: (string | null)[]) => new Set(xs.filter(Boolean)).size;
    const catalogSnapshots = distinct(rows.map((r) => r.catalogObservedAt));
    const sportsSnapshots = distinct(rows.map((r) => r.sportsObservedAt));
    const oldest = (ages: (number | null)[]) => {
      const seen = ages.filter((x): x is number => x !== null);
      return { max: seen.length ? Math.max(...seen) : NaN, unanswered: ages.length - seen.length };
    };
    const catalogAge = oldest(rows.map((r) => r.catalogAgeS));
    const sportsAge = oldest(rows.map((r) => r.sportsAgeS));
    lines.push(
      `catalog: ${catalogSnapshots} distinct snapshots over ${rows.length} samples (${catalogAge.unanswered} without an answer), rows ${a.catalogTotal} -> ${z.catalogTotal}, oldest seen ${catalogAge.max} s (refresh ${REFRESH_MS / 1000} s)`,
    );
    lines.push(
      `sports: ${sportsSnapshots} distinct snapshots over ${rows.length} samples (${sportsAge.unanswered} without an answer), events ${a.sportsTotal} -> ${z.sportsTotal}, oldest seen ${sportsAge.max} s`,
    );
    // Advancing: every sample sees a catalog younger than three refreshes and a sports snapshot
    // younger than a minute (its observed_at is the oldest read behind it; the sports feed polls
    // every POLL_INTERVAL_MS, 2 s, and publishes every SPORTS_PUBLISH_MS, 250 ms).
    if (catalogAge.unanswered > 0 || catalogAge.max > (3 * REFRESH_MS) / 1000) fail.push('catalog stalled');
    if (sportsAge.unanswered > 0 || sportsAge.max > 60) fail.push('sports stalled');
    lines.push(`data dir: ${a.dataDirMB} MB -> ${z.dataDirMB} MB`);
  }

  const byStatus = new Map<string, number>();
  for (const [k, v] of load.totals) bump(byStatus, k.split(' ').slice(1).join(' '), v);
  const count = (pred: (s: string) => boolean) => [...byStatus].filter(([s]) => pred(s)).reduce((a, [, v]) => a + v, 0);
  const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
  const s5xx = count((s) => s.startsWith('5'));
  const sErr = count((s) => s.startsWith('ERR'));
  lines.push(
    `API: ${total} requests; 5xx ${s5xx}; transport errors ${sErr}; 429 ${count((s) => s.startsWith('429'))}; 402 ${count((s) => s.startsWith('402'))}; dropped ticks ${sampler.rows.reduce((a, r) => a + r.dropped, 0)}`,
  );
  for (const [k, v] of [...load.totals].sort()) lines.push(`  ${k}: ${v}`);
  for (const [route, ms] of [...load.routeLatencies].sort()) {
    const v = [...ms].sort((a, b) => a - b);
    lines.push(`  latency ${route}: p50 ${pct(v, 50).toFixed(0)} ms, p99 ${pct(v, 99).toFixed(0)} ms, max ${v.at(-1)!.toFixed(0)} ms (n ${v.length})`);
  }
  lines.push(
    `catalog cursors refused within ${(3 * REFRESH_MS) / 1000} s of page 1 (retention): ${load.earlyStaleCursors.length}`,
    ...load.earlyStaleCursors.slice(0, 5).map((l) => `  ${l}`),
  );
  const peakMB = Math.max(...sampler.rows.map((r) => r.hwmMB).filter((x) => Number.isFinite(x)));
  lines.push(`peak RSS ${peakMB} MB; budget ${RSS_BUDGET_MB === Infinity ? 'none stated for this scale' : `${RSS_BUDGET_MB} MB`}`);
  if (peakMB > RSS_BUDGET_MB) fail.push('memory budget');
  if (s5xx > 0) fail.push('5xx');
  if (sErr > 0) fail.push('transport errors');
  const levels = [...child.logLevels].map(([l, n]) => `level ${l}: ${n}`).join(', ');
  lines.push(`service log lines at warn or above: ${levels || 'none'}`, ...child.logSamples.slice(0, 8).map((l) => `  ${l}`));
  lines.push(`threads by name, first sample: ${JSON.stringify(firstThreads)}`, `threads by name, last sample: ${JSON.stringify(lastThreads)}`);
  if (sampler.profileLines) lines.push(...sampler.profileLines);

  const restart = await restartCheck(dataDir, `${logPrefix}-restart`);
  lines.push(...restart.lines);
  if (!restart.ok) fail.push('restart');
  if (!restart.fresh) fail.push('sports not fresh after the restart');
  const load1 = loadavg();
  lines.push(`machine load average at end: ${load1.map((x) => x.toFixed(2)).join(', ')}`);
  lines.push(`VERDICT: ${fail.length ? `FAIL (${fail.join(', ')})` : 'PASS'}: crashed ${fail.includes('crashed') ? 'yes' : 'no'}, restart ${restart.ok ? 'ok' : 'NOT ok'}, sports fresh after it ${restart.fresh ? 'yes' : 'NO'}`);
  console.log(`\n${lines.join('\n')}`);
  writeFileSync(
    `${logPrefix}.json`,
    JSON.stringify({ args: process.argv.slice(2), dataDir, samples: sampler.rows, totals: Object.fromEntries(load.totals), report: lines }, null, 1),
  );
  console.log(`logs and samples: ${logPrefix}.{stdout,stderr,json}`);
  if (KEEP || fail.length) console.log(`DATA_DIR kept: ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
  return fail.length ? 1 : 0;
}

process.exit(await main());
