// Replay without downtime (replaySideBySide, bin/replay.ts --side-by-side) on the embedded log and
// Redis: while the service's matching stages keep running and its API keeps answering, the store
// read models are rebuilt into a new generation, the pointer switches, the old generation goes.
// The API answers throughout (never a 5xx, never an empty list) and the same after as before.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../../test/helper.ts';
import { EmbeddedLog } from '../log/embedded.ts';
import { startSportsArea } from '../matching/area.ts';
import { crawlComplete, venue1Records, venue2Records, type GameSpec } from '../matching/fixtures.ts';
import { SportsReader } from '../matching/readmodel.ts';
import { generationNamespace, RedisSnapshotStore } from '../readmodels/redis-store.ts';
import { createAllTopics, defineTopics, rawTopicId, type RawRecord } from '../topics.ts';
import { replaySideBySide } from './replay.ts';
import { stageGroupId } from './runner.ts';
import { READ_MODEL_STAGES } from './stages.ts';
import { redisUrlForTests, testSerde } from './test-services.ts';

const redisUrl = await redisUrlForTests();
const NOW = Date.parse('2026-11-21T15:00:00Z');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const games: GameSpec[] = [
  { league: 'nhl', away: 'tor', home: 'mtl', start: Date.parse('2026-11-22T00:00:00Z'), total: 6.5 },
  { league: 'nba', away: 'bos', home: 'nyk', start: Date.parse('2026-11-22T00:30:00Z'), total: 221.5 },
];

describe('replay side by side', () => {
  it.skipIf(!redisUrl)('rebuilds the sports snapshot into a new generation while the API answers, switches the pointer and drops the old generation', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pm-replay-gen-'));
    const log = await EmbeddedLog.open({ dir: path.join(dir, 'log'), fsyncIntervalMs: 0, compactIntervalMs: 0, retryBackoffMs: 10 });
    const topics = defineTopics({ prefix: `t${randomBytes(4).toString('hex')}.`, partitions: 3 });
    await createAllTopics(log, topics);
    const serde = await testSerde(dir);
    const base = `t${randomBytes(4).toString('hex')}:`;
    // The service's store follows the pointer, as openStore() opens it for every role.
    const store = new RedisSnapshotStore({ url: redisUrl!, namespace: base, generations: true });
    const redis = new Redis(redisUrl!);
    const producer = await log.producer();
    cleanups.push(async () => {
      await producer.close();
      await log.close();
      for (const k of await redis.keys(`${base}*`)) await redis.unlink(k);
      redis.disconnect();
      await store.close();
    });

    // The service: its matching stages (ticks far apart: the test runs its rounds) and its API.
    const area = await startSportsArea({ config: { SPORTS_PUBLISH_MS: 3_600_000 }, deps: { log, serde, topics, store }, clock: () => NOW });
    cleanups.push(() => area.stop());
    const records: RawRecord[] = games.flatMap((g, i) => [...venue1Records(g, NOW, {}, 'c1'), ...venue2Records(g, NOW, { idBase: 9_500_000 + i * 10_000 }, 'c1')]);
    records.push(crawlComplete('venue_1', 'c1', NOW), crawlComplete('venue_2', 'c1', NOW));
    for (const venue of ['venue_1', 'venue_2'] as const) {
      const t = topics[rawTopicId(venue)];
      const list = records.filter((r) => r.venue === venue);
      await producer.send(t.name, await Promise.all(list.map((r) => serde.encode(t, r.native_id, r, { timestamp: r.read_started_at }))));
    }
    await area.round();
    // A catalog snapshot (the processors build it from ClickHouse; the replay copies it as it is).
    const catalog = await store.publish('catalog', [{ key: 'venue_1:A', value: { id: 'venue_1:A' } }], { observedAt: NOW, now: NOW });

    const t = await build({ now: NOW, deps: { sports: { reader: new SportsReader(store) } } });
    const key = await t.createKey({ plan: 'business', permissions: ['markets.matching.read'] });
    const get = async () => {
      const res = await t.app.inject({ url: '/v1/matching-markets/sports?include_submarkets=true', headers: t.auth(key) });
      return { status: res.statusCode, body: res.json() as { data: { event_id: string }[] } };
    };
    const before = await get();
    expect(before.status).toBe(200);
    expect(before.body.data.map((e) => e.event_id).sort()).toEqual(['nba-bos-nyk-2026-11-21', 'nhl-tor-mtl-2026-11-21']);

    // Clients read throughout the replay, the service's stages run their rounds throughout.
    const answers: { status: number; events: number }[] = [];
    let reading = true;
    const client = (async () => {
      while (reading) {
        const a = await get();
        answers.push({ status: a.status, events: a.body.data?.length ?? 0 });
        await area.round();
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const stages = READ_MODEL_STAGES.filter((s) => !s.sinks?.tables?.length);
    expect(stages.map((s) => s.name).sort()).toEqual(['sink.canonical-store', 'sink.sports-snapshot']);
    const result = await replaySideBySide(
      stages,
      { log, serde, topics, store, storeAt: (g) => new RedisSnapshotStore({ url: redisUrl!, namespace: generationNamespace(base, g) }) },
      { generation: 'g2', copyNames: ['catalog'], followMs: 2500 },
    );
    reading = false;
    await client;

    expect(result).toMatchObject({ from: '', to: 'g2' });
    expect(result.copied.catalog).toBeGreaterThan(0);
    expect(result.lagBefore['sink.sports-snapshot.gen-g2']).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((a) => a.status !== 200 || a.events !== 2)).toEqual([]);
    // The pointer names the new generation; the base generation's documents and snapshots are gone
    // (the keys beside them stay: the pointer itself).
    expect(await redis.get(`${base}gen`)).toBe('g2');
    expect(await redis.keys(`${base}d:*`)).toEqual([]);
    expect(await redis.keys(`${base}s:*`)).toEqual([]);
    expect((await redis.keys(`${base}g:g2:d:market:*`)).length).toBeGreaterThan(0);
    // The same answers after, from the new generation; the catalog snapshot as it was.
    const after = await get();
    expect(after.status).toBe(200);
    expect(after.body.data).toEqual(before.body.data);
    expect(await store.current('catalog')).toEqual(catalog);
    // The replay's own groups are gone.
    expect((await log.groupOffsets(stageGroupId({ name: 'sink.sports-snapshot.gen-g2' }, topics), topics['matched.events'].name)).size).toBe(0);
  });
});
