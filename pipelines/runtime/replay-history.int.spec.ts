// Replay without downtime for history tables (replayHistorySideBySide) on chdb and the embedded log:
// while the service's raw-history sink keeps writing and readers keep querying, raw_records is rebuilt
// from the log into a shadow table, exchanged with the live one, caught up and the old one dropped.
// A table a faulty sink left wrong comes out exactly as the log says; readers never see it missing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLog } from '../log/embedded.ts';
import { crawlComplete, venue1Records, venue2Records, type GameSpec } from '../matching/fixtures.ts';
import { ChdbHistory } from '../readmodels/chdb-history.ts';
import { migrate } from '../readmodels/migrate.ts';
import { createAllTopics, defineTopics, rawTopicId, type RawRecord } from '../topics.ts';
import { replayHistorySideBySide } from './replay.ts';
import { startStage } from './runner.ts';
import { rawHistorySink } from './sinks.ts';
import { testSerde } from './test-services.ts';

const NOW = Date.now() - 3600_000; // recent: raw_records keeps HISTORY_TTL_DAYS of rows
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const game = (i: number): GameSpec => ({ league: 'nhl', away: 'tor', home: 'mtl', start: NOW + (i + 1) * 86400_000, total: 6.5 });

describe('history replay side by side', () => {
  it('rebuilds raw_records from the log while the live sink writes and readers read, then switches', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-replay-hist-'));
    const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 });
    const topics = defineTopics({ prefix: `t${randomBytes(4).toString('hex')}.`, partitions: 3 });
    await createAllTopics(log, topics);
    const serde = await testSerde(dir);
    const history = await ChdbHistory.open(path.join(dir, 'chdb'), `r${randomBytes(4).toString('hex')}`);
    await migrate(history);
    const producer = await log.producer();
    cleanups.push(async () => {
      await producer.close();
      await log.close();
      await history.close();
    });
    const send = async (records: RawRecord[]) => {
      for (const venue of ['venue_1', 'venue_2'] as const) {
        const t = topics[rawTopicId(venue)];
        const list = records.filter((r) => r.venue === venue);
        await producer.send(t.name, await Promise.all(list.map((r) => serde.encode(t, r.native_id, r, { timestamp: r.read_started_at }))));
      }
    };
    const crawl = (i: number): RawRecord[] => [
      ...venue1Records(game(i), NOW + i, {}, `c${i}`),
      ...venue2Records(game(i), NOW + i, { idBase: 9_600_000 + i * 10_000 }, `c${i}`),
      crawlComplete('venue_1', `c${i}`, NOW + i),
      crawlComplete('venue_2', `c${i}`, NOW + i),
    ];
    const deps = { log, serde, topics, history };
    const count = async () => Number((await history.query<{ n: number }>('SELECT count() AS n FROM raw_records FINAL'))[0]!.n);

    // The service's sink, running throughout.
    const live = await startStage(rawHistorySink, deps);
    cleanups.push(() => live.stop());
    let produced = 0;
    for (let i = 0; i < 3; i++) {
      const c = crawl(i);
      await send(c);
      produced += c.length;
    }
    await live.caughtUp(30_000);
    expect(await count()).toBe(produced);
    // A faulty sink's doing: a venue's rows gone, a row no record wrote.
    await history.exec(`DELETE FROM raw_records WHERE venue = 'venue_2'`);
    await history.insert('raw_records', [{ topic: 'x', partition: 0, offset: 0, venue: 'venue_9', native_id: 'bogus', record_type: 'market', read_started_at: NOW, payload: '{}' }]);
    const wrong = await count();
    expect(wrong).toBeLessThan(produced);

    // Readers and the pipeline keep going while the replay runs.
    let reading = true;
    let reads = 0;
    let readErrors = 0;
    let fewest = Infinity;
    const reader = (async () => {
      while (reading) {
        try {
          fewest = Math.min(fewest, await count());
          reads++;
        } catch {
          readErrors++;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const during = (async () => {
      for (let i = 3; i < 6; i++) {
        const c = crawl(i);
        await send(c);
        produced += c.length;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const lines: string[] = [];
    const result = await replayHistorySideBySide([rawHistorySink], deps, { say: (l) => lines.push(l) });
    await during;
    await live.caughtUp(30_000);
    reading = false;
    await reader;

    expect(result.tables).toEqual(['raw_records']);
    expect(lines.some((l) => l.startsWith('switched raw_records'))).toBe(true);
    // Exactly what the log holds: the deleted venue back, the bogus row gone, nothing doubled.
    expect(await count()).toBe(produced);
    expect(await history.query(`SELECT native_id FROM raw_records FINAL WHERE native_id = 'bogus'`)).toEqual([]);
    expect(Number((await history.query<{ n: number }>(`SELECT count() AS n FROM raw_records FINAL WHERE venue = 'venue_2'`))[0]!.n)).toBeGreaterThan(0);
    // Readers were answered throughout, never from a missing or empty table.
    expect(readErrors).toBe(0);
    expect(reads).toBeGreaterThan(0);
    expect(fewest).toBeGreaterThan(0);
    // Nothing left behind: no shadow table, no replay group.
    expect(await history.query(`SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE '%replay%'`)).toEqual([]);
    // The live sink still writes the (rebuilt) live table.
    const more = crawl(9);
    await send(more);
    await live.caughtUp(30_000);
    expect(await count()).toBe(produced + more.length);
  }, 120_000);
});
