// The stage thread's stages: canonicalize and matching by their names, built without the snapshot
// sink, which the thread never holds.
import { describe, expect, it, vi } from 'vitest';
import type * as SportsSnapshot from './sports-snapshot.ts';

const snapshotBuilt = vi.fn();
vi.mock('./sports-snapshot.ts', async (importOriginal) => {
  const real = await importOriginal<typeof SportsSnapshot>();
  return { ...real, sportsSnapshotStage: (...a: Parameters<typeof real.sportsSnapshotStage>) => (snapshotBuilt(), real.sportsSnapshotStage(...a)) };
});

const { sportsTopicStagesByName } = await import('./topic-stages.ts');
const { sportsStages } = await import('../area.ts');

describe('sports topic stages', () => {
  it('are canonicalize and matching by name, and building them builds no snapshot sink', () => {
    const held = sportsTopicStagesByName({ tickMs: 250 });
    expect([...held.keys()]).toEqual(['canonicalize', 'matching']);
    expect(snapshotBuilt).not.toHaveBeenCalled();
    // The area's own set has the sink besides (the same stage names for the other two).
    const all = sportsStages({ tickMs: 250 });
    expect(snapshotBuilt).toHaveBeenCalledTimes(1);
    expect([all.canonicalize.name, all.matching.name]).toEqual([...held.keys()]);
  });
});
