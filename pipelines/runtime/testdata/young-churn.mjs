// Allocates short-lived objects until the new space has grown to its limit and gives its size in MB:
// to the parent thread on a worker, as the default export on the main thread (worker-heap.int.spec.ts).
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';

const keep = [];
for (let i = 0; i < 600_000; i++) keep[i % 50_000] = { a: 'x'.repeat(40) + i };
const mb = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
parentPort?.postMessage(mb);
export default mb;
