// Market detail of several copies of the code (each a checkout with its own node_modules link) served
// by one process against one simulator, in alternating short load rounds (order reversed every other
// round), reporting this process's CPU per request per round and each copy's difference from the first
// copy in the same round (bench/routes.md, 2026-11-28 06:38-07:11). Finer than comparing runs of
// bench/routes.ts: both sides share the process, its heap, the simulator and the machine's load of the
// same seconds. Run it twice with the same copy under two names (an A/A) to see the noise.
//
//   ROUNDS=12 DUR=2 CONN=1 npx tsx bench/detail-ab.ts /path/to/base-checkout /path/to/change-checkout [...]
//
// A checkout: `git archive <commit> | tar -x -C DIR` and a `node_modules` link to this repository's.
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
const run = promisify(execFile);
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (dirs.length === 0) throw new Error('usage: detail-ab.ts DIR [DIR...] (checkouts to compare; the first is the reference)');
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const DUR = Number(process.env.DUR ?? 2);
const CONN = process.env.CONN ?? '1';
const { startSimulator } = await import(path.join(dirs[0], 'pipelines/venues/simulator/server.ts'));
const sim = await startSimulator({ seed: 42 });
const v3 = ((await (await request(`${sim.baseUrl}/venue_3/v1/markets?per_page=1`)).body.json()) as { data: { id: string }[] }).data[0];
const apps: { name: string; url: string; keys: string }[] = [];
for (const d of dirs) {
  const { loadConfig } = await import(path.join(d, 'lib/config.ts'));
  const { buildApp } = await import(path.join(d, 'api/app.ts'));
  const { authDepsFor } = await import(path.join(d, 'api/auth/index.ts'));
  const { MemoryKeyStore } = await import(path.join(d, 'api/auth/memory-store.ts'));
  const { createLiveDeps } = await import(path.join(d, 'api/live/io.ts'));
  const { benchKeys } = await import(path.join(d, 'bench/bench-keys.ts'));
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const auth = authDepsFor(new MemoryKeyStore(), config.KEY_PEPPER);
  const keyLines = (await benchKeys(auth.admin, { permissions: ['markets.read'], count: 50, unlimited: true })).map((k: string) => `Bearer ${k}`);
  const keys = path.join(tmpdir(), `detail-ab-keys-${process.pid}-${apps.length}.txt`);
  writeFileSync(keys, keyLines.join('\n'));
  const app = await buildApp({ config, clock: Date.now, auth, live: createLiveDeps(sim.baseUrl) }, undefined, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  apps.push({ name: path.basename(d), url: `http://127.0.0.1:${app.server.address().port}/v1/markets/venue_3:${v3.id}`, keys });
}
const loadScript = path.join(dirs[0], 'bench/api-load.ts');
async function load(url: string, keys: string, d: number) {
  const c0 = process.cpuUsage();
  const { stdout } = await run(process.execPath, ['--import', 'tsx', loadScript, url, CONN, String(d), keys, '0', ''], { maxBuffer: 1 << 24 });
  const c = process.cpuUsage(c0);
  const l = JSON.parse(stdout.trim().split('\n').pop()!);
  return { rps: l.rps as number, cpu: (c.user + c.system) / Math.max(1, l.total), bad: l.non2xx + l.errors };
}
for (const a of apps) await load(a.url, a.keys, 1);
const res: Record<string, { rps: number; cpu: number; bad: number }[]> = {};
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...apps].reverse() : apps;
  for (const a of order) (res[a.name] ??= []).push(await load(a.url, a.keys, DUR));
}
const med = (x: number[]) => { const v = [...x].sort((a, b) => a - b); return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2; };
for (const a of apps) {
  const x = res[a.name];
  console.log(JSON.stringify({ copy: a.name, conn: CONN, cpu_us_per_req_median: Number(med(x.map((y) => y.cpu)).toFixed(1)), rps_median: Math.round(med(x.map((y) => y.rps))), cpu: x.map((y) => Math.round(y.cpu)), bad: x.reduce((n, y) => n + y.bad, 0) }));
}
// per round: each copy's CPU per request minus the first copy's in the same round
const first = res[apps[0].name];
for (const a of apps.slice(1)) {
  const d = first.map((x, i) => res[a.name][i].cpu - x.cpu);
  console.log(JSON.stringify({ copy: a.name, minus: apps[0].name, diff_per_round: d.map((x) => Number(x.toFixed(1))), median_diff: Number(med(d).toFixed(1)), below_in: d.filter((x) => x < 0).length + '/' + d.length }));
}
for (const a of apps) rmSync(a.keys, { force: true });
await sim.close();
process.exit(0);
