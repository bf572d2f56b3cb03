// API latency while a large listing crawl runs, on the embedded default (bench/crawl-latency.md).
// One process holds the service, as `make run` does; the load comes from a second process
// (bench/api-load.ts, autocannon) on GET /v1/plans (public, no key: the cheapest route, so what it
// measures is the wait for the event loop). In one run, rounds alternate:
//   idle            ROLES=api,simulator: nothing crawls (the baseline p99);
//   crawl, nice 0         ROLES=all, the worker threads at the process's priority (WORKER_NICE=0);
//   crawl, stages here    ROLES=all, WORKER_NICE=10 (default), the canonicalizer and the matching
//                         round on the main thread (STAGE_THREAD=false);
//   crawl, pollers here   ROLES=all, the defaults but the venue pollers on the main thread
//                         (POLLER_THREAD=false);
//   crawl                 ROLES=all, the defaults but PIPELINE_THREAD=false (the single-thread path):
//                         WORKER_NICE=10, those two on the stage thread, the pollers on their own thread.
//   crawl, pipeline thread  ROLES=all, the defaults (PIPELINE_THREAD=true, said explicitly): the simulator, pollers
//                         and processors on a thread of their own, the API alone on the main thread
//                         (the push stream's hubs tail the log through the pipeline thread's port).
// --stream false runs every mode without the push stream (STREAM=false).
// --modes picks some (comma-separated; default: idle, crawl, pollers here, crawl).
// Every crawl mode runs the simulator on its own thread and the catalog stage and history sinks on
// the history worker (the defaults).
// A round (in a child process of its own) starts a fresh service (its own DATA_DIR), waits --warmup seconds so the first
// listing crawl is under way, then loads it for --seconds. Each line also says how many raw records
// the catalog stage consumed during the window (the crawl's pace: proof that it ran, and whether the
// API's gain cost the pipeline) and how busy the main thread's event loop was (its utilization over
// the window: the share of time it ran JavaScript or native work rather than wait) and, on Linux, the
// CPU time the main thread itself used per second of the window (its own utime + stime from
// /proc/self/task/<pid>/stat: unlike the busy share, not inflated when a loaded machine keeps the
// thread waiting for a core mid-task), with its wake-ups and preemptions a second
// (/proc/self/task/<pid>/status), and its garbage collections in the window (perf_hooks: scavenges
// and the longest, full collections and their total pause). Target (snapshot-serving work): p99 during a 1,000,000-market crawl
// <= 2x the idle p99. Two p99s: autocannon's (whole milliseconds, corrected for coordinated omission;
// an idle p99 under 1 ms shows as 0 and its ratio is taken against 1 ms) and the exact one over every
// answer's own time (bench/api-load.ts), whose ratio is the one that resolves a sub-millisecond idle p99.
// --load open replaces autocannon with an open loop (bench/open-load.ts: requests due at even intervals,
// each timed from its due time, so a stall counts once for every request it delayed): the p99 column is
// then that time's p99 (fractional ms), and p99.9 and the longest answer join the line.
//
// The service runs in this process, with this process's V8 flags: `make run` starts it with
// --max-semi-space-size=64, so `node --max-semi-space-size=64 --import tsx bench/crawl-latency.ts`
// measures what it runs (bench/crawl-latency.md compares flags that way).
//
// --rate N holds the load at N requests a second in every mode (autocannon's overallRate), so idle and
// crawl are compared at the same load: the p99 is then the wait a request meets, not a full-speed
// queue's (without it the connections go as fast as they can and the crawl's CPU lowers the rps).
//
// --api-warmup S sends the same load for S seconds at the end of the warmup, unmeasured, in every
// mode: each round starts a fresh service, so without it the window's first seconds time the API's
// first requests (code not yet compiled, connections new), which a loaded machine stretches more in
// a crawl than idle; with it the window times a running API during a crawl (bench/crawl-latency.md).
//
// --profile DIR writes a CPU profile of the main thread (the API's) over each crawl window into DIR
// (node:inspector, one .cpuprofile per round and mode; open in Chrome's DevTools or read with
// bench/profile-summary.ts): what is left on the API's thread during the crawl, without the start.
// --heap-profile DIR writes a sampling heap profile of the main thread over each crawl window into DIR
// (one .heapprofile per round and mode, objects collected by scavenges and full collections kept in
// it): what the API's thread allocates during the crawl, which is what its scavenges pay for.
//
// --route catalog loads catalog pages instead (GET /v1/markets, behind a key): a rotation of first pages
// (no filter, each provider, each of three categories) and pages 2-11 behind the first page's cursors.
// A catalog needs a crawl behind it, so the bench first seeds a data directory once (--seed DIR,
// reused when it holds a finished seed: a service with ROLES=all at --scale runs until its first
// catalog is published and the whole crawl is read, then stops) and every round starts on a copy of
// it, the service building its catalog at once from that history (a restart on its own history does):
//   idle            ROLES=api,processors: the catalog built and served, nothing crawls (no pollers);
//   crawl modes     ROLES=all as above: the pollers start a new full listing crawl at once, and the
//                   window opens once the catalog answers 200 and the crawl is under way.
// The key (custom terms: no rate limit in reach, DATA_DIR/keys.json) is made in the seed before its start.
//
//   npx tsx bench/crawl-latency.ts [--scale 100] [--seconds 20] [--warmup 8] [--api-warmup 0] [--rounds 2] [--connections 4] [--modes idle,crawl] [--rate 2000] [--profile DIR] [--heap-profile DIR] [--stream false] [--route plans|catalog] [--seed DIR] [--load autocannon|open] [--client-cpu N] [--client-nice P] [--client-lead MS] [--trace-api]
import { execFile, spawn } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { constants as perfConstants, monitorEventLoopDelay, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { request } from 'undici';
import { loadConfig, type Config } from '../lib/config.ts';
import { createAuthDeps } from '../api/auth/index.ts';
import { benchKey as makeBenchKey } from './bench-keys.ts';
import { runService, type RunningService } from '../bin/run.ts';
import { setUpServiceHeaps } from '../pipelines/runtime/worker-heap.ts';
import { parseMetrics, pipelineMetrics } from '../pipelines/runtime/metrics.ts';
import { BASE_OPEN } from '../pipelines/venues/simulator/procedural.ts';
import { benchArgs } from './args.ts';
import { percentile } from './percentile.ts';
import { traceThread, type OffCpu } from './api-thread-trace.ts';
import { pinWorkerThreads, workerCpus } from '../pipelines/runtime/thread-affinity.ts';

const run = promisify(execFile);
const cli = benchArgs({ 'client-lead': 0, seconds: 20, warmup: 8, rounds: 2, connections: 4, rate: 0, 'api-warmup': 0, load: 'autocannon', scale: '100', profile: '', 'heap-profile': '', stream: 'true', route: 'plans', 'client-cpu': '', 'client-nice': '', seed: '', modes: 'idle,crawl, pollers here,crawl', 'one-round': '', label: 'round', 'make-seed': false, 'trace-api': false });
const LOAD = cli.load;
if (LOAD !== 'autocannon' && LOAD !== 'open') throw new Error(`--load takes autocannon or open (got "${LOAD}")`);
const loadScript = fileURLToPath(new URL(LOAD === 'open' ? './open-load.ts' : './api-load.ts', import.meta.url));
const SCALE = cli.scale;
const SECONDS = cli.seconds;
const WARMUP = cli.warmup;
const ROUNDS = cli.rounds;
const CLIENT_LEAD = cli['client-lead'];
const CONNECTIONS = cli.connections;
const RATE = cli.rate;
const PROFILE = cli.profile;
const HEAP_PROFILE = cli['heap-profile'];
const STREAM = cli.stream;
const API_WARMUP = cli['api-warmup'];
const ROUTE = cli.route;
// --trace-api: each round's API thread traced by the kernel's scheduler (bench/api-thread-trace.ts, root,
// Linux): its waits of over 2 ms in the window by kind, as two more columns.
const TRACE_API = cli['trace-api'];
// --client-cpu N holds the load's client process to CPU N (taskset) and --client-nice P runs it at
// nice P (root for P < 0). On two cores the client shares a CPU with the service either way; at nice
// -20 on the crawl's CPU (WORKER_CPUS=auto holds the pipeline there at WORKER_NICE) it runs as soon
// as a request is due, so neither the crawl delays it much nor it the API's thread: a stand-in for a
// client on another machine, paid for from the crawl's CPU, not the API's. (A real-time class was
// tried first: a SCHED_FIFO Node process never finished starting on one CPU, its own threads
// waiting on each other behind FIFO's lack of time slices.) Keep the service's main thread off that
// CPU too, or in the idle rounds the client preempts it there (1,750-1,800 times a second, against 2-6
// in the crawl rounds, where the pipeline holds that CPU): on two cores,
//   WORKER_CPUS=1 taskset -c 0 node ... bench/crawl-latency.ts ... --client-cpu 1 --client-nice -20
// (WORKER_CPUS=auto would read one CPU under taskset and pin nothing; 1 is what auto gives on two).
const CLIENT_CPU = cli['client-cpu'];
const CLIENT_NICE = cli['client-nice'];
if (ROUTE !== 'plans' && ROUTE !== 'catalog') throw new Error(`--route ${JSON.stringify(ROUTE)}: plans | catalog`);
const SEED = cli.seed;

const MODES = ['idle', 'crawl, nice 0', 'crawl, stages here', 'crawl, pollers here', 'crawl', 'crawl, pipeline thread'] as const;
type Mode = (typeof MODES)[number];
const picked = cli.modes
  .split(',')
  .reduce<string[]>((acc, part) => {
    // Mode names hold commas ("crawl, nice 0"): a part starting with a space continues the previous one.
    if (part.startsWith(' ') && acc.length) acc[acc.length - 1] += `,${part}`;
    else acc.push(part);
    return acc;
  }, []);
for (const m of picked) if (!(MODES as readonly string[]).includes(m)) throw new Error(`unknown mode ${JSON.stringify(m)}: one of ${MODES.join(' | ')}`);

async function catalogRecordsIn(svc: RunningService): Promise<number> {
  // With the pipeline on its own thread its stages count there.
  if (svc.pipelineMetricsText)
    return parseMetrics(await svc.pipelineMetricsText())
      .filter((s) => s.name === 'pm_stage_records_in_total' && s.labels.stage === 'catalog')
      .reduce((a, s) => a + s.value, 0);
  const m = (await pipelineMetrics.recordsIn.get()).values;
  return m.filter((v) => v.labels.stage === 'catalog').reduce((a, v) => a + v.value, 0);
}

/** CPU ms the main thread has used (Linux: its task's utime + stime, in clock ticks of 10 ms); NaN elsewhere. */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) close with ')': utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The main thread's context switches so far (Linux): voluntary ones are its wake-ups after waiting, the others preemptions. */
function mainThreadSwitches(): { voluntary: number; preempted: number } {
  try {
    const status = readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8');
    const n = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { voluntary: n('voluntary_ctxt_switches'), preempted: n('nonvoluntary_ctxt_switches') };
  } catch {
    return { voluntary: NaN, preempted: NaN };
  }
}

/**
 * What the kernel and the hypervisor took from each CPU so far (Linux, /proc/stat, ms): `steal` is
 * time the hypervisor ran something else while this guest's vCPU was ready to run (invisible to
 * every per-thread counter above: the thread neither runs nor waits in the guest's run queue),
 * `softirq` the kernel's deferred work (the loopback's packets are received there, NET_RX), and
 * `pressure` the system's CPU pressure (/proc/pressure/cpu "some": time at least one task was
 * runnable and waiting for a CPU). NaN elsewhere.
 */
interface KernelTimes {
  steal: number[];
  softirq: number[];
  netRx: number[];
  pressure: number;
}
function kernelTimes(): KernelTimes {
  const out: KernelTimes = { steal: [], softirq: [], netRx: [], pressure: NaN };
  try {
    for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
      const m = /^cpu(\d+) (.*)$/.exec(line);
      if (!m) continue;
      // user nice system idle iowait irq softirq steal, in clock ticks of 10 ms.
      const f = m[2]!.trim().split(/\s+/).map(Number);
      out.softirq[Number(m[1])] = f[6]! * 10;
      out.steal[Number(m[1])] = f[7]! * 10;
    }
    const rx = /^\s*NET_RX:(.*)$/m.exec(readFileSync('/proc/softirqs', 'utf8'));
    if (rx) out.netRx = rx[1]!.trim().split(/\s+/).map(Number);
    const some = /^some .*total=(\d+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    if (some) out.pressure = Number(some[1]) / 1000;
  } catch {
    /* not Linux, or no PSI: the columns read NaN */
  }
  return out;
}
/** Per second over a window, each CPU's figure joined by "/" (CPU0/CPU1/...). */
function kernelRates(a: KernelTimes, b: KernelTimes, seconds: number): { steal: string; softirq: string; netRx: string; pressure: number } {
  const per = (x: number[], y: number[]) => y.map((v, i) => ((v - (x[i] ?? NaN)) / seconds).toFixed(0)).join('/');
  return { steal: per(a.steal, b.steal), softirq: per(a.softirq, b.softirq), netRx: per(a.netRx, b.netRx), pressure: (b.pressure - a.pressure) / seconds };
}

/** The main thread's garbage collections over a window: young-generation (scavenges) and full (mark-compact), count and pauses. */
interface GcCounts {
  minor: number;
  minorMaxMs: number;
  major: number;
  majorMs: number;
  /** The young generation's capacity (new space, MB) at the window's collections, smallest and largest: V8 resizes it. */
  newSpaceMinMb: number;
  newSpaceMaxMb: number;
}
function watchGc(): { stop(): GcCounts } {
  const c: GcCounts = { minor: 0, minorMaxMs: 0, major: 0, majorMs: 0, newSpaceMinMb: Infinity, newSpaceMaxMb: 0 };
  // perf_hooks reports this thread's collections only (each worker has its own heap).
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      const kind = e.detail?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
        c.minor++;
        c.minorMaxMs = Math.max(c.minorMaxMs, e.duration);
      } else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        c.major++;
        c.majorMs += e.duration;
      }
    }
    const young = v8.getHeapSpaceStatistics().find((sp) => sp.space_name === 'new_space');
    if (young) {
      c.newSpaceMinMb = Math.min(c.newSpaceMinMb, young.space_size / 2 ** 20);
      c.newSpaceMaxMb = Math.max(c.newSpaceMaxMb, young.space_size / 2 ** 20);
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      obs.disconnect();
      return c;
    },
  };
}

function configFor(mode: Mode, dir: string): Config {
  return loadConfig({
    DATA_DIR: dir,
    PORT: '0',
    LOG_LEVEL: 'warn',
    LOG_SUMMARY_MS: '0',
    // Idle: nothing crawls. The catalog route needs the processors' build from the seeded history.
    ROLES: mode === 'idle' ? (ROUTE === 'catalog' ? 'api,processors' : 'api,simulator') : 'all',
    SIM_SCALE: SCALE,
    SIM_THREAD: 'true',
    STAGE_THREAD: mode === 'crawl, stages here' ? 'false' : 'true',
    WORKER_NICE: mode === 'crawl, nice 0' ? '0' : '10',
    POLLER_THREAD: mode === 'crawl, pollers here' ? 'false' : 'true',
    PIPELINE_THREAD: mode === 'crawl, pipeline thread' ? 'true' : 'false',
    // WORKER_CPUS from the shell (e.g. auto, as make run passes it): the pipeline thread's modes apply it.
    ...(process.env.WORKER_CPUS && { WORKER_CPUS: process.env.WORKER_CPUS }),
    // --stream false leaves the push stream's hubs out of every mode.
    ...(STREAM === 'false' && { STREAM: 'false' }),
    DEMO_KEY: 'false',
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A key for the catalog route in DATA_DIR/keys.json, made before the service starts (it reads the file). */
async function benchKey(config: Config): Promise<string> {
  const auth = createAuthDeps(config);
  // Custom terms: 2,000 requests a second for minutes is far past any plan's rate limit.
  const key = await makeBenchKey(auth.admin, { permissions: ['markets.read'], unlimited: true });
  await (auth.store as { close?: () => Promise<void> }).close?.();
  return key;
}

/** Waits until GET /v1/markets answers 200 (a catalog is published); its first page's body. */
async function waitCatalog(address: string, key: string, timeoutMs: number): Promise<{ pagination: { total: number; next_cursor?: string } }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(`${address}/v1/markets?limit=100`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.body.json()) as { pagination: { total: number; next_cursor?: string } };
    if (res.statusCode === 200) return body;
    if (Date.now() > until) throw new Error(`no catalog after ${timeoutMs / 1000} s: ${res.statusCode} ${JSON.stringify(body)}`);
    await sleep(500);
  }
}

/** The catalog pages the load rotates over: first pages with and without filters, then pages 2-11 by cursor. */
async function catalogPaths(address: string, key: string): Promise<string[]> {
  const first = await waitCatalog(address, key, 300_000);
  const paths = ['/v1/markets?limit=100', ...Array.from({ length: 9 }, (_, i) => `/v1/markets?limit=100&provider=venue_${i + 1}`), ...['sports', 'politics', 'crypto'].map((c) => `/v1/markets?limit=100&category=${c}`)];
  let cursor = first.pagination.next_cursor;
  for (let i = 0; i < 10 && cursor; i++) {
    const p = `/v1/markets?limit=100&cursor=${encodeURIComponent(cursor)}`;
    paths.push(p);
    const res = await request(address + p, { headers: { authorization: `Bearer ${key}` } });
    cursor = ((await res.body.json()) as { pagination: { next_cursor?: string } }).pagination.next_cursor;
  }
  for (const p of paths) {
    const res = await request(address + p, { headers: { authorization: `Bearer ${key}` } });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`${p}: ${res.statusCode}`);
  }
  return paths;
}

/**
 * The catalog route's seed (see the header): a data directory whose history holds one whole listing
 * crawl at --scale and whose keys.json holds the bench's key. Reused when it says it is finished.
 * Made by a child process (this file with --make-seed): a stop in the middle of a crawl may leave its
 * chdb session open past the stop deadline, and a process holds one chdb data directory at a time.
 */
const seedDir = () => path.resolve(SEED || path.join(tmpdir(), `pm-crawl-latency-seed-${SCALE}`));
async function seeded(): Promise<{ dir: string; key: string }> {
  const dir = seedDir();
  const done = path.join(dir, 'bench-seeded.json');
  if (!existsSync(done)) {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--make-seed', '--seed', dir, '--scale', SCALE], { stdio: 'inherit' });
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    if (code !== 0 || !existsSync(done)) throw new Error(`seeding ${dir} failed (exit ${code})`);
  }
  return JSON.parse(readFileSync(done, 'utf8')) as { dir: string; key: string };
}

/** --make-seed: runs the service on DIR until its catalog lists the whole crawl (90% of the simulator's open markets), then stops. */
async function makeSeed(dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const config = configFor('crawl, pipeline thread', dir);
  const key = await benchKey(config);
  const t0 = Date.now();
  const svc = await runService(config, { quiet: true });
  const want = 0.9 * BASE_OPEN * Number(SCALE);
  let total = 0;
  try {
    for (const until = Date.now() + 3600_000; total < want; ) {
      if (Date.now() > until) throw new Error(`the catalog lists ${total} markets after an hour, not ${want}`);
      total = (await waitCatalog(svc.address!, key, 3600_000)).pagination.total;
      if (total < want) await sleep(5000);
    }
  } finally {
    await svc.stop();
  }
  console.log(`seeded ${dir} in ${((Date.now() - t0) / 1000).toFixed(0)} s: a catalog of ${total.toLocaleString('en-US')} markets`);
  writeFileSync(path.join(dir, 'bench-seeded.json'), JSON.stringify({ dir, key }));
}

/** The load client's one JSON line (bench/api-load.ts; bench/open-load.ts adds the optional figures). */
interface LoadLine {
  p99: number;
  p99_exact: number;
  p999?: number;
  max?: number;
  client_loop_p99?: number;
  client_loop_max?: number;
  rps: number;
  non2xx: number;
  errors: number;
}

async function once(mode: Mode, label: string, seed?: { dir: string; key: string }): Promise<LoadLine & { crawled: number; busy: number; cpu: number; wakeups: number; preempted: number; gc: GcCounts; kernel: ReturnType<typeof kernelRates>; loopDelay: { p99: number; max: number }; served: { p99: number; max: number }; window: { start: number; end: number } }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-crawl-latency-'));
  if (seed) cpSync(seed.dir, dir, { recursive: true });
  const config = configFor(mode, dir);
  const svc = await runService(config, { quiet: true });
  // The crawl's modes keep every thread but the API's off its CPU (WORKER_CPUS, bin/run.ts's split
  // run); idle rounds get the same placement, so that the two differ by the crawl alone (without it
  // the idle service's own threads, the catalog's build among them, share the API's CPU).
  const unpin = mode === 'idle' ? pinWorkerThreads(workerCpus(config.WORKER_CPUS)) : () => {};
  try {
    const started = Date.now();
    let target = `${svc.address}/v1/plans`;
    let keysFile = '';
    let pathsFile = '';
    if (seed) {
      // The window opens on a served catalog: the build from the copied history comes first.
      const paths = await catalogPaths(svc.address!, seed.key);
      target = `${svc.address}${paths[0]}`;
      keysFile = path.join(dir, 'bench-auth.txt');
      writeFileSync(keysFile, `Bearer ${seed.key}\n`);
      pathsFile = path.join(dir, 'bench-paths.txt');
      writeFileSync(pathsFile, paths.join('\n'));
    }
    await sleep(Math.max(0, WARMUP * 1000 - (Date.now() - started) - API_WARMUP * 1000));
    const loadArgs = (seconds: number, leadMs = 0) => ['--import', 'tsx', loadScript, target, String(CONNECTIONS), String(seconds), keysFile, String(RATE), pathsFile, String(leadMs)];
    const clientPrefix = [...(CLIENT_CPU ? ['taskset', '-c', CLIENT_CPU] : []), ...(CLIENT_NICE ? ['nice', '-n', CLIENT_NICE] : [])];
    const runLoad = (seconds: number, leadMs = 0) =>
      clientPrefix.length > 0
        ? run(clientPrefix[0]!, [...clientPrefix.slice(1), 'node', ...loadArgs(seconds, leadMs)], { maxBuffer: 1 << 20 })
        : run('node', loadArgs(seconds, leadMs), { maxBuffer: 1 << 20 });
    if (API_WARMUP > 0) await runLoad(API_WARMUP);
    // --client-lead: the window's client is started this long before its first request (open loop
    // only), so the fork that starts it (this process, the service's, forks on the API's thread; its
    // pages are then copied on first write) is over before the window opens.
    const leadMs = LOAD === 'open' ? CLIENT_LEAD : 0;
    const loading = leadMs > 0 ? runLoad(SECONDS, leadMs) : null;
    if (loading) await sleep(leadMs);
    const before = await catalogRecordsIn(svc);
    const session = (PROFILE || HEAP_PROFILE) && mode !== 'idle' ? new Session() : null;
    if (session) {
      session.connect();
      if (PROFILE) {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
      if (HEAP_PROFILE) {
        await session.post('HeapProfiler.enable');
        await session.post('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      }
    }
    const gcWatch = watchGc();
    const elu = performance.eventLoopUtilization();
    const cpu0 = mainThreadCpuMs();
    const sw0 = mainThreadSwitches();
    const k0 = kernelTimes();
    // The API thread's own lateness: a 1 ms timer's delay, which also counts a late wake-up of the
    // thread by the kernel. Its p99 is of 1 ms samples, so a single stall of tens of ms (which delays
    // a hundred requests at 2,000 a second) shows in its max, not its p99.
    const eld = monitorEventLoopDelay({ resolution: 1 });
    eld.enable();
    // The window on CLOCK_MONOTONIC (the trace's clock, --trace-api), in seconds.
    const windowStart = Number(process.hrtime.bigint()) / 1e9;
    // Each request's time in the API, from its parsed head to its last byte handed to the kernel
    // (Node's own http channels, on the API thread): with the loop delay above, the server's part of
    // what the client times.
    const began = new WeakMap<object, number>();
    const servedMs: number[] = [];
    const onStart = (m: unknown) => began.set((m as { request: object }).request, performance.now());
    const onFinish = (m: unknown) => {
      const t = began.get((m as { request: object }).request);
      if (t !== undefined) servedMs.push(performance.now() - t);
    };
    diagnostics.subscribe('http.server.request.start', onStart);
    diagnostics.subscribe('http.server.response.finish', onFinish);
    const { stdout } = await (loading ?? runLoad(SECONDS));
    const window = { start: windowStart, end: Number(process.hrtime.bigint()) / 1e9 };
    diagnostics.unsubscribe('http.server.request.start', onStart);
    diagnostics.unsubscribe('http.server.response.finish', onFinish);
    eld.disable();
    servedMs.sort((a, b) => a - b);
    const served = { p99: servedMs.length ? percentile(servedMs, 0.99) : NaN, max: servedMs.at(-1) ?? NaN };
    const loopDelay = { p99: eld.percentile(99) / 1e6, max: eld.max / 1e6 };
    const kernel = kernelRates(k0, kernelTimes(), SECONDS);
    const busy = performance.eventLoopUtilization(elu).utilization;
    const gc = gcWatch.stop();
    const cpu = (mainThreadCpuMs() - cpu0) / SECONDS;
    const sw = mainThreadSwitches();
    const wakeups = (sw.voluntary - sw0.voluntary) / SECONDS;
    const preempted = (sw.preempted - sw0.preempted) / SECONDS;
    if (session) {
      if (PROFILE) {
        const { profile } = await session.post('Profiler.stop');
        mkdirSync(PROFILE, { recursive: true });
        writeFileSync(path.join(PROFILE, `${label}.cpuprofile`), JSON.stringify(profile));
      }
      if (HEAP_PROFILE) {
        const { profile } = await session.post('HeapProfiler.stopSampling');
        mkdirSync(HEAP_PROFILE, { recursive: true });
        writeFileSync(path.join(HEAP_PROFILE, `${label}.heapprofile`), JSON.stringify(profile));
      }
      session.disconnect();
    }
    const crawled = (await catalogRecordsIn(svc)) - before;
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as LoadLine;
    return { ...r, crawled, busy, cpu, wakeups, preempted, gc, kernel, loopDelay, served, window };
  } finally {
    unpin();
    await svc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (cli['make-seed']) {
  await makeSeed(seedDir());
  process.exit(0);
}
type RoundResult = Awaited<ReturnType<typeof once>>;
if (cli['one-round'] !== '') {
  // A child's one round (below): its figures as one line on stdout. Its heaps set up as bin/run.ts's
  // main() sets the service's up (make run): workers at their own young generation whatever this
  // command line's semi-space flags say, and every heap's growth factor after a full collection.
  setUpServiceHeaps();
  const seed = ROUTE === 'catalog' ? (JSON.parse(readFileSync(path.join(seedDir(), 'bench-seeded.json'), 'utf8')) as { dir: string; key: string }) : undefined;
  const r = await once(cli['one-round'] as Mode, cli.label, seed);
  // Its service is stopped and its directory gone (once's finally); process.exit() would join a worker
  // thread still inside an abandoned chdb call (minutes), so the round ends by SIGKILL once its line is out.
  process.stdout.write(`ROUND ${JSON.stringify(r)}\n`, () => process.kill(process.pid, 'SIGKILL'));
  await new Promise(() => {});
}

/**
 * One round in a child process of its own (this file with --one-round): a stop in the middle of a
 * crawl may abandon a chdb call on the history worker past the stop deadline, leaving its session
 * open, and a process holds one chdb data directory at a time, so the next round in the same process
 * could not open its own. The child ends itself by SIGKILL once its line is out: the line is what counts.
 */
async function roundInChild(mode: Mode, label: string): Promise<RoundResult & { offCpu?: OffCpu }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2), '--one-round', mode, '--label', label], { stdio: ['ignore', 'pipe', 'inherit'] });
  const tracer = TRACE_API ? traceThread(child.pid!) : null;
  try {
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    const line = out.split('\n').find((l) => l.startsWith('ROUND '));
    if (!line) throw new Error(`round ${label} (${mode}) gave no figures (exit ${code})`);
    const r = JSON.parse(line.slice('ROUND '.length)) as RoundResult;
    return tracer ? { ...r, offCpu: tracer.stop(r.window) } : r;
  } finally {
    // A round that gave no figures leaves no trace instance behind.
    tracer?.stop({ start: 0, end: 0 });
  }
}
const modes = picked as Mode[];
const rows: string[] = [];
if (ROUTE === 'catalog') await seeded();
console.log(`${ROUTE === 'catalog' ? 'GET /v1/markets (catalog pages), ' : 'GET /v1/plans, '}scale ${SCALE}, ${SECONDS} s windows after ${WARMUP} s${API_WARMUP > 0 ? ` (its last ${API_WARMUP} s under the same load, unmeasured)` : ''}, ${CONNECTIONS} connections${RATE > 0 ? ` at ${RATE} requests/s` : ''}, ${ROUNDS} rounds (${new Date().toISOString()})`);
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the crawl modes' order so neither always runs on a warmer machine.
  const order = round % 2 === 0 ? modes : modes[0] === 'idle' ? [modes[0], ...modes.slice(1).reverse()] : [...modes].reverse();
  const idle = { p99: 0, exact: 0 };
  for (const mode of order) {
    const r = await roundInChild(mode, `round${round + 1}-${mode.replace(/[^a-z0-9]+/g, '-')}`);
    if (mode === 'idle') Object.assign(idle, { p99: r.p99, exact: r.p99_exact });
    // autocannon's p99 is whole milliseconds (an idle 0 is taken as 1); the open loop's is fractional.
    const p99Ratio = LOAD === 'open' ? r.p99 / idle.p99 : r.p99 / Math.max(1, idle.p99);
    const traced = r.offCpu ? ` ${r.offCpu.futex.totalMs.toFixed(0)} / ${r.offCpu.futex.longestMs.toFixed(1)} | ${r.offCpu.preempted.totalMs.toFixed(0)} / ${r.offCpu.preempted.longestMs.toFixed(1)} |` : '';
    const tail = LOAD === 'open' ? ` ${r.p999!.toFixed(2)} / ${r.max!.toFixed(1)} | ${r.client_loop_p99!.toFixed(2)} / ${r.client_loop_max!.toFixed(1)} |` : '';
    const line = `| ${round + 1} | ${mode} | ${r.rps.toFixed(0)} | ${LOAD === 'open' ? r.p99.toFixed(2) : r.p99} | ${mode === 'idle' ? '1.00' : p99Ratio.toFixed(2)} | ${r.p99_exact.toFixed(2)} | ${mode === 'idle' ? '1.00' : (r.p99_exact / idle.exact).toFixed(2)} | ${r.crawled.toLocaleString('en-US')} | ${(100 * r.busy).toFixed(0)}% | ${r.cpu.toFixed(0)} | ${r.wakeups.toFixed(0)} / ${r.preempted.toFixed(0)} | ${r.gc.minor} / ${r.gc.minorMaxMs.toFixed(0)} | ${r.gc.major} / ${r.gc.majorMs.toFixed(0)} | ${r.gc.newSpaceMinMb.toFixed(1)}-${r.gc.newSpaceMaxMb.toFixed(1)} | ${r.non2xx + r.errors} | ${r.kernel.steal} | ${r.kernel.softirq} | ${r.kernel.netRx} | ${r.kernel.pressure.toFixed(0)} | ${r.loopDelay.p99.toFixed(2)} / ${r.loopDelay.max.toFixed(1)} | ${r.served.p99.toFixed(2)} / ${r.served.max.toFixed(1)} |${tail}${traced}`;
    rows.push(line);
    console.log(line);
  }
}
const p99Head = LOAD === 'open' ? 'p99 ms from due time (open loop)' : 'p99 ms (autocannon, corrected)';
const exactHead = LOAD === 'open' ? 'p99 ms from dispatch' : 'exact p99 ms';
console.log(`\n| round | mode | rps | ${p99Head} | p99 / idle p99 | ${exactHead} | exact p99 / idle's | raw records the catalog stage read in the window | main loop busy | main thread CPU ms/s | main thread wake-ups / preemptions a second | main thread scavenges / longest ms | main thread full GCs / their ms | main thread new space MB at its collections | non-2xx + errors | steal ms/s CPU0/CPU1 | softirq ms/s CPU0/CPU1 | NET_RX softirqs/s CPU0/CPU1 | CPU pressure ms/s (some) | main loop delay p99 / max ms | in the API (head to last byte) p99 / max ms |${LOAD === 'open' ? ' p99.9 / longest ms from due time | client loop delay p99 / max ms |' : ''}${TRACE_API ? ' API thread asleep on a futex, waits > 2 ms: total / longest ms | API thread preempted, > 2 ms: total / longest ms |' : ''}\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${LOAD === 'open' ? '---:|---:|' : ''}${TRACE_API ? '---:|---:|' : ''}`);
for (const l of rows) console.log(l);
process.exit(0);
