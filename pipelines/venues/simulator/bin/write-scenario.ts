// Writes a generated world as a scenario directory in the venues' native forms (plus its
// ground-truth.json), to start a new hand-edited case from. Usage:
//   npx tsx pipelines/venues/simulator/bin/write-scenario.ts --out infra/scenarios/my-case \
//     [--preset default|hard] [--seed N] [--at ISO]
import { createClock } from '../core.ts';
import { writeScenario } from '../dump.ts';
import { buildSimulatorApp } from '../server.ts';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? args[k + 1] : undefined;
};
const out = opt('out');
if (!out) {
  console.error('usage: write-scenario.ts --out <dir> [--preset default|hard] [--seed N] [--at ISO]');
  process.exit(2);
}
const at = opt('at') ? Date.parse(opt('at')!) : Date.now();
const sim = await buildSimulatorApp({
  seed: opt('seed') !== undefined ? Number(opt('seed')) : undefined,
  scenario: opt('preset') ?? 'default',
  clock: createClock(at, { frozen: true }),
});
writeScenario(sim.ctx, out, at, { name: out.split('/').pop() });
console.error(`wrote ${out}: ${sim.world.games.length} games`);
await sim.app.close();
