// Where the push stream's fan-out takes the pipeline's time from (bench/stream.md): the same
// fan-out (a frame written to each of 1,000 loopback sockets, 20 times a second: 20,000 socket
// writes a second, as bench/stream.ts's probes) either on the pipeline stand-in's own thread or in
// another process, against no fan-out at all; rounds alternate. No hub, no HTTP: only the socket
// writes, which are what the fan-out's CPU is spent on. If the stand-in keeps its speed with the
// writes in another process, taking them off its thread is the remedy; if it slows as much, the
// machine's cores are.
//
//   node --import tsx bench/stream-split.ts [--clients 1000] [--records 100000] [--pairs 3] [--frame 800] [--nice 0]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedLog } from '../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../pipelines/registry/embedded.ts';
import { avroSerde } from '../pipelines/serde/index.ts';
import { defineTopics, topicSpecs, type RawRecord } from '../pipelines/topics.ts';
import { schedOf } from './sched.ts';
import { benchArgs } from './args.ts';

// --fanout-child and --clients-child (with --ports) are this file run as its own child processes.
const cli = benchArgs({ clients: 1000, records: 100_000, pairs: 3, frame: 800, nice: 0, 'fanout-child': false, 'clients-child': false, ports: '' });
const clients = cli.clients;
const self = fileURLToPath(import.meta.url);

/** A server that, while on, writes one frame to each connected socket every 50 ms. */
async function fanOut(frameBytes: number) {
  const socks: Socket[] = [];
  const server = createServer((s) => {
    s.setNoDelay(true);
    s.on('error', () => {});
    socks.push(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const frame = Buffer.alloc(frameBytes, 'x');
  let timer: NodeJS.Timeout | null = null;
  return {
    port: (server.address() as { port: number }).port,
    on() {
      timer ??= setInterval(() => {
        for (const s of socks) s.write(frame);
      }, 50);
    },
    off() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

if (cli['fanout-child']) {
  const f = await fanOut(cli.frame);
  process.on('message', (m: string) => (m === 'on' ? f.on() : f.off()));
  process.send!({ port: f.port });
} else if (cli['clients-child']) {
  const ports = cli.ports.split(',').map(Number);
  for (const port of ports)
    for (let i = 0; i < clients; i++)
      await new Promise<void>((r) => {
        const s = connect(port, '127.0.0.1', r);
        s.on('data', () => {});
      });
  process.send!('ready');
} else await main();

async function main(): Promise<void> {
  const records = cli.records;
  const pairs = cli.pairs;
  const dir = mkdtempSync(join(tmpdir(), 'bench-stream-split-'));
  const log = await EmbeddedLog.open({ dir: join(dir, 'log'), compactIntervalMs: 0 });
  const serde = avroSerde(new EmbeddedRegistry(join(dir, 'registry')));
  const topics = defineTopics({ prefix: 'bench.', partitions: 1 });
  await log.createTopics(topicSpecs(topics));
  const producer = await log.producer();

  // The same pipeline stand-in as bench/stream.ts: raw records through a consumer group that decodes each.
  const rawTopic = topics['raw.venue_3'];
  const payload = JSON.stringify({ id: 'x', question: 'Will it?', outcomes: ['Yes', 'No'], outcomePrices: ['0.4', '0.6'], volume: 1234.5 });
  async function pipelineRound(): Promise<{ rate: number; mainRun: number; mainWait: number }> {
    const batch: RawRecord[] = Array.from({ length: 1000 }, (_, i) => ({ venue: 'venue_3', record_type: 'market', native_id: `m${i}`, read_started_at: Date.now(), payload }));
    const encoded = await serde.encodeMany(rawTopic, batch.map((v) => ({ key: v.native_id, value: v })));
    let consumed = 0;
    const consumer = log.consumer({ groupId: `bench.pipeline.${Math.random().toString(36).slice(2)}`, topics: [rawTopic.name], fromBeginning: false });
    await consumer.run(async (b) => {
      const decoded = await serde.decodeMany(rawTopic, b.records);
      for (const d of decoded) if (d.value) JSON.parse(d.value.payload);
      consumed += b.records.length;
    });
    const s0 = schedOf(process.pid, process.pid);
    const t0 = performance.now();
    for (let i = 0; i < records; i += 1000) await producer.send(rawTopic.name, encoded);
    while (consumed < records) await new Promise((r) => setTimeout(r, 5));
    const s = (performance.now() - t0) / 1000;
    const s1 = schedOf(process.pid, process.pid);
    await consumer.stop();
    return { rate: records / s, mainRun: (s1.run - s0.run) / 1e9 / s, mainWait: (s1.wait - s0.wait) / 1e9 / s };
  }

  const here = await fanOut(cli.frame);
  const other = fork(self, ['--fanout-child', '--frame', String(cli.frame)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const otherPort = await new Promise<number>((r) => other.once('message', (m: { port: number }) => r(m.port)));
  const kid = fork(self, ['--clients-child', '--clients', String(clients), '--ports', `${here.port},${otherPort}`], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((r) => kid.once('message', r));
  await new Promise((r) => setTimeout(r, 1000));

  // The other process at the given nice value (--nice, default 0; the worker threads' WORKER_NICE is 10).
  if (other.pid) setPriority(other.pid, cli.nice);
  const modes = {
    none: { on() {}, off() {} },
    'same thread': here,
    'other process': { on: () => other.send('on'), off: () => other.send('off') },
  };
  const results: Record<string, Array<{ rate: number; mainRun: number; mainWait: number }>> = { none: [], 'same thread': [], 'other process': [] };
  await pipelineRound(); // warm-up (JIT), not counted
  const order = Object.keys(modes) as Array<keyof typeof modes>;
  for (let p = 0; p < pairs; p++) {
    for (let k = 0; k < order.length; k++) {
      const mode = order[(k + p) % order.length]!;
      modes[mode].on();
      await new Promise((r) => setTimeout(r, 300));
      results[mode]!.push(await pipelineRound());
      modes[mode].off();
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  // The floor of one delivery: the CPU of one bare socket.write of the frame (no hub, no HTTP, no
  // SSE), 200 rounds of writes to every socket at 20 a second, minus as long idle; user and system.
  const cpuOver = async (on: boolean) => {
    if (on) here.on();
    const c0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 10_000));
    const c = process.cpuUsage(c0);
    here.off();
    return c;
  };
  const idle = await cpuOver(false);
  const busy = await cpuOver(true);
  const writes = 200 * clients;
  const floor = { user: +((busy.user - idle.user) / writes).toFixed(2), system: +((busy.system - idle.system) / writes).toFixed(2) };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const base = mean(results.none!.map((r) => r.rate));
  const out: Record<string, unknown> = {};
  for (const [mode, rs] of Object.entries(results))
    out[mode] = {
      records_per_s: rs.map((r) => Math.round(r.rate)),
      ratio: +(mean(rs.map((r) => r.rate)) / base).toFixed(3),
      // Seconds per second of wall time the stand-in's thread was on a CPU / runnable and waiting for one.
      main_run: rs.map((r) => +r.mainRun.toFixed(2)),
      main_wait: rs.map((r) => +r.mainWait.toFixed(2)),
    };
  console.log(JSON.stringify({ clients, frame_bytes: cli.frame, other_nice: cli.nice, ...out, write_cpu_us: floor, loadavg: loadavg().map((x) => +x.toFixed(2)) }, null, 2));
  kid.kill();
  other.kill();
  await producer.close();
  await log.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
