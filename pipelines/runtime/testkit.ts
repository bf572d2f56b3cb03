// Test and benchmark helpers for the backbone (not used by the service). In: a directory and a
// random prefix. Out: an embedded backbone (log, serde, history, store) with every topic created,
// and generators of raw venue records.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedLog } from '../log/embedded.ts';
import type { Log, Producer } from '../log/types.ts';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import type { History } from '../readmodels/history.ts';
import { migrate } from '../readmodels/migrate.ts';
import { MemorySnapshotStore } from '../readmodels/memory-store.ts';
import type { SnapshotStore } from '../readmodels/snapshots.ts';
import type { SchemaLookup, Serde } from '../serde/index.ts';
import { createAllTopics, defineTopics, type Provider, type RawRecord, type TopicMap } from '../topics.ts';
import { HistoryHost } from './history-host.ts';
import type { RuntimeDeps } from './runner.ts';
import { HOSTED_STAGES } from './hosted.ts';
import { testSerde } from './test-services.ts';

export function randomPrefix(): string {
  return `t${randomBytes(4).toString('hex')}.`;
}

/**
 * The embedded log alone, for specs that need no history or store: a temp directory named by
 * `dirPrefix`, every topic under a random prefix, Avro through the embedded registry, and a producer.
 * Its close is pushed on `cleanups` (the spec's afterEach runs them).
 */
export async function logBackbone(cleanups: (() => Promise<void>)[], dirPrefix: string): Promise<{ log: EmbeddedLog; topics: TopicMap; serde: Serde; producer: Producer }> {
  const dir = mkdtempSync(path.join(tmpdir(), dirPrefix));
  const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 });
  const topics = defineTopics({ prefix: randomPrefix(), partitions: 3 });
  await createAllTopics(log, topics);
  const serde = await testSerde(dir);
  const producer = await log.producer();
  cleanups.push(async () => {
    await producer.close();
    await log.close();
  });
  return { log, topics, serde, producer };
}

export interface Backbone extends RuntimeDeps {
  history: History;
  store: SnapshotStore;
  close(): Promise<void>;
}

export async function embeddedBackbone(opts: {
  dir: string;
  prefix: string;
  serde: Serde;
  partitions?: number;
  log?: Log;
  store?: SnapshotStore;
  history?: History;
  /** chdb and the history sinks on a worker thread (history-host.ts), resolving schemas in this registry. */
  historyWorker?: { registry: SchemaLookup };
}): Promise<Backbone> {
  const topics: TopicMap = defineTopics({ prefix: opts.prefix, partitions: opts.partitions ?? 3 });
  const log = opts.log ?? (await EmbeddedLog.open({ dir: path.join(opts.dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 }));
  await createAllTopics(log, topics);
  const chdbPath = path.join(opts.dir, 'chdb');
  const database = `db_${opts.prefix.replace(/\W/g, '')}`;
  const host =
    !opts.history && opts.historyWorker
      ? await HistoryHost.open({ chdbPath, database, stages: HOSTED_STAGES.map((d) => d.name), registry: opts.historyWorker.registry })
      : undefined;
  const history = opts.history ?? host ?? (await ChdbHistory.open(chdbPath, database));
  await migrate(history);
  const store = opts.store ?? new MemorySnapshotStore();
  return {
    log,
    topics,
    serde: opts.serde,
    history,
    store,
    offload: host,
    async close() {
      await store.close();
      await history.close();
      await log.close();
    },
  };
}

/** A raw market record whose payload the pass-through processor understands. */
export function rawMarket(venue: Provider, id: string, title: string, extra: Record<string, unknown> = {}, readAt = 1_767_225_600_000): RawRecord {
  return {
    venue,
    record_type: 'market',
    native_id: id,
    read_started_at: readAt,
    payload: JSON.stringify({ id, title, status: 'open', ...extra }),
    read_id: null,
    source_url: `/markets/${id}`,
  };
}

export async function produceRaw(deps: Pick<RuntimeDeps, 'serde' | 'topics'>, producer: Producer, records: RawRecord[]): Promise<void> {
  const byVenue = new Map<string, RawRecord[]>();
  for (const r of records) byVenue.set(r.venue, [...(byVenue.get(r.venue) ?? []), r]);
  for (const [venue, list] of byVenue) {
    const topic = deps.topics[`raw.${venue as Provider}`];
    const encoded = await Promise.all(list.map((r) => deps.serde.encode(topic, r.native_id, r)));
    await producer.send(topic.name, encoded);
  }
}

/**
 * Runs a stage process of the kill tests (testdata/*.ts) with its settings as JSON in `envName`,
 * calling onLine for each line it prints. `exited` resolves with the exit code, or on SIGKILL (the
 * kill the tests make); any other end rejects with the end of its stderr.
 */
export function spawnStageProcess(
  script: string,
  envName: string,
  settings: unknown,
  onLine: (line: string, child: ChildProcess) => void,
): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, [envName]: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buf = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      onLine(line, child);
    }
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL') reject(new Error(`worker exited ${code} ${signal}: ${err.slice(-2000)}`));
      else resolve(code);
    });
  });
  return { child, exited };
}
