// make run's command (Makefile `run`, package.json `start`) caps glibc's malloc arenas at two
// (MALLOC_ARENA_MAX=2). Why: glibc gives each thread that allocates an arena of its own, up to 8 per
// core; the service's threads (the main thread, five workers, libuv's pool, V8's helpers, chdb's
// pools) filled 15-17 of them and they held 145-305 MB of the scale-1 soak's RSS, memory freed in
// one arena not reused by the others (bench/soak.md, 2026-11-27, "the malloc arenas"). Checked here
// on the command itself, run through sh as make and npm run it, with a probe in place of
// bin/start.mjs: worker threads that each keep 64 KB buffers, then the arenas' heaps counted in
// /proc/self/maps. The same probe started by plain `node` must see many, or the count proves nothing.
// The command also holds glibc's mmap threshold fixed (GLIBC_TUNABLES): checked with a second probe that
// frees 64 large buffers lying between small ones it keeps, after one larger buffer was freed (which
// raises glibc's dynamic threshold): plain node keeps their memory, the command gives it back.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../', import.meta.url));

const PROBE = `
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
const code = "const { parentPort } = require('node:worker_threads'); const keep = []; for (let i = 0; i < 40; i++) keep.push(Buffer.alloc(64 * 1024, i)); parentPort.postMessage(keep.length); setInterval(() => keep.length, 1000);";
const workers = [];
await Promise.all(Array.from({ length: 8 }, () => new Promise((resolve, reject) => {
  const w = new Worker(code, { eval: true });
  workers.push(w);
  w.once('message', resolve);
  w.once('error', reject);
})));
// A non-main arena's heap: a 64 MB-aligned read-write mapping and its PROT_NONE reserve, 64 MB together.
const M = 64n * 1024n * 1024n;
const maps = readFileSync('/proc/self/maps', 'utf8').trim().split('\\n').map((l) => {
  const [range, perm, , , , name] = l.split(/\\s+/);
  const [s, e] = range.split('-').map((x) => BigInt('0x' + x));
  return { s, e, perm, name: name ?? '' };
});
let heaps = 0;
for (let i = 0; i + 1 < maps.length; i++) {
  const m = maps[i], n = maps[i + 1];
  if (m.name === '' && m.perm === 'rw-p' && m.s % M === 0n && n.s === m.e && n.perm === '---p' && n.e - m.s === M) heaps++;
}
console.log(JSON.stringify({ heaps }));
for (const w of workers) await w.terminate();
`;

// Large buffers freed between small ones kept: how much of their memory RSS still holds afterwards.
const RETURN_PROBE = `
import { readFileSync } from 'node:fs';
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
// One large buffer freed: by default glibc then serves chunks up to its size from the arenas, not by mmap.
let big = Buffer.allocUnsafeSlow(8 * 1024 * 1024);
big.fill(1);
big = null;
gc();
const before = rss();
const keep = [];
let held = [];
for (let i = 0; i < 64; i++) {
  const b = Buffer.allocUnsafeSlow(1024 * 1024);
  b.fill(i);
  held.push(b);
  const k = Buffer.allocUnsafeSlow(4096);
  k.fill(i);
  keep.push(k);
}
const peak = rss();
held = null;
gc();
await new Promise((r) => setTimeout(r, 100));
gc();
console.log(JSON.stringify({ grew: peak - before, kept: rss() - before, small: keep.length }));
`;

/** The recipe of the Makefile's `run` target (its one command line). */
function makeRunCommand(): string {
  const make = readFileSync(path.join(REPO, 'Makefile'), 'utf8');
  const m = /^run:.*\n\t(.+)$/m.exec(make);
  if (!m) throw new Error('no run target in the Makefile');
  return m[1].trim();
}

describe("make run's command", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-arenas-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const probe = path.join(dir, 'probe.mjs');
  writeFileSync(probe, PROBE);
  const returnProbe = path.join(dir, 'return-probe.mjs');
  writeFileSync(returnProbe, RETURN_PROBE);
  const env = { ...process.env };
  delete env.MALLOC_ARENA_MAX;
  delete env.GLIBC_TUNABLES;
  delete env.NODE_OPTIONS;
  const heapsUnder = (command: string): number => {
    const out = execFileSync('sh', ['-c', command], { cwd: REPO, env, encoding: 'utf8' });
    return (JSON.parse(out.trim().split('\n').pop()!) as { heaps: number }).heaps;
  };

  it('is the same in the Makefile and in npm start', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(makeRunCommand());
  });

  it.runIf(process.platform === 'linux' && spawnSync('ldd', ['--version'], { encoding: 'utf8' }).stdout.includes('GLIBC'))(
    "caps glibc's malloc arenas at two: one arena heap besides the main one, where plain node takes one per thread",
    () => {
      const command = makeRunCommand();
      expect(command).toMatch(/\bbin\/start\.mjs$/);
      const capped = heapsUnder(command.replace(/bin\/start\.mjs$/, JSON.stringify(probe)));
      const plain = heapsUnder(`node ${JSON.stringify(probe)}`);
      expect(plain).toBeGreaterThanOrEqual(4);
      expect(capped).toBeLessThanOrEqual(1);
    },
  );

  it.runIf(process.platform === 'linux' && spawnSync('ldd', ['--version'], { encoding: 'utf8' }).stdout.includes('GLIBC'))(
    "holds glibc's mmap threshold fixed: 64 MB of freed buffers given back, where plain node keeps them after one large free",
    () => {
      const command = makeRunCommand();
      const run = (c: string) => {
        const out = execFileSync('sh', ['-c', c], { cwd: REPO, env, encoding: 'utf8' });
        return JSON.parse(out.trim().split('\n').pop()!) as { grew: number; kept: number };
      };
      const fixed = run(command.replace(/bin\/start\.mjs$/, `--expose-gc ${JSON.stringify(returnProbe)}`));
      const plain = run(`MALLOC_ARENA_MAX=2 node --expose-gc ${JSON.stringify(returnProbe)}`);
      // Both grew by the 64 buffers; plain node (the arena cap alone) keeps them, the command does not.
      expect(plain.grew).toBeGreaterThanOrEqual(56);
      expect(fixed.grew).toBeGreaterThanOrEqual(56);
      expect(plain.kept).toBeGreaterThanOrEqual(48);
      expect(fixed.kept).toBeLessThanOrEqual(16);
    },
  );
});
