// The Redis SnapshotStore at the scale-out stack's seams, beyond the shared contract
// (snapshots.contract.ts): a publisher that dies half way, two publishers of one name at once,
// names and keys with odd characters, and what a reader sees once the store lost its content
// (a flush, or a restart without the append-only file). Each test under its own namespace.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSnapshotStore } from './redis-store.ts';
import { redisUrlForTests } from '../runtime/test-services.ts';

const url = await redisUrlForTests();
const ns = () => `tf${randomBytes(4).toString('hex')}:`;

describe.skipIf(!url)('Redis SnapshotStore faults', () => {
  const opened: RedisSnapshotStore[] = [];
  const open = (namespace: string) => {
    const s = new RedisSnapshotStore({ url: url!, namespace });
    opened.push(s);
    return s;
  };
  let admin: RedisSnapshotStore;
  /** Every key under a namespace. */
  const keysOf = async (namespace: string) => (await admin.redis.keys(`${namespace}*`)).sort();
  beforeAll(() => {
    admin = open(ns());
  });
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  it('regression: the pages of a publish that died before its swap are freed once the retention has passed (they stayed in Redis for good)', async () => {
    const n = ns();
    const store = open(n);
    const t0 = 1_900_000_000_000;
    await store.publish('catalog', [{ key: 'p|1', value: ['a'] }], { id: 'S1', observedAt: t0, now: t0, retainMs: 1000 });
    // The processor is killed after writing S2's pages and info, before the swap made it current.
    const swap = store.redis.pmSwap.bind(store.redis);
    store.redis.pmSwap = () => Promise.reject(new Error('SIGKILL'));
    const big = Array.from({ length: 1200 }, (_, i) => ({ key: `p|${i}`, value: ['x'.repeat(20)] }));
    await expect(store.publish('catalog', big, { id: 'S2', observedAt: t0, now: t0 + 10, retainMs: 1000 })).rejects.toThrow('SIGKILL');
    store.redis.pmSwap = swap;
    // Readers never saw it.
    expect(await store.currentId('catalog')).toBe('S1');
    // The restarted processor publishes twice, the second past the retention of everything before.
    await store.publish('catalog', [{ key: 'p|1', value: ['b'] }], { id: 'S3', observedAt: t0, now: t0 + 20, retainMs: 1000 });
    await store.publish('catalog', [{ key: 'p|1', value: ['c'] }], { id: 'S4', observedAt: t0, now: t0 + 5000, retainMs: 1000 });
    const left = (await keysOf(n)).map((k) => k.slice(n.length));
    expect(left.filter((k) => k.includes('S2'))).toEqual([]);
    expect(left.filter((k) => k.includes('S1'))).toEqual([]);
    expect(left).toEqual(['s:catalog:S3:h', 's:catalog:S3:i', 's:catalog:S3:o', 's:catalog:S4:h', 's:catalog:S4:i', 's:catalog:S4:o', 's:catalog:cur', 's:catalog:ids']);
  });

  it('two processors publishing one name at once: readers see one whole snapshot, the other is retired and later evicted', async () => {
    const n = ns();
    const a = open(n);
    const b = open(n);
    const t0 = 1_900_000_000_000;
    const entries = (tag: string) => Array.from({ length: 1500 }, (_, i) => ({ key: `k${i}`, value: tag }));
    const [ia, ib] = await Promise.all([
      a.publish('sports', entries('A'), { id: 'A1', observedAt: t0, now: t0, retainMs: 1000 }),
      b.publish('sports', entries('B'), { id: 'B1', observedAt: t0, now: t0 + 1, retainMs: 1000 }),
    ]);
    const cur = await a.current('sports');
    expect([ia.id, ib.id]).toContain(cur!.id);
    const tag = cur!.id[0];
    const all = await a.range<string>('sports', cur!.id, 0, cur!.count);
    expect(all).toHaveLength(1500);
    expect(new Set(all.map((e) => e.value))).toEqual(new Set([tag]));
    // The other one stopped being current when the winner swapped in, and is still readable.
    const other = cur!.id === 'A1' ? 'B1' : 'A1';
    expect(await a.retiredAt('sports', other)).not.toBeNull();
    expect(await a.entries('sports', other, ['k0'])).toEqual([other[0]]);
    // A later publish past the retention evicts both; nothing of theirs is left.
    await a.publish('sports', [], { id: 'C1', observedAt: t0, now: t0 + 10_000, retainMs: 1000 });
    await a.publish('sports', [], { id: 'D1', observedAt: t0, now: t0 + 20_000, retainMs: 1000 });
    const left = (await keysOf(n)).map((k) => k.slice(n.length));
    expect(left).toEqual(['s:sports:C1:i', 's:sports:D1:i', 's:sports:cur', 's:sports:ids']);
  });

  it('a publish that outlasts its retention while another processor publishes is not made current with its pages evicted', async () => {
    const n = ns();
    const slow = open(n);
    const other = open(n);
    const t0 = 1_900_000_000_000;
    await other.publish('sports', [{ key: 'k', value: 'first' }], { id: 'F1', observedAt: t0, now: t0, retainMs: 1000 });
    // The slow publisher has written its pages; before its swap the other publishes twice, long after.
    const set = slow.redis.set.bind(slow.redis) as (...a: unknown[]) => Promise<unknown>;
    let once = false;
    (slow.redis as unknown as { set: (...a: unknown[]) => Promise<unknown> }).set = async (...a: unknown[]) => {
      if (!once) {
        once = true;
        await other.publish('sports', [{ key: 'k', value: 'second' }], { id: 'G1', observedAt: t0, now: t0 + 10_000, retainMs: 1000 });
        await other.publish('sports', [{ key: 'k', value: 'third' }], { id: 'G2', observedAt: t0, now: t0 + 20_000, retainMs: 1000 });
      }
      return set(...a);
    };
    const slowEntries = Array.from({ length: 600 }, (_, i) => ({ key: `k${i}`, value: 'slow' }));
    await expect(slow.publish('sports', slowEntries, { id: 'S1', observedAt: t0, now: t0 + 1, retainMs: 1000 })).rejects.toThrow(/evicted/);
    // Readers keep the other's whole snapshot; nothing of the slow one is left behind.
    const cur = await other.current('sports');
    expect(cur!.id).toBe('G2');
    expect(await other.entries('sports', 'G2', ['k'])).toEqual(['third']);
    expect((await keysOf(n)).filter((k) => k.includes(':S1:'))).toEqual([]);
  });

  it('entry keys and values with odd characters read back as written', async () => {
    const store = open(ns());
    const odd = ['a|b|c', 'x:y:z', 'sp ace', '*?[]\\', 'ünï€ode', '\n\t', 'p|venue_2|0'];
    const info = await store.publish('odd', odd.map((key, i) => ({ key, value: { i, s: `${key}|${i}` } })), { observedAt: null });
    expect(await store.entries('odd', info.id, odd)).toEqual(odd.map((key, i) => ({ i, s: `${key}|${i}` })));
    expect((await store.range('odd', info.id, 0, odd.length)).map((e) => e.key)).toEqual(odd);
  });

  it('dropSnapshots of a name leaves a name that starts with it and a colon alone', async () => {
    const store = open(ns());
    await store.publish('cat', [{ key: 'a', value: 1 }], { observedAt: null });
    const keep = await store.publish('cat:eu', [{ key: 'a', value: 2 }], { observedAt: null });
    await store.dropSnapshots('cat');
    expect(await store.current('cat')).toBeNull();
    expect(await store.current('cat:eu')).toEqual(keep);
    expect(await store.entries('cat:eu', keep.id, ['a'])).toEqual([2]);
  });

  it('a store that lost its content (flush, or a restart without the AOF) reads as never published, not as an empty snapshot', async () => {
    const n = ns();
    const store = open(n);
    const info = await store.publish('sports', [{ key: 'e1', value: 1 }], { observedAt: 1 });
    const keys = await keysOf(n);
    await admin.redis.del(...keys);
    expect(await store.currentId('sports')).toBeNull();
    expect(await store.current('sports')).toBeNull();
    expect(await store.snapshot('sports', info.id)).toBeNull();
    expect(await store.range('sports', info.id, 0, 1)).toEqual([]);
  });
});
