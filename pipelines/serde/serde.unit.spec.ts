// Serde: every topic's key and value round-trip through Avro in the registry's wire format; a record
// written with an earlier schema reads with the current one (defaults filled in); JSON is the baseline.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { defineTopics, keySubject, loadSchema, valueSubject, type TopicValues } from '../topics.ts';
import type { LogRecord } from '../log/types.ts';
import { avroSerde, jsonSerde } from './index.ts';

const topics = defineTopics({ prefix: 'serde.' });
const samples: { [K in keyof TopicValues]?: [string, TopicValues[K]] } = {
  'raw.venue_4': ['0xabc', { venue: 'venue_4', record_type: 'market', native_id: '0xabc', read_started_at: 1_767_225_600_123, payload: '{"x":[1,2]}', read_id: '01J', source_url: null }],
  'canonical.markets': ['venue_2:501', { provider: 'venue_2', market_id: '501', event_id: null, title: 'T', status: 'open', category: 'sports', league: 'nba', market_type: 'moneyline', read_started_at: 1, body_version: 1, body: '{}' }],
  'matched.events': ['nba-bos-nyk-2026-01-01', { event_id: 'nba-bos-nyk-2026-01-01', league: 'nba', sport: 'basketball', title: 'BOS @ NYK', scheduled_date: '2026-01-01', scheduled_start: null, participant_keys: ['bos', 'nyk'], population: 'current', submarket_count: 3, observed_at: 5, body_version: 1, body: '{"submarkets":[]}', strict_prop_keys: [], lookup_ids: ['venue_2:501'], archive_reason: null }],
  'matching.state': ['crawl|venue_3|sports', { venue: 'venue_3', record_type: 'crawl_complete', native_id: 'sports:venue_3:01J', read_started_at: 7, payload: '{"started_at":7}', read_id: 'sports:venue_3:01J', source_url: null }],
  'dead.letters': ['stage.canonicalize|raw.venue_1|0|5', { stage: 'stage.canonicalize', topic: 'raw.venue_1', partition: 0, offset: '5', reason: 'bad magic byte', failed_at: 9, key: Buffer.from('k'), value: Buffer.from([1, 2, 3]) }],
  'lifecycle.states': ['e', { event_id: 'e', state: 'current', updated_at: 3, snapshot: '{"value":"current"}' }],
};

const asRecord = (topic: string, key: Buffer | null, value: Buffer | null): LogRecord => ({ topic, partition: 0, offset: '0', key, value, timestamp: 0, headers: {} });

describe('avro serde', () => {
  const registry = new EmbeddedRegistry(mkdtempSync(path.join(tmpdir(), 'pm-serde-')));
  const serde = avroSerde(registry);

  for (const [id, [key, value]] of Object.entries(samples) as [keyof TopicValues, [string, never]][]) {
    it(`round-trips ${id} in the wire format`, async () => {
      const t = topics[id];
      const out = await serde.encode(t, key, value);
      expect(out.value![0]).toBe(0); // magic byte
      const id1 = out.value!.readUInt32BE(1);
      expect(await registry.getSchema(id1)).toBeTruthy();
      expect(await serde.decode(t, asRecord(t.name, out.key, out.value))).toEqual({ key, value });
    });
  }

  it('registers under <topic>-key and <topic>-value', async () => {
    const t = topics['lifecycle.states'];
    const out = await serde.encode(t, 'e', samples['lifecycle.states']![1]);
    expect(out.key!.readUInt32BE(1)).toBe(await registry.register(keySubject(t), loadSchema(t.keySchemaFile)));
    expect(out.value!.readUInt32BE(1)).toBeGreaterThan(0);
    expect(valueSubject(t)).toBe('serde.lifecycle.states-value');
  });

  it('encodes and decodes a batch exactly as record by record', async () => {
    const t = topics['canonical.markets'];
    const [key, value] = samples['canonical.markets']!;
    const recs = [
      { key, value },
      { key: 'venue_2:502', value: { ...value, market_id: '502', title: 'Other' } },
      { key: 'venue_2:503', value: null },
    ];
    const many = await serde.encodeMany(t, recs);
    const one = await Promise.all(recs.map((r) => serde.encode(t, r.key, r.value)));
    expect(many).toEqual(one);
    const logRecs = many.map((m) => asRecord(t.name, m.key, m.value));
    expect(await serde.decodeMany(t, logRecs)).toEqual(recs);
  });

  it('frames a batch across pooled chunks, a record larger than a chunk included, byte for byte as one by one', async () => {
    const t = topics['raw.venue_4'];
    const [, value] = samples['raw.venue_4']!;
    // ~120 KiB in all with one 100 KiB payload: several 64 KiB chunks and one record larger than a chunk.
    const recs = Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, value: { ...value, native_id: `n${i}`, payload: 'x'.repeat(i === 17 ? 100_000 : 500 + i) } }));
    const many = await serde.encodeMany(t, recs);
    const one = await Promise.all(recs.map((r) => serde.encode(t, r.key, r.value)));
    expect(many.map((m) => [m.key!.toString('hex'), m.value!.toString('hex')])).toEqual(one.map((m) => [m.key!.toString('hex'), m.value!.toString('hex')]));
    expect(await serde.decodeMany(t, many.map((m) => asRecord(t.name, m.key, m.value)))).toEqual(recs);
  });

  it('refuses a body that is truncated or has trailing bytes, naming the schema id', async () => {
    const t = topics['raw.venue_4'];
    const [key, value] = samples['raw.venue_4']!;
    const out = await serde.encode(t, key, value);
    const id = out.value!.readUInt32BE(1);
    const truncated = out.value!.subarray(0, out.value!.length - 3);
    const trailing = Buffer.concat([out.value!, Buffer.from([1, 2])]);
    await expect(serde.decodeMany(t, [asRecord(t.name, out.key, truncated)])).rejects.toThrow(`schema id ${id} (truncated)`);
    await expect(serde.decodeMany(t, [asRecord(t.name, out.key, trailing)])).rejects.toThrow(`schema id ${id} (trailing data)`);
    await expect(serde.decodeMany(t, [asRecord(t.name, out.key, Buffer.from([1, 0, 0, 0, 1, 0]))])).rejects.toThrow('magic byte 1');
  });

  it("a batch's decoder reads each key and value as decodeMany does, each time it is asked, and refuses a bad body", async () => {
    const t = topics['raw.venue_4'];
    const [key, value] = samples['raw.venue_4']!;
    const recs = [
      { key, value },
      { key: `k-${Math.random().toString(36).slice(2)}`, value: { ...value, payload: '{"y":1}', read_id: null } },
      { key: 'gone', value: null },
    ];
    const logRecs = (await serde.encodeMany(t, recs)).map((m) => asRecord(t.name, m.key, m.value));
    const d = await serde.decoder!(t, logRecs);
    const twice = [...logRecs, ...logRecs].map((r) => ({ key: d.key(r), value: d.value(r) }));
    expect(twice).toEqual([...recs, ...recs]);
    expect(twice[0]!.value).not.toBe(twice[3]!.value); // decoded again, not kept
    const truncated = asRecord(t.name, logRecs[0]!.key, logRecs[0]!.value!.subarray(0, logRecs[0]!.value!.length - 3));
    expect(() => d.value(truncated)).toThrow('(truncated)');
  });

  it("a batch's projector reads only the named fields, as the whole record has them, and a field the writer lacked as its default", async () => {
    const t = topics['matched.events'];
    const [key, value] = samples['matched.events']!;
    const reason = `cancelled: ${Math.random().toString(36).slice(2)}`;
    const recs = [
      { key, value },
      { key: 'settled', value: { ...value, archive_reason: reason } },
      { key: 'gone', value: null },
    ];
    const logRecs = (await serde.encodeMany(t, recs)).map((m) => asRecord(t.name, m.key, m.value));
    const read = await serde.projector!(t, logRecs, ['archive_reason', 'league']);
    expect(logRecs.map(read)).toEqual([{ archive_reason: null, league: 'nba' }, { archive_reason: reason, league: 'nba' }, null]);

    // Written before archive_reason was a field: the projection resolves it to the reader's default.
    const current = loadSchema(t.valueSchemaFile) as { fields: Array<{ name: string }> };
    const older = { ...current, fields: current.fields.filter((f) => f.name !== 'archive_reason') };
    const fresh = new EmbeddedRegistry(mkdtempSync(path.join(tmpdir(), 'pm-serde-')));
    const { archive_reason: _, ...withoutReason } = value;
    const buf = await fresh.encode(valueSubject(t), older, withoutReason);
    const rec = asRecord(t.name, null, buf);
    const project = await avroSerde(fresh).projector!(t, [rec], ['archive_reason']);
    expect(project(rec)).toEqual({ archive_reason: null });
  });

  it('a tombstone stays null', async () => {
    const t = topics['matched.events'];
    const out = await serde.encode(t, 'gone', null);
    expect(out.value).toBeNull();
    expect(await serde.decode(t, asRecord(t.name, out.key, null))).toEqual({ key: 'gone', value: null });
  });

  it('reads a record written with an earlier schema, filling new fields with their defaults', async () => {
    const t = topics['raw.venue_4'];
    const older = {
      type: 'record',
      name: 'RawRecord',
      namespace: 'pm.raw',
      fields: [
        { name: 'venue', type: 'string' },
        { name: 'record_type', type: 'string' },
        { name: 'native_id', type: 'string' },
        { name: 'read_started_at', type: { type: 'long', logicalType: 'timestamp-millis' } },
        { name: 'payload', type: 'string' },
      ],
    };
    const fresh = new EmbeddedRegistry(mkdtempSync(path.join(tmpdir(), 'pm-serde-')));
    const buf = await fresh.encode(valueSubject(t), older, { venue: 'venue_4', record_type: 'market', native_id: 'n', read_started_at: 9, payload: '{}' });
    const decoded = await avroSerde(fresh).decode(t, asRecord(t.name, null, buf));
    expect(decoded.value).toEqual({ venue: 'venue_4', record_type: 'market', native_id: 'n', read_started_at: 9, payload: '{}', read_id: null, source_url: null });
  });
});

describe('json serde (benchmark baseline)', () => {
  it('round-trips the same values', async () => {
    const serde = jsonSerde();
    const t = topics['canonical.markets'];
    const [key, value] = samples['canonical.markets']!;
    const out = await serde.encode(t, key, value);
    expect(await serde.decode(t, asRecord(t.name, out.key, out.value))).toEqual({ key, value });
  });
});
