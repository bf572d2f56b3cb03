// The operator commands as processes, on Kafka: bin/status.ts finds the stage metrics from the
// roles' own environment (METRICS_PORT) and says which endpoints it tried when none answers;
// `--log` reads the lag from Kafka and exits; bin/replay.ts refuses in one line, naming the group,
// while a stage group has a live member (the processors running), and changes nothing then; with
// PRICE_HISTORY=false it leaves the price history out of what it rebuilds.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config.ts';
import { createLog } from '../pipelines/log/index.ts';
import type { Consumer, Log } from '../pipelines/log/types.ts';
import { pipelineMetrics, startMetricsServer } from '../pipelines/runtime/metrics.ts';
import { stageGroupId } from '../pipelines/runtime/runner.ts';
import { READ_MODEL_STAGES } from '../pipelines/runtime/stages.ts';
import { createAllTopics, defineTopics, topicSettings } from '../pipelines/topics.ts';
import { available, freePort, randomName, requireKafka } from '../test/services/index.ts';

const kafka = await available('kafka');
const ROOT = resolve(import.meta.dirname, '..');

/** Runs a bin/ command to its end (the test's timeout bounds a command that never exits). */
function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', REDIS_URL: '', ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', fail);
    p.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('bin/replay.ts with PRICE_HISTORY=false (embedded, dry run)', () => {
  it('leaves the price-history sink and its tables out of what it would reset and clear; with it on they are in', async () => {
    const plan = async (priceHistory: string) => {
      const dir = mkdtempSync(resolve(tmpdir(), `${randomName('pm-replay')}-`));
      try {
        const r = await run('bin/replay.ts', ['--dry-run'], { KAFKA_BROKERS: '', CLICKHOUSE_URL: '', DATA_DIR: dir, PRICE_HISTORY: priceHistory });
        expect(r.code, r.stderr).toBe(0);
        return r.stdout;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    const off = await plan('false');
    expect(off).toContain('reset group stage.sink.raw-history');
    expect(off).not.toContain('sink.price-history');
    expect(off).not.toMatch(/price_/);
    const on = await plan('true');
    expect(on).toContain('reset group stage.sink.price-history');
    expect(on).toContain('price_history');
  }, 120_000);
});

describe('bin/status.ts without Kafka', () => {
  it('scrapes the METRICS_PORT the roles use', async () => {
    const port = await freePort();
    const m = await startMetricsServer(port, '127.0.0.1');
    const stage = randomName('status-stage');
    pipelineMetrics.recordsIn.inc({ stage, topic: 't' }, 3);
    try {
      const r = await run('bin/status.ts', ['--interval', '100'], { METRICS_PORT: String(port), KAFKA_BROKERS: '', REDIS_URL: '' });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`source: http://127.0.0.1:${port}/metrics`);
      expect(r.stdout).toContain(stage);
    } finally {
      await m.close();
    }
  });

  it('names every endpoint it tried when none answers, in one line, and exits 1', async () => {
    const port = await freePort();
    const r = await run('bin/status.ts', ['--interval', '0'], { METRICS_PORT: String(port), KAFKA_BROKERS: '', REDIS_URL: '' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`no stage metrics answered: http://127.0.0.1:${port}/metrics`);
  });

  it('replay --side-by-side of history sinks without a ClickHouse server refuses in one line, saying why', async () => {
    const r = await run('bin/replay.ts', ['--side-by-side', '--stages', 'sink.raw-history'], { KAFKA_BROKERS: '', REDIS_URL: '', CLICKHOUSE_URL: '', DATA_DIR: '/nonexistent/replay-must-not-open-it' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("replay: --side-by-side rebuilds history tables in a ClickHouse server (CLICKHOUSE_URL) only: without one they live in the processors' own chdb");
    expect(r.stderr).toContain('replay sink.raw-history stop-the-world');
  });
});

describe.skipIf(!kafka.ok)(`operator commands on Kafka (${kafka.reason})`, () => {
  let brokers: string;
  let log: Log;
  const prefix = `${randomName('ops')}.`;
  beforeAll(async () => {
    brokers = (await requireKafka()).brokers.join(',');
    const config = loadConfig({ KAFKA_BROKERS: brokers, TOPIC_PREFIX: prefix });
    log = await createLog(config);
    await createAllTopics(log, defineTopics(topicSettings(config)));
  });
  afterAll(async () => {
    await log?.close();
  });

  it('status --log reads the lag from Kafka and exits', async () => {
    const r = await run('bin/status.ts', ['--log', '--interval', '0'], { KAFKA_BROKERS: brokers, TOPIC_PREFIX: prefix });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('source: log (kafka)');
    for (const s of READ_MODEL_STAGES) expect(r.stdout).toContain(s.name);
  });

  it('replay refuses in one line, naming the group, while a stage group has a live member', async () => {
    const config = loadConfig({ KAFKA_BROKERS: brokers, TOPIC_PREFIX: prefix });
    const topics = defineTopics(topicSettings(config));
    const stage = READ_MODEL_STAGES[0]!;
    const groupId = stageGroupId(stage, topics);
    const consumer: Consumer = log.consumer({ groupId, topics: stage.inputs.map((i) => topics[i].name), fromBeginning: true });
    void consumer.run(async () => {});
    try {
      // Joined once describeGroups lists the member (a rebalance takes a moment).
      for (let i = 0; i < 100 && ((await log.liveMembers!([groupId])).get(groupId) ?? 0) === 0; i++) await new Promise((r) => setTimeout(r, 200));
      const r = await run('bin/replay.ts', ['--from', 'earliest'], { KAFKA_BROKERS: brokers, TOPIC_PREFIX: prefix, DATA_DIR: '/nonexistent/replay-must-not-open-it' });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^replay: refused: 1 of the \d+ consumer groups have live members/);
      expect(lines[0]).toContain(`${groupId}: 1`);
      expect(lines[0]).toContain('stop the processors first');
    } finally {
      await consumer.stop();
    }
  });
});
