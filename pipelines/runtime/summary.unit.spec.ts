import { describe, expect, it } from 'vitest';
import { PipelineMetrics } from './metrics.ts';
import { pollerCounts, startPipelineSummary, stageReadings, summarize, type SummaryCounts } from './summary.ts';
import type { PollerStatus } from '../venues/pollers/poller.ts';

function status(provider: string, recordsEmitted: number, crawlsCompleted: number, faults: PollerStatus['faults']): PollerStatus {
  return {
    provider: provider as PollerStatus['provider'],
    state: 'idle',
    crawlsCompleted,
    crawlsAbandoned: 0,
    recordsEmitted,
    consecutiveFaults: 0,
    faults,
    lastFault: null,
    lastCrawl: null,
    feeds: {},
  };
}

describe('pipeline summary', () => {
  it('counts records per venue, crawls and faults in the interval, and names the most lagging stage', () => {
    const prev: SummaryCounts = { venues: pollerCounts([status('venue_1', 100, 2, { timeout: 1 }), status('venue_2', 40, 1, {})]), stageErrors: 3 };
    const cur: SummaryCounts = { venues: pollerCounts([status('venue_1', 250, 5, { timeout: 1 }), status('venue_2', 41, 2, { unavailable: 2, timeout: 1 })]), stageErrors: 4 };
    const s = summarize(prev, cur, new Map([['sink.raw', 12], ['canonicalize', 900]]));
    expect(s).toEqual({ records: { venue_1: 150, venue_2: 1 }, crawls: 4, faults: { venue_2: 3 }, stageErrors: 1, maxLag: 900, laggingStage: 'canonicalize' });
  });

  it('counts from start when there is no earlier reading, and reports no lagging stage without lag', () => {
    const s = summarize(null, { venues: pollerCounts([status('venue_3', 7, 1, {})]), stageErrors: 0 }, new Map());
    expect(s).toEqual({ records: { venue_3: 7 }, crawls: 1, faults: {}, stageErrors: 0, maxLag: 0, laggingStage: null });
  });

  it('reads lag per stage (summed over topics) and failed batches from the stage metrics', async () => {
    const m = new PipelineMetrics();
    const stage = `stage-${Math.random().toString(36).slice(2)}`;
    m.addLagSource({ stage, lag: async () => new Map([['raw.a', 5], ['raw.b', 7]]) });
    m.errors.inc({ stage }, 2);
    const r = await stageReadings(m);
    expect(r.lagByStage.get(stage)).toBe(12);
    expect(r.stageErrors).toBe(2);
  });

  it('logs one line per interval: info normally, warn when the lag is above the threshold', async () => {
    const m = new PipelineMetrics();
    let lag = 10;
    m.addLagSource({ stage: 'sink.raw', lag: async () => new Map([['raw.venue_1', lag]]) });
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    let arrived: () => void = () => {};
    const logger = {
      info: (obj: object, msg: string) => (lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }), arrived()),
      warn: (obj: object, msg: string) => (lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }), arrived()),
    };
    const next = () => new Promise<void>((r) => (arrived = r));
    const s = startPipelineSummary({ logger, intervalMs: 5, lagWarn: 100, metrics: m, pollers: () => [status('venue_1', 3, 1, {})] });
    await next();
    lag = 500;
    await next();
    s.stop();
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'pipeline summary', obj: { records: { venue_1: 3 }, maxLag: 10 } });
    expect(lines[1]).toMatchObject({ level: 'warn', obj: { records: { venue_1: 0 }, maxLag: 500, laggingStage: 'sink.raw' } });
  });
});
