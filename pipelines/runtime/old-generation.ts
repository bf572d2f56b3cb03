// A worker thread whose heap holds a large live set collects its garbage before V8 would.
//
// V8 lets a heap grow after each full collection to its live size times a factor, the same for every
// isolate of the process (HEAP_GROWING_PERCENT, worker-heap.ts: 100, so twice the live size). The
// stage thread holds the largest live set of the service's isolates (about 110 MB at scale 1: the rules
// texts' readings 33 MB, matching 22, the sports snapshot sink 15, canonicalization 13) and promotes
// about 2 MB a second of short-lived state into its old generation, so its heap climbed from 114-156 MB
// committed after a collection to 226-243 MB before the next one, every 60-90 s: the largest slow swing
// under the process's high-water mark (bench/soak.md, runs 100-104). V8 has no factor per isolate, and
// a smaller resourceLimits.maxOldGenerationSizeMb only lowers it near a limit the worker dies at; so
// the worker checks its own heap between calls and runs a full collection once the heap has grown
// past its live size by `growth` (and at least `minGrowthBytes`). Nothing is bounded: the heap's limit
// stays V8's, a live set that grows is followed (the live size is what the last collection left), and
// V8's own collections still run as before.

import v8 from 'node:v8';
import vm from 'node:vm';

export interface OldGenerationBound {
  /** After a call: a full collection if the heap has grown past the bound since the last one. True if it ran one. */
  check(): boolean;
  /** What the last collection left (bytes), as the bound sees it. */
  readonly live: number;
  /** Collections this bound has run. */
  readonly collections: number;
}

export interface OldGenerationOptions {
  /** Collect once the used heap passes live × (1 + growth). */
  growth: number;
  /** ... and live + this many bytes (a small heap is left to V8). */
  minGrowthBytes: number;
  /** The used heap in bytes (default: v8.getHeapStatistics().used_heap_size). */
  usedBytes?: () => number;
  /** A full collection (default: V8's gc(), exposed for this isolate: exposeGc). */
  collect?: () => void;
}

/** The stage thread's bound: half its live size (V8's own is all of it), at least 32 MB. */
export const STAGE_THREAD_OLD_GENERATION: Pick<OldGenerationOptions, 'growth' | 'minGrowthBytes'> = { growth: 0.5, minGrowthBytes: 32 * 2 ** 20 };

/**
 * V8's gc() for the calling isolate, without `--expose-gc` on node's command line (which would give
 * every isolate a global gc): the flag is set only while a new context is made to take the function
 * from, then cleared again.
 */
export function exposeGc(): () => void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === 'function') return own;
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

export function boundOldGeneration(opts: OldGenerationOptions): OldGenerationBound {
  const used = opts.usedBytes ?? (() => v8.getHeapStatistics().used_heap_size);
  let collect = opts.collect;
  let live = used();
  let collections = 0;
  let off = false;
  return {
    check() {
      if (off) return false;
      const now = used();
      // V8's own collections (and garbage dropped young) leave less: that is the live size now.
      if (now < live) live = now;
      if (now <= Math.max(live * (1 + opts.growth), live + opts.minGrowthBytes)) return false;
      try {
        collect ??= exposeGc();
        collect();
      } catch {
        // No gc() to be had here (V8's flags frozen): the heap is left to V8, as without the bound.
        off = true;
        return false;
      }
      collections++;
      live = used();
      return true;
    },
    get live() {
      return live;
    },
    get collections() {
      return collections;
    },
  };
}
