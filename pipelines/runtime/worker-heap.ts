// The service's V8 heaps. `make run` starts the service with `--max-semi-space-size=16` for the main
// thread's young generation (V8's default: the API and the snapshot store; the pipeline's batches in
// flight, for which it was 64 and then 32, are on the pipeline thread by default since: bench/soak.md,
// runs 41-50), but a V8 flag is process-wide and
// wins over a worker's resourceLimits, so each of the four workers took make run's 64 MB
// semi-spaces as well: the scale-1 service ran at 1.45-1.51 GB under make run's command against
// 1.0-1.24 GB without the flag (bench/soak.md). Cleared once the main thread's heap is configured (it
// keeps its own), workers made afterwards get V8's default young generation.
//
// The old generation: after each full collection V8 lets a heap grow to its live size times a factor
// of up to 4 when the heap's limit is 2 GB or more (V8's heap controller; the limit is 4 GB on a machine
// of more than 16 GB). The scale-1 service holds 25-60 MB of live data per isolate, so its heaps were
// mostly garbage awaiting collection: main 160-232 MB committed, the four workers 290-432 MB
// (bench/soak.md). `--heap-growing-percent` fixes the factor for every isolate of the process without
// a ceiling on the heap (a smaller resourceLimits.maxOldGenerationSizeMb also lowers the factor, but as
// a limit a worker dies at).

import v8 from 'node:v8';

/**
 * Workers started from now on take V8's default young generation and its memory reducer, whatever the
 * command line set for the main thread. `make run` turns the memory reducer off with
 * `--no-memory-reducer` for the API's thread alone (V8 gives a heap its reducer when the heap is set
 * up): after a phase of heavy allocation (a 1,000,000-market catalog snapshot loaded into the API's
 * heap) the reducer ran up to three full collections to shrink the heap, shrank the young generation
 * with them (1-8 MB instead of 32: five times the scavenges), and under `--single-threaded-gc` paused
 * the thread 10-55 ms each; during a crawl the catalog route's p99 went to 2.3-5.5x idle in those
 * windows (bench/crawl-latency.md, "make run's heaps in the bench", 2026-11-27). The workers serve no
 * request and keep it, so their heaps still shrink after a crawl.
 */
export function workersTakeDefaultYoungGeneration(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
  v8.setFlagsFromString('--memory-reducer');
}

/**
 * Heaps grow by their live size after a full collection (V8 allows up to 4 times on this machine): a
 * worker churning garbage over a 40 MB live set peaked at 228-261 MB committed against 364-467 MB
 * (the main thread with 64 MB semi-spaces: 344-399 against 442-561). At 50 the heaps were smaller
 * still (the worker 182-201 MB), but the pipeline lost a quarter of its throughput (bench/backbone.md);
 * at 100 it was 0.81-1.03 of it, 2-12% more CPU per record, at load 32-54.
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Every isolate of the process, the main thread's included, from its next full collection on, grows its
 * heap by HEAP_GROWING_PERCENT; a `--heap-growing-percent` on node's command line wins (NODE_OPTIONS
 * cannot carry it; `--heap-growing-percent=0` gives back V8's own factor).
 */
export function heapsGrowLess(): void {
  const given = process.execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a));
  if (!given) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * The service's heaps as `make run` runs them, before any worker starts: workers at their own young
 * generation and memory reducer whatever the command line set for the main thread, and every heap's
 * growth factor. bin/run.ts's main() and the benches that stand in for it (bench/crawl-latency.ts).
 */
export function setUpServiceHeaps(): void {
  workersTakeDefaultYoungGeneration();
  heapsGrowLess();
}

/**
 * Every worker thread's young generation (resourceLimits.maxYoungGenerationSizeMb, of which V8 makes a
 * third the semi-space: 8 MB against V8's default 16). First the pipeline thread's alone: at V8's default
 * it kept 32 MB committed for 1-12 MB in use at every sample of a scale-1 soak, its sampled live data
 * 2 MB (bench/soak.md, runs 41-50). Then the four others (pollers, stage thread, history worker,
 * simulator): in a scale-1 soak each one's committed heap rose at the 5-minute sports crawl and the
 * listing crawl far more than its used heap (the stage thread 170 -> 218 MB, still 183 two minutes
 * later; the history worker 26 -> 66-72; the simulator 43 -> 78), part of it young generation, of which
 * this limit takes at most 16 MB a worker (bench/soak.md, runs 67-76). A limit of the young generation
 * only bounds it: a worker dies at its old generation's limit, not this one, so the scale-100 crawl
 * keeps the room it had.
 */
export const WORKER_YOUNG_GENERATION_MB = 24;

/** The resourceLimits every worker thread of the service is started with. */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } as const;
