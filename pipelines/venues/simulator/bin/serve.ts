// Runs the nine-venue simulator on its own. Usage:
//   SIM_SEED=42 SIM_SCALE=1 SIM_PORT=7070 SIM_SCENARIO=hard npx tsx pipelines/venues/simulator/bin/serve.ts
// Prints the base URL (VENUE_BASE_URL for the service) and stops on SIGINT/SIGTERM.
import { loadConfig } from '../../../../lib/config.ts';
import { startSimulator } from '../server.ts';

const cfg = loadConfig();
const sim = await startSimulator({ seed: cfg.SIM_SEED, scale: cfg.SIM_SCALE, port: cfg.SIM_PORT || 7070, scenario: cfg.SIM_SCENARIO });
console.log(`simulator: ${sim.baseUrl} (seed ${cfg.SIM_SEED}, scale ${cfg.SIM_SCALE}, ${sim.world.games.length} games)`);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
