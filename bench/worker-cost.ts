// Resident memory a worker thread costs, with and without the TypeScript loader each of the service's
// workers registers (pipelines/runtime/ts-worker.mjs: tsx's module.register, which on Node 20 starts a
// hooks thread of its own per worker): what the four pipeline workers (simulator, history, stage,
// pollers) add to the start-up peak beyond their own heaps (bench/soak.md, "Start-up peak").
//
//   npx tsx bench/worker-cost.ts [--workers 4] [--rounds 2]
//
// Out: per round and mode, the process's VmRSS before and 6 s after starting the workers (idle ones:
// a timer and nothing else), and the difference per worker. Plain workers run a .mjs module.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { benchArgs } from './args.ts';

const cli = benchArgs({ workers: 4, rounds: 2, child: '' });
const N = cli.workers;
const ROUNDS = cli.rounds;
const rssMB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The TypeScript module must lie under the repository (tsx compiles what its tsconfig covers).
const dir = mkdtempSync(join(import.meta.dirname, 'out', 'worker-cost-'));
const tsEntry = join(dir, 'idle.ts');
const plainEntry = join(dir, 'idle.mjs');
writeFileSync(tsEntry, 'const forever: number = 1 << 30;\nsetInterval(() => undefined, forever);\n');
writeFileSync(plainEntry, 'setInterval(() => undefined, 1 << 30);\n');
const tsWorker = new URL('../pipelines/runtime/ts-worker.mjs', import.meta.url);

// Each measurement in a fresh process (as the service: node with tsx's loader), so memory freed by a
// previous round does not hide what the next one takes.
const child = cli.child;
try {
  if (child) {
    await sleep(1000);
    const before = rssMB();
    for (let k = 0; k < N; k++)
      if (child === 'plain') new Worker(pathToFileURL(plainEntry));
      else new Worker(tsWorker, { workerData: { entry: pathToFileURL(tsEntry).href } });
    await sleep(6000);
    const after = rssMB();
    console.log(`${child.padEnd(13)} ${N} workers: RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB, ${((after - before) / N).toFixed(1)} MB per worker`);
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }
  for (let round = 1; round <= ROUNDS; round++)
    for (const mode of ['plain', 'ts-worker.mjs']) {
      const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', mode, '--workers', String(N)], { encoding: 'utf8' });
      process.stdout.write(`round ${round} ${out}`);
    }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
