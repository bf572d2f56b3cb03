// The roster reader against the simulator's sports data source: every team's roster into
// reference.rosters once, and a second round with nothing changed writes nothing; a poller started
// afresh reads what the topic holds (embedded log) and writes nothing either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingRecord, Producer } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import { defineTopics, type RawRecord } from '../../topics.ts';
import { LEAGUE_LIST, TEAMS } from '../../matching/teams.ts';
import { startSimulator, type Simulator } from '../simulator/server.ts';
import { RosterPoller, rosterKey, writtenRosters } from './rosters.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedLog } from '../../log/embedded.ts';
import { createAllTopics } from '../../topics.ts';
import { testSerde } from '../../runtime/test-services.ts';
import { randomName } from '../../../test/services/index.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, scale: 0, scenario: 'default' });
});
afterAll(async () => sim.close());

describe('RosterPoller', () => {
  it('writes each team roster once, then only what changed (nothing)', async () => {
    const topics = defineTopics({ prefix: `t${Math.random().toString(36).slice(2)}.` });
    const sent: { topic: string; key: string; value: RawRecord }[] = [];
    // The serde and producer as seams: what was encoded is what was sent.
    const serde = { encode: async (_t: unknown, key: string, value: RawRecord) => ({ key: Buffer.from(key), value: Buffer.from(JSON.stringify(value)) }) } as unknown as Serde;
    const producer: Producer = {
      async send(topic: string, records: OutgoingRecord[]) {
        for (const r of records) sent.push({ topic, key: String(r.key), value: JSON.parse(String(r.value)) as RawRecord });
      },
      async close() {},
    };
    const p = new RosterPoller({ baseUrl: sim.baseUrl, producer, serde, topics, intervalMs: 3_600_000, deadlineMs: 5_000 });
    try {
      await p.runRound();
      const teams = LEAGUE_LIST.reduce((n, l) => n + TEAMS[l].length, 0);
      expect(sent.length).toBeGreaterThan(teams / 2);
      expect(new Set(sent.map((s) => s.topic))).toEqual(new Set([topics['reference.rosters'].name]));
      const first = sent[0]!;
      expect(first.key).toBe(rosterKey(first.value.native_id.split(':')[0]!, first.value.native_id.split(':')[1]!));
      expect((JSON.parse(first.value.payload) as { athletes: unknown[] }).athletes.length).toBeGreaterThan(3);
      const n = sent.length;
      await p.runRound();
      expect(sent.length).toBe(n);
      expect(p.rounds).toBe(2);
    } finally {
      await p.stop();
    }
  });

  it('a poller started afresh with what the topic holds writes only rosters that changed (none)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-rosters-'));
    const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 });
    const topics = defineTopics({ prefix: `${randomName('ro')}.`, partitions: 3 });
    await createAllTopics(log, topics);
    const serde = await testSerde(dir);
    const producer = await log.producer();
    const ends = async () => (await log.topicOffsets(topics['reference.rosters'].name)).reduce((n, p) => n + Number(p.high), 0);
    try {
      const first = new RosterPoller({ baseUrl: sim.baseUrl, producer, serde, topics, intervalMs: 3_600_000, deadlineMs: 5_000 });
      await first.runRound();
      await first.stop();
      const written = await ends();
      expect(written).toBeGreaterThan(10);
      const held = await writtenRosters({ log, serde, topics });
      expect(held.size).toBe(written);
      const again = new RosterPoller({ baseUrl: sim.baseUrl, producer, serde, topics, intervalMs: 3_600_000, deadlineMs: 5_000, written: held });
      await again.runRound();
      await again.stop();
      expect(await ends()).toBe(written);
      // Without what the topic holds, every roster is written again (what a restart did before).
      const forgetful = new RosterPoller({ baseUrl: sim.baseUrl, producer, serde, topics, intervalMs: 3_600_000, deadlineMs: 5_000 });
      await forgetful.runRound();
      await forgetful.stop();
      expect(await ends()).toBe(2 * written);
    } finally {
      await producer.close();
      await log.close();
    }
  });
});
