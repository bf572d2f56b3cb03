// The service's pipeline as bin/run.ts starts it with ROLES=processors on the embedded default, for
// benchmarks: the backbone opened by openBackbone() (embedded log and registry, chdb with the history
// sinks and the catalog stage on the history worker), the read-model sinks of the configuration
// (backboneSinks: every one, less the price-history sink with PRICE_HISTORY=false), the catalog, and
// the canonicalizer, the matching round and the sports snapshot sink on the stage thread, the worker
// threads at WORKER_NICE. No pollers: a bench stands in for them, appending what the change-only
// pollers would publish (changeOnly) to the raw topics, encoded ahead (the pollers' thread encodes in
// the service). Used by bench/stream.ts --mode service (on this thread, or with --pipeline-thread on a
// worker thread of its own: bench/service-pipeline-worker.ts) and bench/price-pipeline.ts.
import type { Config } from '../lib/config.ts';
import { startCatalog, type RunningCatalog } from '../pipelines/catalog/area.ts';
import { startSportsArea, type SportsArea } from '../pipelines/matching/area.ts';
import type { Log, Producer } from '../pipelines/log/types.ts';
import { createRegistry } from '../pipelines/registry/index.ts';
import { openBackbone, type OpenedBackbone } from '../pipelines/runtime/backbone.ts';
import { startStage, type StageRunner } from '../pipelines/runtime/runner.ts';
import { backboneSinks } from '../pipelines/runtime/sinks.ts';
import { startCandleRollup, type RunningRollup } from '../pipelines/runtime/price-rollup.ts';
import { MemoryLease } from '../pipelines/runtime/lease.ts';
import { StageThread } from '../pipelines/runtime/stage-thread.ts';
import type { SnapshotStore } from '../pipelines/readmodels/snapshots.ts';
import { avroSerde, type SchemaLookup } from '../pipelines/serde/index.ts';
import { PROVIDERS, type RawRecord } from '../pipelines/topics.ts';

/**
 * Successive reads of one world as the change-only pollers publish them: the first read whole, each
 * later one only the records that are new or whose payload differs from the read before.
 */
export function changeOnly(reads: RawRecord[][]): RawRecord[][] {
  const key = (r: RawRecord) => `${r.venue}|${r.record_type}|${r.native_id}`;
  const out: RawRecord[][] = reads.length ? [reads[0]!] : [];
  for (let i = 1; i < reads.length; i++) {
    const prev = new Map(reads[i - 1]!.map((r) => [key(r), r.payload]));
    out.push(reads[i]!.filter((r) => prev.get(key(r)) !== r.payload));
  }
  return out;
}

export type EncodedRecords = Map<string, Awaited<ReturnType<OpenedBackbone['serde']['encodeMany']>>>;

export interface ServicePipeline {
  backbone: OpenedBackbone;
  /** The backbone's schema registry (a pipeline thread serves its lookups to the API thread's hubs). */
  registry: SchemaLookup;
  /** The backbone's parts as the areas take them. */
  b: Pick<OpenedBackbone, 'log' | 'serde' | 'topics' | 'history' | 'store' | 'offload'>;
  catalog: RunningCatalog;
  sports: SportsArea;
  /** Every stage: the sinks, the catalog stage, canonicalize, matching, the sports snapshot sink. */
  runners: StageRunner[];
  producer: Producer;
  /** Records by raw topic, Avro-encoded as the pollers' thread encodes them. */
  encode(records: RawRecord[]): Promise<EncodedRecords>;
  /** Appended 1,000 at a time, one send in flight per topic. */
  append(encoded: EncodedRecords): Promise<void>;
  /**
   * Until every stage has committed what its inputs held when it was checked (twice: a stage's
   * output is the next one's input); `onStage` hears each stage of the first pass as it is done.
   * Not "no lag at one instant": a stage whose input is written all the time (the stream bench's
   * 20 changes a second to matched.events) has lag most of the time however fast it is, and a round
   * timed to an instant without it measured how soon such an instant came, not the round's records.
   */
  caughtUp(timeoutMs?: number, onStage?: (name: string) => void): Promise<void>;
  /**
   * One roll-up of the candles (with PRICE_HISTORY; nothing without), what bin/run.ts's timer does
   * every PRICE_CANDLE_ROLLUP_MS: a bench calls it when it wants the cost counted (no timer here,
   * so a run's count of roll-ups does not depend on its speed).
   */
  rollUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServicePipelineOptions {
  onError?: (err: unknown, where: { stage: string }) => void;
  /** The snapshot store to write instead of opening one (on a pipeline thread: the port to the API thread's store). */
  store?: SnapshotStore;
}

export async function startServicePipeline(config: Config, { onError, store }: ServicePipelineOptions = {}): Promise<ServicePipeline> {
  const registry = createRegistry(config);
  const backbone = await openBackbone(config, { serde: avroSerde(registry), registry, ...(store && { store }) });
  const { log, serde, topics } = backbone;
  const b = { log, serde, topics, history: backbone.history, store: backbone.store, offload: backbone.offload };
  if (!b.offload) throw new Error('the history worker did not start (HISTORY_WORKER=false?): not the embedded default');
  const sinks: StageRunner[] = [];
  for (const def of backboneSinks(config)) sinks.push(await startStage(def, backbone));
  const catalog = await startCatalog(config, b);
  const thread = config.STAGE_THREAD ? await StageThread.open({ tickMs: config.SPORTS_PUBLISH_MS, nice: config.WORKER_NICE }) : undefined;
  if (!thread) throw new Error('STAGE_THREAD=false: not the embedded default');
  const sports = await startSportsArea({ config, deps: { ...b, onError: onError ?? ((err, where) => console.error(`stage ${where.stage} batch failed (retried): ${String(err)}`)) }, thread });
  const runners = [...sinks, catalog.runner, sports.runners.canonicalize, sports.runners.matching, sports.runners.snapshot];
  const producer = await log.producer();
  let rollup: RunningRollup | undefined;
  return {
    backbone,
    registry,
    b,
    catalog,
    sports,
    runners,
    producer,
    async encode(records) {
      const byTopic: EncodedRecords = new Map();
      for (const venue of PROVIDERS) {
        const t = topics[`raw.${venue}`];
        const list = records.filter((r) => r.venue === venue);
        if (list.length) byTopic.set(t.name, await serde.encodeMany(t, list.map((r) => ({ key: r.native_id, value: r }))));
      }
      return byTopic;
    },
    async append(encoded) {
      await Promise.all(
        [...encoded].map(async ([name, list]) => {
          for (let i = 0; i < list.length; i += 1000) await producer.send(name, list.slice(i, i + 1000));
        }),
      );
    },
    async caughtUp(timeoutMs = 600_000, onStage) {
      // In the order the records flow (the raw topics' stages, then the canonicalizer's outputs',
      // then the matching's), so the first pass's times say when each stage was done with the round.
      const flow = [...runners].sort((a, b) => depth(a) - depth(b));
      for (let k = 0; k < 2; k++)
        for (const x of flow) {
          await caughtUpTo(log, x, x.def.inputs.map((id) => topics[id].name), timeoutMs);
          if (k === 0) onStage?.(x.def.name);
        }
    },
    async rollUp() {
      // As the timer runs it: under the roll-up's lease, with its fence (the timer itself never fires).
      if (config.PRICE_HISTORY) await (rollup ??= startCandleRollup(backbone.history, { intervalMs: 1_000_000_000, lease: new MemoryLease() })).runOnce();
    },
    async stop() {
      await rollup?.stop();
      await producer.close();
      await sports.stop();
      await thread.close();
      await catalog.stop();
      for (const s of sinks) await s.stop();
      await backbone.close();
      await registry.close();
    },
  };
}

/** How far down the pipeline a stage reads: 0 the raw topics, 1 the canonicalizer's outputs, 2 the matching's. */
function depth(r: StageRunner): number {
  const ins = r.def.inputs as readonly string[];
  if (ins.includes('matched.events') || ins.includes('matching.state')) return 2;
  if (ins.some((t) => t.startsWith('canonical.'))) return 1;
  return 0;
}

/** Resolves once `runner`'s group has committed, on every partition of `inputs`, at least what they held when called. */
async function caughtUpTo(log: Log, runner: StageRunner, inputs: string[], timeoutMs: number, pollMs = 10): Promise<void> {
  const until = Date.now() + timeoutMs;
  const targets = await Promise.all(inputs.map(async (name) => ({ name, ends: await log.topicOffsets(name) })));
  for (const { name, ends } of targets)
    for (;;) {
      const committed = await log.groupOffsets(runner.groupId, name);
      if (ends.every((p) => BigInt(p.high) <= BigInt(p.low) || BigInt(committed.get(p.partition) ?? p.low) >= BigInt(p.high))) break;
      if (Date.now() > until) throw new Error(`stage ${runner.def.name} has not committed ${name} up to ${JSON.stringify(ends)} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
}
