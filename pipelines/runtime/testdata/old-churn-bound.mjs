// testdata/old-churn.mjs's churn (about 40 MB live, batches kept until 200,000 objects, then dropped),
// with a check of the bound after each round when `bound` is given (old-generation.int.spec.ts). Gives
// the largest used and committed heap seen (MB), and the bound's collections.
import v8 from 'node:v8';

export function churn(bound) {
  const live = [];
  for (let i = 0; i < 400_000; i++) live.push({ a: `x${i}`, b: i, c: [i, i] });
  let keep = [];
  let used = 0;
  let total = 0;
  for (let round = 0; round < 200; round++) {
    for (let j = 0; j < 20_000; j++) keep.push({ s: `y${j}:${round}`, arr: new Array(10).fill(j) });
    if (keep.length > 200_000) keep = [];
    const s = v8.getHeapStatistics();
    used = Math.max(used, s.used_heap_size);
    total = Math.max(total, s.total_heap_size);
    bound?.check();
  }
  return { used: Math.round(used / 1048576), total: Math.round(total / 1048576), collections: bound?.collections ?? 0, live: live.length };
}
