// Per-stage throughput and consumer lag (Operators: "Status"). Two sources:
//   default   scrape the stage metrics (GET /metrics) of the processes that run stages, twice,
//             --interval ms apart, and print records in/out per second, lag, batches, errors and
//             mean batch time per stage. Where: every --url given; else the METRICS_PORT this
//             environment gives (the same variables the roles read: ROLES=processors gives the
//             processors' default port); else both stack defaults, processors (9464) and pollers
//             (9465) on HOST. API replicas run no stage and serve no /metrics.
//   --log     read committed offsets and high watermarks from the log directly (Kafka, or the
//             embedded log when no service has it open), for the read-model stages: lag without
//             any metrics endpoint.
//   Always: disk use per topic and per history table (embedded default: from DATA_DIR's files).
// Usage: npx tsx bin/status.ts [--url URL]... [--interval 2000] [--log] [--json]
import { parseArgs } from 'node:util';
import { loadConfigOrExit, METRICS_PORT_DEFAULTS } from '../lib/config.ts';
import { createLog } from '../pipelines/log/index.ts';
import { formatStatus, parseMetrics, summarize, type StageStatus } from '../pipelines/runtime/metrics.ts';
import { READ_MODEL_STAGES } from '../pipelines/runtime/stages.ts';
import { deadLetterCount, logStatus } from '../pipelines/runtime/status.ts';
import { defineTopics, topicSettings } from '../pipelines/topics.ts';
import { embeddedDiskUse, formatDiskUse } from '../pipelines/runtime/disk.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', multiple: true },
    interval: { type: 'string', default: '2000' },
    log: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('usage: npx tsx bin/status.ts [--url http://127.0.0.1:9464/metrics]... [--interval 2000] [--log] [--json]');
  process.exit(0);
}
const config = loadConfigOrExit();
const intervalMs = Number(values.interval);
if (!Number.isFinite(intervalMs) || intervalMs < 0) {
  console.error(`--interval must be a number of milliseconds, got ${JSON.stringify(values.interval)}`);
  process.exit(2);
}

/** Where the stage metrics are, from the flags or the roles' own environment. */
function targets(): string[] {
  if (values.url?.length) return values.url;
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  const ports = config.METRICS_PORT > 0 ? [config.METRICS_PORT] : [METRICS_PORT_DEFAULTS.processors, METRICS_PORT_DEFAULTS.pollers];
  return ports.map((p) => `http://${host}:${p}/metrics`);
}

async function scrape(url: string): Promise<string> {
  const headers: Record<string, string> = {};
  if (process.env.METRICS_TOKEN) headers.authorization = `Bearer ${process.env.METRICS_TOKEN}`;
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`answered ${res.status}`);
  return res.text();
}

const reason = (e: unknown): string => {
  const err = e as Error & { cause?: { code?: string } };
  return err.cause?.code ?? err.message;
};

async function fromMetrics(): Promise<{ rows: StageStatus[]; source: string; missed: string[] }> {
  const urls = targets();
  const first = await Promise.allSettled(urls.map(scrape));
  const t0 = Date.now();
  const live: string[] = [];
  const missed: string[] = [];
  first.forEach((r, i) => (r.status === 'fulfilled' ? live.push(urls[i]!) : missed.push(`${urls[i]} (${reason(r.reason)})`)));
  if (live.length === 0) {
    console.error(
      `no stage metrics answered: ${missed.join(', ')}. Processors and pollers serve them on METRICS_PORT (defaults ${METRICS_PORT_DEFAULTS.processors} and ${METRICS_PORT_DEFAULTS.pollers}); pass --url, or --log to read the lag from the log`,
    );
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, intervalMs));
  const rows: StageStatus[] = [];
  for (const [i, url] of urls.entries()) {
    const a = first[i]!;
    if (a.status !== 'fulfilled') continue;
    try {
      rows.push(...summarize(parseMetrics(a.value), parseMetrics(await scrape(url)), Date.now() - t0));
    } catch (e) {
      missed.push(`${url} (${reason(e)} on the second scrape)`);
    }
  }
  return { rows, source: live.join(', '), missed };
}

let rows: StageStatus[];
let source: string;
let deadLetters: number | null = null;
let missed: string[] = [];
if (values.log) {
  const log = await createLog(config);
  try {
    const topics = defineTopics(topicSettings(config));
    rows = await logStatus(log, READ_MODEL_STAGES, topics, intervalMs);
    deadLetters = await deadLetterCount(log, topics).catch(() => null);
    source = `log (${log.kind})`;
  } catch (e) {
    console.error(`cannot read the consumer groups from the log (${log.kind}): ${(e as Error).message}`);
    process.exit(1);
  } finally {
    await log.close();
  }
} else {
  ({ rows, source, missed } = await fromMetrics());
}
// Disk use per topic and history table (the storage budget, README "Storage budget"): on the embedded
// default, from DATA_DIR's files; Kafka and a ClickHouse server report their own.
const disk = config.KAFKA_BROKERS || config.CLICKHOUSE_URL ? null : await embeddedDiskUse(config.DATA_DIR, config.CLICKHOUSE_DATABASE);
const diskJson = disk ? { disk: { topics: Object.fromEntries(disk.topics), tables: Object.fromEntries(disk.tables) } } : {};
if (values.json) console.log(JSON.stringify({ source, unreachable: missed, stages: rows, ...(deadLetters !== null ? { deadLetters } : {}), ...diskJson }, null, 2));
else {
  console.log(`source: ${source}, interval ${intervalMs} ms`);
  for (const m of missed) console.log(`unreachable: ${m}`);
  console.log(rows.length ? formatStatus(rows) : '(no stage has reported yet)');
  // Records no stage could read: each is kept in dead.letters with its reason (see pipelines/TOPICS.md).
  if (deadLetters !== null) console.log(`dead letters: ${deadLetters} record(s) in dead.letters`);
  if (disk) for (const l of formatDiskUse(disk)) console.log(l);
  else console.log('disk: Kafka and ClickHouse server keep their files on their hosts (kafka-log-dirs.sh, system.parts)');
}
