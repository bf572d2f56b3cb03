// `make run` and `npm start`: the service's main thread from the bundle of bin/run.ts that
// bin/build-workers.ts wrote under .build/workers/ when it is current (no source it was built from is
// newer: pipelines/runtime/worker-entry.mjs), else bin/run.ts through tsx. Why: under
// `node --import tsx` the main thread has tsx's module-hooks thread (its own V8 isolate on Node 20)
// and compiles every source at start with its source map kept; a bundle needs neither: the service
// listens in about 0.8 of the time and its start-up peak is about 80 MB lower (over a soak, past the
// start, RSS is the same: bench/soak.md, runs 31-32). Plain JavaScript, so that node starts it
// without a loader.
// Usage: WORKER_CPUS=auto MALLOC_ARENA_MAX=2 GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 node
// --single-threaded-gc --no-memory-reducer --max-semi-space-size=16 bin/start.mjs (make run's command; the Makefile says why)
import { URL } from 'node:url';
import console from 'node:console';
import { compiledEntry } from '../pipelines/runtime/worker-entry.mjs';

const entry = new URL('./run.ts', import.meta.url).href;
const compiled = compiledEntry(entry);
let service;
if (compiled.url) {
  service = await import(compiled.url);
} else {
  // An edited source or no build yet (`make install` builds): started as before, and said once.
  console.error(`bin/run.ts starts through tsx (${compiled.why}); node --import tsx bin/build-workers.ts bundles it`);
  const { register } = await import('tsx/esm/api');
  register();
  service = await import(entry);
}
await service.main();
