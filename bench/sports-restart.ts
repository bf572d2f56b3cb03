// How soon the sports routes serve a snapshot read after a start, on a fresh DATA_DIR and after a
// restart on the same one (bench/soak.md, "sports snapshot after a restart").
//
//   npx tsx bench/sports-restart.ts [--scale 1] [--restarts 1] [--run-s 90] [--watch-s 150] [--env "K=V K2=V2"]
//                                   [--repo DIR] [--count-s 60] [--wait-listing]
//
// In: bin/run.ts as a child (node_modules/.bin/tsx, every seam embedded, the service's own cadences,
// LOG_LEVEL=info), on a temp DATA_DIR. Out, per start: seconds from the spawn to the API listening,
// to the first 200 of GET /v1/matching-markets/sports?limit=1 (and the age of its observed_at), and
// to the first answer whose `snapshot.observed_at` is at or after the spawn (every read behind it
// began after the start: the first snapshot this process read afresh), with each distinct
// observed_at seen until then. The service runs --run-s after that (or --watch-s without one), is
// stopped by SIGINT and started again on the same DATA_DIR, --restarts times. The machine's load
// average is printed beside each start. `--repo`: the tree whose bin/run.ts runs (another checkout
// with its node_modules, so a base and a head run under the same bench). `--count-s`: after the
// runs, what the pollers wrote in that many seconds after each spawn, read from the DATA_DIR's log
// by this tree's code (bench/restart-records.ts). `--wait-listing` (with `--env LOG_LEVEL=debug`): the
// fresh start runs on until every venue's listing crawl has completed (its `crawl complete` line), so
// the restart comes after a complete listing crawl at any scale (minutes at SIM_SCALE=100).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.ts';
import { countRestartRecords, formatCounts } from './restart-records.ts';

const cli = benchArgs({ scale: '1', restarts: 1, 'run-s': 90, 'watch-s': 150, env: '', keep: false, repo: '', 'count-s': 0, 'wait-listing': false });
const REPO = cli.repo || fileURLToPath(new URL('..', import.meta.url));
const OUT = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

interface Started {
  stop: () => Promise<number | null>;
  address: string;
  key: string;
  startedAt: number;
  listeningS: number;
  /** Venues whose listing crawl completed (the `crawl complete` debug lines). */
  listed: Set<string>;
}

async function start(dataDir: string, logPrefix: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL', 'SCHEMA_REGISTRY_URL', 'VENUE_BASE_URL', 'ROLES', 'TOPIC_PREFIX', 'SIM_SCENARIO']) delete env[k];
  for (const kv of cli.env.split(' ').filter(Boolean)) env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
  Object.assign(env, { DATA_DIR: dataDir, PORT: '0', SIM_SCALE: cli.scale, LOG_LEVEL: env.LOG_LEVEL ?? 'info' });
  const startedAt = Date.now();
  const proc = spawn(join(REPO, 'node_modules/.bin/tsx'), ['bin/run.ts'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const out = createWriteStream(`${logPrefix}.stdout`);
  proc.stderr!.pipe(createWriteStream(`${logPrefix}.stderr`));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  let address = '';
  let key = '';
  const listed = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    let rest = '';
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (d: string) => {
      out.write(d);
      const parts = (rest + d).split('\n');
      rest = parts.pop()!;
      for (const line of parts) {
        if (line.includes('"msg":"crawl complete"') && line.includes('"feed":"listing"')) listed.add(/"venue":"(\w+)"/.exec(line)?.[1] ?? '');
        address ||= /^API listening on (\S+)/.exec(line)?.[1] ?? '';
        key ||= /^demo key \(.*\): (\S+)/.exec(line)?.[1] ?? '';
        if (address && key) resolve();
      }
    });
    void exited.then((c) => reject(new Error(`exited ${c} before listening`)));
  });
  return {
    address,
    key,
    startedAt,
    listeningS: (Date.now() - startedAt) / 1000,
    listed,
    stop: async () => {
      proc.kill('SIGINT');
      return Promise.race([exited, sleep(90_000).then(() => (proc.kill('SIGKILL'), exited))]);
    },
  };
}

async function sports(s: Started): Promise<{ status: number; observedAt: number | null; total: number | null }> {
  try {
    const res = await fetch(`${s.address}/v1/matching-markets/sports?limit=1`, { headers: { authorization: `Bearer ${s.key}` }, signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as { snapshot?: { observed_at?: string }; pagination?: { total?: number } };
    const o = body.snapshot?.observed_at;
    return { status: res.status, observedAt: o ? Date.parse(o) : null, total: body.pagination?.total ?? null };
  } catch {
    return { status: 0, observedAt: null, total: null };
  }
}

/** Polls every second until a snapshot read after the start is served (or --watch-s passes). */
async function watch(s: Started, label: string): Promise<void> {
  const since = (t: number) => ((t - s.startedAt) / 1000).toFixed(1);
  const seen: string[] = [];
  let first200: string | null = null;
  let last: number | null = null;
  const deadline = s.startedAt + cli['watch-s'] * 1000;
  while (Date.now() < deadline) {
    const r = await sports(s);
    const now = Date.now();
    if (r.status === 200 && first200 === null) first200 = `${since(now)} s (observed_at age ${r.observedAt === null ? '-' : ((now - r.observedAt) / 1000).toFixed(0)} s, total ${r.total})`;
    if (r.status === 200 && r.observedAt !== last) {
      last = r.observedAt;
      seen.push(`${since(now)} s: observed_at ${r.observedAt === null ? 'null' : `${since(r.observedAt)} s`} total ${r.total}`);
    }
    if (r.status === 200 && r.observedAt !== null && r.observedAt >= s.startedAt) {
      console.log(`${label}: listening ${s.listeningS.toFixed(1)} s; first 200 at ${first200}; first snapshot read after the start at ${since(now)} s (load ${load()})`);
      console.log(`  observed_at seen (seconds from the spawn): ${seen.join('; ')}`);
      return;
    }
    await sleep(1000);
  }
  console.log(`${label}: listening ${s.listeningS.toFixed(1)} s; first 200 at ${first200 ?? 'never'}; NO snapshot read after the start within ${cli['watch-s']} s (load ${load()})`);
  console.log(`  observed_at seen (seconds from the spawn): ${seen.join('; ')}`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'pm-sports-restart-'));
mkdirSync(join(OUT, 'bench/out'), { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
console.log(`sports-restart: ${REPO} SIM_SCALE=${cli.scale} env "${cli.env}" DATA_DIR ${dataDir}, ${new Date().toISOString()}, load ${load()}`);
const spawns: number[] = [];
for (let i = 0; i <= cli.restarts; i++) {
  const label = i === 0 ? 'fresh start' : `restart ${i}`;
  const s = await start(dataDir, join(OUT, `bench/out/sports-restart-${stamp}-${i}`));
  spawns.push(s.startedAt);
  console.log(`${label}: spawned ${new Date(s.startedAt).toISOString()}`);
  await watch(s, label);
  if (i === 0 && cli['wait-listing']) {
    while (s.listed.size < 9) await sleep(1000);
    console.log(`  every venue's listing crawl complete ${((Date.now() - s.startedAt) / 1000).toFixed(0)} s after the spawn (load ${load()})`);
  }
  await sleep(cli['run-s'] * 1000);
  const code = await s.stop();
  console.log(`  stopped (SIGINT): exit ${code}, ${((Date.now() - s.startedAt) / 1000).toFixed(0)} s after the spawn`);
}
console.log(`logs: bench/out/sports-restart-${stamp}-*.{stdout,stderr}`);
if (cli['count-s'] > 0) for (const line of formatCounts(await countRestartRecords(dataDir, spawns, cli['count-s'] * 1000))) console.log(line);
if (cli.keep) console.log(`DATA_DIR kept: ${dataDir}`);
else rmSync(dataDir, { recursive: true, force: true });
