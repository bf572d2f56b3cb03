// A processors process for the matching restart test (restart.e2e.spec.ts): the three matching
// stages on the embedded log or Kafka, until it dies the way it is told to, or, told to finish,
// until it has read everything and published. In: STAGES_CHILD (JSON settings) in the environment.
// Out: 'started'; at the end of a finishing run one line 'final <json>' with the published sports
// snapshot, then exit 0. SIGTERM stops the stages gracefully and exits 0.
import path from "node:path";
import type { Log, Producer } from "../../../log/types.ts";
import { EmbeddedLog } from "../../../log/embedded.ts";
import { KafkaLog } from "../../../log/kafka.ts";
import { MemorySnapshotStore } from "../../../readmodels/memory-store.ts";
import { EmbeddedRegistry } from "../../../registry/embedded.ts";
import { avroSerde } from "../../../serde/index.ts";
import { defineTopics } from "../../../topics.ts";
import { startSportsArea } from "../../area.ts";
import { SportsReader } from "../../readmodel.ts";

export interface StagesChildSettings {
  dir: string;
  prefix: string;
  brokers?: string[];
  clock: number;
  /** Die after the canonicalizer has handled this many records in this run. */
  dieAfterRecords?: number;
  /** Die half-way through the n-th write of matched.events in this run (SIGKILL only). */
  dieMidPublish?: number;
  signal?: "SIGKILL" | "SIGTERM";
  finish?: boolean;
}

const s = JSON.parse(process.env.STAGES_CHILD ?? "{}") as StagesChildSettings;
const base: Log = s.brokers
  ? new KafkaLog({ brokers: s.brokers, maxBatchRecords: 3, retryBackoffMs: 20 })
  : await EmbeddedLog.open({
      dir: path.join(s.dir, "log"),
      maxBatchRecords: 3,
      compactIntervalMs: 0,
      fsyncIntervalMs: 0,
      retryBackoffMs: 10,
    });
const topics = defineTopics({ prefix: s.prefix, partitions: 3 });
const die = () => process.kill(process.pid, s.signal ?? "SIGKILL");
let matchedWrites = 0;
// The log as the stages see it; with dieMidPublish, a matched.events write is cut in half by the kill.
async function producer(): Promise<Producer> {
  const p = await base.producer();
  return {
    async send(topic, records) {
      if (
        topic === topics["matched.events"].name &&
        ++matchedWrites === s.dieMidPublish &&
        records.length > 1
      ) {
        await p.send(topic, records.slice(0, Math.floor(records.length / 2)));
        process.kill(process.pid, "SIGKILL");
        await new Promise(() => {});
      }
      return p.send(topic, records);
    },
    close: () => p.close(),
  };
}
const log = new Proxy(base, {
  get(target, prop) {
    if (prop === "producer") return producer;
    const v = Reflect.get(target, prop, target) as unknown;
    return typeof v === "function"
      ? (v as (...a: unknown[]) => unknown).bind(target)
      : v;
  },
});
const store = new MemorySnapshotStore();
const area = await startSportsArea({
  // A round after (nearly) every batch: which states of the listings a round sees then depends on
  // the records, not on how a busy machine spaces the ticks.
  config: { SPORTS_PUBLISH_MS: 1 },
  deps: {
    log,
    serde: avroSerde(new EmbeddedRegistry(path.join(s.dir, "registry"))),
    topics,
    store,
  },
  clock: () => s.clock,
});
let handled = 0;
const handle = area.stages.canonicalize.handle.bind(area.stages.canonicalize);
area.stages.canonicalize.handle = (records, ctx) => {
  const out = handle(records, ctx);
  handled += records.length;
  if (s.dieAfterRecords !== undefined && handled >= s.dieAfterRecords)
    setImmediate(die);
  return out;
};
process.on("SIGTERM", () => {
  void area
    .stop()
    .then(() => base.close())
    .then(() => process.exit(0));
});
process.stdout.write("started\n");
// A run told to die dies: if its point never comes (everything read already), it dies idle.
if (s.dieAfterRecords !== undefined || s.dieMidPublish !== undefined) setTimeout(die, s.brokers ? 60_000 : 15_000).unref();
if (s.finish) {
  // Everything was produced before this run: read it all, then let two rounds settle it.
  await area.round(60_000);
  await area.round(60_000);
  const snap = await new SportsReader(store).current();
  const entries = (snap?.entries ?? []).map((e) => ({
    id: e.event.event_id,
    population: e.population,
    submarkets: e.event.submarkets.map((m) => [
      m.key,
      m.source_markets.map((x) => `${x.provider}:${x.market_id}`).sort(),
    ]),
  }));
  await area.stop();
  await base.close();
  process.stdout.write(
    `final ${JSON.stringify({ observedAt: snap?.observedAt ?? null, entries })}\n`,
  );
  process.exit(0);
}
