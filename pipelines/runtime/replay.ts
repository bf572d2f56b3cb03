// Replay: rebuild read models from the topics. In: the sink stages to rebuild,
// stopped (stop-the-world: on the embedded log the directory lock guarantees no service has it open;
// on Kafka the groups must have no live members, which resetGroup checks). Out: the stages' groups
// moved back, their read models cleared, and the stages run until they have consumed everything.
//
// From the earliest offset, read models are cleared first and rebuilt from scratch: afterwards they
// answer exactly as before ("After a reset and replay the API answers exactly as before", a test
// proves it), except what compaction or retention already removed from the topics. From a time, the
// read models are kept and the records from that time on are applied again: idempotent sinks make
// this a repair (re-apply what a faulty sink may have missed), never a doubling.
import type { Log } from '../log/types.ts';
import type { History } from '../readmodels/history.ts';
import { truncateTables } from '../readmodels/migrate.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { TopicMap } from '../topics.ts';
import { StageRunner, stageGroupId, type RuntimeDeps } from './runner.ts';
import type { StageDef } from './types.ts';
import { PRICE_HISTORY_TABLES } from './sinks.ts';

export type ReplayFrom = 'earliest' | { timestamp: number };

export interface ResetPlan {
  groups: { groupId: string; topics: string[]; fromBeginning: boolean }[];
  tables: string[];
  snapshotPrefixes: string[];
  snapshotNames: string[];
}

/** What a reset will touch (pure). */
export function planReset(stages: StageDef[], topics: TopicMap, from: ReplayFrom): ResetPlan {
  const clear = from === 'earliest';
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    groups: stages.map((s) => ({
      groupId: stageGroupId(s, topics),
      topics: s.inputs.map((id) => topics[id].name),
      fromBeginning: s.fromBeginning ?? true,
    })),
    tables: clear ? uniq(stages.flatMap((s) => s.sinks?.tables ?? [])) : [],
    snapshotPrefixes: clear ? uniq(stages.flatMap((s) => s.sinks?.snapshotPrefixes ?? [])) : [],
    snapshotNames: clear ? uniq(stages.flatMap((s) => s.sinks?.snapshotNames ?? [])) : [],
  };
}

export async function resetReadModels(
  deps: { log: Log; history?: History; store?: SnapshotStore },
  plan: ResetPlan,
  from: ReplayFrom,
): Promise<void> {
  for (const g of plan.groups)
    for (const t of g.topics) {
      // A group that never committed on this topic starts from the earliest offset anyway: skip
      // the reset (on Kafka each one is an admin round trip through the group coordinator).
      if (from === 'earliest' && g.fromBeginning && (await deps.log.groupOffsets(g.groupId, t)).size === 0) continue;
      await deps.log.resetGroup(g.groupId, t, from);
    }
  if (plan.tables.length) {
    if (!deps.history) throw new Error('replay must clear history tables but no History was given');
    await truncateTables(deps.history, plan.tables);
  }
  if (plan.snapshotPrefixes.length || plan.snapshotNames.length) {
    if (!deps.store) throw new Error('replay must clear snapshots but no SnapshotStore was given');
    for (const p of plan.snapshotPrefixes) await deps.store.deletePrefix(p);
    for (const n of plan.snapshotNames) await deps.store.dropSnapshots(n);
  }
}

export interface ReplayResult {
  plan: ResetPlan;
  /** Records consumed per stage while catching up. */
  lagBefore: Record<string, number>;
  ms: number;
}

/** Reset, then run the stages until caught up, then stop them. */
export async function replay(
  stages: StageDef[],
  deps: RuntimeDeps,
  from: ReplayFrom,
  options: { timeoutMs?: number } = {},
): Promise<ReplayResult> {
  const started = Date.now();
  const plan = planReset(stages, deps.topics, from);
  await resetReadModels(deps, plan, from);
  const lagBefore = await runUntilCaughtUp(stages, deps, options.timeoutMs);
  return { plan, lagBefore, ms: Date.now() - started };
}

/** Runs the stages until each has consumed everything, ticks once, stops them; the records each had to consume. */
async function runUntilCaughtUp(stages: StageDef[], deps: RuntimeDeps, timeoutMs = 10 * 60_000): Promise<Record<string, number>> {
  const runners = stages.map((s) => new StageRunner(s, deps));
  const lagBefore: Record<string, number> = {};
  for (const r of runners) lagBefore[r.def.name] = [...(await r.lag()).values()].reduce((a, b) => a + b, 0);
  try {
    for (const r of runners) await r.start();
    for (const r of runners) await r.caughtUp(timeoutMs);
    // Time-driven output (the sports snapshot is published on a tick) is written once more at the end.
    for (const r of runners) if (r.def.tick) await r.tickNow();
  } finally {
    for (const r of runners) await r.stop();
  }
  return lagBefore;
}

/** What a store must do for a replay without downtime (RedisSnapshotStore with generations). */
export interface GenerationalStore extends SnapshotStore {
  /** The base key namespace the generations live under. */
  readonly base: string;
  generation(): Promise<string>;
  switchGeneration(from: string, to: string): Promise<boolean>;
  dropGeneration(generation: string): Promise<number>;
  copySnapshots(name: string, from: string, to: string): Promise<number>;
}

export function isGenerational(store: SnapshotStore | undefined): store is GenerationalStore {
  return Boolean(store && typeof (store as Partial<GenerationalStore>).switchGeneration === 'function');
}

export interface SideBySideResult {
  from: string;
  to: string;
  /** Records each stage consumed to build the new generation. */
  lagBefore: Record<string, number>;
  /** Snapshot keys copied as they are (read models the replayed stages do not write: the catalog's pages). */
  copied: Record<string, number>;
  dropped: number;
  ms: number;
}

/**
 * Replay without downtime: the store read models are rebuilt from the earliest offsets into a new
 * generation while the service keeps reading and writing the current one; then the pointer moves in
 * one command and the old generation is dropped. The stages run under groups of their own (the
 * generation in the name), so the service's groups and offsets are not touched. In order:
 *   1. build: the stages (renamed per generation) consume everything into the new generation;
 *   2. copy the snapshots the stages do not write (`copyNames`: the catalog, built by the processors
 *      from ClickHouse) as they are, so the switch changes nothing there;
 *   3. switch the pointer (compare-and-set: refused when another replay switched first);
 *   4. wait until every process follows (`followMs`, a multiple of GENERATION_REFRESH_MS), then catch
 *      up once more: records the service's own sinks applied to the old generation only, between the
 *      build's end and their switch, reach the new one (offset-versioned writes: nothing doubles);
 *   5. drop the old generation and the replay's groups.
 * Only stages whose read models are store documents or snapshots: history tables live in the
 * processors' ClickHouse and are rebuilt by the stop-the-world replay.
 */
export async function replaySideBySide(
  stages: StageDef[],
  deps: RuntimeDeps & { store: GenerationalStore; storeAt: (generation: string) => SnapshotStore },
  options: { generation?: string; copyNames?: string[]; followMs: number; timeoutMs?: number; say?: (line: string) => void },
): Promise<SideBySideResult> {
  const started = Date.now();
  const say = options.say ?? (() => undefined);
  const withTables = stages.filter((s) => s.sinks?.tables?.length);
  if (withTables.length) throw new Error(`a replay side by side rebuilds store read models only; ${withTables.map((s) => s.name).join(', ')} write history tables`);
  const from = await deps.store.generation();
  const to = options.generation ?? Date.now().toString(36);
  if (to === from) throw new Error(`generation ${JSON.stringify(to)} is the current one`);
  const target = deps.storeAt(to);
  const renamed = stages.map((s) => ({ ...s, name: `${s.name}.gen-${to}` }));
  const groupIds = renamed.map((s) => stageGroupId(s, deps.topics));
  const run = () => runUntilCaughtUp(renamed, { ...deps, store: target }, options.timeoutMs);
  let switched = false;
  try {
    // A generation left behind by a replay that failed half way would mix in: start it empty.
    await deps.store.dropGeneration(to);
    say(`building generation ${to} beside ${from === '' ? 'the base generation' : `generation ${from}`}`);
    const lagBefore = await run();
    const copied: Record<string, number> = {};
    for (const name of options.copyNames ?? []) copied[name] = await deps.store.copySnapshots(name, from, to);
    if (!(await deps.store.switchGeneration(from, to))) throw new Error(`the current generation is no longer ${JSON.stringify(from)} (another replay switched): nothing switched`);
    switched = true;
    say(`switched the pointer to generation ${to}; waiting ${options.followMs} ms for every process to follow`);
    await new Promise((r) => setTimeout(r, options.followMs));
    await run();
    const dropped = await deps.store.dropGeneration(from);
    say(`dropped ${dropped} keys of the old generation`);
    return { from, to, lagBefore, copied, dropped, ms: Date.now() - started };
  } finally {
    if (!switched) await deps.store.dropGeneration(to).catch(() => undefined);
    await target.close().catch(() => undefined);
    for (const g of groupIds) await deps.log.deleteGroup(g).catch(() => undefined);
  }
}

/** A History whose tables are others (a replay's shadow tables): inserts go to rename(table). */
export function renamedHistory(h: History, rename: (table: string) => string): History {
  return {
    kind: h.kind,
    database: h.database,
    exec: (sql, params) => h.exec(sql, params),
    insert: (table, rows) => h.insert(rename(table), rows),
    ...(h.insertAvro && { insertAvro: (table: string, select: Record<string, string>, file: Buffer) => h.insertAvro!(rename(table), select, file) }),
    query: (sql, params) => h.query(sql, params),
    // The History is the caller's: closing this view closes nothing.
    close: async () => undefined,
  };
}

export interface HistorySideBySideResult {
  generation: string;
  tables: string[];
  /** Records each stage consumed to build the new tables. */
  lagBefore: Record<string, number>;
  ms: number;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replay without downtime for history tables (ClickHouse or chdb), the way replaySideBySide does it
 * for the store: while the service's sinks keep writing the live tables and readers keep reading
 * them, each table of the stages is rebuilt from the earliest offsets into a shadow table of the
 * same definition (`CREATE TABLE <t>__replay_<generation> AS <t>`: engine, keys and TTL), by the
 * stages under groups of their own; then each live table and its shadow trade places
 * (`EXCHANGE TABLES`, atomic per table); then the stages catch up once more into the live names
 * (records the service's sinks wrote only to the old table between the build's end and the
 * exchange; the tables are ReplacingMergeTree keyed by the record's identity, so nothing doubles);
 * then the old tables (now under the shadow names) and the groups are dropped. Several tables switch
 * one after another, each atomically, not all at once: a query joining two of them in between may
 * see one rebuilt and one not. On a failure before the exchange the shadows are dropped and the live
 * tables are untouched.
 */
export async function replayHistorySideBySide(
  stages: StageDef[],
  deps: RuntimeDeps & { history: History },
  options: { generation?: string; timeoutMs?: number; say?: (line: string) => void } = {},
): Promise<HistorySideBySideResult> {
  const started = Date.now();
  const say = options.say ?? (() => undefined);
  const withStore = stages.filter((s) => s.sinks?.snapshotPrefixes?.length || s.sinks?.snapshotNames?.length);
  if (withStore.length) throw new Error(`a history replay side by side rebuilds tables only; ${withStore.map((s) => s.name).join(', ')} write store read models (replaySideBySide)`);
  // A materialized view fills price_latest from the table the sink writes, and the candles' roll-up
  // reads the live tables by name; a shadow copy made beside them would carry no view and be rolled
  // by nobody.
  const viewed = stages.filter((s) => s.sinks?.tables?.some((t) => PRICE_HISTORY_TABLES.includes(t)));
  if (viewed.length) throw new Error(`${viewed.map((s) => s.name).join(', ')} cannot be rebuilt side by side (materialized views feed its tables); use the stop-the-world replay`);
  const tables = [...new Set(stages.flatMap((s) => s.sinks?.tables ?? []))];
  if (!tables.length) throw new Error('none of the stages writes a history table');
  const generation = options.generation ?? Date.now().toString(36);
  if (!/^[a-z0-9]+$/.test(generation)) throw new Error(`generation ${JSON.stringify(generation)} must be lower-case letters and digits`);
  const shadow = (t: string) => `${t}__replay_${generation}`;
  for (const t of tables) if (!IDENT.test(t)) throw new Error(`invalid table ${JSON.stringify(t)}`);
  const renamed = stages.map((s) => ({ ...s, name: `${s.name}.gen-${generation}` }));
  const groupIds = renamed.map((s) => stageGroupId(s, deps.topics));
  const h = deps.history;
  // Batches run here, never on a history host's worker: the host writes its own stages' tables.
  const base = { ...deps, offload: undefined };
  let exchanged = false;
  try {
    for (const t of tables) {
      // A shadow left behind by a replay that failed half way would mix in: start it empty.
      await h.exec(`DROP TABLE IF EXISTS ${shadow(t)}`);
      await h.exec(`CREATE TABLE ${shadow(t)} AS ${t}`);
    }
    say(`building ${tables.map(shadow).join(', ')} beside the live tables`);
    const lagBefore = await runUntilCaughtUp(renamed, { ...base, history: renamedHistory(h, (t) => (tables.includes(t) ? shadow(t) : t)) }, options.timeoutMs);
    for (const t of tables) await h.exec(`EXCHANGE TABLES ${t} AND ${shadow(t)}`);
    exchanged = true;
    say(`switched ${tables.join(', ')} to the rebuilt tables`);
    await runUntilCaughtUp(renamed, base, options.timeoutMs);
    for (const t of tables) await h.exec(`DROP TABLE IF EXISTS ${shadow(t)}`);
    say(`dropped the old tables`);
    return { generation, tables, lagBefore, ms: Date.now() - started };
  } finally {
    if (!exchanged) for (const t of tables) await h.exec(`DROP TABLE IF EXISTS ${shadow(t)}`).catch(() => undefined);
    for (const g of groupIds) await deps.log.deleteGroup(g).catch(() => undefined);
  }
}
