// An exclusive stage on real Kafka (kafkajs): of two replicas in one group, one consumes every
// partition and ticks while the other stands by (no batches, no ticks); when the active one stops,
// the standby is given everything, reads the state again (restore) and carries on from the
// committed offsets, so every record is handled and none by both replicas at once.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { available, requireKafka } from '../../test/services/index.ts';
import { KafkaLog } from '../log/kafka.ts';
import { createAllTopics, defineTopics } from '../topics.ts';
import { StageRunner } from './runner.ts';
import { produceRaw, randomPrefix, rawMarket } from './testkit.ts';
import { testSerde } from './test-services.ts';
import type { StageDef } from './types.ts';

const availability = await available('kafka');

async function until(f: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!availability.ok)(`exclusive stage, active and standby (${availability.reason})`, () => {
  it('one replica consumes and ticks, the other takes over when it stops', async () => {
    const { brokers } = await requireKafka();
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-standby-'));
    const topics = defineTopics({ prefix: randomPrefix(), partitions: 3 });
    const log = new KafkaLog({ brokers, retryBackoffMs: 20 });
    const serde = await testSerde(dir);
    await createAllTopics(log, topics);
    const seen = { a: [] as string[], b: [] as string[] };
    const ticks = { a: 0, b: 0 };
    const restores = { a: 0, b: 0 };
    const stage = (who: 'a' | 'b'): StageDef => ({
      name: 'test.standby',
      inputs: ['raw.venue_4'],
      exclusive: true,
      async restore() {
        restores[who]++;
      },
      handle: (rs) => (seen[who].push(...rs.map((r) => r.key!)), {}),
      tick: { ms: 50, run: () => (ticks[who]++, {}) },
    });
    const a = new StageRunner(stage('a'), { log, serde, topics });
    const logB = new KafkaLog({ brokers, retryBackoffMs: 20 });
    const b = new StageRunner(stage('b'), { log: logB, serde, topics });
    const producer = await log.producer();
    try {
      await a.start();
      await b.start();
      await produceRaw({ serde, topics }, producer, Array.from({ length: 30 }, (_, i) => rawMarket('venue_4', `first-${i}`, `First ${i}`)));
      await until(() => seen.a.length + seen.b.length >= 30, 60_000, 'the first 30 records');
      // Everything went to one replica; the other neither consumed nor ticked after the group settled.
      const [active, standby] = seen.a.length >= 30 ? (['a', 'b'] as const) : (['b', 'a'] as const);
      expect(seen[standby]).toEqual([]);
      const standbyTicks = ticks[standby];
      await new Promise((r) => setTimeout(r, 500));
      expect(ticks[standby]).toBe(standbyTicks);
      expect(ticks[active]).toBeGreaterThan(0);
      const restoresBefore = restores[standby];
      // The active replica stops: the standby is given every partition and reads the state again.
      await (active === 'a' ? a : b).stop();
      await produceRaw({ serde, topics }, producer, Array.from({ length: 20 }, (_, i) => rawMarket('venue_4', `second-${i}`, `Second ${i}`)));
      await until(() => seen[standby].length >= 20, 60_000, 'the standby to take over');
      expect(restores[standby]).toBeGreaterThan(restoresBefore);
      expect(new Set([...seen.a, ...seen.b])).toEqual(new Set([...Array.from({ length: 30 }, (_, i) => `first-${i}`), ...Array.from({ length: 20 }, (_, i) => `second-${i}`)]));
      expect(seen[standby].filter((k) => k.startsWith('first-'))).toEqual([]);
    } finally {
      await producer.close();
      await a.stop();
      await b.stop();
      await log.close();
      await logB.close();
    }
  }, 120_000);
});
