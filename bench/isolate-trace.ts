// Every isolate's heap of a running service (the main thread and each worker), through its inspector,
// every --every-ms: beside bench/rss-trace.ts (which sees threads, all named `node`, and not their
// heaps), what each isolate holds when a high-water mark is set between a soak's samples
// (bench/soak.md, runs 100-106). Needs the service started with an inspector (bench/soak.ts --heap
// prints `Debugger listening on ws://...` to its run's .stderr file); a second inspector session
// beside the soak's own is allowed. Reads only (Runtime.evaluate of process.memoryUsage() and
// v8.getHeapSpaceStatistics()); no heap snapshot (one of a 110 MB heap left chdb's process 390 MB
// larger for the rest of run 100).
//
//   npx tsx bench/isolate-trace.ts --ws ws://127.0.0.1:<port>/<id> --pid <service pid> [--every-ms 250] [--out trace.txt]
//
// Lines: `HH:MM:SS.ss rss <MB> hwm <MB> | <isolate>:<used>/<committed>/<new>/<ab> ...`, MB each: the
// used and committed heap, the new space's committed size (young generation) and the array buffers;
// isolates named by their worker's entry (main, pipeline, simulator, history, stage, pollers).
import { appendFileSync, readFileSync } from 'node:fs';
import { WebSocket } from 'undici';
import { benchArgs } from './args.ts';

const cli = benchArgs({ 'every-ms': 250, ws: '', pid: '', out: '' });
const WS = cli.ws;
const PID = cli.pid;
if (!WS.startsWith('ws://') || !/^\d+$/.test(PID)) throw new Error('--ws <inspector url> and --pid <service pid> are required');
const EVERY_MS = cli['every-ms'];
const OUT = cli.out;

const ws = new WebSocket(WS);
await new Promise((resolve, reject) => {
  ws.addEventListener('open', resolve);
  ws.addEventListener('error', reject);
});
let nextId = 1;
const replies = new Map<string, (r: unknown) => void>();
const sessions: string[] = [];
ws.addEventListener('message', (ev: { data: unknown }) => {
  const m = JSON.parse(String(ev.data)) as { id?: number; method?: string; result?: unknown; params?: Record<string, unknown> };
  if (m.id !== undefined) replies.get(`main ${m.id}`)?.(m.result);
  else if (m.method === 'NodeWorker.attachedToWorker') sessions.push(String(m.params!.sessionId));
  else if (m.method === 'NodeWorker.receivedMessageFromWorker') {
    const inner = JSON.parse(String(m.params!.message)) as { id?: number; result?: unknown };
    if (inner.id !== undefined) replies.get(`${String(m.params!.sessionId)} ${inner.id}`)?.(inner.result);
  }
});

function call(session: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const id = nextId++;
  const reply = new Promise<unknown>((resolve) => {
    const timer = setTimeout(() => resolve(null), 5_000);
    replies.set(`${session} ${id}`, (r) => {
      clearTimeout(timer);
      replies.delete(`${session} ${id}`);
      resolve(r);
    });
  });
  const message = { id, method, params };
  if (session === 'main') ws.send(JSON.stringify(message));
  else ws.send(JSON.stringify({ id: nextId++, method: 'NodeWorker.sendMessageToWorker', params: { sessionId: session, message: JSON.stringify(message) } }));
  return reply;
}

// Evaluated in each isolate: its name (from its worker's entry file) and its heap, in MB.
const EXPR = `(() => {
  const wt = process.getBuiltinModule('worker_threads');
  const v8 = process.getBuiltinModule('v8');
  const entry = String(wt.workerData?.entry ?? '');
  const name = wt.isMainThread ? 'main' : ['simulator', 'pollers', 'history-worker', 'stage-worker', 'pipeline-worker'].find((n) => entry.includes(n))?.replace('-worker', '') ?? 'worker' + wt.threadId;
  const m = process.memoryUsage();
  const s = v8.getHeapSpaceStatistics();
  const young = s.filter((x) => x.space_name === 'new_space' || x.space_name === 'new_large_object_space').reduce((a, x) => a + x.space_size, 0);
  const MB = (b) => Math.round(b / 1048576);
  return name + ':' + [MB(m.heapUsed), MB(m.heapTotal), MB(young), MB(m.arrayBuffers)].join('/');
})()`;

await call('main', 'NodeWorker.enable', { waitForDebuggerOnStart: false });
await new Promise((r) => setTimeout(r, 1_000));

const kb = (status: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
const timer = setInterval(() => {
  let status: string;
  try {
    status = readFileSync(`/proc/${PID}/status`, 'utf8');
  } catch {
    clearInterval(timer);
    ws.close();
    return;
  }
  const t = new Date().toISOString().slice(11, 22);
  void Promise.all(['main', ...sessions].map((s) => call(s, 'Runtime.evaluate', { expression: EXPR, returnByValue: true }))).then((rs) => {
    const each = rs.map((r) => String((r as { result?: { value?: unknown } } | null)?.result?.value ?? '?'));
    const line = `${t} rss ${Math.round(kb(status, 'VmRSS') / 1024)} hwm ${Math.round(kb(status, 'VmHWM') / 1024)} | ${each.join(' ')}`;
    if (OUT) appendFileSync(OUT, line + '\n');
    else console.log(line);
  });
}, EVERY_MS);
