// Replay: rebuild read models from the topics. In: the sink stages to rebuild,
// stopped (stop-the-world: on the embedded log the directory lock guarantees no service has it open;
// on Kafka the groups must have no live members, which resetGroup checks). Out: the stages' groups
// moved back, their read models cleared, and the stages run until they have consumed everything.
//
// From the earliest offset, read models are cleared first and rebuilt from scratch: afterwards they
// answer exactly as before ("After a reset and replay the API answers exactly as before", a test
// proves it), except what compaction or retention already removed from the topics. From a time, the
// read models are kept and the records from that time on are applied again: idempotent sinks make
// this a repair (re-apply what a faulty sink may have missed), never a doubling.
import type { Log } from '../log/types.ts';
import type { History } from '../readmodels/history.ts';
import { truncateTables } from '../readmodels/migrate.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { TopicMap } from '../topics.ts';
import { StageRunner, stageGroupId, type RuntimeDeps } from './runner.ts';
import type { StageDef } from './types.ts';

export type ReplayFrom = 'earliest' | { timestamp: number };

export interface ResetPlan {
  groups: { groupId: string; topics: string[]; fromBeginning: boolean }[];
  tables: string[];
  snapshotPrefixes: string[];
  snapshotNames: string[];
}

/** What a reset will touch (pure). */
export function planReset(stages: StageDef[], topics: TopicMap, from: ReplayFrom): ResetPlan {
  const clear = from === 'earliest';
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    groups: stages.map((s) => ({
      groupId: stageGroupId(s, topics),
      topics: s.inputs.map((id) => topics[id].name),
      fromBeginning: s.fromBeginning ?? true,
    })),
    tables: clear ? uniq(stages.flatMap((s) => s.sinks?.tables ?? [])) : [],
    snapshotPrefixes: clear ? uniq(stages.flatMap((s) => s.sinks?.snapshotPrefixes ?? [])) : [],
    snapshotNames: clear ? uniq(stages.flatMap((s) => s.sinks?.snapshotNames ?? [])) : [],
  };
}

export async function resetReadModels(
  deps: { log: Log; history?: History; store?: SnapshotStore },
  plan: ResetPlan,
  from: ReplayFrom,
): Promise<void> {
  for (const g of plan.groups)
    for (const t of g.topics) {
      // A group that never committed on this topic starts from the earliest offset anyway: skip
      // the reset (on Kafka each one is an admin round trip through the group coordinator).
      if (from === 'earliest' && g.fromBeginning && (await deps.log.groupOffsets(g.groupId, t)).size === 0) continue;
      await deps.log.resetGroup(g.groupId, t, from);
    }
  if (plan.tables.length) {
    if (!deps.history) throw new Error('replay must clear history tables but no History was given');
    await truncateTables(deps.history, plan.tables);
  }
  if (plan.snapshotPrefixes.length || plan.snapshotNames.length) {
    if (!deps.store) throw new Error('replay must clear snapshots but no SnapshotStore was given');
    for (const p of plan.snapshotPrefixes) await deps.store.deletePrefix(p);
    for (const n of plan.snapshotNames) await deps.store.dropSnapshots(n);
  }
}

export interface ReplayResult {
  plan: ResetPlan;
  /** Records consumed per stage while catching up. */
  lagBefore: Record<string, number>;
  ms: number;
}

/** Reset, then run the stages until caught up, then stop them. */
export async function replay(
  stages: StageDef[],
  deps: RuntimeDeps,
  from: ReplayFrom,
  options: { timeoutMs?: number } = {},
): Promise<ReplayResult> {
  const started = Date.now();
  const plan = planReset(stages, deps.topics, from);
  await resetReadModels(deps, plan, from);
  const runners = stages.map((s) => new StageRunner(s, deps));
  const lagBefore: Record<string, number> = {};
  for (const r of runners) lagBefore[r.def.name] = [...(await r.lag()).values()].reduce((a, b) => a + b, 0);
  try {
    for (const r of runners) await r.start();
    for (const r of runners) await r.caughtUp(options.timeoutMs ?? 10 * 60_000);
    // Time-driven output (the sports snapshot is published on a tick) is written once more at the end.
    for (const r of runners) if (r.def.tick) await r.tickNow();
  } finally {
    for (const r of runners) await r.stop();
  }
  return { plan, lagBefore, ms: Date.now() - started };
}
