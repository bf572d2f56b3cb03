// The push stream's hub keeps what it has not been asked for as bytes: on the embedded log with the
// shipped Avro serde, applying matched.events and lifecycle.states decodes keys and archive reasons
// only (no record is built whole), and an entry read later is the record as written, parsed once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import { EmbeddedLog } from '../../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../../pipelines/registry/embedded.ts';
import { avroSerde, type Serde } from '../../pipelines/serde/index.ts';
import { defineTopics, topicSpecs } from '../../pipelines/topics.ts';
import { matched } from './hub.testkit.ts';
import { entryOfRecord } from '../../pipelines/matching/stages/sports-snapshot.ts';
import { StreamHub } from './hub.ts';
import { encodeId } from './position.ts';

/** The serde, counting every value it decodes whole (decode, decodeMany, a decoder's value()). */
function counting(serde: Serde): { serde: Serde; values: { n: number } } {
  const values = { n: 0 };
  return {
    values,
    serde: {
      ...serde,
      async decode(topic, record) {
        values.n++;
        return serde.decode(topic, record);
      },
      async decodeMany(topic, records) {
        values.n += records.length;
        return serde.decodeMany(topic, records);
      },
      async decoder(topic, records) {
        const d = await serde.decoder!(topic, records);
        return { key: d.key, value: (r) => (values.n++, d.value(r)) };
      },
    },
  };
}

describe('StreamHub on the embedded log with Avro', () => {
  it('decodes no value whole until an entry is read, then each once, equal to the record written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-hub-'));
    const log = await EmbeddedLog.open({ dir: join(dir, 'log'), compactIntervalMs: 0 });
    const topics = defineTopics({ prefix: randomName('hub') + '.', partitions: 2 });
    const wanted = new Set([topics['matched.events'].name, topics['lifecycle.states'].name]);
    await log.createTopics(topicSpecs(topics).filter((s) => wanted.has(s.name)));
    const avro = avroSerde(new EmbeddedRegistry(join(dir, 'registry')));
    const producer = await log.producer();
    onTestFinished(async () => {
      await producer.close();
      await log.close();
    });

    const ids = ['a', 'b', 'c'].map((x) => randomName(`nba-${x}`));
    const written = new Map(ids.map((id, i) => [id, matched(id, `game ${i}`)]));
    const settled = randomName('nba-s');
    const reason = `cancelled: ${randomName('r')}`;
    const gone = randomName('nba-g');
    const me = topics['matched.events'];
    const ls = topics['lifecycle.states'];
    await producer.send(me.name, await avro.encodeMany(me, [...written].map(([key, value]) => ({ key, value }))));
    await producer.send(ls.name, [await avro.encode(ls, settled, { event_id: settled, state: 'archived', updated_at: 1, snapshot: JSON.stringify({ context: { archiveReason: reason } }) })]);
    await producer.send(me.name, await avro.encodeMany(me, [
      { key: settled, value: matched(settled, 'settled', reason) },
      { key: gone, value: matched(gone, 'gone') },
      { key: gone, value: null },
    ]));

    const { serde, values } = counting(avro);
    const hub = await StreamHub.start({ log, serde, topics });
    onTestFinished(() => hub.stop());
    expect(await hub.ready(30_000)).toBe(true);
    expect(hub.changes).toBe(6);

    // Applied, resumable, a removal's reason known: nothing decoded whole, nothing parsed.
    const missed = hub.missedSince(encodeId(hub.layout, Date.now(), hub.pos.map(() => 0)));
    if (missed === 'reset' || missed === 'ahead') throw new Error(`a resume from the start was ${missed}`);
    expect(missed.changes.map((c) => c.change.key).sort()).toEqual([...ids, settled, gone, gone].sort());
    expect(missed.changes.find((c) => c.change.key === settled)!.change.reason).toBe('cancelled');
    expect([...hub.entries.keys()].sort()).toEqual([...ids, settled, gone].sort());
    expect(hub.entries.get(gone)!.removed).toBe(true);
    expect(values.n).toBe(0);
    expect(hub.parsed).toEqual({ bodies: 0, lifecycles: 0 });

    // Read: the record as written, parsed once however often it is read.
    for (const id of ids) expect(hub.entries.get(id)!.entry).toEqual(entryOfRecord(written.get(id)!));
    for (const id of ids) expect(hub.entries.get(id)!.entry).toBe(hub.entries.get(id)!.entry);
    expect(values.n).toBe(3);
    expect(hub.parsed).toEqual({ bodies: 3, lifecycles: 0 });
    expect(hub.entries.get(gone)!.last).toEqual(entryOfRecord(matched(gone, 'gone')));
    expect(hub.entries.get(settled)!.archiveReason).toBe(reason);
    expect(values.n).toBe(4);
  });
});
