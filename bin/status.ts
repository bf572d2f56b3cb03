// Per-stage throughput and consumer lag (issue 3, Operators). Two sources:
//   default   scrape the running service's Prometheus metrics twice, --interval ms apart
//             (GET <url>, default http://HOST:PORT/metrics), and print records in/out per second,
//             lag, batches, errors and mean batch time per stage;
//   --log     read committed offsets and high watermarks from the log directly (no service needed;
//             the embedded log must not be open in another process), for the read-model stages.
// Usage: npx tsx bin/status.ts [--url URL] [--interval 2000] [--log] [--json]
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.ts';
import { createLog } from '../pipelines/log/index.ts';
import { formatStatus, parseMetrics, summarize, type StageStatus } from '../pipelines/runtime/metrics.ts';
import { READ_MODEL_STAGES } from '../pipelines/runtime/stages.ts';
import { deadLetterCount, logStatus } from '../pipelines/runtime/status.ts';
import { defineTopics, topicSettings } from '../pipelines/topics.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    interval: { type: 'string', default: '2000' },
    log: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('usage: npx tsx bin/status.ts [--url http://127.0.0.1:8080/metrics] [--interval 2000] [--log] [--json]');
  process.exit(0);
}
const config = loadConfig();
const intervalMs = Number(values.interval);
if (!Number.isFinite(intervalMs) || intervalMs < 0) {
  console.error(`--interval must be a number of milliseconds, got ${JSON.stringify(values.interval)}`);
  process.exit(2);
}

async function scrape(url: string): Promise<string> {
  const headers: Record<string, string> = {};
  if (process.env.METRICS_TOKEN) headers.authorization = `Bearer ${process.env.METRICS_TOKEN}`;
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return res.text();
}

let rows: StageStatus[];
let source: string;
let deadLetters: number | null = null;
if (values.log) {
  const log = await createLog(config);
  try {
    const topics = defineTopics(topicSettings(config));
    rows = await logStatus(log, READ_MODEL_STAGES, topics, intervalMs);
    deadLetters = await deadLetterCount(log, topics).catch(() => null);
    source = `log (${log.kind})`;
  } finally {
    await log.close();
  }
} else {
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  const url = values.url ?? `http://${host}:${config.PORT}/metrics`;
  try {
    const a = parseMetrics(await scrape(url));
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, intervalMs));
    const b = parseMetrics(await scrape(url));
    rows = summarize(a, b, Date.now() - t0);
    source = url;
  } catch (err) {
    console.error(`cannot read metrics from ${url}: ${(err as Error).message}\n(is the service running? use --log to read the log directly)`);
    process.exit(1);
  }
}
if (values.json) console.log(JSON.stringify({ source, stages: rows, ...(deadLetters !== null ? { deadLetters } : {}) }, null, 2));
else {
  console.log(`source: ${source}, interval ${intervalMs} ms`);
  console.log(rows.length ? formatStatus(rows) : '(no stage has reported yet)');
  // Records no stage could read: each is kept in dead.letters with its reason (see pipelines/TOPICS.md).
  if (deadLetters !== null) console.log(`dead letters: ${deadLetters} record(s) in dead.letters`);
}
