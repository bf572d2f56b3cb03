// The fee schedule poller against the simulator's venue_1 (FORMATS.md: GET /venue_1/series/{s} and
// /venue_1/series/fee_changes) on the embedded log: every series' schedule with its scheduled
// changes into reference.fee_schedules once; a second round with nothing changed writes nothing; a
// poller started afresh with what the topic holds writes nothing either; a failing venue writes
// nothing (the schedule last read stays); a series that is gone (404) is written as a tombstone;
// the sports snapshot sink's restore reads the schedules back. On the embedded log and on Kafka.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedLog } from '../../log/embedded.ts';
import { KafkaLog } from '../../log/kafka.ts';
import type { Log } from '../../log/types.ts';
import { createAllTopics, defineTopics } from '../../topics.ts';
import { testSerde } from '../../runtime/test-services.ts';
import { restoreContext } from '../../runtime/runner.ts';
import { sportsSnapshotStage } from '../../matching/stages/sports-snapshot.ts';
import { available, randomName, requireKafka } from '../../../test/services/index.ts';
import { startSimulator, type Simulator } from '../simulator/server.ts';
import { VenueEndpoints } from '../client/endpoints.ts';
import { feeScheduleKey, Venue1FeeBook } from '../adapters/venue_1/fee-book.ts';
import { VENUE1_SPORTS_SERIES } from '../adapters/venue_1/canonical.ts';
import { FeeSchedulePoller, writtenFeeSchedules } from './fee-schedules.ts';
import { collectGarbage } from '../../../test/collect-garbage.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, scale: 0, scenario: 'default' });
});
afterAll(async () => sim.close());

const embedded = (dir: string): Promise<Log> => EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 });
// In CI (CI=true) a missing broker throws here: the suite fails rather than skips.
const kafka = await available('kafka');
const logs: [string, (dir: string) => Promise<Log>][] = [['the embedded log', embedded]];
if (kafka.ok) logs.push(['Kafka', async () => new KafkaLog({ brokers: (await requireKafka()).brokers, retryBackoffMs: 20 })]);

async function setup(openLog: (dir: string) => Promise<Log>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-fees-'));
  const log = await openLog(dir);
  const topics = defineTopics({ prefix: `${randomName('fe')}.`, partitions: 3 });
  await createAllTopics(log, topics);
  const serde = await testSerde(dir);
  const producer = await log.producer();
  const ends = async () => (await log.topicOffsets(topics['reference.fee_schedules'].name)).reduce((n, p) => n + Number(p.high), 0);
  const poller = (o: { series?: string[]; written?: Map<string, string>; deadlineMs?: number } = {}) =>
    new FeeSchedulePoller({ endpoints: new VenueEndpoints(sim.baseUrl), producer, serde, topics, intervalMs: 3_600_000, deadlineMs: 5_000, ...o });
  const round = async (p: FeeSchedulePoller) => {
    await p.runRound();
    await p.stop();
  };
  return { log, serde, topics, producer, ends, poller, round, close: async () => (await producer.close(), await log.close()) };
}

describe.each(logs)('FeeSchedulePoller on %s', (_name, openLog) => {
  it('writes each series schedule once with its scheduled changes, then only what changed (nothing), also after a restart', async () => {
    const s = await setup(openLog);
    try {
      await s.round(s.poller());
      // The simulator answers a schedule for every sports series.
      expect(await s.ends()).toBe(VENUE1_SPORTS_SERIES.length);
      const held = await writtenFeeSchedules(s);
      expect(held.size).toBe(VENUE1_SPORTS_SERIES.length);
      const nfl = JSON.parse(held.get(feeScheduleKey('venue_1', 'KXNFLGAME'))!) as { series: { fee_type: string; fee_multiplier: number }; series_fee_change_arr: { fee_multiplier: number; scheduled_ts: string }[] };
      expect(nfl.series).toMatchObject({ fee_type: 'quadratic', fee_multiplier: 0.07 });
      expect(nfl.series_fee_change_arr).toEqual([{ series_ticker: 'KXNFLGAME', fee_type: 'quadratic', fee_multiplier: 0.05, scheduled_ts: '2027-01-01T00:00:00Z' }]);
      // What the book reads of them: first quarter lines fee free, props charge makers too.
      const book = new Venue1FeeBook();
      for (const [k, payload] of held) book.apply(k, { venue: 'venue_1', record_type: 'fee_schedule', native_id: k, read_started_at: 0, payload, read_id: null, source_url: null });
      expect(book.feesOf('KXNBA1QSPREAD-26NOV21LALBOS-LAL3', Date.parse('2026-11-21T00:00:00Z')).availability).toBe('zero');
      expect(book.feesOf('KXNBAPTS-26NOV21LALBOS-LALLJAMES23-25', Date.parse('2026-11-21T00:00:00Z')).maker?.rate).toBe(0.0175);

      const again = s.poller({ written: held });
      await s.round(again);
      expect(again.rounds).toBe(1);
      expect(await s.ends()).toBe(VENUE1_SPORTS_SERIES.length);
      // Without what the topic holds, every schedule is written again.
      await s.round(s.poller({ series: ['KXNBAGAME'] }));
      expect(await s.ends()).toBe(VENUE1_SPORTS_SERIES.length + 1);
    } finally {
      await s.close();
    }
  });

  it('a series read slower than the deadline writes nothing, also when the heap is collected while it waits', async () => {
    const s = await setup(openLog);
    try {
      sim.faults.set('venue_1', { kind: 'slow', delay_ms: 1_000, paths: '/series/' });
      try {
        // Full GCs while the reads wait (a schedule and its changes) must not take their deadline away (client/http.ts readDeadline).
        const collecting = setInterval(collectGarbage, 50);
        try {
          await s.round(s.poller({ series: ['KXNBAGAME'], deadlineMs: 300 }));
        } finally {
          clearInterval(collecting);
        }
      } finally {
        sim.faults.set('venue_1', null);
      }
      expect(await s.ends()).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('a failing series read writes nothing; a series that answers 404 is written as a tombstone', async () => {
    const s = await setup(openLog);
    try {
      sim.faults.set('venue_1', { kind: 'down', paths: '/series/' });
      try {
        await s.round(s.poller({ series: ['KXNBAGAME'] }));
      } finally {
        sim.faults.set('venue_1', null);
      }
      expect(await s.ends()).toBe(0);
      // A series the venue no longer has (the simulator answers 404 for it) that was written before.
      const gone = feeScheduleKey('venue_1', 'KXGONE');
      await s.round(s.poller({ series: ['KXGONE', 'KXNBAGAME'], written: new Map([[gone, '{"series":{}}']]) }));
      expect(await s.ends()).toBe(2);
      const held = await writtenFeeSchedules(s);
      expect([...held.keys()]).toEqual([feeScheduleKey('venue_1', 'KXNBAGAME')]);
      // Never written and still 404: nothing.
      await s.round(s.poller({ series: ['KXGONE'] }));
      expect(await s.ends()).toBe(2);
      // The sports snapshot sink, restored from the log as at a start, prices by what the topic holds.
      const sink = sportsSnapshotStage({ tickMs: 3_600_000 });
      await sink.restore!(restoreContext(s, randomName('sink')));
      expect(sink.state().venue1Fees.size).toBe(1);
      expect(sink.state().venue1Fees.feesOf('KXNBAGAME-26NOV21LALBOS-LAL', Date.parse('2026-11-21T00:00:00Z'))).toMatchObject({ availability: 'published', taker: { rate: 0.07 } });
    } finally {
      await s.close();
    }
  });
});
