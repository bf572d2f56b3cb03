// Wiring of the sports matching area for bin/run.ts, tests and the benchmark. In: config and the
// backbone seams (log, serde, topic map, snapshot store). Out: the matching stages running under the
// stage runner (each its own consumer group, so processor replicas share them through the log) and
// the dependencies the sports routes read (`deps.sports`):
//   canonicalize           raw.venue_N + reference.rosters -> canonical.markets + matching.state
//   matching               canonical.markets -> lifecycle.states + matched.events (a round per tick)
//   sink.sports-snapshot   matched.events + matching.state + canonical.markets + reference.fee_schedules
//                          -> the published `sports` and `sports_prices` snapshots
// With a stage thread (STAGE_THREAD), the work and state of all three are on that worker
// (runtime/stage-thread.ts): the canonicalizer's, the matching round's and the sink's fold and
// serialization; their runners, groups and commits stay here, and the sink's runner writes the
// serialized snapshots it is handed to the SnapshotStore.
import type { Config } from '../../lib/config.ts';
import type { RuntimeDeps } from '../runtime/runner.ts';
import type { StageDef } from '../runtime/types.ts';
import { startStage, type StageRunner } from '../runtime/runner.ts';
import type { StageThread } from '../runtime/stage-thread.ts';
import { sportsDepsOf } from './readmodel.ts';
import { sportsSnapshotStage } from './stages/sports-snapshot.ts';
import { sportsTopicStages } from './stages/topic-stages.ts';
import type { SportsDeps } from './readmodel.ts';

export function sportsStages(o: { tickMs: number; clock?: () => number }) {
  return { ...sportsTopicStages(o), snapshot: sportsSnapshotStage(o) };
}

export interface SportsArea {
  stages: ReturnType<typeof sportsStages>;
  runners: { canonicalize: StageRunner; matching: StageRunner; snapshot: StageRunner };
  deps: SportsDeps;
  /**
   * One round now, as the ticks would run it: waits until the canonicalizer has read everything in
   * its inputs, runs a matching round, waits for the sink to read its outputs, then publishes.
   */
  round(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startSportsArea(o: {
  config: Pick<Config, 'SPORTS_PUBLISH_MS'>;
  deps: RuntimeDeps & { store: NonNullable<RuntimeDeps['store']> };
  clock?: () => number;
  /** Runs the three stages' work there (built with the same tickMs); ticks at `clock`. */
  thread?: StageThread;
}): Promise<SportsArea> {
  const stages = sportsStages({ tickMs: o.config.SPORTS_PUBLISH_MS, clock: o.clock });
  const there = <T extends StageDef>(d: T): StageDef => (o.thread ? o.thread.def(d, o.clock) : d);
  // Downstream first: a consumer that starts after its producer would only see more waiting.
  const snapshot = await startStage(there(stages.snapshot), o.deps);
  const matching = await startStage(there(stages.matching), o.deps);
  const canonicalize = await startStage(there(stages.canonicalize), o.deps);
  const runners = { canonicalize, matching, snapshot };
  return {
    stages,
    runners,
    deps: sportsDepsOf(o.deps.store),
    async round(timeoutMs = 30_000) {
      // A replica standing by (a killed peer still in the group) would run no round at all.
      for (const r of [canonicalize, matching, snapshot]) await r.whenActive(timeoutMs);
      await canonicalize.caughtUp(timeoutMs);
      await matching.caughtUp(timeoutMs);
      await matching.tickNow();
      await snapshot.caughtUp(timeoutMs);
      await snapshot.tickNow();
    },
    async stop() {
      await canonicalize.stop();
      await matching.stop();
      await snapshot.stop();
    },
  };
}
