// Writes the ground truth of a simulated world (or a scenario directory) as JSON, for evaluation
// only. Usage:
//   npx tsx pipelines/venues/simulator/bin/export-truth.ts [--scenario hard|default|<dir>] [--seed N]
//     [--at ISO] [--out file]
// The same seed, scenario and `--at` (the scenario clock start) as the simulator under test give
// the same world. Without --out the JSON goes to stdout.
import { writeFileSync } from 'node:fs';
import { createClock } from '../core.ts';
import { buildSimulatorApp } from '../server.ts';
import { buildTruth } from '../truth.ts';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? args[k + 1] : undefined;
};
const at = opt('at') ? Date.parse(opt('at')!) : Date.now();
const sim = await buildSimulatorApp({
  seed: opt('seed') !== undefined ? Number(opt('seed')) : undefined,
  scenario: opt('scenario') ?? 'default',
  clock: createClock(at, { frozen: true }),
});
const truth = buildTruth(sim.ctx);
const text = JSON.stringify(truth, null, 1);
if (opt('out')) {
  writeFileSync(opt('out')!, text);
  const subs = truth.games.flatMap((g) => g.submarkets);
  console.error(`wrote ${opt('out')}: ${truth.games.length} games, ${subs.length} submarkets, ${subs.filter((s) => s.expect_match).length} expected matches`);
} else process.stdout.write(text + '\n');
await sim.app.close();
