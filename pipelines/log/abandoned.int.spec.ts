// A batch given up at an operator's stop (BatchAbandoned, from abandonInFlight past STOP_DEADLINE_MS)
// is said once per consumer in one line without a stack, where a handler's real failure keeps its
// "will redeliver" line and stack. The embedded log on a temporary directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import { EmbeddedLog } from './embedded.ts';
import { BatchAbandoned } from './types.ts';

const b = (s: string) => Buffer.from(s);

describe('a consumer whose handler gives its batch up at the stop', () => {
  const logs: EmbeddedLog[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const l of logs.splice(0)) await l.close();
  });

  /** Runs a consumer whose handler rejects with `err` until it has been called `calls` times; returns console.error's calls. */
  async function failing(err: () => Error, calls: number): Promise<unknown[][]> {
    const log = await EmbeddedLog.open({ dir: mkdtempSync(join(tmpdir(), 'log-abandoned-')), compactIntervalMs: 0, retryBackoffMs: 1 });
    logs.push(log);
    const topic = randomName('abandoned');
    await log.createTopics([{ name: topic, partitions: 1, cleanupPolicy: 'delete' }]);
    await (await log.producer()).send(topic, [{ key: b('k'), value: b('v') }]);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const consumer = log.consumer({ groupId: randomName('group'), topics: [topic], fromBeginning: true });
    let n = 0;
    let reached!: () => void;
    const done = new Promise<void>((r) => (reached = r));
    await consumer.run(async () => {
      if (++n === calls) reached();
      throw err();
    });
    await done;
    await consumer.stop();
    return printed.mock.calls;
  }

  it('prints one line naming the group, topic and partition, with no stack, however often the batch fails', async () => {
    const calls = await failing(() => new BatchAbandoned('the stop deadline (STOP_DEADLINE_MS=15000) passed'), 4);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(1);
    const line = String(calls[0]![0]);
    expect(line).toMatch(/^embedded log: group group-\S+: batch on abandoned-\S+\[0\] given up at the stop: the stop deadline \(STOP_DEADLINE_MS=15000\) passed$/);
    expect(line).not.toContain('\n');
  });

  it('still prints every real failure with its error (and stack)', async () => {
    const calls = await failing(() => new Error('disk full'), 3);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(String(calls[0]![0])).toContain('will redeliver');
    expect((calls[0]![1] as Error).stack).toContain('disk full');
  });
});
