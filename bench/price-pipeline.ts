// What the price-history sink adds to the CPU per record of the service's whole pipeline: the stages
// as bin/run.ts runs them with ROLES=processors on the embedded default (bench/service-pipeline.ts:
// the history worker with chdb, the history sinks and the catalog stage; the stage thread with the
// canonicalizer, the matching round and the sports snapshot sink; every read-model sink), without
// (PRICE_HISTORY=false) and with the price-history sink, on the same records.
//
// The records: one simulated world (seed 1, --scale) read through the venues' adapters 1 + --crawls
// times, its clock moved --step-ms between reads; what the change-only pollers publish of each read
// (the first whole, then the new or changed records: bench/service-pipeline.ts changeOnly). Read once
// by this process and handed to every run in a file, so both sides get the same records.
//
// Each run is a fresh process (nothing of one run's quotes or JIT is left for the next): the first
// read (every record, as a fresh service's first crawl) goes through the pipeline untimed but
// reported (`first crawl`); then each later read's changes are appended in turn, each waiting until
// every stage caught up, with a roll-up of the candles after every read that ends a
// PRICE_CANDLE_ROLLUP_MS of the reads' clock (bin/run.ts runs one every PRICE_CANDLE_ROLLUP_MS; the
// reads are --step-ms apart), and the whole is timed: CPU is process.cpuUsage() (every thread: main, stage
// thread, history worker, chdb's pools) from the first append until every stage committed what its
// inputs hold, per record; also with the 3 s after (chdb's merges of the parts just written, the
// sports ticks of both sides alike). The runs alternate, the order flipped every pair (ABBA), --pairs
// times; `uptime`'s load with each.
//
//   node --max-semi-space-size=64 --import tsx bench/price-pipeline.ts [--pairs 3] [--scale 1] [--crawls 6] [--step-ms 10000] [--read-window-ms 0] [--crawl-ids]
//
// --crawl-ids: each record carries its read's listing crawl id (read_id `listing:<venue>:...`), as the
// pollers' listing records do, so the catalog stage parses and stages every listing as in the
// service; without it read_id is null and the catalog stage passes every record by (no crawl-complete
// markers either way, so no crawl finishes and no catalog build runs).
//
// --read-window-ms N: each timed read takes at least N ms of wall time (appended, caught up, then
// idle until N ms after its append), its CPU counted: both sides pay the same idle time (the
// service's stages idle between reads whatever they do). For a change that makes a read take longer
// to be caught up without more work (a sink holding its rows for up to 2 s before one insert, tried
// in 0098acc and reverted): without it, that side is charged the idle CPU of the wait, the other not.
// Default 0: caught up is the end of a read.
//
// --trees a=DIR,b=DIR: the same comparison between two checkouts, both with the sink on (a before /
// after of a change to the sink): each run is DIR/bench/price-pipeline.ts of its tree.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.ts';
import type { RawRecord } from '../pipelines/topics.ts';
import { readTasks } from '../pipelines/runtime/native-nice.ts';
import { pipelineMetrics } from '../pipelines/runtime/metrics.ts';
import { successiveListings } from './listed-records.ts';
import { schedOf } from './sched.ts';
import { changeOnly, startServicePipeline } from './service-pipeline.ts';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    scale: { type: 'string', default: '1' },
    crawls: { type: 'string', default: '6' },
    'step-ms': { type: 'string', default: '10000' },
    'read-window-ms': { type: 'string', default: '0' },
    trees: { type: 'string' },
    // The records carry a listing crawl's read_id per venue and read, as the pollers publish them, so
    // the catalog stage stages them (parses and normalizes every listing) as in the service.
    'crawl-ids': { type: 'boolean', default: false },
    // One run (a child process): the records file. PRICE_HISTORY comes from the environment.
    run: { type: 'string' },
  },
});

interface RunResult {
  priceHistory: boolean;
  records: number;
  wallS: number;
  cpuUsPerRecord: number;
  cpuSettledUsPerRecord: number;
  mainUsPerRecord: number;
  otherThreadsUsPerRecord: number;
  first: { records: number; cpuUsPerRecord: number };
  priceRows: number;
  /** Batches sink.price-history completed in the timed part (each an insert into price_history when it held a change). */
  priceBatches: number;
  /** Candle roll-ups run in the timed part. */
  rollups?: number;
  /** Inserts into price_history in the timed part (distinct inserted_at of its rows; absent from older trees). */
  priceInserts?: number;
  /** The other threads' µs a record by thread name, the largest first (absent from older trees). */
  threads?: Record<string, number>;
  /** process.hrtime (ns, the clock of --cpu-prof's samples) at the start and end of the timed reads. */
  timedNs?: [string, string];
}

if (values.run) await oneRun(values.run);
else await compare();

/**
 * Nanoseconds on a CPU of the main thread and of every other thread of this process, and of the
 * other threads by name (chdb names its pools' threads: QueryPipelineEx, MergeMutate, ...; node's
 * worker, V8 and libuv threads are all `node`). A thread ended meanwhile is lost from the split.
 */
function threadRun(): { main: number; other: number; byName: Map<string, number> } {
  let main = 0;
  let other = 0;
  const byName = new Map<string, number>();
  for (const t of readTasks()) {
    const s = schedOf(process.pid, t.tid);
    if (t.tid === process.pid) main += s.run;
    else {
      other += s.run;
      byName.set(t.comm, (byName.get(t.comm) ?? 0) + s.run);
    }
  }
  return { main, other, byName };
}

async function oneRun(file: string): Promise<never> {
  const crawls = JSON.parse(readFileSync(file, 'utf8')) as RawRecord[][];
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-price-pipeline-'));
  // The embedded default with ROLES=processors (no pollers, no simulator, no API), as bin/run.ts
  // configures it: every worker thread on at WORKER_NICE.
  const config = loadConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', ROLES: 'processors', KAFKA_BROKERS: undefined, REDIS_URL: undefined, CLICKHOUSE_URL: undefined, SCHEMA_REGISTRY_URL: undefined });
  const pipeline = await startServicePipeline(config);
  const encoded = [];
  for (const c of crawls) encoded.push(await pipeline.encode(c));

  const c0 = process.cpuUsage();
  await pipeline.append(encoded[0]!);
  await pipeline.caughtUp();
  await pipeline.rollUp();
  const firstCpu = process.cpuUsage(c0);
  const first = { records: crawls[0]!.length, cpuUsPerRecord: (firstCpu.user + firstCpu.system) / crawls[0]!.length };
  const rows0 = config.PRICE_HISTORY ? await priceRows(pipeline.backbone.history) : 0;
  const [{ t: timedFrom }] = config.PRICE_HISTORY
    ? await pipeline.backbone.history.query<{ t: string }>(`SELECT toString(max(inserted_at)) AS t FROM price_history`)
    : [{ t: '' }];
  const batches0 = await priceBatches();

  const timed = crawls.slice(1).reduce((n, c) => n + c.length, 0);
  const t0 = performance.now();
  const hr0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const th0 = threadRun();
  // The roll-ups the service's timer would run over these reads: one each time the reads' clock
  // passes a multiple of PRICE_CANDLE_ROLLUP_MS (one a read at 10 s; one in six at 60 s), counted in
  // the timed CPU.
  const rollupMs = config.PRICE_CANDLE_ROLLUP_MS;
  const stepMs = Number(values['step-ms']);
  let rollups = 0;
  const windowMs = Number(values['read-window-ms']);
  for (let i = 1; i < encoded.length; i++) {
    const appended = performance.now();
    await pipeline.append(encoded[i]!);
    await pipeline.caughtUp();
    // Each read given the same wall time on both sides (--read-window-ms), its idle time counted.
    const left = windowMs - (performance.now() - appended);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    if (rollupMs > 0 && Math.floor((i * stepMs) / rollupMs) > Math.floor(((i - 1) * stepMs) / rollupMs)) {
      await pipeline.rollUp();
      rollups++;
    }
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const th = threadRun();
  const hr1 = process.hrtime.bigint();
  const threads = Object.fromEntries(
    [...th.byName]
      .map(([name, ns]) => [name, +((ns - (th0.byName.get(name) ?? 0)) / 1e3 / timed).toFixed(1)] as const)
      .filter(([, us]) => us >= 0.1)
      .sort((x, y) => y[1] - x[1]),
  );
  await new Promise((r) => setTimeout(r, 3000));
  const settled = process.cpuUsage(cpu0);
  const rows = config.PRICE_HISTORY ? (await priceRows(pipeline.backbone.history)) - rows0 : 0;
  const batches = (await priceBatches()) - batches0;
  const out: RunResult = {
    priceHistory: config.PRICE_HISTORY,
    records: timed,
    wallS: +wallS.toFixed(2),
    cpuUsPerRecord: +((cpu.user + cpu.system) / timed).toFixed(1),
    cpuSettledUsPerRecord: +((settled.user + settled.system) / timed).toFixed(1),
    mainUsPerRecord: +((th.main - th0.main) / 1e3 / timed).toFixed(1),
    otherThreadsUsPerRecord: +((th.other - th0.other) / 1e3 / timed).toFixed(1),
    first: { records: first.records, cpuUsPerRecord: +first.cpuUsPerRecord.toFixed(1) },
    priceRows: rows,
    priceBatches: batches,
    rollups: config.PRICE_HISTORY ? rollups : 0,
    priceInserts: config.PRICE_HISTORY ? await priceInserts(pipeline.backbone.history, timedFrom) : 0,
    threads,
    timedNs: [String(hr0), String(hr1)],
  };
  await pipeline.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify(out));
  process.exit(0);
}

async function priceBatches(): Promise<number> {
  return (await pipelineMetrics.batches.get()).values.find((v) => v.labels.stage === 'sink.price-history')?.value ?? 0;
}

/** The inserts into price_history after `from` (an insert's rows share their inserted_at). */
async function priceInserts(history: { query<T>(sql: string, params?: Record<string, unknown>): Promise<T[]> }, from: string): Promise<number> {
  const [r] = await history.query<{ n: number | string }>(`SELECT uniqExact(inserted_at) AS n FROM price_history WHERE inserted_at > toDateTime64({from:String}, 3, 'UTC')`, { from });
  return Number(r!.n);
}

async function priceRows(history: { query<T>(sql: string): Promise<T[]> }): Promise<number> {
  const [r] = await history.query<{ n: number | string }>('SELECT count() AS n FROM price_history');
  return Number(r!.n);
}

async function compare(): Promise<never> {
  const crawls = Number(values.crawls);
  const stepMs = Number(values['step-ms']);
  const scale = Number(values.scale);
  const reads = changeOnly(await successiveListings({ seed: 1, scale, reads: 1 + crawls, stepMs }));
  if (values['crawl-ids']) reads.forEach((read, i) => read.forEach((r) => (r.read_id = `listing:${r.venue}:bench${i}`)));
  const tmp = mkdtempSync(path.join(tmpdir(), 'pm-bench-price-pipeline-in-'));
  const file = path.join(tmp, 'records.json');
  writeFileSync(file, JSON.stringify(reads));
  console.log(
    `records: the first read ${reads[0]!.length} (untimed), then ${crawls} reads ${stepMs / 1000} s apart, changes only: ${reads
      .slice(1)
      .map((r) => r.length)
      .join(', ')} (${reads.slice(1).reduce((n, r) => n + r.length, 0)} timed)`,
  );
  const trees = values.trees?.split(',').map((t) => t.split('=') as [string, string]);
  const sides: Array<{ label: string; script: string; env: Record<string, string> }> = trees
    ? trees.map(([label, dir]) => ({ label, script: path.join(path.resolve(dir), 'bench/price-pipeline.ts'), env: { PRICE_HISTORY: 'true' } }))
    : [
        { label: 'without', script: import.meta.filename, env: { PRICE_HISTORY: 'false' } },
        { label: 'with', script: import.meta.filename, env: { PRICE_HISTORY: 'true' } },
      ];
  if (sides.length !== 2) throw new Error('--trees takes two label=DIR pairs');
  const runOnce = (side: (typeof sides)[number]) => {
    const load = loadavg()[0]!;
    const out = execFileSync(process.execPath, [...process.execArgv, side.script, '--run', file, '--step-ms', String(stepMs), '--read-window-ms', String(values['read-window-ms'])], {
      cwd: path.dirname(path.dirname(side.script)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...side.env },
    });
    const r = JSON.parse(out.trim().split('\n').at(-1)!) as RunResult;
    console.error(`${new Date().toISOString()} ${side.label} load ${load.toFixed(1)} ${JSON.stringify(r)}`);
    return { ...r, load };
  };
  const [A, B] = sides as [(typeof sides)[number], (typeof sides)[number]];
  console.log(`\n| pair | load (1 min) ${A.label}; ${B.label} | CPU µs/record ${A.label} -> ${B.label} | ratio | incl. 3 s after | ratio | main thread µs/record | other threads | price rows (batches; roll-ups; inserts of price_history), timed | first read µs/record |`);
  console.log('|---|---|---|---:|---|---:|---|---|---:|---|');
  const ratios: number[] = [];
  const settled: number[] = [];
  for (let p = 1; p <= Number(values.pairs); p++) {
    const order = p % 2 ? [A, B] : [B, A];
    const first = runOnce(order[0]!);
    const second = runOnce(order[1]!);
    const [a, b] = order[0] === A ? [first, second] : [second, first];
    ratios.push(b.cpuUsPerRecord / a.cpuUsPerRecord);
    settled.push(b.cpuSettledUsPerRecord / a.cpuSettledUsPerRecord);
    console.log(
      `| ${p} | ${a.load.toFixed(1)}; ${b.load.toFixed(1)} | ${a.cpuUsPerRecord} -> ${b.cpuUsPerRecord} | ${ratios.at(-1)!.toFixed(3)} | ${a.cpuSettledUsPerRecord} -> ${b.cpuSettledUsPerRecord} | ${settled.at(-1)!.toFixed(3)} | ` +
        `${a.mainUsPerRecord} -> ${b.mainUsPerRecord} | ${a.otherThreadsUsPerRecord} -> ${b.otherThreadsUsPerRecord} | ${b.priceRows} (${b.priceBatches}; ${b.rollups ?? '?'}; ${a.priceInserts ?? '?'} -> ${b.priceInserts ?? '?'}) | ${a.first.cpuUsPerRecord} -> ${b.first.cpuUsPerRecord} |`,
    );
  }
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
  console.log(
    `\n${B.label} / ${A.label}, CPU per record: median x${median(ratios).toFixed(3)} (range ${sorted(ratios)[0]!.toFixed(3)}-${sorted(ratios).at(-1)!.toFixed(3)}) to caught up; ` +
      `x${median(settled).toFixed(3)} (${sorted(settled)[0]!.toFixed(3)}-${sorted(settled).at(-1)!.toFixed(3)}) with the 3 s after; load now ${loadavg().map((x) => x.toFixed(1)).join(' ')}`,
  );
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}
