// The hub compresses the records it keeps after they are applied and sent, never before: with every
// deflate held back, a batch still reaches the hub's state and reads right (its bytes as they came),
// and once the deflates run, an entry not read before reads right from its compressed bytes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Zlib from 'node:zlib';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { randomName } from '../../test/services/index.ts';
import { EmbeddedLog } from '../../pipelines/log/embedded.ts';
import { EmbeddedRegistry } from '../../pipelines/registry/embedded.ts';
import { avroSerde } from '../../pipelines/serde/index.ts';
import { defineTopics, topicSpecs } from '../../pipelines/topics.ts';
import { entryOfRecord } from '../../pipelines/matching/stages/sports-snapshot.ts';
import { StreamHub } from './hub.ts';
import { matched } from './hub.testkit.ts';

const gate = vi.hoisted(() => ({ hold: true, held: [] as Array<() => void>, calls: 0, done: 0 }));
vi.mock('node:zlib', async (importOriginal) => {
  const z = await importOriginal<typeof Zlib>();
  return {
    ...z,
    deflateRaw: (buf: Buffer, opts: Zlib.ZlibOptions, cb: (e: Error | null, r: Buffer) => void) => {
      gate.calls++;
      const run = () => z.deflateRaw(buf, opts, (e, r) => (gate.done++, cb(e, r)));
      if (gate.hold) gate.held.push(run);
      else run();
    },
  };
});

describe('StreamHub compresses what it keeps after applying it', () => {
  it('applies a batch while its compression is held back, and reads an entry right before and after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-hub-z-'));
    const log = await EmbeddedLog.open({ dir: join(dir, 'log'), compactIntervalMs: 0 });
    const topics = defineTopics({ prefix: randomName('hubz') + '.', partitions: 1 });
    const me = topics['matched.events'];
    await log.createTopics(topicSpecs(topics).filter((s) => s.name === me.name || s.name === topics['lifecycle.states'].name));
    const avro = avroSerde(new EmbeddedRegistry(join(dir, 'registry')));
    const producer = await log.producer();
    onTestFinished(async () => {
      await producer.close();
      await log.close();
    });
    const n = 3 + Math.floor(Math.random() * 5);
    const written = new Map(Array.from({ length: n }, (_, i) => randomName(`nba-${i}`)).map((id, i) => [id, matched(id, `game ${i}`)]));
    await producer.send(me.name, await avro.encodeMany(me, [...written].map(([key, value]) => ({ key, value }))));

    const hub = await StreamHub.start({ log, serde: avro, topics });
    onTestFinished(() => hub.stop());
    // Before: every record's deflate came first, so a held deflate held the batch (never ready).
    expect(await hub.ready(30_000)).toBe(true);
    expect(hub.changes).toBe(n);
    expect(gate.calls).toBeLessThanOrEqual(1);
    const [first, ...rest] = [...written.keys()];
    expect(hub.entries.get(first!)!.entry).toEqual(entryOfRecord(written.get(first!)!));

    gate.hold = false;
    for (const run of gate.held.splice(0)) run();
    // Each kept record compressed once, in the order applied; then read from its compressed bytes.
    await vi.waitFor(() => expect(gate.done).toBe(n), { timeout: 10_000 });
    expect(gate.calls).toBe(n);
    for (const id of rest) expect(hub.entries.get(id)!.entry).toEqual(entryOfRecord(written.get(id)!));
  });
});
