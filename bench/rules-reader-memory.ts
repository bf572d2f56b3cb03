// The heap the canonicalize stage keeps (the Canonicalizer and the rules reader behind it) and the
// CPU it takes, for two checkouts in one process: the listing of a scale-1 simulator crawled
// --crawls times a minute apart, published as the pollers publish it (each later crawl only the
// records that changed), ingested by each checkout's Canonicalizer in the pollers' batches; then a
// full collection and the heap used since that checkout started. A digest of what each wrote shows
// both wrote the same. Each checkout has its own modules
// (its own rules reader), so what one keeps is not the other's; the second checkout's heap is
// measured beside what the first kept, so run it twice with the order swapped (--first branch).
// A checkout of a commit: git archive <commit> | tar -x -C <dir> && ln -s "$PWD/node_modules" <dir>/node_modules
//   node --expose-gc --import tsx bench/rules-reader-memory.ts --base <dir> [--branch <dir>] [--crawls 14] [--first base|branch]
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { polledRecords } from './listed-records.ts';
import type { Canonicalizer } from '../pipelines/matching/stages/canonicalize.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, branch: { type: 'string', default: path.resolve(fileURLToPath(new URL('..', import.meta.url))) }, crawls: { type: 'string', default: '14' }, first: { type: 'string', default: 'base' }, seed: { type: 'string', default: '7' } } });
if (!values.base) throw new Error('--base <dir>: a checkout of the commit to compare with');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const dirs = { base: path.resolve(values.base), branch: values.branch };
const order = values.first === 'branch' ? (['branch', 'base'] as const) : (['base', 'branch'] as const);
const records = await polledRecords({ seed: Number(values.seed), scale: 1, crawls: Number(values.crawls), everyMs: 60_000 });
console.log(`${records.length} records published over ${values.crawls} crawls of scale 1 (seed ${values.seed})`);
const held: Canonicalizer[] = [];
for (const name of order) {
  const mod = (await import(path.join(dirs[name], 'pipelines/matching/stages/canonicalize.ts'))) as { Canonicalizer: new () => Canonicalizer };
  gc();
  gc();
  const h0 = process.memoryUsage().heapUsed;
  const c = new mod.Canonicalizer();
  const cpu0 = process.cpuUsage();
  let written = 0;
  const hash = createHash('sha256');
  for (let i = 0; i < records.length; i += 500) {
    const out = c.ingest(records.slice(i, i + 500));
    written += out.length;
    for (const r of out) hash.update(`${r.topic}\u0000${String(r.key)}\u0000${JSON.stringify(r.value)}\n`);
  }
  const cpu = process.cpuUsage(cpu0);
  held.push(c);
  gc();
  gc();
  const mb = (process.memoryUsage().heapUsed - h0) / 1e6;
  console.log(`${name.padEnd(6)} ${dirs[name]}: ${written} records written (sha256 ${hash.digest('hex').slice(0, 12)}), CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, heap kept ${mb.toFixed(1)} MB`);
}
