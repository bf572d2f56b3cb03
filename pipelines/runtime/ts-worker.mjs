// Starts a TypeScript module on a worker thread. A worker does not inherit the TypeScript loader of
// the thread that made it (tsx's hooks under `npx tsx`, vite-node's under vitest), and Node 20
// ignores `--import tsx` in a worker's execArgv, so the worker registers tsx itself, then imports
// the module named in workerData.entry (a file: URL).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
