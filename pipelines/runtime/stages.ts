// The read-model stages of the service: what bin/replay.ts rebuilds and bin/status.ts reports on
// when it reads the log directly. Each area appends the stages whose read models it owns (a stage
// that only transforms topics into topics needs no replay: its outputs are topics, not read models).
import type { StageDef } from './types.ts';
import { BACKBONE_SINKS } from './sinks.ts';

export const READ_MODEL_STAGES: StageDef[] = [...BACKBONE_SINKS];
