// The service's main thread through tsx (`node --import tsx bin/run.ts`, make run's command before
// bin/start.mjs) against its bundle (`node bin/start.mjs`, the bundle of bin/run.ts that
// bin/build-workers.ts writes): the time until the API listens, and the process's memory at rest.
//
//   npx tsx bench/main-start.ts [--rounds 3] [--rest-s 45] [--scale 1] [--semi 32]
//
// In: the repository after `node --import tsx bin/build-workers.ts` (a stale or missing bundle makes
// bin/start.mjs fall back to tsx, which this refuses to measure). Each round starts both, one after
// the other (the order alternates by round), each on a fresh temp DATA_DIR with every seam embedded,
// `node --max-semi-space-size=<semi>` (make run: 32), no API load.
// Out: per start, the milliseconds from spawn to `API listening`, then after --rest-s of rest the
// process's VmRSS, VmHWM, RssFile (code and files mapped from disk) and thread count
// (/proc/<pid>/status); then SIGINT and the exit. At the end, medians and bundle / tsx ratios.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    'rest-s': { type: 'string', default: '45' },
    scale: { type: 'string', default: '1' },
    semi: { type: 'string', default: '32' },
  },
});
const ROUNDS = Number(values.rounds);
const REST_MS = Number(values['rest-s']) * 1000;
const REPO = fileURLToPath(new URL('..', import.meta.url));

const MODES = {
  tsx: ['--import', 'tsx', 'bin/run.ts'],
  bundle: ['bin/start.mjs'],
} as const;
type Mode = keyof typeof MODES;

interface Run {
  mode: Mode;
  listenMs: number;
  rssMb: number;
  hwmMb: number;
  fileMb: number;
  threads: number;
  exit: string;
}

function status(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(VmRSS|VmHWM|RssFile|Threads):\s+(\d+)/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

async function once(mode: Mode): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-main-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL', 'SCHEMA_REGISTRY_URL', 'VENUE_BASE_URL', 'ROLES', 'HISTORY_WORKER', 'TOPIC_PREFIX', 'SIM_SCENARIO', 'NODE_OPTIONS'])
    delete env[k];
  const t0 = performance.now();
  const child = spawn(process.execPath, [`--max-semi-space-size=${values.semi}`, ...MODES[mode]], {
    cwd: REPO,
    env: { ...env, DATA_DIR: dataDir, PORT: '0', SIM_SCALE: values.scale, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(`code ${code} signal ${signal}`)));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const listenMs = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      if (/^API listening on /m.test(buf)) resolve(performance.now() - t0);
    });
    void exited.then((how) => reject(new Error(`${mode}: exited before listening (${how})\n${stderr.slice(-2000)}`)));
  });
  if (mode === 'bundle' && stderr.includes('starts through tsx')) throw new Error(`bundle mode fell back to tsx: ${stderr.trim()}; run node --import tsx bin/build-workers.ts`);
  await new Promise((r) => setTimeout(r, REST_MS));
  const st = status(child.pid!);
  child.kill('SIGINT');
  const exit = await exited;
  rmSync(dataDir, { recursive: true, force: true });
  return { mode, listenMs, rssMb: st.VmRSS! / 1024, hwmMb: st.VmHWM! / 1024, fileMb: st.RssFile! / 1024, threads: st.Threads!, exit };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

console.log(`main-start: ${ROUNDS} rounds, ${REST_MS / 1000} s at rest, SIM_SCALE=${values.scale}, --max-semi-space-size=${values.semi}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const runs: Run[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order: Mode[] = round % 2 === 0 ? ['tsx', 'bundle'] : ['bundle', 'tsx'];
  for (const mode of order) {
    const r = await once(mode);
    runs.push(r);
    console.log(
      `round ${round + 1} ${mode.padEnd(6)} listening after ${r.listenMs.toFixed(0)} ms; at rest RSS ${r.rssMb.toFixed(0)} MB (high-water ${r.hwmMb.toFixed(0)}, from files ${r.fileMb.toFixed(0)}), ${r.threads} threads; stop ${r.exit}; load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
}
const of = (mode: Mode, k: 'listenMs' | 'rssMb' | 'hwmMb' | 'fileMb') => median(runs.filter((r) => r.mode === mode).map((r) => r[k]));
for (const k of ['listenMs', 'rssMb', 'hwmMb', 'fileMb'] as const) {
  console.log(`median ${k}: tsx ${of('tsx', k).toFixed(0)}, bundle ${of('bundle', k).toFixed(0)}, bundle / tsx ${(of('bundle', k) / of('tsx', k)).toFixed(2)}`);
}
