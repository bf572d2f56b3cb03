// The heaps of the worker threads. `make run` starts the service with `--max-semi-space-size=64` for
// the main thread's young generation (room for the batches in flight: bench/backbone.md), but a V8 flag
// is process-wide and wins over a worker's resourceLimits, so each of the four workers took 64 MB
// semi-spaces as well: the scale-1 service ran at 1.45-1.51 GB under make run's command against
// 1.0-1.24 GB without the flag (bench/soak.md). Cleared once the main thread's heap is configured (it
// keeps its own), workers made afterwards get V8's default young generation.
//
// The old generation: after each full collection V8 lets a heap grow to its live size times a factor
// that depends on the heap's limit: 4 for a limit of 2 GB or more, falling to 1.3 at 256 MB (V8's heap
// controller). A worker's default limit is the main thread's, 4 GB on this 24 GB machine, so a worker
// holding 30-60 MB of live data committed 100-200 MB of heap, most of it garbage awaiting collection
// (bench/soak.md). At 1.5 GB the factor is about 1.8: a worker churning over a 40 MB live set peaked at
// 237 MB committed against 408 MB at the default, and 1.5 GB is still about three times the largest
// worker heap seen at SIM_SCALE=100 (the pollers' thread, 538 MB used).

import v8 from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/** Workers started from now on take V8's default young generation, whatever the command line set. */
export function workersTakeDefaultYoungGeneration(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
}

/**
 * Every worker thread's resourceLimits: an old-generation limit under 2 GB, so V8 collects a worker's
 * garbage at a smaller multiple of its live data. A `--max-old-space-size` on the command line (or in
 * NODE_OPTIONS) is process-wide and wins over it, as the semi-space flag does.
 */
export const WORKER_RESOURCE_LIMITS: Readonly<ResourceLimits> = Object.freeze({ maxOldGenerationSizeMb: 1536 });
