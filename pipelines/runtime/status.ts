// Status read from the log itself, for when no service is running to scrape (bin/status.ts --log):
// per stage group, records committed per second over an interval and the lag left. In: the log, the
// stage definitions and the topic map. Out: StageStatus rows (metrics.ts formats them).
import type { Log } from '../log/types.ts';
import type { TopicMap } from '../topics.ts';
import type { StageStatus } from './metrics.ts';
import { stageGroupId } from './runner.ts';
import type { StageDef } from './types.ts';

async function committedAndLag(log: Log, groupId: string, topics: string[]): Promise<{ committed: number; lag: number }> {
  let committed = 0;
  let lag = 0;
  for (const t of topics) {
    const [offsets, group] = await Promise.all([log.topicOffsets(t), log.groupOffsets(groupId, t)]);
    for (const p of offsets) {
      const low = Number(p.low);
      const done = Math.max(Number(group.get(p.partition) ?? p.low), low);
      committed += done;
      lag += Math.max(0, Number(p.high) - done);
    }
  }
  return { committed, lag };
}

export async function logStatus(log: Log, stages: StageDef[], topics: TopicMap, intervalMs: number): Promise<StageStatus[]> {
  const groups = stages.map((s) => ({ s, id: stageGroupId(s, topics), names: s.inputs.map((i) => topics[i].name) }));
  const before = await Promise.all(groups.map((g) => committedAndLag(log, g.id, g.names)));
  if (intervalMs > 0) await new Promise((r) => setTimeout(r, intervalMs));
  const after = await Promise.all(groups.map((g) => committedAndLag(log, g.id, g.names)));
  return groups.map((g, i) => ({
    stage: g.s.name,
    inPerSec: intervalMs > 0 ? ((after[i]!.committed - before[i]!.committed) * 1000) / intervalMs : 0,
    outPerSec: 0,
    recordsIn: after[i]!.committed,
    lag: after[i]!.lag,
    batches: 0,
    errors: 0,
    // Per stage only in the metrics; the log's view is the dead.letters topic (deadLetterCount).
    deadLetters: 0,
    meanBatchMs: null,
  }));
}

/** Records in the dead.letters topic (every stage's), from its offsets. */
export async function deadLetterCount(log: Log, topics: TopicMap): Promise<number> {
  const offsets = await log.topicOffsets(topics['dead.letters'].name);
  return offsets.reduce((n, p) => n + Number(BigInt(p.high) - BigInt(p.low)), 0);
}
