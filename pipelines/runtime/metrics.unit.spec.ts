// Reading the stage metrics back: two scrapes become per-stage throughput and lag (bin/status.ts).
import { describe, expect, it } from 'vitest';
import { formatStatus, parseMetrics, pipelineMetrics, PipelineMetrics, startMetricsServer, summarize } from './metrics.ts';

describe('stage metrics', () => {
  it('parses what prom-client writes, and two scrapes give rates per stage', async () => {
    const m = new PipelineMetrics();
    const stop = m.addLagSource({ stage: 'proc.a', lag: async () => new Map([['raw.venue_1', 7], ['raw.venue_2', 3]]) });
    m.recordsIn.inc({ stage: 'proc.a', topic: 'raw.venue_1' }, 100);
    m.batches.inc({ stage: 'proc.a' }, 2);
    m.batchSeconds.observe({ stage: 'proc.a' }, 0.01);
    m.batchSeconds.observe({ stage: 'proc.a' }, 0.03);
    const before = parseMetrics(await m.text());
    m.recordsIn.inc({ stage: 'proc.a', topic: 'raw.venue_2' }, 400);
    m.recordsOut.inc({ stage: 'proc.a', topic: 'canonical.markets' }, 200);
    m.batches.inc({ stage: 'proc.a' }, 1);
    m.batchSeconds.observe({ stage: 'proc.a' }, 0.05);
    const after = parseMetrics(await m.text());
    expect(after.find((s) => s.name === 'pm_stage_consumer_lag' && s.labels.topic === 'raw.venue_1')?.value).toBe(7);
    const [row] = summarize(before, after, 2000);
    expect(row!.stage).toBe('proc.a');
    expect(row!.inPerSec).toBe(200);
    expect(row!.outPerSec).toBe(100);
    expect(row!.lag).toBe(10);
    expect(row!.recordsIn).toBe(500);
    expect(row!.batches).toBe(3);
    expect(row!.meanBatchMs).toBeCloseTo(50, 5);
    expect(formatStatus([row!])).toMatch(/proc\.a\s+200\.0\s+100\.0\s+10\s+500\s+3\s+0\s+0\s+50\.0/);
    stop();
    const gone = parseMetrics(await m.text());
    expect(gone.filter((s) => s.name === 'pm_stage_consumer_lag')).toEqual([]);
  });

  it('reads escaped label values', () => {
    expect(parseMetrics('x_total{stage="a\\"b",topic="t"} 3\n# HELP y\n')).toEqual([{ name: 'x_total', labels: { stage: 'a"b', topic: 't' }, value: 3 }]);
  });
});

describe('metrics server (processes without the API)', () => {
  it('serves the stage metrics at GET /metrics and 404 elsewhere', async () => {
    pipelineMetrics.batches.inc({ stage: 'served-stage' });
    const srv = await startMetricsServer(0, '127.0.0.1');
    try {
      const res = await fetch(`${srv.address}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(await res.text()).toContain('pm_stage_batches_total{stage="served-stage"} 1');
      expect((await fetch(`${srv.address}/other`)).status).toBe(404);
    } finally {
      await srv.close();
    }
  });
});
