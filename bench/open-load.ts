// Open-loop load generator (bench/crawl-latency.ts --load open), run as a separate process like
// bench/api-load.ts and with the same arguments: url, connections, duration, a file of Authorization
// header values, a rate (requests per second over all connections), a file of paths and a lead (ms).
//
// Why a second generator: autocannon's fixed rate is a closed loop in bursts. Each connection sends
// back to back until it has made its share of the second (reqsMadeThisSecond), then waits for the
// next second, and its coordinated-omission correction assumes a request was due every
// Math.ceil(1 / rate) = 1 ms on every connection (the rate is requests a second, the histogram
// milliseconds), so one answer of R ms adds R - 1 synthetic samples: a handful of 30-40 ms stalls in
// 15,000 answers set its "corrected" p99, a tail past the 99.9th percentile. Here request k is due at
// start + k / rate, evenly spaced, whatever the answers do (wrk2's model): a request that waits for a
// busy connection or a stalled server is timed from when it was due, so a stall counts once for
// every request it delayed, no more.
//
// Out: one JSON line {rps, total, p99, p50, non2xx, errors, p99_exact, p999, max, client_loop_p99, client_loop_max}: p99, p50, p999
// and max are of the time from each 2xx answer's due time to its last byte (ms, fractional);
// p99_exact is of the time from the request's dispatch to its last byte (what autocannon's
// response time measures, without the wait for a connection). client_loop_p99 and client_loop_max
// are this process's own event-loop delay (ms): how late it was to read answers and send requests,
// a wait every figure above includes that is the client's, not the server's.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { percentile } from './percentile.ts';

const [url, connections, duration, keysFile, rate, pathsFile, leadArg] = process.argv.slice(2);
// Milliseconds to wait after starting before the first request: the process that spawned this one
// gets over its fork first (bench/crawl-latency.ts --client-lead).
const leadMs = Number(leadArg ?? 0) || 0;
const auths = keysFile ? readFileSync(keysFile, 'utf8').split('\n').filter(Boolean) : [];
const target = new URL(url!);
const paths = pathsFile ? readFileSync(pathsFile, 'utf8').split('\n').filter(Boolean) : [target.pathname + target.search];
const perSecond = Number(rate);
if (!(perSecond > 0)) throw new Error(`open-load needs a rate above 0 (got "${rate}")`);
const intervalMs = 1000 / perSecond;
const total = Math.floor(Number(duration) * perSecond);

const pool = new Pool(target.origin, { connections: Number(connections), pipelining: 1 });
const fromDue: number[] = [];
const fromDispatch: number[] = [];
let non2xx = 0;
let errors = 0;
let done = 0;

let finish: () => void;
const finished = new Promise<void>((r) => (finish = r));
function settle(): void {
  if (++done === total) finish();
}

async function fire(k: number, due: number): Promise<void> {
  const dispatched = performance.now();
  try {
    const res = await pool.request({
      path: paths[k % paths.length]!,
      method: 'GET',
      headers: auths.length > 0 ? { authorization: auths[k % auths.length]! } : {},
    });
    await res.body.arrayBuffer();
    const end = performance.now();
    if (res.statusCode >= 200 && res.statusCode < 300) {
      fromDue.push(end - due);
      fromDispatch.push(end - dispatched);
    } else non2xx++;
  } catch {
    errors++;
  } finally {
    settle();
  }
}

const loopDelay = monitorEventLoopDelay({ resolution: 1 });
const start = performance.now() + 20 + leadMs;
setTimeout(() => loopDelay.enable(), leadMs);
let next = 0;
function tick(): void {
  const now = performance.now();
  // Every request already due goes now, timed from its own due time: a late timer (this process
  // held off its core) counts against the answer, as a late server would.
  while (next < total && start + next * intervalMs <= now) {
    void fire(next, start + next * intervalMs);
    next++;
  }
  if (next < total) setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
}
if (total > 0) setTimeout(tick, 20 + leadMs);
else finish!();
await finished;
loopDelay.disable();
const elapsedS = (performance.now() - start) / 1000;
await pool.close();
fromDue.sort((a, b) => a - b);
fromDispatch.sort((a, b) => a - b);
const ms = (v: number) => Number(v.toFixed(3));
process.stdout.write(
  JSON.stringify({
    rps: fromDue.length / elapsedS,
    total: fromDue.length,
    p99: ms(percentile(fromDue, 0.99)),
    p50: ms(percentile(fromDue, 0.5)),
    non2xx,
    errors,
    p99_exact: ms(percentile(fromDispatch, 0.99)),
    p999: ms(percentile(fromDue, 0.999)),
    max: ms(fromDue.at(-1) ?? 0),
    client_loop_p99: ms(loopDelay.percentile(99) / 1e6),
    client_loop_max: ms(loopDelay.max / 1e6),
  }) + '\n',
);
