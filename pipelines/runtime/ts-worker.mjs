// Starts a worker thread's module, named in workerData.entry (the file: URL of its TypeScript
// source). From the compiled bundle when there is a current one (worker-entry.mjs, written by
// bin/build-workers.ts at install): plain JavaScript, no loader. Otherwise through tsx: a worker does
// not inherit the TypeScript loader of the thread that made it (tsx's hooks under `npx tsx`,
// vite-node's under vitest), and Node 20 ignores `--import tsx` in a worker's execArgv, so the worker
// registers tsx itself, which starts one more loader thread (15-17 MB: bench/soak.md).
// workerData.compiled === false forces tsx (tests of the fallback).
//
// workerData.nice (WORKER_NICE): the thread's own scheduling priority. On Linux a nice value belongs
// to a thread, and os.setPriority(0, n) sets the calling thread's, so the pipeline's workers yield the
// CPU to the main thread, which serves the API: on 2 cores during a 1,000,000-market crawl the API's
// p99 fell from 225-414 ms to 16-63 ms (bench/crawl-latency.md). Elsewhere it may set the process's;
// a refusal (no permission to lower priority) leaves the thread as it was.
import { workerData } from 'node:worker_threads';
import { setPriority } from 'node:os';
import process from 'node:process';
import { compiledEntry } from './worker-entry.mjs';

if (typeof workerData.nice === 'number' && workerData.nice !== 0 && process.platform === 'linux') {
  try {
    setPriority(workerData.nice);
  } catch {
    // Not permitted here: the thread keeps the process's priority.
  }
}

const compiled = workerData.compiled === false ? { url: null } : compiledEntry(workerData.entry, workerData.buildDir);
if (compiled.url) {
  await import(compiled.url);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.entry);
}
