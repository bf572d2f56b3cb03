// The in-process store's budget for retired snapshots: oldest retired evicted first, current never.
import { describe, expect, it } from 'vitest';
import { MemorySnapshotStore } from './memory-store.ts';

/** n entries of `size` characters (+2 quotes of JSON); `tag` (one character) makes a snapshot's values its own. */
const entries = (n: number, size: number, tag = 'a') => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: tag + 'x'.repeat(size - 1) }));

describe('MemorySnapshotStore retained-bytes budget', () => {
  it('evicts the oldest retired snapshots, of any name, once retired ones exceed the budget', async () => {
    // Each snapshot: 10 entries of 100 characters (+2 quotes) = 1,020 characters of JSON.
    const store = new MemorySnapshotStore({ retainedBytes: 2_500 });
    const name = `cat${Math.random().toString(36).slice(2)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.publish(name, entries(10, 100, String(i)), { observedAt: i, now: 1_000 + i, retainMs: 3_600_000 })).id);
    // Current: the last. Retired: four, 4,080 characters; the budget keeps the two newest.
    expect(await store.currentId(name)).toBe(ids[4]);
    const kept = await Promise.all(ids.map((id) => store.snapshot(name, id)));
    expect(kept.map((s) => s !== null)).toEqual([false, false, true, true, true]);
    // Another name's retirement counts against the same budget, oldest first across names.
    const other = `sp${Math.random().toString(36).slice(2)}`;
    await store.publish(other, entries(10, 100, 'p'), { observedAt: 0, now: 2_000, retainMs: 3_600_000 });
    await store.publish(other, entries(10, 100, 'q'), { observedAt: 0, now: 2_001, retainMs: 3_600_000 });
    expect(await store.snapshot(name, ids[2]!)).toBeNull();
    expect(await store.snapshot(name, ids[3]!)).not.toBeNull();
    expect((await store.entries<string>(name, ids[4]!, ['k0']))[0]).toBe('4' + 'x'.repeat(99));
  });

  it('never evicts a current snapshot, even one larger than the budget', async () => {
    const store = new MemorySnapshotStore({ retainedBytes: 10 });
    const name = `big${Math.random().toString(36).slice(2)}`;
    const a = await store.publish(name, entries(5, 1_000, 'a'), { observedAt: 0, now: 1, retainMs: 3_600_000 });
    expect(await store.snapshot(name, a.id)).not.toBeNull();
    const b = await store.publish(name, entries(5, 1_000, 'b'), { observedAt: 0, now: 2, retainMs: 3_600_000 });
    expect(await store.snapshot(name, a.id)).toBeNull();
    expect(await store.snapshot(name, b.id)).not.toBeNull();
  });

  it('without a budget keeps retired snapshots for their retention', async () => {
    const store = new MemorySnapshotStore();
    const name = `n${Math.random().toString(36).slice(2)}`;
    const a = await store.publish(name, entries(100, 1_000), { observedAt: 0, now: 1, retainMs: 3_600_000 });
    await store.publish(name, entries(100, 1_000), { observedAt: 0, now: 2, retainMs: 3_600_000 });
    expect(await store.snapshot(name, a.id)).not.toBeNull();
  });

  it('counts only what a snapshot adds: entries unchanged since the current one are shared, not copied', async () => {
    // 1,020 characters a snapshot; a budget of 1,500 keeps one retired snapshot of new values...
    const store = new MemorySnapshotStore({ retainedBytes: 1_500 });
    const name = `s${Math.random().toString(36).slice(2)}`;
    const a = await store.publish(name, entries(10, 100, 'a'), { observedAt: 0, now: 1, retainMs: 3_600_000 });
    // ...but republishing the same values adds nothing, so every retired snapshot fits.
    const b = await store.publish(name, entries(10, 100, 'a'), { observedAt: 0, now: 2, retainMs: 3_600_000 });
    const c = await store.publish(name, entries(10, 100, 'a'), { observedAt: 0, now: 3, retainMs: 3_600_000 });
    expect((await Promise.all([a, b, c].map((x) => store.snapshot(name, x.id)))).every((x) => x !== null)).toBe(true);
    expect(await store.entries<string>(name, a.id, ['k3'])).toEqual(await store.entries<string>(name, c.id, ['k3']));
    // One changed entry adds its own bytes only.
    const d = await store.publish(name, [...entries(9, 100, 'a'), { key: 'k9', value: 'changed' }], { observedAt: 0, now: 4, retainMs: 3_600_000 });
    expect(await store.snapshot(name, a.id)).not.toBeNull();
    expect((await store.entries<string>(name, d.id, ['k9', 'k0']))).toEqual(['changed', 'a' + 'x'.repeat(99)]);
  });
});
