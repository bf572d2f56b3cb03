// One `info` line a minute for operators: what the pipeline did since the last line (records read per
// venue, crawls, venue faults, failed stage batches) and how far behind its stages are (consumer lag).
// Per-crawl lines are `debug`; an operator who needs them sets LOG_LEVEL=debug. In: the pollers'
// status (when this process runs them) and the process's stage metrics. Out: a `pipeline summary`
// line every LOG_SUMMARY_MS, `warn` instead of `info` when the lag is above LOG_LAG_WARN records.
import type { PollerStatus } from '../venues/pollers/poller.ts';
import { pipelineMetrics, type PipelineMetrics } from './metrics.ts';

/** Cumulative counts at one moment; two of them make a summary. */
export interface SummaryCounts {
  /** Per venue: records emitted, crawls completed, faults (all kinds), since start. */
  venues: Record<string, { records: number; crawls: number; faults: number }>;
  /** Failed stage batches since start (each is redelivered). */
  stageErrors: number;
}

export interface PipelineSummary {
  /** Records the pollers read per venue in the interval. */
  records: Record<string, number>;
  crawls: number;
  /** Venue faults in the interval, per venue that had any. */
  faults: Record<string, number>;
  stageErrors: number;
  /** Largest consumer lag of a stage (records, summed over its input partitions), and which stage. */
  maxLag: number;
  laggingStage: string | null;
}

export function pollerCounts(pollers: PollerStatus[]): SummaryCounts['venues'] {
  const out: SummaryCounts['venues'] = {};
  for (const p of pollers) {
    const faults = Object.values(p.faults).reduce((a, n) => a + (n ?? 0), 0);
    out[p.provider] = { records: p.recordsEmitted, crawls: p.crawlsCompleted, faults };
  }
  return out;
}

/** The interval between two counts (prev null: since start), with the lag per stage read now. */
export function summarize(prev: SummaryCounts | null, cur: SummaryCounts, lagByStage: Map<string, number>): PipelineSummary {
  const records: Record<string, number> = {};
  const faults: Record<string, number> = {};
  let crawls = 0;
  for (const [venue, c] of Object.entries(cur.venues)) {
    const p = prev?.venues[venue] ?? { records: 0, crawls: 0, faults: 0 };
    records[venue] = c.records - p.records;
    crawls += c.crawls - p.crawls;
    if (c.faults > p.faults) faults[venue] = c.faults - p.faults;
  }
  let maxLag = 0;
  let laggingStage: string | null = null;
  for (const [stage, lag] of lagByStage) {
    if (lag > maxLag) {
      maxLag = lag;
      laggingStage = stage;
    }
  }
  return { records, crawls, faults, stageErrors: cur.stageErrors - (prev?.stageErrors ?? 0), maxLag, laggingStage };
}

/** Lag per stage (summed over its input topics) and failed batches, from the process's metrics. */
export async function stageReadings(metrics: PipelineMetrics = pipelineMetrics): Promise<{ lagByStage: Map<string, number>; stageErrors: number }> {
  const lagByStage = new Map<string, number>();
  for (const v of (await metrics.lag.get()).values) {
    const stage = String(v.labels.stage);
    lagByStage.set(stage, (lagByStage.get(stage) ?? 0) + v.value);
  }
  const stageErrors = (await metrics.errors.get()).values.reduce((a, v) => a + v.value, 0);
  return { lagByStage, stageErrors };
}

export interface SummaryLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SummaryOptions {
  logger: SummaryLogger;
  intervalMs: number;
  /** Lag (records) above which the line is a warn. */
  lagWarn: number;
  /** The pollers' status when this process runs them. */
  pollers?: () => PollerStatus[];
  metrics?: PipelineMetrics;
}

/** Logs a summary every intervalMs until the returned stop() is called. */
export function startPipelineSummary(o: SummaryOptions): { stop(): void } {
  let prev: SummaryCounts | null = null;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const { lagByStage, stageErrors } = await stageReadings(o.metrics);
      const cur: SummaryCounts = { venues: pollerCounts(o.pollers?.() ?? []), stageErrors };
      const s = summarize(prev, cur, lagByStage);
      prev = cur;
      if (s.maxLag > o.lagWarn) o.logger.warn({ ...s, lagWarn: o.lagWarn }, 'pipeline summary: lag above LOG_LAG_WARN');
      else o.logger.info(s, 'pipeline summary');
    } catch (err) {
      o.logger.warn({ err: String(err) }, 'pipeline summary could not be read');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), o.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
