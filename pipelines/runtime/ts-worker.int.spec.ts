// The worker launcher (ts-worker.mjs) starts a worker from its compiled bundle when a current build
// is there, else through tsx; and a real build (bin/build-workers.ts) runs: the simulator's worker,
// started from its bundle, finds its scenario files and serves its plugins' routes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWorkers } from '../../bin/build-workers.ts';
import { compiledEntry } from './worker-entry.mjs';

const LAUNCHER = new URL('./ts-worker.mjs', import.meta.url);
const REPO = fileURLToPath(new URL('../../', import.meta.url));

function firstMessage<T>(w: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`worker exited (${code}) before its first message`)));
  });
}

describe('worker launcher', () => {
  const workers: Worker[] = [];
  const made: string[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.terminate();
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('runs the bundle of a current build, and the TypeScript source when told not to or when there is none', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ts-worker-'));
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    const entry = path.join(dir, 'entry.ts');
    writeFileSync(entry, "import { parentPort } from 'node:worker_threads';\nconst from: string = 'source';\nparentPort!.postMessage(from);\n");
    const buildDir = path.join(dir, 'build');
    mkdirSync(buildDir);
    writeFileSync(path.join(buildDir, 'entry.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage('bundle');\n");
    writeFileSync(path.join(buildDir, 'manifest.json'), JSON.stringify({ root: dir, builtAt: Date.now() + 1000, entries: { 'entry.ts': { out: 'entry.mjs', inputs: ['entry.ts'] } } }));
    const run = (data: object) => {
      const w = new Worker(LAUNCHER, { workerData: { entry: pathToFileURL(entry).href, ...data } });
      workers.push(w);
      return firstMessage<string>(w);
    };
    expect(await run({ buildDir })).toBe('bundle');
    expect(await run({ buildDir, compiled: false })).toBe('source');
    expect(await run({ buildDir: path.join(dir, 'none') })).toBe('source');
  });

  it('starts the simulator from a fresh build of the workers: scenario files found, plugin routes served', async () => {
    // Inside the repository: a bundle finds its packages in node_modules from where it lies.
    mkdirSync(path.join(REPO, '.build'), { recursive: true });
    const buildDir = mkdtempSync(path.join(REPO, '.build', 'test-workers-'));
    made.push(buildDir);
    await buildWorkers(buildDir);
    const entry = new URL('../venues/simulator/thread-worker.ts', import.meta.url).href;
    const chosen = compiledEntry(entry, buildDir);
    expect(chosen.url && fileURLToPath(chosen.url)).toBe(path.join(buildDir, 'simulator-worker.mjs'));
    const w = new Worker(LAUNCHER, { workerData: { entry, buildDir, options: { seed: 1 + Math.floor(Math.random() * 100_000), scale: 0, scenario: 'example' } } });
    workers.push(w);
    const ready = await firstMessage<{ ready: boolean; baseUrl?: string; error?: string }>(w);
    expect(ready).toMatchObject({ ready: true });
    const spot = await fetch(`${ready.baseUrl}/spot/api/v3/ticker/price?symbol=BTCUSDT`);
    expect(spot.status).toBe(200);
    const listing = await fetch(`${ready.baseUrl}/venue_2/markets?limit=2`);
    expect(listing.status).toBe(200);
  });
});
