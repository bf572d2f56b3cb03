// A worker thread running testdata/old-churn-bound.mjs's churn, with the stage thread's bound on its
// old generation when workerData.bound (old-generation.int.spec.ts); posts the churn's result.
import { parentPort, workerData } from 'node:worker_threads';
import { boundOldGeneration, STAGE_THREAD_OLD_GENERATION } from '../old-generation.ts';
// @ts-expect-error: plain JavaScript test data, no declarations
import { churn } from './old-churn-bound.mjs';

const bound = (workerData as { bound: boolean }).bound ? boundOldGeneration(STAGE_THREAD_OLD_GENERATION) : undefined;
const cpu = process.cpuUsage();
const result = churn(bound) as object;
const spent = process.cpuUsage(cpu);
parentPort!.postMessage({ ...result, cpuMs: Math.round((spent.user + spent.system) / 1000), globalGc: typeof (globalThis as { gc?: unknown }).gc });
