// One contract for every SnapshotStore: the in-process store (snapshots.memory.unit.spec.ts) and the
// Redis store (snapshots.redis.int.spec.ts) must answer the same way. Each test works under its own
// random key prefix / snapshot name ("Every test its own names").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { JsonText, type SnapshotStore } from './snapshots.ts';

const rnd = (p: string) => `${p}${randomBytes(4).toString('hex')}`;

export function snapshotStoreContract(name: string, make: () => Promise<SnapshotStore>): void {
  describe(`SnapshotStore contract: ${name}`, () => {
    let store: SnapshotStore;
    beforeAll(async () => {
      store = await make();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('puts and gets a versioned document; an absent key reads null', async () => {
      const k = rnd('doc:');
      expect(await store.get(k)).toBeNull();
      expect(await store.put(k, { a: 1, s: 'x|y' }, 5)).toBe(true);
      expect(await store.get(k)).toEqual({ key: k, version: 5, value: { a: 1, s: 'x|y' } });
    });

    it('ignores a redelivered or older version (idempotent sink), accepts a newer one', async () => {
      const k = rnd('doc:');
      await store.put(k, { v: 'first' }, 10);
      expect(await store.put(k, { v: 'again' }, 10)).toBe(false);
      expect(await store.put(k, { v: 'older' }, 3)).toBe(false);
      expect((await store.get<{ v: string }>(k))!.value.v).toBe('first');
      expect(await store.put(k, { v: 'newer' }, 11)).toBe(true);
      expect((await store.get<{ v: string }>(k))!.value.v).toBe('newer');
    });

    it('putMany counts what it wrote; mget keeps the order of the keys asked', async () => {
      const p = rnd('m:');
      const n = await store.putMany([
        { key: `${p}a`, value: 1, version: 1 },
        { key: `${p}b`, value: 2, version: 1 },
        { key: `${p}a`, value: 3, version: 1 },
      ]);
      expect(n).toBe(2);
      const got = await store.mget([`${p}b`, `${p}missing`, `${p}a`]);
      expect(got.map((g) => g?.value ?? null)).toEqual([2, null, 1]);
      expect(await store.mget([])).toEqual([]);
    });

    it('keeps a document given as JSON text as it is and reads it back parsed, in put and putMany', async () => {
      const k = rnd('doc:');
      expect(await store.put(k, new JsonText('{"a":1,"body":{"n":[1,2]}}'), 1)).toBe(true);
      expect(await store.get(k)).toEqual({ key: k, version: 1, value: { a: 1, body: { n: [1, 2] } } });
      expect(await store.putMany([{ key: k, value: new JsonText('{"a":2}'), version: 2 }])).toBe(1);
      expect((await store.get(k))!.value).toEqual({ a: 2 });
    });

    it('delete honours the tombstone version', async () => {
      const k = rnd('del:');
      await store.put(k, 'x', 7);
      expect(await store.delete(k, 6)).toBe(false);
      expect(await store.get(k)).not.toBeNull();
      expect(await store.delete(k, 7)).toBe(true);
      expect(await store.get(k)).toBeNull();
      expect(await store.delete(k)).toBe(false);
    });

    it('scans by prefix, sorted, treating glob characters literally; deletePrefix clears them', async () => {
      const p = rnd('scan*[x]:');
      await store.put(`${p}b`, 1, 1);
      await store.put(`${p}a`, 1, 1);
      await store.put(`${p}c:d`, 1, 1);
      const other = rnd('scan-other:');
      await store.put(other, 1, 1);
      expect(await store.scan(p)).toEqual([`${p}a`, `${p}b`, `${p}c:d`]);
      expect(await store.deletePrefix(p)).toBe(3);
      expect(await store.scan(p)).toEqual([]);
      expect(await store.get(other)).not.toBeNull();
    });

    it('publishes a snapshot: current, entries by key, range in publish order', async () => {
      const name = rnd('snap');
      expect(await store.current(name)).toBeNull();
      expect(await store.currentId(name)).toBeNull();
      const info = await store.publish(
        name,
        [
          { key: 'e2', value: { n: 2 } },
          { key: 'e1', value: { n: 1 } },
          // An entry may come serialized already (a sink that keeps its entries' JSON): read back the same.
          { key: 'e3', value: new JsonText('{"n":3}') },
        ],
        { observedAt: 1_700_000_000_000, meta: { filter: 'all' }, now: 1_700_000_001_000 },
      );
      expect(info).toMatchObject({ name, count: 3, observedAt: 1_700_000_000_000, publishedAt: 1_700_000_001_000 });
      const cur = await store.current(name);
      expect(cur).toEqual(info);
      expect(await store.entries(name, info.id, ['e3', 'nope', 'e1'])).toEqual([{ n: 3 }, null, { n: 1 }]);
      expect(await store.range(name, info.id, 1, 3)).toEqual([
        { key: 'e1', value: { n: 1 } },
        { key: 'e3', value: { n: 3 } },
      ]);
      expect(await store.range(name, info.id, 2, 100)).toEqual([{ key: 'e3', value: { n: 3 } }]);
      expect(await store.range(name, info.id, 3, 5)).toEqual([]);
    });

    it('a newer publish swaps atomically; the earlier one stays readable within retention, then is evicted', async () => {
      const name = rnd('snap');
      const t0 = 1_800_000_000_000;
      const a = await store.publish(name, [{ key: 'x', value: 'old' }], { observedAt: null, now: t0, retainMs: 1000 });
      const b = await store.publish(name, [{ key: 'x', value: 'new' }, { key: 'y', value: 'y' }], {
        observedAt: t0,
        now: t0 + 10,
        retainMs: 1000,
      });
      expect(a.id).not.toBe(b.id);
      expect((await store.current(name))!.id).toBe(b.id);
      expect(await store.currentId(name)).toBe(b.id);
      // a stopped being current when b was published; b is current.
      expect(await store.retiredAt(name, a.id)).toBe(t0 + 10);
      expect(await store.retiredAt(name, b.id)).toBeNull();
      expect(await store.entries(name, a.id, ['x'])).toEqual(['old']);
      expect(await store.snapshot(name, a.id)).toEqual(a);
      // A third publish after a's retention (counted from when a stopped being current) evicts a.
      const c = await store.publish(name, [], { observedAt: t0, now: t0 + 2000, retainMs: 1000 });
      expect(await store.snapshot(name, a.id)).toBeNull();
      expect(await store.retiredAt(name, a.id)).toBeNull();
      expect(await store.retiredAt(name, b.id)).toBe(t0 + 2000);
      expect(await store.entries(name, a.id, ['x'])).toEqual([null]);
      expect(await store.range(name, a.id, 0, 10)).toEqual([]);
      // b stopped being current at t0 + 2000: still retained.
      expect(await store.entries(name, b.id, ['x'])).toEqual(['new']);
      expect((await store.current(name))!).toMatchObject({ id: c.id, count: 0 });
    });

    it('readers during a publish see the whole old or the whole new snapshot', async () => {
      const name = rnd('snap');
      const big = (tag: string) => Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, value: tag }));
      await store.publish(name, big('A'), { observedAt: 1 });
      const publishing = store.publish(name, big('B'), { observedAt: 2 });
      const seen: string[] = [];
      for (let i = 0; i < 5; i++) {
        const cur = await store.current(name);
        const vals = await store.entries<string>(name, cur!.id, ['k0', 'k1999']);
        seen.push(vals.join(''));
      }
      await publishing;
      for (const s of seen) expect(['AA', 'BB']).toContain(s);
      const cur = await store.current(name);
      expect(await store.entries(name, cur!.id, ['k0', 'k1999'])).toEqual(['B', 'B']);
    });

    it('dropSnapshots removes every snapshot of a name and nothing else', async () => {
      const name = rnd('snap');
      const other = rnd('snap');
      await store.publish(name, [{ key: 'a', value: 1 }], { observedAt: null });
      await store.publish(other, [{ key: 'a', value: 2 }], { observedAt: null });
      await store.dropSnapshots(name);
      expect(await store.current(name)).toBeNull();
      const o = await store.current(other);
      expect(await store.entries(other, o!.id, ['a'])).toEqual([2]);
    });
  });
}
