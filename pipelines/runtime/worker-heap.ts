// The young generation of the worker threads. `make run` starts the service with
// `--max-semi-space-size=64` for the main thread's young generation (room for the batches in flight:
// bench/backbone.md), but a V8 flag is process-wide and wins over a worker's resourceLimits, so each of
// the four workers took 64 MB semi-spaces as well: the scale-1 service ran at 1.45-1.51 GB under make
// run's command against 1.0-1.24 GB without the flag (bench/soak.md). Cleared once the main thread's
// heap is configured (it keeps its own), workers made afterwards get V8's default young generation.

import v8 from 'node:v8';

/** Workers started from now on take V8's default young generation, whatever the command line set. */
export function workersTakeDefaultYoungGeneration(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
}
