// Holds about 40 MB of live objects and churns short- and middle-lived ones over them (batches kept
// until 200,000 objects, then dropped), as a pipeline thread does, and gives the largest committed heap
// seen in MB: to the parent thread on a worker, as the default export on the main thread
// (worker-heap.int.spec.ts).
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';

const live = [];
for (let i = 0; i < 400_000; i++) live.push({ a: `x${i}`, b: i, c: [i, i] });
let keep = [];
let peak = 0;
for (let round = 0; round < 200; round++) {
  for (let j = 0; j < 20_000; j++) keep.push({ s: `y${j}:${round}`, arr: new Array(10).fill(j) });
  if (keep.length > 200_000) keep = [];
  peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
}
const mb = Math.round(peak / 1048576) + live.length * 0;
parentPort?.postMessage(mb);
export default mb;
