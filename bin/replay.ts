// Rebuild the read models from the topics. Stop-the-world: stop the
// service first (the embedded log refuses a second process; on Kafka the stage groups must have no
// live members: replay checks that before it changes anything and refuses in one line, naming the
// groups, while the processors run). Then: reset the read-model stages' consumer groups, clear their
// read models (from the earliest offset), re-consume until caught up, exit. It prints what it will
// do first. Run it in the processors' environment (the same DATA_DIR: the chdb it clears is theirs).
//   --from earliest     (default) clear and rebuild everything the topics still hold
//   --from <ISO time>   keep the read models and re-apply every record from that time on
//                       (idempotent sinks: a repair, never a doubling)
//   --stages a,b        only these stages (names as in bin/status.ts)
//   --dry-run           print what would be reset and cleared, change nothing
//   --side-by-side      no downtime, with the service running: rebuild the store read models (the
//                       canonical market documents and the sports snapshot in Redis) into a new
//                       generation under groups of their own while the service keeps serving the
//                       current one, switch the generation pointer in one command, drop the old one
//                       (pipelines/runtime/replay.ts replaySideBySide). Needs REDIS_URL; from earliest
//                       only. With --stages naming history sinks and CLICKHOUSE_URL set: their tables
//                       are rebuilt beside the live ones and exchanged (replayHistorySideBySide);
//                       without a ClickHouse server they live in the processors' chdb: stop-the-world.
// In the embedded default the in-process snapshot store lives in the service's memory and is rebuilt
// when the service starts, so replay rebuilds the durable read models (chdb) only.
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../lib/config.ts';
import { createLog } from '../pipelines/log/index.ts';
import type { Log } from '../pipelines/log/types.ts';
import { createRegistry } from '../pipelines/registry/index.ts';
import { openBackbone } from '../pipelines/runtime/backbone.ts';
import { isGenerational, planReset, replay, replayHistorySideBySide, replaySideBySide, type ReplayFrom } from '../pipelines/runtime/replay.ts';
import { openHistory } from '../pipelines/readmodels/migrate.ts';
import type { History } from '../pipelines/readmodels/history.ts';
import { READ_MODEL_STAGES } from '../pipelines/runtime/stages.ts';
import { priceHistorySink } from '../pipelines/runtime/sinks.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { defineTopics, topicSettings } from '../pipelines/topics.ts';
import { CATALOG_SNAPSHOT_NAME } from '../pipelines/catalog/index.ts';
import { openStore } from '../pipelines/runtime/backbone.ts';
import { GENERATION_REFRESH_MS, generationNamespace, RedisSnapshotStore } from '../pipelines/readmodels/redis-store.ts';

/** How long a replay side by side waits after the switch: every process re-reads the pointer by then. */
const FOLLOW_MS = 3 * GENERATION_REFRESH_MS;

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: 'earliest' },
    stages: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'side-by-side': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('usage: npx tsx bin/replay.ts [--from earliest|<ISO time>] [--stages a,b] [--dry-run] [--side-by-side]');
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

/** One line on stderr and exit 1: an operator command never ends in a stack trace. */
function refuse(msg: string): never {
  console.error(`replay: ${msg}`);
  process.exit(1);
}
const firstLine = (e: unknown): string => String((e as Error)?.message ?? e).split('\n')[0]!;

const config = loadConfigOrExit();
// With PRICE_HISTORY off the service writes no price history, so by default none is rebuilt either.
let stages = READ_MODEL_STAGES.filter((s) => config.PRICE_HISTORY || s !== priceHistorySink);
if (values.stages) {
  const wanted = values.stages.split(',').map((s) => s.trim());
  const unknown = wanted.filter((w) => !READ_MODEL_STAGES.some((s) => s.name === w));
  if (unknown.length) {
    console.error(`unknown stage ${JSON.stringify(unknown[0])}; stages: ${READ_MODEL_STAGES.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
  stages = READ_MODEL_STAGES.filter((s) => wanted.includes(s.name));
}

if (values['side-by-side']) await sideBySide();

// First the log alone: on Kafka, refuse while any of the groups has live members, before anything
// else opens (the processors' chdb is locked while they run) and before anything changes.
let log: Log;
try {
  log = await createLog(config);
} catch (e) {
  refuse(`cannot open the log (${config.KAFKA_BROKERS ? `Kafka at ${config.KAFKA_BROKERS}` : `embedded, ${config.DATA_DIR}/log`}): ${firstLine(e)}; stop the service first`);
}
const groupIds = planReset(stages, defineTopics(topicSettings(config)), from).groups.map((g) => g.groupId);
if (log.liveMembers) {
  let members: Map<string, number>;
  try {
    members = await log.liveMembers(groupIds);
  } catch (e) {
    await log.close();
    refuse(`cannot read the consumer groups: ${firstLine(e)}`);
  }
  const busy = groupIds.filter((g) => (members.get(g) ?? 0) > 0);
  if (busy.length) {
    await log.close();
    refuse(
      `refused: ${busy.length} of the ${groupIds.length} consumer groups have live members (${busy.map((g) => `${g}: ${members.get(g)}`).join(', ')}); stop the processors first (infra/scripts/stack.sh stop processors), then replay, then start them again; or rebuild the store read models while they run with --side-by-side`,
    );
  }
}

const registry = createRegistry(config);
let backbone: Awaited<ReturnType<typeof openBackbone>>;
try {
  backbone = await openBackbone(config, { serde: avroSerde(registry), registry, log });
} catch (e) {
  await log.close();
  refuse(`cannot open the read models (DATA_DIR ${config.DATA_DIR}): ${firstLine(e)}; is a service still running on them?`);
}
if (!backbone.store.durable) {
  // Nothing to rebuild in this process's memory: the service rebuilds these stages on start.
  stages = stages.filter((s) => s.sinks?.tables?.length);
}

const plan = planReset(stages, backbone.topics, from);
console.log(`replay from ${from === 'earliest' ? 'earliest' : new Date(from.timestamp).toISOString()} (log: ${backbone.log.kind}, history: ${backbone.history.kind}, store: ${backbone.store.kind}) will:`);
for (const g of plan.groups) console.log(`  reset group ${g.groupId} on ${g.topics.length} topic(s)`);
if (plan.tables.length) console.log(`  clear tables: ${plan.tables.join(', ')}`);
if (plan.snapshotPrefixes.length) console.log(`  clear documents under: ${plan.snapshotPrefixes.join(', ')}`);
if (plan.snapshotNames.length) console.log(`  drop snapshots: ${plan.snapshotNames.join(', ')}`);
console.log(`  then re-consume ${from === 'earliest' ? 'everything the topics hold' : 'every record from that time on'} until caught up, and exit`);
let failed: string | undefined;
try {
  if (values['dry-run']) console.log('dry run: nothing changed');
  else {
    const result = await replay(stages, backbone, from);
    for (const [stage, n] of Object.entries(result.lagBefore)) console.log(`  ${stage}: ${n} record(s) re-consumed`);
    console.log(`done in ${result.ms} ms`);
  }
} catch (e) {
  failed = firstLine(e);
} finally {
  await backbone.close();
  await registry.close();
}
if (failed) refuse(`failed: ${failed}`);

/** --side-by-side: the replay without downtime; exits when done. */
async function sideBySide(): Promise<never> {
  if (from !== 'earliest') refuse(`--side-by-side rebuilds from the earliest offsets only, got --from ${JSON.stringify(values.from)}`);
  const withTables = stages.filter((s) => s.sinks?.tables?.length);
  // History tables: beside the live ones in the ClickHouse server every process reaches.
  if (values.stages && withTables.length) {
    if (withTables.length !== stages.length) refuse(`--side-by-side rebuilds history tables and store read models in separate runs: give --stages ${withTables.map((s) => s.name).join(',')} or the others`);
    await historySideBySide(withTables);
  }
  if (!config.REDIS_URL) refuse('--side-by-side needs the Redis store (REDIS_URL): the embedded default keeps its store in the service\'s memory and rebuilds it at each start');
  const chosen = values.stages ? stages : stages.filter((s) => !s.sinks?.tables?.length);
  const log = await openLogForSideBySide();
  const registry = createRegistry(config);
  const store = openStore(config);
  if (!isGenerational(store)) refuse('the store does not keep generations');
  const topics = defineTopics(topicSettings(config));
  const generation = Date.now().toString(36);
  const current = await store.generation().catch((e: unknown) => refuse(`cannot read the generation pointer in Redis: ${firstLine(e)}`));
  console.log(`replay side by side (log: ${log.kind}, store: redis) will, while the service keeps serving:`);
  console.log(`  build generation ${generation} beside ${current === '' ? 'the base generation' : `generation ${current}`} from the earliest offsets: ${chosen.map((s) => s.name).join(', ')} (groups of their own)`);
  console.log(`  copy the ${CATALOG_SNAPSHOT_NAME} snapshots as they are (built by the processors from ClickHouse, not by these stages)`);
  console.log(`  switch the generation pointer, wait ${FOLLOW_MS} ms for every process to follow, catch up once more, drop the old generation`);
  if (withTables.length && !values.stages) console.log(`  not rebuilt (history tables; --side-by-side --stages ${withTables.map((s) => s.name).join(',')} with CLICKHOUSE_URL, or a stop-the-world replay): ${withTables.map((s) => s.name).join(', ')}`);
  return finishSideBySide(async () => {
    const result = await replaySideBySide(chosen, {
      log,
      serde: avroSerde(registry),
      topics,
      store,
      storeAt: (g) => new RedisSnapshotStore({ url: config.REDIS_URL!, namespace: generationNamespace(store.base, g) }),
    }, { generation, copyNames: [CATALOG_SNAPSHOT_NAME], followMs: FOLLOW_MS, say: (line) => console.log(`  ${line}`) });
    for (const [stage, n] of Object.entries(result.lagBefore)) console.log(`  ${stage}: ${n} record(s) consumed`);
    console.log(`done in ${result.ms} ms: generation ${result.to} is current`);
  }, [store, registry, log]);
}

/** --side-by-side --stages <history sinks>: the tables rebuilt beside the live ones; exits when done. */
async function historySideBySide(chosen: typeof stages): Promise<never> {
  if (!config.CLICKHOUSE_URL)
    refuse(`--side-by-side rebuilds history tables in a ClickHouse server (CLICKHOUSE_URL) only: without one they live in the processors' own chdb (DATA_DIR ${config.DATA_DIR}), which no other process opens while they run; replay ${chosen.map((s) => s.name).join(', ')} stop-the-world`);
  const log = await openLogForSideBySide();
  const registry = createRegistry(config);
  let history: History;
  try {
    history = await openHistory(config);
  } catch (e) {
    await log.close();
    refuse(`cannot open ClickHouse at ${config.CLICKHOUSE_URL}: ${firstLine(e)}`);
  }
  const tables = [...new Set(chosen.flatMap((s) => s.sinks?.tables ?? []))];
  const generation = Date.now().toString(36);
  console.log(`replay side by side (log: ${log.kind}, history: ${history.kind}) will, while the service keeps writing and serving:`);
  console.log(`  rebuild ${tables.join(', ')} from the earliest offsets into ${tables.map((t) => `${t}__replay_${generation}`).join(', ')}: ${chosen.map((s) => s.name).join(', ')} (groups of their own)`);
  console.log('  exchange each live table with its rebuilt one (EXCHANGE TABLES, atomic per table), catch up once more, drop the old tables');
  return finishSideBySide(async () => {
    const result = await replayHistorySideBySide(chosen, { log, serde: avroSerde(registry), topics: defineTopics(topicSettings(config)), history }, { generation, say: (line) => console.log(`  ${line}`) });
    for (const [stage, n] of Object.entries(result.lagBefore)) console.log(`  ${stage}: ${n} record(s) consumed`);
    console.log(`done in ${result.ms} ms`);
  }, [history, registry, log]);
}

/** The log a replay side by side reads beside the running service, or a refusal in one line. */
async function openLogForSideBySide(): Promise<Log> {
  try {
    return await createLog(config);
  } catch (e) {
    refuse(`cannot open the log (${config.KAFKA_BROKERS ? `Kafka at ${config.KAFKA_BROKERS}` : `embedded, ${config.DATA_DIR}/log`}): ${firstLine(e)}${config.KAFKA_BROKERS ? '' : '; the embedded log is the service\'s own: stop it first, or run the stack on Kafka'}`);
  }
}

/** Runs the work (not on --dry-run), closes what it opened, exits 0, or 1 with one line. */
async function finishSideBySide(work: () => Promise<void>, opened: { close(): Promise<void> }[]): Promise<never> {
  let failed: string | undefined;
  try {
    if (values['dry-run']) console.log('dry run: nothing changed');
    else await work();
  } catch (e) {
    failed = firstLine(e);
  } finally {
    for (const o of opened) await o.close();
  }
  if (failed) refuse(`failed: ${failed}`);
  process.exit(0);
}
