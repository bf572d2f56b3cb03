// Prometheus metrics of the pipeline stages ("per-stage throughput and consumer
// lag, readable by a command and as Prometheus metrics"). In: counts and timings from the stage
// runner, and consumer lag read from the log when scraped. Out: metricsText() in the Prometheus text
// format, served at /metrics on METRICS_PORT (bin/run.ts; not on the API's port) and read by
// bin/status.ts; summarize() turns two scrapes into the per-stage table status prints (pure,
// unit-tested).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface LagSource {
  stage: string;
  /** Consumer lag per input topic (sum over partitions), read from the log. */
  lag(): Promise<Map<string, number>>;
}

export class PipelineMetrics {
  readonly registry = new Registry();
  private readonly lagSources = new Set<LagSource>();
  readonly recordsIn: Counter<'stage' | 'topic'>;
  readonly recordsOut: Counter<'stage' | 'topic'>;
  readonly batches: Counter<'stage'>;
  readonly errors: Counter<'stage'>;
  readonly deadLetters: Counter<'stage' | 'topic'>;
  readonly batchSeconds: Histogram<'stage'>;
  readonly lag: Gauge<'stage' | 'topic'>;

  constructor() {
    const registers = [this.registry];
    this.recordsIn = new Counter({ name: 'pm_stage_records_in_total', help: 'Records consumed by a stage', labelNames: ['stage', 'topic'], registers });
    this.recordsOut = new Counter({ name: 'pm_stage_records_out_total', help: 'Records produced by a stage', labelNames: ['stage', 'topic'], registers });
    this.batches = new Counter({ name: 'pm_stage_batches_total', help: 'Batches a stage completed (outputs written, offsets committed)', labelNames: ['stage'], registers });
    this.errors = new Counter({ name: 'pm_stage_errors_total', help: 'Batches that failed and will be redelivered', labelNames: ['stage'], registers });
    this.deadLetters = new Counter({
      name: 'pm_stage_dead_letters_total',
      help: 'Records a stage could not read, written to dead.letters with the reason and skipped',
      labelNames: ['stage', 'topic'],
      registers,
    });
    this.batchSeconds = new Histogram({
      name: 'pm_stage_batch_duration_seconds',
      help: 'Time from a batch arriving to its outputs and read-model writes being done',
      labelNames: ['stage'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const sources = this.lagSources;
    this.lag = new Gauge({
      name: 'pm_stage_consumer_lag',
      help: 'Records in the input topic not yet committed by the stage group (sum over partitions)',
      labelNames: ['stage', 'topic'],
      registers,
      async collect() {
        this.reset();
        await Promise.all(
          [...sources].map(async (s) => {
            try {
              for (const [topic, n] of await s.lag()) this.set({ stage: s.stage, topic }, n);
            } catch {
              // A log that cannot answer now leaves the series out of this scrape.
            }
          }),
        );
      },
    });
  }

  addLagSource(s: LagSource): () => void {
    this.lagSources.add(s);
    return () => this.lagSources.delete(s);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The process's pipeline metrics (one per process, as the stages are). */
export const pipelineMetrics = new PipelineMetrics();

/** Prometheus text of every stage of this process: what GET /metrics on METRICS_PORT serves. */
export function metricsText(): Promise<string> {
  return pipelineMetrics.text();
}
export const metricsContentType = pipelineMetrics.contentType;

// ---- Reading metrics back (bin/status.ts) ----

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (the subset prom-client writes). */
export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.length === 0 || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    if (m[3]) for (const l of m[3].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    out.push({ name: m[1]!, labels, value: Number(m[4]) });
  }
  return out;
}

export interface StageStatus {
  stage: string;
  inPerSec: number;
  outPerSec: number;
  recordsIn: number;
  lag: number;
  batches: number;
  errors: number;
  deadLetters: number;
  /** Mean batch duration over the interval (or overall when nothing ran in it), ms. */
  meanBatchMs: number | null;
}

function sumBy(samples: Sample[], name: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of samples) if (s.name === name) m.set(s.labels.stage ?? '', (m.get(s.labels.stage ?? '') ?? 0) + s.value);
  return m;
}

/** Per-stage throughput and lag from two scrapes taken intervalMs apart (pure). */
export function summarize(before: Sample[], after: Sample[], intervalMs: number): StageStatus[] {
  const inA = sumBy(before, 'pm_stage_records_in_total');
  const inB = sumBy(after, 'pm_stage_records_in_total');
  const outA = sumBy(before, 'pm_stage_records_out_total');
  const outB = sumBy(after, 'pm_stage_records_out_total');
  const lag = sumBy(after, 'pm_stage_consumer_lag');
  const batchesA = sumBy(before, 'pm_stage_batches_total');
  const batches = sumBy(after, 'pm_stage_batches_total');
  const errors = sumBy(after, 'pm_stage_errors_total');
  const dead = sumBy(after, 'pm_stage_dead_letters_total');
  const sumA = sumBy(before, 'pm_stage_batch_duration_seconds_sum');
  const sumB = sumBy(after, 'pm_stage_batch_duration_seconds_sum');
  const stages = new Set([...inB.keys(), ...lag.keys(), ...batches.keys()]);
  const secs = Math.max(intervalMs, 1) / 1000;
  return [...stages].sort().map((stage) => {
    const db = (batches.get(stage) ?? 0) - (batchesA.get(stage) ?? 0);
    const ds = (sumB.get(stage) ?? 0) - (sumA.get(stage) ?? 0);
    const total = batches.get(stage) ?? 0;
    return {
      stage,
      inPerSec: ((inB.get(stage) ?? 0) - (inA.get(stage) ?? 0)) / secs,
      outPerSec: ((outB.get(stage) ?? 0) - (outA.get(stage) ?? 0)) / secs,
      recordsIn: inB.get(stage) ?? 0,
      lag: lag.get(stage) ?? 0,
      batches: total,
      errors: errors.get(stage) ?? 0,
      deadLetters: dead.get(stage) ?? 0,
      meanBatchMs: db > 0 ? (ds / db) * 1000 : total > 0 ? ((sumB.get(stage) ?? 0) / total) * 1000 : null,
    };
  });
}

export function formatStatus(rows: StageStatus[]): string {
  const head = ['stage', 'in/s', 'out/s', 'lag', 'records in', 'batches', 'errors', 'dead letters', 'batch ms'];
  const body = rows.map((r) => [
    r.stage,
    r.inPerSec.toFixed(1),
    r.outPerSec.toFixed(1),
    String(r.lag),
    String(r.recordsIn),
    String(r.batches),
    String(r.errors),
    String(r.deadLetters),
    r.meanBatchMs === null ? '-' : r.meanBatchMs.toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...body.map(line)].join('\n');
}

// ---- Serving them from a process without the API (ROLES=processors in the scale-out stack) ----

/**
 * A bare HTTP endpoint for the stage metrics: GET /metrics answers the Prometheus text, anything
 * else 404. For processes that run stages but no API; the API process serves metricsText() itself.
 */
export async function startMetricsServer(port: number, host = '0.0.0.0'): Promise<{ address: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      metricsText().then(
        (text) => {
          res.writeHead(200, { 'content-type': metricsContentType });
          res.end(text);
        },
        () => {
          res.writeHead(503);
          res.end();
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const a = server.address();
  const address = typeof a === 'object' && a ? `http://${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}` : String(a);
  return { address, close: () => new Promise<void>((r) => server.close(() => r())) };
}
