// The worker-hosted history sinks (Kafka) killed mid-stream: a process runs the raw-history sink on its
// history worker thread (consumed, written and committed there), is SIGKILLed once the sink's group has
// committed part of the stream, and a new process finishes it. Every record is in the history exactly
// once afterwards. As backbone.e2e.spec.ts's kill test, but the kill is triggered by the group's
// committed offsets read from here (the worker's batches print nothing on the process's stdout).
import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { available, requireKafka } from '../../test/services/index.ts';
import { KafkaLog } from '../log/kafka.ts';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { avroSerde } from '../serde/index.ts';
import { createAllTopics, defineTopics } from '../topics.ts';
import { groupLag, stageGroupId } from './runner.ts';
import { rawHistorySink } from './sinks.ts';
import { produceRaw, randomPrefix, rawMarket, spawnStageProcess } from './testkit.ts';
import type { HostedWorkerSettings } from './testdata/hosted-worker.ts';

// In CI (CI=true) a missing broker throws here: the suite fails rather than skips.
const availability = await available('kafka');
const here = path.dirname(fileURLToPath(import.meta.url));

const runWorker = (settings: HostedWorkerSettings, onLine: (line: string, child: ChildProcess) => void) =>
  spawnStageProcess(path.join(here, 'testdata/hosted-worker.ts'), 'HOSTED_WORKER', settings, onLine);

for (const client of ['kafkajs'] as const) {
  describe.skipIf(!availability.ok)(`history sinks on the worker, killed mid-stream, ${client} (${availability.reason})`, () => {
    it('loses no record and duplicates none after a restart', async () => {
      const { brokers } = await requireKafka();
      const dir = mkdtempSync(path.join(tmpdir(), 'pm-hosted-kill-'));
      const prefix = randomPrefix();
      const topics = defineTopics({ prefix, partitions: 3 });
      const log = new KafkaLog({ brokers });
      try {
        await createAllTopics(log, topics);
        const serde = avroSerde(new EmbeddedRegistry(path.join(dir, 'registry')));
        const n = 3000;
        const venues = ['venue_3', 'venue_5', 'venue_7'] as const;
        const producer = await log.producer();
        await produceRaw({ topics, serde }, producer, Array.from({ length: n }, (_, i) => rawMarket(venues[i % 3]!, `${prefix}m${i}`, `Market ${i}`, { seq: i })));
        await producer.close();
        const names = venues.map((v) => topics[`raw.${v}`].name);
        const group = stageGroupId(rawHistorySink, topics);
        const committed = async () => {
          let c = 0;
          for (const t of names) for (const o of (await log.groupOffsets(group, t)).values()) c += Number(o);
          return c;
        };
        const settings: HostedWorkerSettings = { dir, prefix, database: `hk_${randomBytes(4).toString('hex')}`, client, brokers, maxBatch: 50, exitWhenCaughtUp: false };

        // Killed once the group has committed a third of the stream (read from here, polling).
        const first = runWorker(settings, () => {});
        let killedAt = -1;
        const deadline = Date.now() + 60_000;
        while (killedAt < 0 && Date.now() < deadline) {
          const c = await committed();
          if (c >= n / 3) {
            first.child.kill('SIGKILL');
            killedAt = c;
          } else await new Promise((r) => setTimeout(r, 10));
        }
        if (killedAt < 0) first.child.kill('SIGKILL');
        await first.exited;
        expect(killedAt).toBeGreaterThanOrEqual(n / 3);
        // Mid-stream: part committed, part left for the next process.
        const lag = [...(await groupLag(log, group, names)).values()].reduce((a, b) => a + b, 0);
        expect(lag).toBeGreaterThan(0);

        let caughtUp = false;
        const second = runWorker({ ...settings, exitWhenCaughtUp: true }, (line) => {
          if (line === 'caught-up') caughtUp = true;
        });
        await second.exited;
        expect(caughtUp).toBe(true);
        expect(await committed()).toBe(n);

        // The children are gone: chdb's directory is this process's now.
        const history = await ChdbHistory.open(path.join(dir, 'chdb'), settings.database);
        try {
          const [raw] = await history.query<{ c: number; u: number; s: number }>(
            `SELECT count() AS c, uniqExact(native_id) AS u, sum(JSONExtractUInt(payload, 'seq')) AS s FROM raw_records FINAL WHERE native_id LIKE {p:String}`,
            { p: `${prefix}m%` },
          );
          expect(raw).toEqual({ c: n, u: n, s: (n * (n - 1)) / 2 });
        } finally {
          await history.close();
        }
      } finally {
        await log.close();
      }
    });
  });
}
