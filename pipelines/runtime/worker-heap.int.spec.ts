// Under `node --max-semi-space-size=64` (make run) the main thread keeps its 64 MB semi-spaces and a
// worker started after workersTakeDefaultYoungGeneration() gets V8's default; without the call, the
// flag's. Each isolate runs testdata/young-churn.mjs, which grows its new space to its limit. A worker
// started with WORKER_RESOURCE_LIMITS has an old-generation limit under 2 GB and holds less garbage.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CHURN = fileURLToPath(new URL('./testdata/young-churn.mjs', import.meta.url));
const OLD_CHURN = fileURLToPath(new URL('./testdata/old-churn.mjs', import.meta.url));

const script = (clear: boolean) => `
import { Worker } from 'node:worker_threads';
import { workersTakeDefaultYoungGeneration } from './pipelines/runtime/worker-heap.ts';
${clear ? 'workersTakeDefaultYoungGeneration();' : ''}
const { default: main } = await import(${JSON.stringify(CHURN)});
const w = new Worker(${JSON.stringify(CHURN)}, { execArgv: [] });
console.log(main, await new Promise((r) => w.once('message', r)));
process.exit(0);
`;

/** The main thread's and a worker's new space (MB) once grown, in a process started as make run starts the service. */
function newSpaces(clear: boolean): { main: number; worker: number } {
  const out = execFileSync(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', '--input-type=module', '-e', script(clear)], { cwd: REPO, encoding: 'utf8' });
  const [main, worker] = out.trim().split(' ').map(Number);
  return { main: main!, worker: worker! };
}

describe('workersTakeDefaultYoungGeneration', () => {
  it("gives workers V8's default young generation while the main thread keeps the command line's", () => {
    const before = newSpaces(false);
    expect(before.main).toBeGreaterThanOrEqual(64);
    expect(before.worker).toBeGreaterThanOrEqual(64);
    const after = newSpaces(true);
    expect(after.main).toBeGreaterThanOrEqual(64);
    expect(after.worker).toBeLessThanOrEqual(32);
  });
});

const limitsScript = (limits: boolean) => `
import { Worker } from 'node:worker_threads';
import { WORKER_RESOURCE_LIMITS, workersTakeDefaultYoungGeneration } from './pipelines/runtime/worker-heap.ts';
workersTakeDefaultYoungGeneration();
// Without them, a worker's limit is the main thread's: 4 GB on a machine of 16 GB or more (here 24).
const w = new Worker(${JSON.stringify(OLD_CHURN)}, { execArgv: [], resourceLimits: ${limits ? 'WORKER_RESOURCE_LIMITS' : '{ maxOldGenerationSizeMb: 4096 }'} });
console.log(JSON.stringify(await new Promise((r) => w.once('message', r))));
process.exit(0);
`;

/** A worker's heap limit and largest committed heap (MB) over the same churn, with the limits or at 4 GB, in a process started as make run starts the service. */
function oldChurn(limits: boolean): { limit: number; peak: number } {
  const out = execFileSync(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', '--input-type=module', '-e', limitsScript(limits)], { cwd: REPO, encoding: 'utf8' });
  return JSON.parse(out.trim()) as { limit: number; peak: number };
}

describe('WORKER_RESOURCE_LIMITS', () => {
  it('keeps a worker under the 2 GB limit where V8 lets a heap grow to four times its live data, and its heap smaller', () => {
    const limited = oldChurn(true);
    // The limit is the old generation's plus the young generation's.
    expect(limited.limit).toBeLessThan(2048);
    const free = oldChurn(false);
    // Measured 194-238 MB against 314-464 MB (the live set is about 40 MB).
    expect(limited.peak).toBeLessThan(free.peak * 0.8);
  }, 120_000);
});
