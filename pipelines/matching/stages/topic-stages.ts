// The sports stages a stage thread holds (runtime/stage-worker.ts builds these and nothing else):
// the two that turn topics into topics, canonicalize and matching, and the sports snapshot sink.
// The sink folds every canonical market and serializes the snapshot on each publish; there, what
// reaches the thread that serves the API is the serialized documents the store keeps (the runner
// still writes them to the SnapshotStore, bench/crawl-latency.md). area.ts builds the same stages.
import type { StageDef } from '../../runtime/types.ts';
import { canonicalizeStage } from './canonicalize.ts';
import { matchStage } from './match.ts';
import { sportsSnapshotStage } from './sports-snapshot.ts';

export function sportsTopicStages(o: { tickMs: number; clock?: () => number }) {
  const canonicalize = canonicalizeStage();
  return {
    canonicalize,
    // The matcher holds the canonicalizer's market objects for the bodies it wrote, not parsed copies.
    matching: matchStage({ ...o, shared: (key, body) => canonicalize.state().heldFor(key, body) }),
  };
}

/** The stages a stage thread holds, by name, as it looks a call's stage up. */
export function sportsThreadStagesByName(o: { tickMs: number; clock?: () => number }): Map<string, StageDef> {
  const s = sportsTopicStages(o);
  const sink = sportsSnapshotStage(o);
  return new Map<string, StageDef>([
    [s.canonicalize.name, s.canonicalize],
    [s.matching.name, s.matching],
    [sink.name, sink],
  ]);
}
