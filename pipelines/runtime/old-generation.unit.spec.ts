// boundOldGeneration: a full collection once the heap has grown past its live size by the bound, the
// live size followed from what each collection leaves (old-generation.int.spec.ts runs it on V8's heap).
import { describe, expect, it } from 'vitest';
import { boundOldGeneration } from './old-generation.ts';

const MB = 2 ** 20;

/** A heap of `live` MB plus garbage, collected (down to the live set) by collect(). */
function fakeHeap(live: number) {
  const h = { live: live * MB, garbage: 0, collections: 0 };
  return {
    h,
    usedBytes: () => h.live + h.garbage,
    collect: () => {
      h.garbage = 0;
      h.collections++;
    },
  };
}

describe('boundOldGeneration', () => {
  it('collects once the heap passes its live size times 1 + growth, not before', () => {
    const f = fakeHeap(100);
    const bound = boundOldGeneration({ growth: 0.5, minGrowthBytes: 32 * MB, usedBytes: f.usedBytes, collect: f.collect });
    f.h.garbage = 50 * MB;
    expect(bound.check()).toBe(false);
    f.h.garbage = 51 * MB;
    expect(bound.check()).toBe(true);
    expect(f.h.collections).toBe(1);
    expect(bound.live).toBe(100 * MB);
    expect(bound.check()).toBe(false);
    expect(bound.collections).toBe(1);
  });

  it('leaves a small heap to V8 (at least minGrowthBytes of growth)', () => {
    const f = fakeHeap(20);
    const bound = boundOldGeneration({ growth: 0.5, minGrowthBytes: 32 * MB, usedBytes: f.usedBytes, collect: f.collect });
    f.h.garbage = 31 * MB; // 1.55 times the live size, under live + 32 MB
    expect(bound.check()).toBe(false);
    f.h.garbage = 33 * MB;
    expect(bound.check()).toBe(true);
  });

  it('follows a live set that grows (the bound is from what the last collection left)', () => {
    const f = fakeHeap(100);
    const bound = boundOldGeneration({ growth: 0.5, minGrowthBytes: 0, usedBytes: f.usedBytes, collect: f.collect });
    f.h.live = 160 * MB; // state grew: no garbage to speak of
    expect(bound.check()).toBe(true);
    expect(bound.live).toBe(160 * MB);
    // The next collection only at 1.5 times the new live size: no collection after every call.
    f.h.garbage = 70 * MB;
    expect(bound.check()).toBe(false);
    f.h.garbage = 81 * MB;
    expect(bound.check()).toBe(true);
    expect(f.h.collections).toBe(2);
  });

  it("takes a lower heap after V8's own collection as the live size", () => {
    const f = fakeHeap(100);
    const bound = boundOldGeneration({ growth: 0.5, minGrowthBytes: 0, usedBytes: f.usedBytes, collect: f.collect });
    f.h.live = 60 * MB; // state dropped, V8 collected it
    expect(bound.check()).toBe(false);
    expect(bound.live).toBe(60 * MB);
    f.h.garbage = 31 * MB;
    expect(bound.check()).toBe(true);
  });
});
