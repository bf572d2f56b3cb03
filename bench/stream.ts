// Benchmark of the push stream (GET /v1/stream) on one replica, embedded log. 1,000 SSE clients run
// in a second process (this file with --child), so their reading does not load the measured process.
// Two modes, each saying what "the pipeline" is:
//
// --mode service (the default): the pipeline as the embedded default runs it (bin/run.ts with
//   ROLES=processors,api): the backbone opened by openBackbone() (embedded log and registry, chdb and
//   the history sinks and the catalog stage on the history worker), the canonicalizer, the matching
//   round and the sports snapshot sink on the stage thread (STAGE_THREAD), both at WORKER_NICE; the
//   main thread holds the API, the embedded log, the stages' consuming, output writes and commits,
//   and the stream's hub. Its input stands in for the pollers: one simulated world (SIM_SCALE
//   --scale) read through the venues' adapters --reads-per-round times per round with its clock moved
//   --step-ms between reads, each read's new or changed records (what the change-only pollers
//   publish), Avro-encoded ahead and appended to the raw topics 1,000 at a time, one send in flight
//   per topic. A round is timed from its first append to every stage caught up (committed what its
//   inputs hold, checked twice since a stage's output is the next one's input). Throughout, with and
//   without clients, a matched.events change is appended every 50 ms (the 20 a second), so
//   the pipeline's own work is the same in both; the only difference is 1,000 clients connected and
//   receiving those changes (and whatever the pipeline's matching changed meanwhile). Rounds
//   alternate: a warm-up round (the first crawl, whole; not counted), then --rounds pairs of a round
//   without clients and one with (the clients connect before it starts, leave after it ends), and a
//   last round without. Per round: records/s, the process's CPU per record (every thread), and per
//   thread group (main thread / the pipeline's worker threads: every thread at WORKER_NICE or above,
//   chdb's pools included / the rest: V8's and libuv's helpers) the seconds per second on a CPU and
//   runnable but waiting for one (Linux schedstat). The ratio is each round with clients against the
//   mean of the rounds without around it, in records/s and in CPU per record. The delay is from a
//   change's commit (producer.send resolved: the record is in the log) to its arrival at each client,
//   p50/p95 over every (client, change) pair of the round with clients (delay_ms), and over every
//   change committed while all the clients were connected, round or not (delay_ms_connected: a short
//   round holds few changes).
//
//   node --expose-gc --import tsx bench/stream.ts [--clients 1000] [--rounds 3] [--reads-per-round 2]
//     [--step-ms 60000] [--scale 1] [--flush-ms 20] [--same-session-clients] [--pipeline-thread] [--clients-nice N]
//
//   Rounds alike: the simulated world changes some venues' records only when its clock passes a whole
//   minute (and more at five), so --reads-per-round x --step-ms of 60000 gives every round the same
//   mix; ratio_records_per_s_like_input compares only rounds of alike records. --clients-nice N: the
//   clients' process (its threads and its session's autogroup) at nice N, a model of clients on other
//   machines; its delay then includes the clients' own late reads.
//
//   --pipeline-thread: the pipeline as PIPELINE_THREAD runs it (pipelines/runtime/pipeline-thread.ts):
//   the same pipeline (bench/service-pipeline.ts) on a worker thread of its own at WORKER_NICE, with
//   the embedded log and the stages' consuming and commits there; the API thread keeps the API, the
//   hub and the in-process snapshot store (written through store-port.ts), and the hub tails the
//   pipeline thread's log through log-port.ts. The rounds' records and the 20 changes a second are
//   appended on the pipeline thread, where the log is; a round is timed there; the delay is the same
//   (the change's producer.send resolved there, to its arrival at the client). The thread groups
//   gain the pipeline thread's own.
//
// --mode stand-in (before the stages moved to worker threads): the hub, the API and a pipeline
//   stand-in on one thread: a consumer group reading Avro raw records of one trivial payload from the
//   log and decoding them. Its ratio is the fan-out competing for the one thread it shares with the
//   stand-in, an architecture the service no longer has; kept to compare with the figures before.
//
//   node --expose-gc --import tsx bench/stream.ts --mode stand-in [--clients 1000] [--records 100000] [--events 200] [--rounds 2] [--same-session-clients]
//     [--flush-ms 20] [--burst 1]
//
// --flush-ms: STREAM_FLUSH_MS (the least time between two writes of one SSE connection; 0: one per
// turn). --burst K (stand-in): the changes go out K at a time, K log appends back to back, every K x
// 50 ms (the same 20 a second): what a connection's write window merges, which evenly spaced changes
// never give it. --same-session-clients: the clients' process in the API's session (else its own).
//
// The stand-in's figures:
// - delay from commit to arrival: a matched.events change is written (20 a second); its commit is
//   when producer.send resolves (the record is in the log); each client notes when the event
//   arrives; p50/p95 over every (client, event) pair, measured while the pipeline runs at full speed;
// - RSS per connection: the API process's RSS with the clients connected and idle, minus before,
//   after a full GC, divided by the clients;
// - pipeline throughput with and without the clients connected (records/s of the stand-in): without
//   before they connect and after they leave, with while the probes fan out and with idle clients;
//   ratios against the mean without;
// - the fan-out's CPU per delivery (one change to one client): this process's CPU over as many
//   changes again without the pipeline, minus its CPU over as long with the clients idle; CPU time,
//   which a loaded machine inflates far less than the wall-clock figures above; and the SSE sockets'
//   writes per delivery over the same changes (heartbeats taken out the same way).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../lib/config.ts';
import { pinWorkerThreads, workerCpus } from '../pipelines/runtime/thread-affinity.ts';
import { buildApp } from '../api/app.ts';
import { authDepsFor } from '../api/auth/index.ts';
import { MemoryKeyStore } from '../api/auth/memory-store.ts';
import { startStreamArea } from '../api/stream/area.ts';
import { sseStats } from '../api/stream/sse-sink.ts';
import { STREAM_LIMITS } from '../api/auth/plans.ts';
import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { monitorEventLoopDelay, performance as perf } from 'node:perf_hooks';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { defineTopics, topicSettings, topicSpecs, type RawRecord } from '../pipelines/topics.ts';
import { matched, startProbes } from './stream-probes.ts';
import { startServicePipelineThread, type PipelineRound } from './service-pipeline-thread.ts';
import type { Config } from '../lib/config.ts';
import type { Log } from '../pipelines/log/types.ts';
import type { Serde } from '../pipelines/serde/index.ts';
import type { TopicMap } from '../pipelines/topics.ts';
import type { SnapshotStore } from '../pipelines/readmodels/snapshots.ts';
import type { AppDeps } from '../api/types.ts';
import { catalogDeps } from '../pipelines/catalog/index.ts';
import { sportsDepsOf } from '../pipelines/matching/readmodel.ts';
import { schedOf } from './sched.ts';
import { successiveListings } from './listed-records.ts';
import { changeOnly, startServicePipeline, type EncodedRecords } from './service-pipeline.ts';
import { quotesLookbackMs } from '../lib/config.ts';
import { readTasks } from '../pipelines/runtime/native-nice.ts';
import { CATALOG_SNAPSHOT_NAME } from '../pipelines/catalog/index.ts';
import { benchKey } from './bench-keys.ts';
import type { KeyAdmin } from '../api/auth/keys.ts';
import { benchArgs } from './args.ts';

/** One key of each of enough business accounts for `clients` streams (a business account's concurrent streams are capped). */
async function streamKeys(admin: KeyAdmin, clients: number): Promise<string[]> {
  const keys: string[] = [];
  for (let a = 0; a < Math.ceil(clients / STREAM_LIMITS.business); a++) keys.push(await benchKey(admin, { account: `bench${a}`, plan: 'business', permissions: ['stream.read'] }));
  return keys;
}

// --child (with --url, --key, --clients, --clients-nice, --http-clients) is this file run as the clients' process.
const cli = benchArgs({
  mode: 'service',
  clients: 1000,
  'clients-nice': 0,
  'http-clients': false,
  'same-session-clients': false,
  // the mode's own when not given: 2 stand-in, 3 service
  rounds: '',
  records: 100_000,
  events: 200,
  'flush-ms': 20,
  burst: 1,
  'reads-per-round': 2,
  scale: 1,
  'step-ms': 60_000,
  'pipeline-thread': false,
  child: false,
  url: '',
  key: '',
});
const roundsOr = (def: number) => (cli.rounds === '' ? def : Number(cli.rounds));

/** The clients' process while it runs (its schedstat per round: what it takes of the cores). */
let clientsPid = 0;

// The raw clients' patterns (declared before the dispatch below: the child runs at module load).
const EMPTY = Buffer.alloc(0);
const SNAPSHOT = Buffer.from('event: snapshot');
const OVERFLOW = Buffer.from('event: overflow');
const FRAME = Buffer.from('\nevent: ');
const TITLE = Buffer.from('"title":"p');
/** The longest pattern the raw reader looks for, with a probe's digits and closing quote. */
const MAX_PATTERN = TITLE.length + 16;

const mode = cli.mode;
if (cli.child) await child();
else if (mode === 'stand-in') await standIn();
else if (mode === 'service') await service();
else throw new Error(`--mode ${JSON.stringify(mode)}: service | stand-in`);

// ---------------------------------------------------------------- clients (second process)

async function child(): Promise<void> {
  const url = cli.url;
  const keys = cli.key.split(',');
  const n = cli.clients;
  // --clients-nice: every thread of this process at that nice value (Linux: a nice value is a
  // thread's), so the clients take the cores only when the API process leaves them: a model of
  // clients on other machines, on a machine where they must share the API's cores.
  const clientsNice = cli['clients-nice'];
  const httpClients = cli['http-clients'];
  if (clientsNice > 0) {
    for (const t of readTasks()) setPriority(t.tid, clientsNice);
    // With autogroup (sched_autogroup_enabled), threads' nice values weigh only within their session;
    // between sessions (the clients run in their own) the session's own nice value counts.
    try {
      writeFileSync('/proc/self/autogroup', String(clientsNice));
    } catch {
      // No autogroup here: the threads' nice values are what counts.
    }
  }
  const arrivals = new Map<number, number[]>();
  let ready = 0;
  let overflows = 0;
  // Every event frame received after the snapshot (the probes and whatever the pipeline's own
  // matching wrote to matched.events and lifecycle.states meanwhile).
  let frames = 0;
  // The probes' titles, found in the bytes as they come (no SSE parsing, no text decoding).
  const PROBE = /"title":"p(\d+)"/g;
  const note = (seq: number, at: number) => {
    let list = arrivals.get(seq);
    if (!list) arrivals.set(seq, (list = []));
    list.push(at);
  };
  // Connected 20 at a time (each waits for its snapshot): one at a time took minutes at 1,000
  // clients on a loaded machine with the service's snapshot.
  const connect = (i: number) => (httpClients ? connectHttp(i) : connectRaw(i));
  // --http-clients: each client an http.request reading text (the bench's reader before raw sockets).
  const connectHttp = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', authorization: `Bearer ${keys[i % keys.length]}` } });
      req.on('error', reject);
      req.on('response', (res) => {
        if (res.statusCode !== 200) return reject(new Error(`client ${i}: ${res.statusCode}`));
        res.setEncoding('utf8');
        let first = true;
        res.on('data', (chunk: string) => {
          const at = Date.now();
          if (first && chunk.includes('event: snapshot')) {
            first = false;
            resolve();
          }
          if (chunk.includes('event: overflow')) overflows++;
          if (!first) for (let at = chunk.indexOf('\nevent: '); at !== -1; at = chunk.indexOf('\nevent: ', at + 1)) frames++;
          for (const m of chunk.matchAll(PROBE)) note(Number(m[1]), at);
        });
      });
      req.end();
    });
  // The default: a raw socket per client, its request written by hand and its bytes scanned as
  // Buffers. Why: the clients stand in for 1,000 clients on other machines, yet on this machine they
  // take the cores the pipeline uses; http.request's response stream and UTF-8 decoding of every
  // frame were most of their process's CPU (0.14-0.23 of a core in bench/stream.md's quiet rounds),
  // work a remote client's machine does, not the replica. The scan finds the same probes: a pattern
  // that straddles two chunks is found in the chunk's carried tail joined to the next chunk's head.
  const target = new URL(url);
  const connectRaw = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = netConnect({ host: target.hostname, port: Number(target.port) });
      socket.setNoDelay(true);
      socket.on('error', reject);
      socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${keys[i % keys.length]}\r\n\r\n`);
      let head = true;
      let first = true;
      let tail: Buffer = EMPTY;
      socket.on('data', (chunk: Buffer) => {
        const at = Date.now();
        if (head) {
          head = false;
          // The status line comes in the first chunk (it is the first write of the response).
          if (!chunk.subarray(0, 16).toString('latin1').startsWith('HTTP/1.1 200')) {
            socket.destroy();
            return reject(new Error(`client ${i}: ${chunk.subarray(0, 40).toString('latin1')}`));
          }
        }
        // Patterns that straddle the boundary: the previous chunk's last bytes joined to this one's first.
        if (tail.length) scan(Buffer.concat([tail, chunk.subarray(0, MAX_PATTERN)]), at, tail.length);
        scan(chunk, at, 0);
        tail = chunk.subarray(Math.max(0, chunk.length - MAX_PATTERN + 1));
        function scan(b: Buffer, at: number, from: number) {
          // `from` > 0: b is the carried tail (its first `from` bytes) joined to the chunk's head, and
          // only a match that straddles the two counts (one wholly in the tail counted before).
          const counts = (o: number, end: number) => (from ? o < from && end > from : true);
          if (first) {
            const s = b.indexOf(SNAPSHOT);
            if (s !== -1 && counts(s, s + SNAPSHOT.length)) {
              first = false;
              resolve();
            }
          }
          for (let o = b.indexOf(OVERFLOW); o !== -1; o = b.indexOf(OVERFLOW, o + 1)) if (counts(o, o + OVERFLOW.length)) overflows++;
          if (!first) for (let o = b.indexOf(FRAME); o !== -1; o = b.indexOf(FRAME, o + 1)) if (counts(o, o + FRAME.length)) frames++;
          for (let o = b.indexOf(TITLE); o !== -1; o = b.indexOf(TITLE, o + 1)) {
            let seq = 0;
            let k = o + TITLE.length;
            for (; k < b.length && b[k]! >= 48 && b[k]! <= 57; k++) seq = seq * 10 + b[k]! - 48;
            // Only a whole title: digits then its closing quote (else it runs on into the next chunk,
            // where the joined scan finds it whole).
            if (k > o + TITLE.length && b[k] === 34 && counts(o, k + 1)) note(seq, at);
          }
        }
      });
    });

  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(20, n) }, async () => {
      while (next < n) {
        await connect(next++);
        ready++;
      }
    }),
  );
  process.send!({ type: 'ready', ready });
  // In a session of its own, this process outlives a crashed parent unless it leaves with it.
  process.on('disconnect', () => process.exit(0));
  const cpu0 = process.cpuUsage();
  process.on('message', (m: { type: string; commits?: Record<string, number> }) => {
    if (m.type !== 'report') return;
    const cpu = process.cpuUsage(cpu0);
    const delays: number[] = [];
    let missing = 0;
    for (const [seq, t] of Object.entries(m.commits!)) {
      const got = arrivals.get(Number(seq)) ?? [];
      missing += n - got.length;
      for (const a of got) delays.push(a - t);
    }
    delays.sort((a, b) => a - b);
    const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? NaN;
    process.send!({ type: 'report', samples: delays.length, missing, overflows, frames, p50: pct(0.5), p95: pct(0.95), max: delays[delays.length - 1], cpuMs: (cpu.user + cpu.system) / 1000 });
  });
}

// ---------------------------------------------------------------- the API process


async function standIn(): Promise<void> {
  const clients = cli.clients;
  const records = cli.records;
  const events = cli.events;
  const rounds = roundsOr(2);
  const flushMs = cli['flush-ms'];
  const burst = Math.max(1, cli.burst);
  // After each change: the wait before the next (K appends back to back, then K x 50 ms).
  const pause = (i: number) => new Promise((r) => setTimeout(r, (i + 1) % burst === 0 ? 50 * burst : 0));
  const dir = mkdtempSync(join(tmpdir(), 'bench-stream-'));
  const log = await EmbeddedLog.open({ dir: join(dir, 'log'), compactIntervalMs: 0 });
  const serde = avroSerde(new EmbeddedRegistry(join(dir, 'registry')));
  const topics = defineTopics({ prefix: 'bench.', partitions: 1 });
  await log.createTopics(topicSpecs(topics));
  const producer = await log.producer();
  const area = await startStreamArea({ STREAM_HEARTBEAT_MS: 15_000, STREAM_BUFFER_BYTES: 1_048_576, STREAM_FLUSH_MS: flushMs, STREAM_JOURNAL: 20_000, STREAM_RESUME_MS: 3_600_000 }, { log, serde, topics });
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const store = new MemoryKeyStore();
  const auth = authDepsFor(store, config.KEY_PEPPER);
  // The business plan allows 100 concurrent streams per account: the clients use one key of each
  // of enough business accounts.
  const keys = await streamKeys(auth.admin, clients);
  const app = await buildApp({ config, clock: Date.now, auth, stream: area.deps }, undefined, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}/v1/stream?channel=sports`;

  // Some served events first, so every connect's snapshot has content.
  for (let i = 0; i < 50; i++) await producer.send(topics['matched.events'].name, [await serde.encode(topics['matched.events'], `nba-e${i}-bench`, matched(`nba-e${i}-bench`, `warm ${i}`))]);

  // The pipeline stand-in: raw records through a consumer group that decodes each (Avro, then the payload JSON).
  const rawTopic = topics['raw.venue_3'];
  const payload = JSON.stringify({ id: 'x', question: 'Will it?', outcomes: ['Yes', 'No'], outcomePrices: ['0.4', '0.6'], volume: 1234.5 });
  // Where each round's time went (Linux schedstat, per thread: time on a CPU and time runnable but
  // waiting for one): this process's main thread, its other threads, and the clients' process.
  const roundStats: Array<Record<string, number>> = [];
  let kidPid = 0;
  const sched = (pid: number, tid?: number): [number, number] => {
    const r = schedOf(pid, tid);
    return [r.run, r.wait];
  };
  const measure = () => ({ main: sched(process.pid, process.pid), all: sched(process.pid), kid: kidPid ? sched(kidPid) : ([0, 0] as [number, number]), elu: perf.eventLoopUtilization() });
  const since = (m0: ReturnType<typeof measure>, s: number) => {
    const m = measure();
    const c = (a: number, b: number) => +((a - b) / 1e9 / s).toFixed(2);
    return {
      wall_s: +s.toFixed(2),
      main_run: c(m.main[0], m0.main[0]),
      main_wait: c(m.main[1], m0.main[1]),
      other_threads_run: c(m.all[0] - m.main[0], m0.all[0] - m0.main[0]),
      other_threads_wait: c(m.all[1] - m.main[1], m0.all[1] - m0.main[1]),
      clients_run: c(m.kid[0], m0.kid[0]),
      clients_wait: c(m.kid[1], m0.kid[1]),
      main_elu: +perf.eventLoopUtilization(m.elu, m0.elu).utilization.toFixed(2),
    };
  };
  async function pipelineRound(): Promise<number> {
    const batch: RawRecord[] = Array.from({ length: 1000 }, (_, i) => ({ venue: 'venue_3', record_type: 'market', native_id: `m${i}`, read_started_at: Date.now(), payload }));
    const encoded = await serde.encodeMany(rawTopic, batch.map((v) => ({ key: v.native_id, value: v })));
    let consumed = 0;
    const group = `bench.pipeline.${Math.random().toString(36).slice(2)}`;
    const consumer = log.consumer({ groupId: group, topics: [rawTopic.name], fromBeginning: false });
    await consumer.run(async (b) => {
      const decoded = await serde.decodeMany(rawTopic, b.records);
      for (const d of decoded) if (d.value) JSON.parse(d.value.payload);
      consumed += b.records.length;
    });
    const t0 = performance.now();
    const m0 = measure();
    for (let i = 0; i < records; i += 1000) await producer.send(rawTopic.name, encoded);
    while (consumed < records) await new Promise((r) => setTimeout(r, 5));
    const s = (performance.now() - t0) / 1000;
    roundStats.push(since(m0, s));
    await consumer.stop();
    return records / s;
  }

  const gc = (globalThis as { gc?: () => void }).gc;
  const rss = () => {
    gc?.();
    gc?.();
    return process.memoryUsage().rss;
  };

  // Without clients (before they connect, and again after they leave), then with them.
  const without: number[] = [];
  const withClients: number[] = [];
  await pipelineRound(); // warm-up (JIT), not counted
  without.push(await pipelineRound());
  const rssBefore = rss();

  const kid: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', '--url', url, '--key', keys.join(','), '--clients', String(clients), ...(cli['http-clients'] ? ['--http-clients'] : [])], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // The clients in a session of their own (--same-session-clients: in the API's, as before).
    // Linux (autogroup) shares the CPU between sessions first, so on a loaded machine clients in the
    // API's session take their CPU from the API's share, which a replica's remote clients never do
    // (bench/stream.md: p95 lower with their own session in five alternating pairs of five).
    detached: !cli['same-session-clients'],
  });
  kidPid = kid.pid ?? 0;
  const fromKid = (type: string) =>
    new Promise<Record<string, number>>((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type === type) {
          kid.off('message', on);
          resolve(m as unknown as Record<string, number>);
        }
      };
      kid.on('message', on);
    });
  const ready = await fromKid('ready');
  await new Promise((r) => setTimeout(r, 2000));
  const rssAfter = rss();
  const perConn = (rssAfter - rssBefore) / clients;

  // Latency probes while the pipeline runs at full speed, then more rounds alternating.
  const commits: Record<string, number> = {};
  // CPU of this process and of the clients' from here to the report: the two share this machine's cores.
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const probes = (async () => {
    for (let seq = 0; seq < events; seq++) {
      const id = `nba-e${seq % 50}-bench`;
      const rec = await serde.encode(topics['matched.events'], id, matched(id, `p${seq}`));
      await producer.send(topics['matched.events'].name, [rec]);
      commits[seq] = Date.now();
      await pause(seq);
    }
  })();
  withClients.push(await pipelineRound());
  await probes;
  for (let r = 1; r < rounds; r++) withClients.push(await pipelineRound());
  await new Promise((r) => setTimeout(r, 1000));

  // The fan-out's own CPU, which the machine's load does not inflate the way it does wall times:
  // this process's CPU over `events` more changes (20 a second, no pipeline round), minus its CPU
  // over as long with the clients connected and idle, per delivery (one change to one client).
  // These changes are not latency probes (not in `commits`).
  const cpuOver = async (changes: number) => {
    const c0 = process.cpuUsage();
    const w0 = sseStats.writes;
    for (let i = 0; i < events; i++) {
      if (changes) {
        const id = `nba-e${i % 50}-bench`;
        await producer.send(topics['matched.events'].name, [await serde.encode(topics['matched.events'], id, matched(id, `q${i}`))]);
      }
      await pause(i);
    }
    await new Promise((r) => setTimeout(r, 500));
    return { ...process.cpuUsage(c0), writes: sseStats.writes - w0 };
  };
  const idleCpu = await cpuOver(0);
  const fanCpu = await cpuOver(events);
  const writesPerDelivery = (fanCpu.writes - idleCpu.writes) / (events * clients);
  // User (the hub, the connections, Node's stream code) and system (the socket writes; on loopback
  // also the receiving side's TCP work, which the kernel does in the writer's time).
  const fanoutUser = (fanCpu.user - idleCpu.user) / (events * clients);
  const fanoutSys = (fanCpu.system - idleCpu.system) / (events * clients);
  const fanoutUsPerDelivery = fanoutUser + fanoutSys;
  const report = fromKid('report');
  kid.send({ type: 'report', commits });
  const lat = await report;
  const cpu = process.cpuUsage(cpu0);
  const wallS = (performance.now() - wall0) / 1000;
  kid.kill();
  await new Promise((r) => setTimeout(r, 500));
  // Without clients again, after they left (alternating around the with-clients rounds).
  without.push(await pipelineRound());

  const w = without;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const out = {
    clients: ready.ready,
    delay_ms: { p50: lat.p50, p95: lat.p95, max: lat.max, samples: lat.samples, missing: lat.missing, overflows: lat.overflows },
    rss_per_connection_kb: Math.round(perConn / 1024),
    // The first with-clients round runs while the probes fan out (20 changes/s to every client); the
    // others with the clients connected and idle.
    pipeline_records_per_s: {
      without: w.map(Math.round),
      with: withClients.map(Math.round),
      ratio_during_fanout: +(withClients[0]! / mean(w)).toFixed(3),
      ratio_idle_clients: withClients.length > 1 ? +(mean(withClients.slice(1)) / mean(w)).toFixed(3) : null,
    },
    fanout_cpu_us_per_delivery: +fanoutUsPerDelivery.toFixed(2),
    fanout_cpu_us_user_sys: [+fanoutUser.toFixed(2), +fanoutSys.toFixed(2)],
    sse_writes_per_delivery: +writesPerDelivery.toFixed(3),
    flush_ms: flushMs,
    burst,
    // The stand-in's CPU per record on the main thread in the rounds without clients: what the
    // pipeline needs there, against the fan-out's CPU per second (deliveries x CPU per delivery).
    pipeline_main_cpu_us_per_record: +(mean([roundStats[1]!, roundStats[roundStats.length - 1]!].map((r) => (r.main_run! * r.wall_s! * 1e6) / records))).toFixed(2),
    // Per round (warm-up, without, with during fan-out, with idle..., without): seconds per second
    // of wall time on a CPU (run) and runnable but waiting for one (wait).
    rounds: roundStats,
    // Cores busy from the probes' start to the report, per process: idle phases included (about 20 s
    // of the window), so not the share a process was given while busy (`rounds` has that).
    cores_busy: { api: +((cpu.user + cpu.system) / 1e6 / wallS).toFixed(2), clients: +(lat.cpuMs! / 1000 / wallS).toFixed(2) },
    clients_session: cli['same-session-clients'] ? "the API's" : 'own',
    loadavg: (await import('node:os')).loadavg().map((x) => +x.toFixed(2)),
  };
  console.log(JSON.stringify(out, null, 2));
  await app.close();
  await area.stop();
  await producer.close();
  await log.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

// ---------------------------------------------------------------- --mode service: the pipeline as the service runs it

/** This process's threads' schedstat, in three groups: the main thread (the API, the embedded log,
 * the hub and the stages' consuming and committing), the pipeline's worker threads (the stage
 * thread, the history worker and chdb's pools: every thread at the workers' nice value or above),
 * and the rest (V8's and libuv's helpers, at the process's priority); with --pipeline-thread, the
 * pipeline thread on its own (the embedded log, the stages' consuming and committing there). Nanoseconds on a CPU (run) and
 * runnable but waiting for one (wait). */
type ThreadGroup = 'main' | 'pipeline' | 'workers' | 'runtime';
function threadGroups(workerNice: number, pipelineTid?: number): Record<ThreadGroup, { run: number; wait: number }> & { each: Map<number, { comm: string; run: number; wait: number }> } {
  const out = { main: { run: 0, wait: 0 }, pipeline: { run: 0, wait: 0 }, workers: { run: 0, wait: 0 }, runtime: { run: 0, wait: 0 }, each: new Map<number, { comm: string; run: number; wait: number }>() };
  for (const t of readTasks()) {
    const s = schedOf(process.pid, t.tid);
    const isWorker = t.tid !== process.pid && t.tid !== pipelineTid && workerNice > 0 && t.nice >= workerNice;
    const g = t.tid === process.pid ? out.main : t.tid === pipelineTid ? out.pipeline : isWorker ? out.workers : out.runtime;
    g.run += s.run;
    g.wait += s.wait;
    if (isWorker) out.each.set(t.tid, { comm: t.comm, ...s });
  }
  return out;
}


async function service(): Promise<void> {
  const clients = cli.clients;
  const rounds = roundsOr(3);
  const perRound = cli['reads-per-round'];
  const flushMs = cli['flush-ms'];
  const scale = cli.scale;
  const stepMs = cli['step-ms'];
  const dir = mkdtempSync(join(tmpdir(), 'bench-stream-service-'));
  // The embedded default, as `make run` configures it: every worker thread on (STAGE_THREAD,
  // HISTORY_WORKER) at WORKER_NICE; no pollers (the bench is their stand-in, below) and no simulator.
  const config = loadConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', ROLES: 'processors,api', STREAM_FLUSH_MS: String(flushMs), KAFKA_BROKERS: undefined, REDIS_URL: undefined, CLICKHOUSE_URL: undefined, SCHEMA_REGISTRY_URL: undefined });

  // The input: successive crawls of one simulated world (its clock moved --step-ms between reads),
  // each read's records that are new or changed since the read before: what the change-only pollers
  // publish. Read 0 (every record) fills the pipeline before the measured rounds; each round then
  // gets --reads-per-round crawls' changes. Read before the pipeline starts (the simulator's CPU is
  // not in any round).
  const rawRounds = 2 * rounds + 2;
  const changes = changeOnly(await successiveListings({ seed: 1, scale, reads: 1 + (rawRounds - 1) * perRound, stepMs }));

  // The pipeline and where the API's parts read it: on this thread (the embedded default), or on a
  // worker thread of its own (--pipeline-thread, as PIPELINE_THREAD runs it): then the snapshot store
  // stays here and the hubs tail the pipeline thread's log through its port.
  const roundRecords: RawRecord[][] = [];
  for (let r = 0; r < rawRounds; r++) roundRecords.push(r === 0 ? changes[0]! : changes.slice(1 + (r - 1) * perRound, 1 + r * perRound).flat());
  const onThread = cli['pipeline-thread'];
  const p = onThread ? await pipelineThread(config, roundRecords) : await pipelineHere(config, roundRecords);
  const area = await startStreamArea({ ...config, STREAM_QUOTES_LOOKBACK_MS: quotesLookbackMs(config) }, { ...p.streamFrom, catalog: { store: p.store, name: CATALOG_SNAPSHOT_NAME }, quotes: 'on-demand' });

  const store = new MemoryKeyStore();
  const auth = authDepsFor(store, config.KEY_PEPPER);
  const keys = await streamKeys(auth.admin, clients);
  const app = await buildApp({ config, clock: Date.now, auth, stream: area.deps, sports: p.sports, catalog: p.catalog }, undefined, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/v1/stream?channel=sports`;

  const nice = config.WORKER_NICE;
  async function pipelineRound(r: number) {
    const c0 = process.cpuUsage();
    const g0 = threadGroups(nice, p.tid);
    const elu0 = perf.eventLoopUtilization();
    const k0 = clientsPid ? schedOf(clientsPid) : undefined;
    // How long the API thread's event loop was held between turns: what a message from the pipeline
    // thread (a snapshot-store write, a log tail's answer) can wait behind before it is read.
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const round = await p.round(r);
    lag.disable();
    const s = round.wall_s;
    const cpu = process.cpuUsage(c0);
    const g = threadGroups(nice, p.tid);
    // Over the round as this thread saw it (with the pipeline thread: its answer may come a little later).
    const per = (k: ThreadGroup, f: 'run' | 'wait') => +((g[k][f] - g0[k][f]) / 1e9 / s).toFixed(2);
    const k1 = k0 && clientsPid ? schedOf(clientsPid) : undefined;
    // The worker threads that ran most this round, each [name, run, wait] in seconds per second.
    const busiest = [...g.each]
      .map(([tid, t]) => { const b = g0.each.get(tid) ?? { run: 0, wait: 0 }; return [`${t.comm}:${tid}`, +((t.run - b.run) / 1e9 / s).toFixed(2), +((t.wait - b.wait) / 1e9 / s).toFixed(2)] as const; })
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4);
    return {
      records: round.records,
      wall_s: +s.toFixed(2),
      records_per_s: Math.round(round.records / s),
      cpu_us_per_record: +((cpu.user + cpu.system) / round.records).toFixed(1),
      // Of the two cores: seconds on a CPU (run) and runnable without one (wait) per second of wall time.
      main: [per('main', 'run'), per('main', 'wait')],
      ...(p.tid !== undefined && { pipeline_thread: [per('pipeline', 'run'), per('pipeline', 'wait')] }),
      workers: [per('workers', 'run'), per('workers', 'wait')],
      workers_busiest: busiest,
      ...(k0 && k1 && { clients_process: [+((k1.run - k0.run) / 1e9 / s).toFixed(2), +((k1.wait - k0.wait) / 1e9 / s).toFixed(2)] }),
      runtime: [per('runtime', 'run'), per('runtime', 'wait')],
      main_cpu_us_per_record: +(((g.main.run - g0.main.run) / 1e3) / round.records).toFixed(1),
      ...(p.tid !== undefined && { pipeline_thread_cpu_us_per_record: +(((g.pipeline.run - g0.pipeline.run) / 1e3) / round.records).toFixed(1) }),
      workers_cpu_us_per_record: +(((g.workers.run - g0.workers.run) / 1e3) / round.records).toFixed(1),
      main_elu: +perf.eventLoopUtilization(elu0).utilization.toFixed(2),
      api_loop_delay_ms: { p50: +(lag.percentile(50) / 1e6).toFixed(1), p99: +(lag.percentile(99) / 1e6).toFixed(1), max: +(lag.max / 1e6).toFixed(1) },
      ...(round.appended_s !== undefined && { appended_s: round.appended_s, caught_up_s: round.caught_up_s, store_waits: round.store_waits }),
      seqs: round.seqs,
    };
  }

  async function withClients<T>(fn: () => Promise<T>) {
    const kid: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child', '--url', url, '--key', keys.join(','), '--clients', String(clients), '--clients-nice', String(cli['clients-nice']), ...(cli['http-clients'] ? ['--http-clients'] : [])], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: !cli['same-session-clients'],
    });
    clientsPid = kid.pid ?? 0;
    const fromKid = (type: string) =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const on = (m: { type: string }) => {
          if (m.type === type) {
            kid.off('message', on);
            resolve(m as unknown as Record<string, number>);
          }
        };
        kid.on('message', on);
        kid.once('exit', (code) => reject(new Error(`the clients' process ended (${code})`)));
      });
    const t0 = performance.now();
    const ready = await fromKid('ready');
    const connectS = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const connectedAt = Date.now();
    const out = await fn();
    await new Promise((r) => setTimeout(r, 1000));
    const leftAt = Date.now() - 500;
    const delays = async (commits: Record<string, number>) => {
      const report = fromKid('report');
      kid.send({ type: 'report', commits });
      return report;
    };
    const [from, to] = (out as { seqs: [number, number] }).seqs;
    const lat = await delays(await p.commits(from, to));
    // The same delay over every change committed while all the clients were connected (a short
    // round holds few changes): from 2 s after the last connected to 500 ms before they leave.
    const all = await delays(Object.fromEntries(Object.entries(await p.commits(0, Number.MAX_SAFE_INTEGER)).filter(([, t]) => t >= connectedAt && t < leftAt)));
    clientsPid = 0;
    kid.kill();
    await new Promise((r) => setTimeout(r, 1000));
    const figures = (l: Record<string, number>) => ({ p50: l.p50, p95: l.p95, max: l.max, samples: l.samples, missing: l.missing, overflows: l.overflows });
    return { ...out, clients: ready.ready, connect_s: +connectS.toFixed(1), delay_ms: figures(lat), delay_ms_connected: figures(all), frames_per_client: Math.round(lat.frames! / clients) };
  }

  // Each round on stderr as it ends: on a loaded machine a run takes many minutes.
  const said = <T>(what: string, x: T): T => {
    console.error(`${new Date().toISOString()} ${what} ${JSON.stringify(x)} load ${loadavg()[0]!.toFixed(1)}`);
    return x;
  };
  // Round 0 (the whole first crawl) warms the pipeline (JIT, the matching state): not counted.
  const warm = said('warm-up', await pipelineRound(0));
  const loads: number[][] = [loadavg()];
  const without: Awaited<ReturnType<typeof pipelineRound>>[] = [];
  const withC: Awaited<ReturnType<typeof withClients<Awaited<ReturnType<typeof pipelineRound>>>>>[] = [];
  for (let r = 0; r < rounds; r++) {
    without.push(said('without', await pipelineRound(1 + 2 * r)));
    withC.push(said('with', await withClients(() => pipelineRound(2 + 2 * r))));
    loads.push(loadavg());
  }
  without.push(said('without', await pipelineRound(2 * rounds + 1)));

  // Records per second per record count differ per round (each round's crawls changed a different
  // number of records): the ratio is of rates, each with-clients round against the mean of the two
  // rounds without around it.
  const ratios = withC.map((w, i) => +(w.records_per_s / ((without[i]!.records_per_s + without[i + 1]!.records_per_s) / 2)).toFixed(3));
  // The same against only the rounds without clients whose input was alike (records within 5%): the
  // simulated world changes some venues' records only when its clock passes a whole minute (venue_1,
  // venue_2, venue_7) or five (more of venue_3's, venue_6's, ...), so with --step-ms under 60000 one
  // read in 60 / step carries about twice the records, more of them events to match, and which rounds
  // get those depends on the second the run started. null where no round without clients was alike.
  const likeRatios = withC.map((w) => {
    const like = without.filter((o) => Math.abs(o.records - w.records) <= 0.05 * w.records);
    return like.length ? +(w.records_per_s / (like.reduce((a, o) => a + o.records_per_s, 0) / like.length)).toFixed(3) : null;
  });
  const cpuRatios = withC.map((w, i) => +(w.cpu_us_per_record / ((without[i]!.cpu_us_per_record + without[i + 1]!.cpu_us_per_record) / 2)).toFixed(3));
  console.log(
    JSON.stringify(
      {
        mode: 'service',
        pipeline: onThread ? 'its own thread (PIPELINE_THREAD)' : "the API's thread",
        clients,
        clients_nice: cli['clients-nice'],
        flush_ms: flushMs,
        warm_up: warm,
        without,
        with: withC,
        ratio_records_per_s: ratios,
        ratio_records_per_s_like_input: likeRatios,
        ratio_cpu_per_record: cpuRatios,
        loadavg: loads.map((l) => l.map((x) => +x.toFixed(2))),
      },
      null,
      1,
    ),
  );
  await app.close();
  await area.stop();
  await p.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

/** The service mode's pipeline as the bench drives it, and what the API's parts read of it. */
interface BenchPipeline {
  /** The log, serde and topics the stream's hubs tail. */
  streamFrom: { log: Log; serde: Serde; topics: TopicMap };
  store: SnapshotStore;
  sports: AppDeps['sports'];
  catalog: AppDeps['catalog'];
  /** The pipeline thread's id (--pipeline-thread). */
  tid?: number;
  round(r: number): Promise<PipelineRound>;
  /** The stream's changes from <= seq < to, with their commit times. */
  commits(from: number, to: number): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** The embedded default: the pipeline's orchestration (log, consuming, commits) on the API's thread. */
async function pipelineHere(config: Config, rounds: RawRecord[][]): Promise<BenchPipeline> {
  const pipeline = await startServicePipeline(config);
  const { log, serde, topics } = pipeline.backbone;
  // Each round's records, encoded ahead (the pollers' thread encodes in the service) by raw topic.
  const encoded: EncodedRecords[] = [];
  for (const recs of rounds) encoded.push(await pipeline.encode(recs));
  const probes = await startProbes({ producer: pipeline.producer, serde, topics });
  return {
    streamFrom: { log, serde, topics },
    store: pipeline.backbone.store,
    sports: pipeline.sports.deps,
    catalog: pipeline.catalog.deps,
    async round(r) {
      const t0 = performance.now();
      const seq0 = probes.seq();
      await pipeline.append(encoded[r]!);
      await pipeline.caughtUp();
      return { records: rounds[r]!.length, wall_s: (performance.now() - t0) / 1000, seqs: [seq0, probes.seq()] };
    },
    commits: async (from, to) => Object.fromEntries([...probes.commits].filter(([s]) => s >= from && s < to)),
    async stop() {
      await probes.stop();
      await pipeline.stop();
    },
  };
}

/** As PIPELINE_THREAD runs it: the pipeline on a worker thread; the snapshot store here, the log read through its port. */
async function pipelineThread(config: Config, rounds: RawRecord[][]): Promise<BenchPipeline> {
  const t = await startServicePipelineThread(config, rounds);
  // WORKER_CPUS from the environment (auto, as make run passes it): every thread but this one (the
  // API's and the hub's) kept off the first CPU, as the service's pipeline-thread mode does.
  const unpin = pinWorkerThreads(workerCpus(config.WORKER_CPUS), (msg) => console.warn(msg));
  return {
    streamFrom: { log: t.log, serde: avroSerde(t.log.registry()), topics: defineTopics(topicSettings(config)) },
    store: t.store,
    sports: sportsDepsOf(t.store),
    catalog: catalogDeps(config, t.store),
    tid: t.tid,
    round: (r) => t.round(r),
    commits: (from, to) => t.commits(from, to),
    stop: async () => {
      unpin();
      await t.stop();
    },
  };
}
