// The sports stages that turn topics into topics: canonicalize and matching. They are the ones a
// stage thread holds (runtime/stage-worker.ts builds these and nothing else); the snapshot sink,
// which writes the SnapshotStore, stays with its runner (area.ts adds it).
import type { StageDef } from '../../runtime/types.ts';
import { canonicalizeStage } from './canonicalize.ts';
import { matchStage } from './match.ts';

export function sportsTopicStages(o: { tickMs: number; clock?: () => number }) {
  return {
    canonicalize: canonicalizeStage(),
    matching: matchStage(o),
  };
}

/** The topic stages by name, as a stage thread looks a call's stage up. */
export function sportsTopicStagesByName(o: { tickMs: number; clock?: () => number }): Map<string, StageDef> {
  const s = sportsTopicStages(o);
  return new Map<string, StageDef>([
    [s.canonicalize.name, s.canonicalize],
    [s.matching.name, s.matching],
  ]);
}
