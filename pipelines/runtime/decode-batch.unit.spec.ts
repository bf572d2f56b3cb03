// decodeBatch: a stage's records decoded up front, or decoded as read (StageDef.lazyValues), are the
// same records.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedRegistry } from '../registry/embedded.ts';
import { avroSerde } from '../serde/index.ts';
import { defineTopics, type RawRecord } from '../topics.ts';
import type { LogRecord } from '../log/types.ts';
import { decodeBatch } from './runner.ts';

describe('decodeBatch', () => {
  it('gives the same records decoded as read (lazy) as decoded up front, a tombstone included', async () => {
    const topics = defineTopics({ prefix: `db${Math.random().toString(36).slice(2, 8)}.` });
    const t = topics['raw.venue_3'];
    const serde = avroSerde(new EmbeddedRegistry(mkdtempSync(path.join(tmpdir(), 'pm-decode-'))));
    const raw = (id: string): RawRecord => ({ venue: 'venue_3', record_type: 'market', native_id: id, read_started_at: 1_767_225_600_000, payload: `{"id":${id}}`, read_id: null, source_url: null });
    const out = await serde.encodeMany(t, [{ key: '1', value: raw('1') }, { key: '2', value: raw('2') }, { key: '3', value: null }]);
    const batch: LogRecord[] = out.map((o, i) => ({ topic: t.name, partition: 0, offset: String(10 + i), key: o.key, value: o.value, timestamp: 5 + i, headers: (i === 1 ? { h: 'x' } : {}) as Record<string, string> }));
    const eager = await decodeBatch(serde, t, batch);
    const lazy = await decodeBatch(serde, t, batch, true);
    const fields = (rs: typeof eager) => rs.map((r) => ({ topic: r.topic, topicName: r.topicName, partition: r.partition, offset: r.offset, key: r.key, value: r.value, timestamp: r.timestamp, headers: r.headers }));
    expect(fields(lazy)).toEqual(fields(eager));
    expect(eager.map((r) => (r.value as RawRecord | null)?.native_id ?? null)).toEqual(['1', '2', null]);
  });
});
