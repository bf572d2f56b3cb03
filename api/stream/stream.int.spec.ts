// GET /v1/stream against a real log: records written to `matched.events` and `lifecycle.states` (as
// the matching stage writes them) reach SSE and WebSocket clients through the hub. Every suite runs on
// the embedded log and, where KAFKA_BROKERS is set (CI), on Kafka. Resume is checked against the log
// itself: what a client got across a forced disconnect is what the log holds, nothing lost, nothing
// twice.
/* eslint-disable @typescript-eslint/no-explicit-any -- event bodies are read as loose JSON */
import { connect } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import type { MatchedEventRecord as MatchedRecord } from '../../pipelines/topics.ts';
import { FULL_MONEYLINE } from '../../pipelines/matching/readmodel.ts';
import { decodeId, encodeId } from './position.ts';
import { openSse, type SseClient } from './sse-client.ts';
import { logImpls, openBackbone, serveStream, type LogImpl } from './stream.testkit.ts';

const impls = await logImpls('stream');

// A game far enough ahead that the default population ("a past date matches nothing") holds it.
const DAY = 86_400_000;
function dateIn(days: number): string {
  return new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
}

function matched(eventId: string, o: { league?: string; date?: string; away?: string; home?: string; population?: 'current' | 'archived'; title?: string } = {}): MatchedRecord {
  const league = o.league ?? 'nba';
  const date = o.date ?? dateIn(3);
  const [away, home] = [o.away ?? 'lal', o.home ?? 'bos'];
  const event = {
    event_id: eventId,
    sport: league === 'nfl' ? 'football' : 'basketball',
    league,
    title: o.title ?? `${away} at ${home}`,
    scheduled_date: date,
    scheduled_start: `${date}T23:30:00.000Z`,
    participants: [
      { key: away, name: away.toUpperCase(), role: 'away' },
      { key: home, name: home.toUpperCase(), role: 'home' },
    ],
    submarkets: [{ key: FULL_MONEYLINE, market_type: 'moneyline', source_markets: [{ provider: 'venue_1', market_id: `${eventId}-m` }] }],
  };
  return {
    event_id: eventId,
    league,
    sport: event.sport,
    title: event.title,
    scheduled_date: date,
    scheduled_start: Date.parse(event.scheduled_start),
    participant_keys: [away, home],
    population: o.population ?? 'current',
    submarket_count: 1,
    observed_at: Date.now(),
    body: JSON.stringify(event),
    strict_prop_keys: [],
    lookup_ids: [],
  };
}

function lifecycle(eventId: string, archiveReason: string | null) {
  return { event_id: eventId, state: archiveReason ? 'archived' : 'current', updated_at: Date.now(), snapshot: JSON.stringify({ value: archiveReason ? 'archived' : 'current', context: { archiveReason } }) };
}

async function harness(impl: LogImpl, o: { journal?: number; bufferBytes?: number; heartbeatMs?: number } = {}) {
  const b = await openBackbone(impl, { prefix: 'st', topics: ['matched.events', 'lifecycle.states'] });
  const { producer, serde, topics } = b;
  const h = await serveStream(b, { STREAM_HEARTBEAT_MS: o.heartbeatMs ?? 60_000, STREAM_BUFFER_BYTES: o.bufferBytes ?? 1_048_576, STREAM_FLUSH_MS: 20, STREAM_JOURNAL: o.journal ?? 20_000, STREAM_RESUME_MS: 3_600_000 });
  return {
    ...h,
    async put(eventId: string, v: MatchedRecord | null) {
      await producer.send(topics['matched.events'].name, [await serde.encode(topics['matched.events'], eventId, v)]);
    },
    async archive(eventId: string, reason: string, v: MatchedRecord | null) {
      // The matching stage writes the lifecycle state and the event in one batch, the state first.
      await producer.send(topics['lifecycle.states'].name, [await serde.encode(topics['lifecycle.states'], eventId, lifecycle(eventId, reason))]);
      // As the matching stage writes it: a settled event's record carries its archive reason too.
      await producer.send(topics['matched.events'].name, [await serde.encode(topics['matched.events'], eventId, v && { ...v, archive_reason: reason })]);
    },
    /** Waits until the hub has applied `n` changes in all (so a connect sees them in its snapshot). */
    applied: (n: number) => h.until(() => h.area.hub.changes >= n, () => `hub applied ${h.area.hub.changes} of ${n} changes`),
    /** Every record of matched.events, in offset order per partition, read from the log itself. */
    logRecords: (count: number) => h.topicRecords(topics['matched.events'].name, count),
  };
}

const data = (e: { data: string }) => JSON.parse(e.data) as any;

describe.each(impls)('GET /v1/stream on the $name', (impl) => {
  it("takes a removal's reason from the event's own record, whatever the tail reads of lifecycle.states first", async () => {
    const h = await harness(impl);
    const id = `nba-phx-uta-${randomName('r')}`;
    await h.put(id, matched(id, { away: 'phx', home: 'uta' }));
    await h.applied(1);
    const c = await h.open('channel=sports');
    await c.waitFor((e) => e.length >= 1);
    // The settled record without its lifecycle state (as when the tail reads matched.events first).
    await h.put(id, { ...matched(id, { away: 'phx', home: 'uta', population: 'archived' }), archive_reason: 'cancelled: venue_2 settled the moneyline 50-50' });
    await c.waitFor((e) => e.length >= 2, 30_000, 'the removal');
    expect([c.events[1]!.event, data(c.events[1]!).reason]).toEqual(['event.removed', 'cancelled']);
  });

  it('parses no event body nor lifecycle snapshot until a client reads them, then each once', async () => {
    const h = await harness(impl);
    const ids = ['lal', 'bos', 'mia'].map((t) => `nba-${t}-den-${randomName('p')}`);
    for (const [i, id] of ids.entries()) await h.put(id, matched(id, { away: ['lal', 'bos', 'mia'][i], home: 'den' }));
    const gone = `nba-phx-den-${randomName('p')}`;
    await h.put(gone, matched(gone, { away: 'phx', home: 'den' }));
    await h.archive(gone, 'settled by the venues', null);
    await h.applied(5);
    expect(h.area.hub.parsed).toEqual({ bodies: 0, lifecycles: 0 });
    const a = await h.open('channel=sports');
    await a.waitFor((e) => e.length >= 1);
    expect(data(a.events[0]!).data.map((e: any) => e.event_id).sort()).toEqual([...ids].sort());
    // The three served bodies; the tombstone has none to parse and its reason is not asked for.
    expect(h.area.hub.parsed).toEqual({ bodies: 3, lifecycles: 0 });
    const b = await h.open('channel=sports&league=nba');
    await b.waitFor((e) => e.length >= 1);
    expect(h.area.hub.parsed).toEqual({ bodies: 3, lifecycles: 0 });
    // A change is parsed once for every subscription that renders it.
    await h.put(ids[0]!, matched(ids[0]!, { away: 'lal', home: 'den', title: 'renamed' }));
    await a.waitFor((e) => e.length >= 2, 30_000, 'the update');
    expect([a.events[1]!.event, data(a.events[1]!).title]).toEqual(['event.updated', 'renamed']);
    expect(h.area.hub.parsed.bodies).toBe(4);
  });

  it('gives connections at one state one snapshot, and a connection after a change the changed event in its own', async () => {
    const h = await harness(impl);
    const [a, b] = [randomName('nba-a'), randomName('nba-b')];
    await h.put(a, matched(a, { title: 'first' }));
    await h.put(b, matched(b, { away: 'den', home: 'mia' }));
    await h.applied(2);
    const c1 = await h.open('channel=sports');
    const c2 = await h.open('channel=sports');
    const c3 = await h.open('channel=sports&league=nfl');
    for (const c of [c1, c2, c3]) await c.waitFor((e) => e.length >= 1);
    const first = (c: SseClient) => ({ id: c.events[0]!.id, event: c.events[0]!.event, data: c.events[0]!.data });
    expect(first(c2)).toEqual(first(c1));
    expect(data(c1.events[0]!).data.map((e: any) => [e.event_id, e.title]).sort()).toEqual([[a, 'first'], [b, 'den at mia']].sort());
    // Another subscription at the same state: its own snapshot.
    expect(data(c3.events[0]!).data).toEqual([]);

    await h.put(a, matched(a, { title: 'second' }));
    await h.applied(3);
    const c4 = await h.open('channel=sports');
    await c4.waitFor((e) => e.length >= 1);
    expect(c4.events[0]!.id).not.toBe(c1.events[0]!.id);
    expect(data(c4.events[0]!).data.map((e: any) => [e.event_id, e.title]).sort()).toEqual([[a, 'second'], [b, 'den at mia']].sort());
  });

  it('starts with a snapshot of the subscription, then event.updated and event.removed with the lifecycle reason', async () => {
    const h = await harness(impl);
    await h.put('nba-lal-bos-a', matched('nba-lal-bos-a'));
    await h.put('nfl-kc-buf-a', matched('nfl-kc-buf-a', { league: 'nfl', away: 'kc', home: 'buf' }));
    await h.applied(2);
    const c = await h.open('channel=sports');
    expect(c.status).toBe(200);
    expect(c.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await c.waitFor((e) => e.length >= 1);
    expect(c.events[0]!.event).toBe('snapshot');
    // A log position, then the subscription's tag.
    expect(c.events[0]!.id).toMatch(/^[\w-]+-[0-9a-z]+-[0-9a-z.]+~[0-9a-f]{8}$/);
    expect(data(c.events[0]!).channel).toBe('sports');
    expect(data(c.events[0]!).data.map((e: any) => e.event_id).sort()).toEqual(['nba-lal-bos-a', 'nfl-kc-buf-a']);

    await h.put('nba-lal-bos-a', matched('nba-lal-bos-a', { title: 'renamed' }));
    await h.archive('nfl-kc-buf-a', 'settled by the venues', matched('nfl-kc-buf-a', { league: 'nfl', away: 'kc', home: 'buf', population: 'archived' }));
    await h.put('nba-den-mia-a', matched('nba-den-mia-a', { away: 'den', home: 'mia' }));
    await h.archive('nba-den-mia-a', 'cancelled: venue_2 settled the moneyline 50-50', matched('nba-den-mia-a', { away: 'den', home: 'mia', population: 'archived' }));
    await h.put('nba-lal-bos-a', null);
    await c.waitFor((e) => e.length >= 6, 30_000, 'five changes');
    const seen = c.events.slice(1).map((e) => [e.event, data(e).event_id, data(e).reason ?? data(e).title]);
    // Per event in log order (two partitions: the events of different keys may interleave).
    const byKey = (k: string) => seen.filter((s) => s[1] === k);
    expect(byKey('nba-lal-bos-a')).toEqual([
      ['event.updated', 'nba-lal-bos-a', 'renamed'],
      ['event.removed', 'nba-lal-bos-a', 'delisted'],
    ]);
    expect(byKey('nfl-kc-buf-a')).toEqual([['event.removed', 'nfl-kc-buf-a', 'settled']]);
    expect(byKey('nba-den-mia-a')).toEqual([
      ['event.updated', 'nba-den-mia-a', 'den at mia'],
      ['event.removed', 'nba-den-mia-a', 'cancelled'],
    ]);
    // An updated event is the list's shape: the full-game moneyline only by default.
    const updated = data(c.events.find((e) => e.event === 'event.updated')!);
    expect(Object.keys(updated)).toEqual(['event_id', 'sport', 'league', 'title', 'scheduled_date', 'scheduled_start', 'participants', 'submarkets']);
    // Every event id is distinct and names a later position than the one before it on its partition.
    expect(new Set(c.events.map((e) => e.id)).size).toBe(c.events.length);
  });

  it('says a game that left a subscription but is still listed (postponed out of its scheduled_date) was filtered out, not settled', async () => {
    const h = await harness(impl);
    const day = dateIn(3);
    const c = await h.open(`channel=sports&scheduled_date=${day}`);
    await c.waitFor((e) => e.length >= 1);
    await h.put('nba-lal-bos-p', matched('nba-lal-bos-p', { date: day }));
    await c.waitFor((e) => e.length >= 2, 30_000, 'the game');
    // Postponed a day: the list for that date no longer holds it; the game is not over.
    await h.put('nba-lal-bos-p', matched('nba-lal-bos-p', { date: dateIn(4) }));
    await c.waitFor((e) => e.length >= 3, 30_000, 'its removal');
    expect([c.events[2]!.event, data(c.events[2]!)]).toEqual(['event.removed', { event_id: 'nba-lal-bos-p', reason: 'filtered' }]);
  });

  it('filters as the sports list does: league, participant, include_settled', async () => {
    const h = await harness(impl);
    const nba = await h.open('channel=sports&league=NBA');
    const kc = await h.open('channel=sports&participant=KC');
    const settled = await h.open('channel=sports&include_settled=true&league=nfl');
    for (const c of [nba, kc, settled]) await c.waitFor((e) => e.length >= 1);
    await h.put('nfl-kc-buf-b', matched('nfl-kc-buf-b', { league: 'nfl', away: 'kc', home: 'buf' }));
    await h.put('nba-lal-bos-b', matched('nba-lal-bos-b'));
    await h.archive('nfl-kc-buf-b', 'settled by the venues', matched('nfl-kc-buf-b', { league: 'nfl', away: 'kc', home: 'buf', population: 'archived' }));
    await h.put('nba-lal-bos-b', matched('nba-lal-bos-b', { title: 'last' }));
    await nba.waitFor((e) => e.some((x) => x.data.includes('"last"')), 30_000, 'the last nba change');
    await kc.waitFor((e) => e.length >= 3, 30_000, 'the kc game and its removal');
    await settled.waitFor((e) => e.length >= 3, 30_000, 'the nfl game twice');
    const view = (c: SseClient) => c.events.slice(1).map((e) => `${e.event} ${data(e).event_id}`);
    expect(view(nba)).toEqual(['event.updated nba-lal-bos-b', 'event.updated nba-lal-bos-b']);
    expect(view(kc)).toEqual(['event.updated nfl-kc-buf-b', 'event.removed nfl-kc-buf-b']);
    // With the settled archive the archived game stays in the subscription: updated, not removed.
    expect(view(settled)).toEqual(['event.updated nfl-kc-buf-b', 'event.updated nfl-kc-buf-b']);
  });

  for (const mode of ['journal', 'folded state'] as const) {
    it(`resumes after a forced disconnect from the ${mode} with nothing lost or doubled (against the log)`, async () => {
      // A journal of 3 changes cannot reach back to the disconnect: the resume is folded.
      const h = await harness(impl, { journal: mode === 'journal' ? 20_000 : 3 });
      const q = 'channel=sports&include_settled=true&include_submarkets=true&player_prop_match=same_prop';
      const keys = Array.from({ length: 6 }, (_, i) => `nba-t${i}-u${i}-r`);
      let version = 0;
      const write = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const k = keys[version % keys.length]!;
          version++;
          await h.put(k, version % 7 === 0 ? null : matched(k, { away: `t${k.length}`, title: `v${version}` }));
        }
      };
      await write(10);
      await h.applied(10);
      const first = await h.open(q);
      await first.waitFor((e) => e.length >= 1);
      // The snapshot's id is the position below which the client has everything.
      const at = decodeId(h.area.hub.layout, first.events[0]!.id!.split('~')[0]!)!.pos;
      const posOf = (partition: number) => at[h.area.hub.layout.index.get(`${h.topics['matched.events'].name}|${partition}`)!]!;
      await write(15);
      await first.waitFor((e) => e.length >= 8, 30_000, 'some live events before the disconnect');
      first.destroy();
      const got = first.events.slice(1);
      const last = first.lastId()!;
      await write(15);
      await h.applied(40);
      const second = await h.open(q, { 'last-event-id': last });
      await write(10);
      // Version 50 (the last write) is an update.
      await second.waitFor((e) => e.some((x) => x.event === 'event.updated' && data(x).title === 'v50'), 30_000, 'the last change after the resume');
      expect(second.events[0]!.event).not.toBe('reset');
      const records = await h.logRecords(50);
      const expected = new Map<string, string[]>();
      for (const r of records.filter((x) => Number(x.offset) >= posOf(x.partition))) {
        const key = r.key!.toString();
        const list = expected.get(key) ?? [];
        expected.set(key, list);
        list.push(r.value ? `updated ${JSON.parse(JSON.parse(r.value.toString()).body).title}` : 'removed');
      }
      const streamed = new Map<string, string[]>();
      for (const e of [...got, ...second.events]) {
        const k = data(e).event_id as string;
        const list = streamed.get(k) ?? [];
        streamed.set(k, list);
        list.push(e.event === 'event.updated' ? `updated ${data(e).title}` : 'removed');
      }
      expect([...streamed.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [k, fromLog] of expected) {
        const mine = streamed.get(k)!;
        if (mode === 'journal') expect(mine, `events of ${k}`).toEqual(fromLog);
        else {
          // Folded: a subsequence of the log's records, in order, ending with the latest.
          expect(mine[mine.length - 1], `latest of ${k}`).toBe(fromLog[fromLog.length - 1]);
          let j = 0;
          for (const x of mine) {
            while (j < fromLog.length && fromLog[j] !== x) j++;
            expect(j, `${x} of ${k} follows the one before it in the log`).toBeLessThan(fromLog.length);
            j++;
          }
        }
      }
    });
  }

  it('answers an id it cannot resume with reset, then a fresh snapshot', async () => {
    const h = await harness(impl);
    await h.put('nba-lal-bos-c', matched('nba-lal-bos-c'));
    await h.applied(1);
    const c = await h.open('channel=sports', { 'last-event-id': 'zzzzzz-1-0.0.0.0' });
    await c.waitFor((e) => e.length >= 2);
    expect(c.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
    expect(data(c.events[0]!).message).toContain('"zzzzzz-1-0.0.0.0"');
    expect(data(c.events[1]!).data.map((e: any) => e.event_id)).toEqual(['nba-lal-bos-c']);
  });

  it('answers an id of another subscription or another channel with reset and a snapshot of this one (it would miss every event that did not change since)', async () => {
    const h = await harness(impl);
    await h.put('nba-lal-bos-s', matched('nba-lal-bos-s'));
    await h.put('nfl-kc-buf-s', matched('nfl-kc-buf-s', { league: 'nfl', away: 'kc', home: 'buf' }));
    await h.applied(2);
    const nfl = await h.open('channel=sports&league=nfl');
    await nfl.waitFor((e) => e.length >= 1);
    expect(data(nfl.events[0]!).data.map((e: any) => e.event_id)).toEqual(['nfl-kc-buf-s']);
    for (const id of [nfl.lastId()!, 'catalog-01KAAAAAAAAAAAAAAAAAAAAAAA']) {
      const nba = await h.open('channel=sports&league=nba', { 'last-event-id': id });
      await nba.waitFor((e) => e.length >= 2, 10_000, `reset and snapshot for ${id}`);
      expect(nba.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
      expect(data(nba.events[1]!).data.map((e: any) => e.event_id)).toEqual(['nba-lal-bos-s']);
      nba.destroy();
    }
    // The same subscription, spelled another way (case, parameter order): resumed, nothing missed.
    const again = await h.open('channel=sports&league=NFL', { 'last-event-id': nfl.lastId()! });
    await h.put('nfl-kc-buf-s', matched('nfl-kc-buf-s', { league: 'nfl', away: 'kc', home: 'buf', title: 'later' }));
    await again.waitFor((e) => e.length >= 1, 30_000, 'the live change');
    expect(again.events.map((e) => [e.event, data(e).title])).toEqual([['event.updated', 'later']]);
  });

  it('answers an id past the end of the log (the log was recreated since) with reset and a fresh snapshot, then live events', async () => {
    const h = await harness(impl);
    h.area.deps.aheadMs = 300;
    await h.put('nba-lal-bos-f', matched('nba-lal-bos-f'));
    await h.applied(1);
    const hub = h.area.hub;
    // A well-formed id of this layout, issued now, naming offsets the log has not reached.
    const future = encodeId(hub.layout, Date.now(), hub.pos.map((x) => x + 1000));
    const c = await h.open('channel=sports', { 'last-event-id': future });
    await c.waitFor((e) => e.length >= 2, 30_000, 'reset and snapshot');
    expect(c.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
    expect(data(c.events[1]!).data.map((e: any) => e.event_id)).toEqual(['nba-lal-bos-f']);
    await h.put('nba-lal-bos-f', matched('nba-lal-bos-f', { title: 'after' }));
    await c.waitFor((e) => e.length >= 3, 30_000, 'the live change after the reset');
    expect([c.events[2]!.event, data(c.events[2]!).title]).toEqual(['event.updated', 'after']);
  });

  it('answers an id stamped in the future (forged, or a clock far ahead) with reset: its time cannot vouch for the resume window', async () => {
    const h = await harness(impl);
    await h.put('nba-lal-bos-t', matched('nba-lal-bos-t'));
    await h.applied(1);
    const hub = h.area.hub;
    // Position 0 everywhere, stamped two hours ahead: were it resumed, the window's age check would never apply.
    const stamped = encodeId(hub.layout, Date.now() + 2 * 3_600_000, hub.pos.map(() => 0));
    const c = await h.open('channel=sports', { 'last-event-id': stamped });
    await c.waitFor((e) => e.length >= 2, 10_000, 'reset and snapshot');
    expect(c.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
    // A few seconds ahead (another replica's clock) is no reason to reset.
    const near = await h.open('channel=sports', { 'last-event-id': encodeId(hub.layout, Date.now() + 5_000, hub.pos) });
    await h.put('nba-lal-bos-t', matched('nba-lal-bos-t', { title: 'later' }));
    await near.waitFor((e) => e.length >= 1, 30_000, 'the live change');
    expect(near.events.map((e) => [e.event, data(e).title])).toEqual([['event.updated', 'later']]);
  });

  it('resumes an id a little ahead of this hub (issued by a replica that read further) once the hub has read that far, without reset', async () => {
    const h = await harness(impl);
    h.area.deps.aheadMs = 30_000;
    const keys = ['nba-a1-b1-g', 'nba-a2-b2-g', 'nba-a3-b3-g', 'nba-a4-b4-g'];
    await h.put(keys[0]!, matched(keys[0]!, { away: 'a1', home: 'b1' }));
    await h.applied(1);
    const hub = h.area.hub;
    const me = (p: number) => hub.layout.index.get(`${h.topics['matched.events'].name}|${p}`)!;
    // Another replica has read one more record than this hub on the partition of keys[0] (which the
    // next record of keys[0] lands on).
    const part = [0, 1].find((p) => hub.pos[me(p)] === 1)!;
    const ahead = hub.pos.slice();
    ahead[me(part)]! += 1;
    const c = await h.open('channel=sports', { 'last-event-id': encodeId(hub.layout, Date.now(), ahead) });
    for (const [i, k] of keys.entries()) await h.put(k, matched(k, { away: `a${i + 1}`, home: `b${i + 1}`, title: `t${i}` }));
    await h.applied(5);
    const records = await h.logRecords(5);
    const expected = records.filter((r) => Number(r.offset) >= ahead[me(r.partition)]!).map((r) => `${r.key!.toString()} ${JSON.parse(JSON.parse(r.value!.toString()).body).title}`);
    await c.waitFor((e) => e.length >= expected.length, 30_000, 'the changes after the id');
    await new Promise((r) => setTimeout(r, 200));
    expect(c.events.map((e) => e.event).every((t) => t === 'event.updated')).toBe(true);
    expect(c.events.map((e) => `${data(e).event_id} ${data(e).title}`).sort()).toEqual(expected.sort());
  });

  it('checks the key, the permission and the parameters with the router rules and error bodies', async () => {
    const h = await harness(impl);
    const noPerm = await h.keyOf('pro', ['markets.matching.read']);
    const cases: Array<[string, Record<string, string>, number, string, string | undefined]> = [
      ['channel=sports', {}, 401, 'missing_api_key', undefined],
      ['channel=sports', h.t.auth(noPerm), 403, 'forbidden', undefined],
      ['channel=sports&foo=1', h.t.auth(h.key), 400, 'unknown_parameter', 'foo'],
      ['channel=prices', h.t.auth(h.key), 400, 'invalid_parameter', 'channel'],
      ['channel=sports&league=', h.t.auth(h.key), 400, 'invalid_parameter', 'league'],
      ['channel=sports&player_prop_match=strict', h.t.auth(h.key), 400, 'invalid_parameter', 'player_prop_match'],
      ['league=nba', h.t.auth(h.key), 400, 'missing_parameter', 'channel'],
    ];
    for (const [q, headers, status, code, param] of cases) {
      const c = await openSse(`${h.base}/v1/stream?${q}`, headers);
      await c.ended;
      expect([q, c.status]).toEqual([q, status]);
      const body = JSON.parse(c.body);
      expect(body.code).toBe(code);
      if (param) expect(body.param).toBe(param);
    }
  });

  it('holds the plan limit of concurrent streams; a connect counts one request, events none', async () => {
    const h = await harness(impl);
    const free = await h.keyOf('free', ['stream.read']);
    const one = await h.open('channel=sports', {}, free);
    expect(one.status).toBe(200);
    const remaining = Number(one.headers['x-ratelimit-remaining']);
    for (let i = 0; i < 5; i++) await h.put(`nba-r${i}-s${i}-d`, matched(`nba-r${i}-s${i}-d`, { away: `r${i}`, home: `s${i}` }));
    await one.waitFor((e) => e.length >= 6, 30_000, 'five events');
    const two = await h.open('channel=sports', {}, free);
    await two.ended;
    expect(two.status).toBe(429);
    expect(JSON.parse(two.body).code).toBe('rate_limited');
    expect(JSON.parse(two.body).message).toContain('allows 1 concurrent stream');
    // Five events did not count; the refused connect did.
    expect(Number(two.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    one.destroy();
    await one.ended;
    // The slot is free again once the server has seen the close.
    let three: SseClient | undefined;
    for (let i = 0; i < 50; i++) {
      three = await h.open('channel=sports', {}, free);
      if (three.status === 200) break;
      await three.ended;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(three!.status).toBe(200);
  });

  for (const when of ['before its first message', 'after it started'] as const) {
    it(`frees the slot of a WebSocket client that goes silent ${when} (no close, no pong: as when it vanished without a FIN)`, async () => {
      const h = await harness(impl, { heartbeatMs: 100 });
      const free = await h.keyOf('free', ['stream.read']);
      const url = new URL(h.base);
      // A raw client: it upgrades, then answers nothing (a socket's TCP stays up; a ws client would pong).
      const sock = connect(Number(url.port), url.hostname);
      onTestFinished(() => void sock.destroy());
      let got = '';
      sock.on('data', (b) => (got += b.toString('latin1')));
      sock.write(
        ['GET /v1/stream?channel=sports HTTP/1.1', `Host: ${url.host}`, 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13', `Authorization: Bearer ${free}`, '', ''].join('\r\n'),
      );
      await h.until(() => got.includes('\r\n\r\n'), () => `no upgrade answer: ${got}`);
      expect(got.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
      if (when === 'after it started') {
        // {"type":"start"} in one masked text frame, as a client sends it.
        const text = Buffer.from(JSON.stringify({ type: 'start' }));
        const mask = Buffer.from([1, 2, 3, 4]);
        sock.write(Buffer.concat([Buffer.from([0x81, 0x80 | text.length]), mask, Buffer.from(text.map((b, i) => b ^ mask[i % 4]!))]));
        await h.until(() => got.includes('"snapshot"'), () => 'no snapshot over the raw WebSocket');
      }
      // The plan's one slot is held while the stream is open, and freed once the server gives up on it.
      const blocked = await h.open('channel=sports', {}, free);
      await blocked.ended;
      expect(blocked.status).toBe(429);
      expect(JSON.parse(blocked.body).message).toContain('allows 1 concurrent stream');
      // Spaced out: each try counts against the free plan's 10 requests a minute.
      let next: SseClient | undefined;
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 600));
        next = await h.open('channel=sports', {}, free);
        if (next.status === 200) break;
        await next.ended;
      }
      expect([next!.status, next!.body]).toEqual([200, '']);
    });
  }

  it('sends heartbeat comments on an idle stream', async () => {
    const h = await harness(impl, { heartbeatMs: 50 });
    const c = await h.open('channel=sports');
    await c.waitFor(() => c.comments >= 2, 30_000, 'two heartbeats');
    expect(c.events.map((e) => e.event)).toEqual(['snapshot']);
  });

  it('closes a client that falls behind with a final overflow event, and serves the others', { timeout: 120_000 }, async () => {
    // A buffer above what one fetched batch writes at once (a reading client never reaches it).
    const h = await harness(impl, { bufferBytes: 4 * 1024 * 1024 });
    const slow = await h.open('channel=sports');
    const fast = await h.open('channel=sports');
    await slow.waitFor((e) => e.length >= 1);
    slow.pause();
    // About 19 MB of events: more than the socket buffers and the server's buffer together hold.
    const big = 'x'.repeat(48 * 1024);
    const n = 400;
    for (let i = 0; i < n; i++) await h.put(`nba-o${i % 8}-p${i % 8}-o`, matched(`nba-o${i % 8}-p${i % 8}-o`, { away: `o${i % 8}`, home: `p${i % 8}`, title: `${i} ${big}` }));
    await fast.waitFor((e) => e.length >= n + 1, 90_000, 'every event at the fast client');
    slow.resume();
    await slow.ended;
    const types = slow.events.map((e) => e.event);
    expect(types[types.length - 1]).toBe('overflow');
    expect(types.length).toBeLessThan(n + 1);
    expect(h.area.deps.connections.size).toBe(1);
  });

  it('gives an SSE and a WebSocket client of one subscription the same events: types, ids and data, in order', async () => {
    const h = await harness(impl);
    await h.put('nba-lal-bos-x', matched('nba-lal-bos-x'));
    await h.applied(1);
    const q = 'channel=sports&league=nba&include_submarkets=true';
    const sse = await h.open(q);
    const ws: any[] = [];
    const sock = await (h.t.app as any).injectWS(`/v1/stream?${q}`, { headers: { host: 'localhost', ...h.t.auth(h.key) } });
    onTestFinished(() => sock.terminate());
    sock.on('message', (m: Buffer) => ws.push(JSON.parse(m.toString())));
    sock.send(JSON.stringify({ type: 'start' }));
    await sse.waitFor((e) => e.length >= 1);
    await h.until(() => ws.length >= 1, () => 'the WebSocket snapshot');
    await h.put('nba-lal-bos-x', matched('nba-lal-bos-x', { title: 'one' }));
    await h.put('nfl-kc-buf-x', matched('nfl-kc-buf-x', { league: 'nfl', away: 'kc', home: 'buf' }));
    await h.put('nba-den-mia-x', matched('nba-den-mia-x', { away: 'den', home: 'mia' }));
    await h.archive('nba-lal-bos-x', 'settled by the venues', null);
    await sse.waitFor((e) => e.length >= 4, 30_000, 'three nba changes');
    await h.until(() => ws.length >= 4, () => `${ws.length} WebSocket messages`);
    await new Promise((r) => setTimeout(r, 100));
    const fromSse = sse.events.map((e) => [e.event, e.id ?? null, JSON.parse(e.data)]);
    const fromWs = ws.map((m) => [m.event, m.id, m.data]);
    expect(fromWs).toEqual(fromSse);
    // Two partitions: the events of different games may interleave either way (the same for both clients).
    expect(fromSse.map((x) => `${x[0]} ${x[2].event_id ?? ''}`).sort()).toEqual(['event.removed nba-lal-bos-x', 'event.updated nba-den-mia-x', 'event.updated nba-lal-bos-x', 'snapshot ']);
  });

  it('serves the same events over a WebSocket, and resumes from a `resume` message', async () => {
    const h = await harness(impl);
    await h.put('nba-lal-bos-w', matched('nba-lal-bos-w'));
    await h.applied(1);
    const messages: any[] = [];
    const ws = await (h.t.app as any).injectWS('/v1/stream?channel=sports', { headers: { host: 'localhost', ...h.t.auth(h.key) } });
    ws.on('message', (m: Buffer) => messages.push(JSON.parse(m.toString())));
    ws.send(JSON.stringify({ type: 'start' }));
    const until = async (n: number) => {
      for (let i = 0; i < 1500 && messages.length < n; i++) await new Promise((r) => setTimeout(r, 20));
    };
    await until(1);
    expect(messages[0].event).toBe('snapshot');
    expect(messages[0].data.data.map((e: any) => e.event_id)).toEqual(['nba-lal-bos-w']);
    await h.put('nba-lal-bos-w', matched('nba-lal-bos-w', { title: 'one' }));
    await until(2);
    ws.terminate();
    await h.put('nba-lal-bos-w', matched('nba-lal-bos-w', { title: 'two' }));
    await h.put('nba-lal-bos-w', null);
    await h.applied(4);
    const again: any[] = [];
    const ws2 = await (h.t.app as any).injectWS('/v1/stream?channel=sports', { headers: { host: 'localhost', ...h.t.auth(h.key) } });
    ws2.on('message', (m: Buffer) => again.push(JSON.parse(m.toString())));
    ws2.send(JSON.stringify({ type: 'resume', last_event_id: messages[1].id }));
    for (let i = 0; i < 1500 && again.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    ws2.terminate();
    expect(messages[1]).toMatchObject({ event: 'event.updated', data: { title: 'one' } });
    expect(again.map((m) => [m.event, m.data.title ?? m.data.reason])).toEqual([
      ['event.updated', 'two'],
      ['event.removed', 'delisted'],
    ]);
    // A refused upgrade answers with the route's HTTP error.
    await expect((h.t.app as any).injectWS('/v1/stream?channel=sports', { headers: { host: 'localhost' } })).rejects.toThrow(/401/);
  });
});
