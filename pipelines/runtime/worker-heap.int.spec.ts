// Under `node --max-semi-space-size=64` (make run) the main thread keeps its 64 MB semi-spaces and a
// worker started after workersTakeDefaultYoungGeneration() gets V8's default; without the call, the
// flag's. Each isolate runs testdata/young-churn.mjs, which grows its new space to its limit.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CHURN = fileURLToPath(new URL('./testdata/young-churn.mjs', import.meta.url));

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
