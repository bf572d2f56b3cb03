// The read-model stages of the service: what bin/replay.ts rebuilds and bin/status.ts --log reports
// on. Each area appends the stages whose read models it owns (a stage that only turns topics into
// topics needs no replay: its outputs are topics, not read models).
import { catalogStage } from '../catalog/stage.ts';
import { sportsSnapshotStage } from '../matching/stages/sports-snapshot.ts';
import type { StageDef } from './types.ts';
import { BACKBONE_SINKS } from './sinks.ts';

/** The sports snapshot is the read model of matched.events (the matching stages' outputs are topics). */
export const READ_MODEL_STAGES: StageDef[] = [...BACKBONE_SINKS, catalogStage(), sportsSnapshotStage({ tickMs: 250 })];
