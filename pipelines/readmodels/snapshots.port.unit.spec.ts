// The SnapshotStore contract on the port seam: the in-process store served on one end of a
// MessageChannel (as the API's thread serves it), PortSnapshotStore on the other (as the pipeline
// thread writes through it, PIPELINE_THREAD).
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { snapshotStoreContract } from './snapshots.contract.ts';
import { MemorySnapshotStore } from './memory-store.ts';
import { PortSnapshotStore, PUBLISH_CHUNK, PUBLISH_CHUNK_CHARS, serveSnapshotStore } from './store-port.ts';

function portStore(): { served: MemorySnapshotStore; client: PortSnapshotStore } {
  const ch = new MessageChannel();
  const served = new MemorySnapshotStore();
  serveSnapshotStore(served, ch.port1);
  return { served, client: new PortSnapshotStore(ch.port2) };
}

snapshotStoreContract('port', async () => portStore().client);

describe('PortSnapshotStore', () => {
  it('publishes a snapshot larger than one chunk, in order, with non-ASCII text intact, readable on the serving side', async () => {
    const { served, client } = portStore();
    const name = `snap-${randomBytes(4).toString('hex')}`;
    const n = PUBLISH_CHUNK * 2 + 7;
    const entries = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: { i, t: i % 3 === 0 ? 'Zürich – “quoted” 🏀' : 'x' } }));
    const info = await client.publish(name, entries, { observedAt: 5 });
    expect(info.count).toBe(n);
    expect(await served.currentId(name)).toBe(info.id);
    const back = await served.range<{ i: number; t: string }>(name, info.id, 0, n);
    expect(back.map((e) => e.value.i)).toEqual(entries.map((e) => e.value.i));
    expect(back[n - 1]!.value).toEqual(entries[n - 1]!.value);
    expect(back[3]!.value.t).toBe('Zürich – “quoted” 🏀');
    await client.close();
  });

  it('publishes entries larger than a chunk of characters, each whole', async () => {
    const { served, client } = portStore();
    const name = `big-${randomBytes(4).toString('hex')}`;
    const big = 'y'.repeat(PUBLISH_CHUNK_CHARS / 2 + 1);
    const entries = [0, 1, 2].map((i) => ({ key: `c${i}`, value: { i, big } }));
    const info = await client.publish(name, entries, { observedAt: null });
    expect(info.count).toBe(3);
    const back = await served.entries<{ i: number; big: string }>(name, info.id, ['c0', 'c1', 'c2']);
    expect(back.map((e) => [e!.i, e!.big.length])).toEqual([0, 1, 2].map((i) => [i, big.length]));
    await client.close();
  });

  it('rejects calls once closed, with a message saying so', async () => {
    const { client } = portStore();
    await client.close();
    await expect(client.get('x')).rejects.toThrow(/closed/);
  });
});
