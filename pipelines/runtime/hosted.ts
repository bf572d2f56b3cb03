// The stages the history worker (history-host.ts) can run away from the main thread: those whose
// whole output lands in chdb there. The history sinks, and the catalog stage, whose listing
// normalization (about 70 us a record) held the API's event loop for a third of a large crawl on the
// embedded default (bench/crawl-latency.md).
import { catalogStage } from '../catalog/stage.ts';
import { HISTORY_SINKS } from './sinks.ts';
import type { StageDef } from './types.ts';

export const HOSTED_STAGES: StageDef[] = [...HISTORY_SINKS, catalogStage()];
