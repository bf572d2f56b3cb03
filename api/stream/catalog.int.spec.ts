// The push stream's catalog channel: `snapshot` first (the current catalog snapshot's facts, or
// null), `catalog.snapshot` when a new one is published, resume by Last-Event-ID (only the current
// one is missed: snapshots replace each other whole), `reset` for an id that is not ours, and the
// channel's own parameter rules.
/* eslint-disable @typescript-eslint/no-explicit-any -- event bodies are read as loose JSON */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { build, redisKeyStores } from '../../test/helper.ts';
import { randomName } from '../../test/services/index.ts';
import { MemoryKeyStore } from '../auth/memory-store.ts';
import { redisUrlForTests } from '../../pipelines/runtime/test-services.ts';
import { EmbeddedLog } from '../../pipelines/log/embedded.ts';
import { MemorySnapshotStore } from '../../pipelines/readmodels/memory-store.ts';
import { jsonSerde } from '../../pipelines/serde/index.ts';
import { defineTopics, topicSpecs } from '../../pipelines/topics.ts';
import { startStreamArea } from './area.ts';
import { catalogFacts } from './catalog.ts';
import { openSse, type SseClient } from './sse-client.ts';

const data = (e: { data: string }) => JSON.parse(e.data) as any;

const redisUrl = await redisUrlForTests();

async function harness() {
  const log = await EmbeddedLog.open({ dir: mkdtempSync(join(tmpdir(), 'stream-cat-')), compactIntervalMs: 0 });
  const topics = defineTopics({ prefix: randomName('sc') + '.', partitions: 1 });
  await log.createTopics(topicSpecs(topics).filter((s) => s.name === topics['matched.events'].name || s.name === topics['lifecycle.states'].name));
  const store = new MemorySnapshotStore();
  const name = randomName('catalog');
  const area = await startStreamArea(
    { STREAM_HEARTBEAT_MS: 60_000, STREAM_BUFFER_BYTES: 1_048_576, STREAM_FLUSH_MS: 20, STREAM_JOURNAL: 100, STREAM_RESUME_MS: 3_600_000 },
    { log, serde: jsonSerde(), topics, catalog: { store, name, pollMs: 50 } },
  );
  const t = await build({ deps: { stream: area.deps } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const key = await t.createKey({ plan: 'pro', permissions: ['stream.read'] });
  const clients: SseClient[] = [];
  onTestFinished(async () => {
    for (const c of clients) c.destroy();
    await t.app.close();
    await area.stop();
    await log.close();
  });
  let n = 0;
  return {
    t,
    area,
    key,
    /** Publishes a catalog snapshot as the catalog does (meta: rows and rows per category|provider). */
    async publish(rows: Record<string, number>) {
      n++;
      const total = Object.values(rows).reduce((a, b) => a + b, 0);
      return store.publish(name, [], { observedAt: Date.parse('2026-11-24T00:00:00Z') + n * 1000, meta: { layout: 1, rows: total, counts: rows, chunk: 100 } });
    },
    async open(query: string, headers: Record<string, string> = {}) {
      const c = await openSse(`${base}/v1/stream?${query}`, { ...t.auth(key), ...headers });
      clients.push(c);
      return c;
    },
  };
}

describe('GET /v1/stream?channel=catalog', () => {
  it('sends the current snapshot first, then each new catalog snapshot; a resume gets only what is newer', async () => {
    const h = await harness();
    const empty = await h.open('channel=catalog');
    await empty.waitFor((e) => e.length >= 1);
    // No catalog yet: no id (nothing to resume from).
    expect(empty.events[0]!.event).toBe('snapshot');
    expect(empty.events[0]!.id).toBeUndefined();
    expect(data(empty.events[0]!)).toEqual({ channel: 'catalog', data: null });

    const first = await h.publish({ 'sports|venue_1': 3, 'politics|venue_1': 2, 'crypto|venue_4': 5 });
    await empty.waitFor((e) => e.length >= 2, 10_000, 'the first catalog.snapshot');
    expect(empty.events[1]!.event).toBe('catalog.snapshot');
    expect(empty.events[1]!.id).toBe(`catalog-${first.id}`);
    expect(data(empty.events[1]!)).toEqual({
      snapshot: { id: first.id, observed_at: new Date(first.observedAt!).toISOString(), published_at: new Date(first.publishedAt).toISOString() },
      total: 10,
      providers: { venue_1: 5, venue_4: 5 },
    });

    const c = await h.open('channel=catalog');
    await c.waitFor((e) => e.length >= 1);
    expect(c.events[0]!.event).toBe('snapshot');
    expect(c.events[0]!.id).toBe(`catalog-${first.id}`);
    expect(data(c.events[0]!).data.snapshot.id).toBe(first.id);

    const second = await h.publish({ 'sports|venue_2': 7 });
    await c.waitFor((e) => e.length >= 2, 10_000, 'the second catalog.snapshot');
    expect(c.events[1]).toMatchObject({ event: 'catalog.snapshot', id: `catalog-${second.id}` });
    expect(data(c.events[1]!).total).toBe(7);

    // Resume from the first: the current one is what was missed, sent as catalog.snapshot.
    const r1 = await h.open('channel=catalog', { 'last-event-id': `catalog-${first.id}` });
    await r1.waitFor((e) => e.length >= 1);
    expect(r1.events.map((e) => [e.event, e.id])).toEqual([['catalog.snapshot', `catalog-${second.id}`]]);
    // Resume from the current: nothing until the next one.
    const r2 = await h.open('channel=catalog', { 'last-event-id': `catalog-${second.id}` });
    const third = await h.publish({ 'sports|venue_3': 1 });
    await r2.waitFor((e) => e.length >= 1, 10_000, 'the third catalog.snapshot');
    expect(r2.events.map((e) => [e.event, e.id])).toEqual([['catalog.snapshot', `catalog-${third.id}`]]);
    // An id that is not a catalog event id of this deployment: reset, then the snapshot.
    const r3 = await h.open('channel=catalog', { 'last-event-id': 'catalog-not-an-id' });
    await r3.waitFor((e) => e.length >= 2);
    expect(r3.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
    expect(data(r3.events[0]!).message).toContain('"catalog-not-an-id"');
    expect(data(r3.events[1]!).data.snapshot.id).toBe(third.id);
  });

  it('resumes an id newer than the snapshot this replica has seen yet (another replica saw it first) without reset; a future id or one before any catalog gets reset', async () => {
    const h = await harness();
    // Before any catalog: a well-formed id cannot be of this deployment.
    const early = await h.open('channel=catalog', { 'last-event-id': 'catalog-01KAAAAAAAAAAAAAAAAAAAAAAA' });
    await early.waitFor((e) => e.length >= 2, 10_000, 'reset and snapshot before any catalog');
    expect(early.events.map((e) => [e.event, e.id])).toEqual([
      ['reset', undefined],
      ['snapshot', undefined],
    ]);
    expect(data(early.events[1]!)).toEqual({ channel: 'catalog', data: null });

    const first = await h.publish({ 'sports|venue_1': 3 });
    const watch = h.area.deps.catalog!;
    for (let i = 0; i < 200 && watch.current?.id !== first.id; i++) await new Promise((r) => setTimeout(r, 20));
    // This replica's watch stops looking: the next snapshot is one it has not seen when the client comes.
    watch.stop();
    const second = await h.publish({ 'sports|venue_2': 7 });
    const c = await h.open('channel=catalog', { 'last-event-id': `catalog-${second.id}` });
    await new Promise((r) => setTimeout(r, 300));
    // The client has the newest snapshot: nothing to send, least of all an older snapshot after a reset.
    expect(c.events.map((e) => [e.event, e.id])).toEqual([]);

    // An id newer than any snapshot the store holds: reset, then the current snapshot.
    const future = await h.open('channel=catalog', { 'last-event-id': 'catalog-7ZZZZZZZZZZZZZZZZZZZZZZZZZ' });
    await future.waitFor((e) => e.length >= 2, 10_000, 'reset and snapshot');
    expect(future.events.map((e) => [e.event, e.id])).toEqual([
      ['reset', undefined],
      ['snapshot', `catalog-${second.id}`],
    ]);
  });

  it('refuses the sports filters on channel=catalog, naming each, and a channel it does not know', async () => {
    const h = await harness();
    const res = await h.t.app.inject({ url: '/v1/stream?channel=catalog&league=nba&include_settled=true', headers: h.t.auth(h.key) });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('invalid_parameter');
    expect(JSON.stringify(body)).toContain('league filters channel=sports; channel=catalog takes no filters, got league=\\"nba\\"');
    expect(JSON.stringify(body)).toContain('include_settled');
    const bad = await h.t.app.inject({ url: '/v1/stream?channel=prices', headers: h.t.auth(h.key) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().param).toBe('channel');
  });
});

describe('concurrent streams per account', () => {
  it(`hold across two API processes sharing the key store (${redisUrl ? 'Redis' : 'in-process'})`, async () => {
    const h = await harness();
    const store = redisUrl ? redisKeyStores(redisUrl, 'stream-slots').open({ url: redisUrl }) : new MemoryKeyStore();
    const apps = [await build({ deps: { stream: h.area.deps }, store }), await build({ deps: { stream: h.area.deps }, store })];
    const bases: string[] = [];
    for (const t of apps) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      bases.push(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
    }
    const key = await apps[0]!.createKey({ plan: 'free', permissions: ['stream.read'] });
    const open = (i: number) => openSse(`${bases[i]}/v1/stream?channel=catalog`, apps[i]!.auth(key));
    const one = await open(0);
    expect(one.status).toBe(200);
    // The free plan's one stream is open on the first process: the second refuses another.
    const two = await open(1);
    await two.ended;
    expect(two.status).toBe(429);
    expect(JSON.parse(two.body).message).toContain('allows 1 concurrent streams per account and all 1 are open');
    one.destroy();
    await one.ended;
    // Released at close: the second process takes it.
    let three = await open(1);
    for (let i = 0; i < 50 && three.status !== 200; i++) {
      await three.ended;
      await new Promise((r) => setTimeout(r, 20));
      three = await open(1);
    }
    expect(three.status).toBe(200);
    three.destroy();
    if (!redisUrl) await store.close();
  });
});

describe('catalogFacts', () => {
  it('sums rows per provider over categories, providers in token order, total from meta.rows', () => {
    const f = catalogFacts({ name: 'c', id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', publishedAt: 0, observedAt: null, count: 0, meta: { rows: 6, counts: { 'sports|venue_9': 1, 'politics|venue_10': 2, 'crypto|venue_9': 3 } } });
    expect(f).toEqual({ snapshot: { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', observed_at: null, published_at: '1970-01-01T00:00:00.000Z' }, total: 6, providers: { venue_10: 2, venue_9: 4 } });
  });
});
