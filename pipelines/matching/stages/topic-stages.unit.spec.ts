// The stage thread's stages by name: canonicalize, matching and the sports snapshot sink, the
// same stages (by name) that the area runs.
import { describe, expect, it } from 'vitest';
import { sportsThreadStagesByName } from './topic-stages.ts';
import { sportsStages } from '../area.ts';

describe('sports stages of a stage thread', () => {
  it('are canonicalize, matching and the snapshot sink by name, the names of the area’s stages', () => {
    const held = sportsThreadStagesByName({ tickMs: 250 });
    const all = sportsStages({ tickMs: 250 });
    expect([...held.keys()]).toEqual([all.canonicalize.name, all.matching.name, all.snapshot.name]);
    expect([...held.keys()]).toEqual(['canonicalize', 'matching', 'sink.sports-snapshot']);
  });
});
