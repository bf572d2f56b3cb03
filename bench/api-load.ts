// Load generator for bench/api.ts, run as a SEPARATE process so the load does not share the
// server's event loop. In: argv url, connections, duration, a file of Authorization header values
// (one per line; rotated per request, as many clients' keys would be; '' for none) and a rate
// (requests per second over all connections; absent or 0: as fast as the connections go) and a file
// of paths on the url's origin that the requests rotate over (absent or '': the url's own path). A fixed
// rate measures how long a request waits at a load both runs can carry, apart from throughput (a
// closed loop's p99 is its queue's). Out: one JSON line {rps, total, p99, p50, non2xx, errors, p99_exact}:
// autocannon's percentiles come from a histogram of whole milliseconds (corrected for coordinated
// omission at a fixed rate), too coarse where an idle p99 is under 1 ms; p99_exact is the 99th
// percentile of every 2xx answer's own response time (in ms, fractional), without that correction.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { percentile } from './percentile.ts';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no type declarations; its programmatic API is used only here.
type Instance = Promise<AutocannonResult> & { on(event: 'response', fn: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void };
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Instance;

const [url, connections, duration, keysFile, rate, pathsFile] = process.argv.slice(2);
const auths = keysFile ? readFileSync(keysFile, 'utf8').split('\n').filter(Boolean) : [];
const paths = pathsFile ? readFileSync(pathsFile, 'utf8').split('\n').filter(Boolean) : [];
let i = 0;
let j = 0;

const run = autocannon({
  url,
  connections: Number(connections),
  duration: Number(duration),
  ...(Number(rate) > 0 ? { overallRate: Number(rate) } : {}),
  requests: [
    {
      setupRequest: (req: Record<string, unknown>) => {
        if (auths.length > 0) req.headers = { authorization: auths[i++ % auths.length] };
        if (paths.length > 0) req.path = paths[j++ % paths.length];
        return req;
      },
    },
  ],
});
const times: number[] = [];
run.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
});
const result = await run;
times.sort((a, b) => a - b);
const p99Exact = percentile(times, 0.99);
process.stdout.write(
  JSON.stringify({ rps: result.requests.average, total: result.requests.total, p99: result.latency.p99, p50: result.latency.p50, non2xx: result.non2xx, errors: result.errors, p99_exact: Number(p99Exact.toFixed(3)) }) + '\n',
);
