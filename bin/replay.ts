// Rebuild the read models from the topics (issue 3, Operators: "Replay"). Stop-the-world: stop the
// service first (the embedded log refuses a second process; on Kafka the stage groups must have no
// live members). Then: reset the read-model stages' consumer groups, clear their read models (from
// the earliest offset), re-consume until caught up, exit.
//   --from earliest     (default) clear and rebuild everything the topics still hold
//   --from <ISO time>   keep the read models and re-apply every record from that time on
//                       (idempotent sinks: a repair, never a doubling)
//   --stages a,b        only these stages (names as in bin/status.ts)
//   --dry-run           print what would be reset and cleared, change nothing
// In the embedded default the in-process snapshot store lives in the service's memory and is rebuilt
// when the service starts, so replay rebuilds the durable read models (chdb) only.
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.ts';
import { createRegistry } from '../pipelines/registry/index.ts';
import { openBackbone } from '../pipelines/runtime/backbone.ts';
import { planReset, replay, type ReplayFrom } from '../pipelines/runtime/replay.ts';
import { READ_MODEL_STAGES } from '../pipelines/runtime/stages.ts';
import { avroSerde } from '../pipelines/serde/index.ts';

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: 'earliest' },
    stages: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('usage: npx tsx bin/replay.ts [--from earliest|<ISO time>] [--stages a,b] [--dry-run]');
  process.exit(0);
}

let from: ReplayFrom = 'earliest';
if (values.from !== 'earliest') {
  const t = Date.parse(values.from!);
  if (!/^\d{4}-\d{2}-\d{2}/.test(values.from!) || Number.isNaN(t)) {
    console.error(`--from must be "earliest" or an ISO 8601 time, got ${JSON.stringify(values.from)}`);
    process.exit(2);
  }
  from = { timestamp: t };
}

const config = loadConfig();
const registry = createRegistry(config);
const backbone = await openBackbone(config, { serde: avroSerde(registry), registry });
let stages = READ_MODEL_STAGES;
if (values.stages) {
  const wanted = values.stages.split(',').map((s) => s.trim());
  const unknown = wanted.filter((w) => !READ_MODEL_STAGES.some((s) => s.name === w));
  if (unknown.length) {
    console.error(`unknown stage ${JSON.stringify(unknown[0])}; stages: ${READ_MODEL_STAGES.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
  stages = READ_MODEL_STAGES.filter((s) => wanted.includes(s.name));
}
if (!backbone.store.durable) {
  // Nothing to rebuild in this process's memory: the service rebuilds these stages on start.
  stages = stages.filter((s) => s.sinks?.tables?.length);
}

const plan = planReset(stages, backbone.topics, from);
console.log(`replay from ${from === 'earliest' ? 'earliest' : new Date(from.timestamp).toISOString()} (log: ${backbone.log.kind}, history: ${backbone.history.kind}, store: ${backbone.store.kind})`);
for (const g of plan.groups) console.log(`  reset group ${g.groupId} on ${g.topics.length} topic(s)`);
if (plan.tables.length) console.log(`  clear tables: ${plan.tables.join(', ')}`);
if (plan.snapshotPrefixes.length) console.log(`  clear documents under: ${plan.snapshotPrefixes.join(', ')}`);
if (plan.snapshotNames.length) console.log(`  drop snapshots: ${plan.snapshotNames.join(', ')}`);
try {
  if (values['dry-run']) console.log('dry run: nothing changed');
  else {
    const result = await replay(stages, backbone, from);
    for (const [stage, n] of Object.entries(result.lagBefore)) console.log(`  ${stage}: ${n} record(s) re-consumed`);
    console.log(`done in ${result.ms} ms`);
  }
} finally {
  await backbone.close();
  await registry.close();
}
