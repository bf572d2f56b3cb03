// Event ids of the push stream: a position that decodes back exactly, for any topic names.
import { describe, expect, it } from 'vitest';
import { covers, decodeId, encodeId, layoutOf, maxPos } from './position.ts';

describe('stream event ids', () => {
  it('decode to the position and time they encode, for layouts of many topic names', () => {
    // Many names: a layout tag containing the field separator once made ids of some prefixes undecodable.
    for (let i = 0; i < 500; i++) {
      const layout = layoutOf([
        { name: `p${i}.lifecycle.states`, partitions: 2 },
        { name: `p${i}.matched.events`, partitions: 3 },
      ]);
      const pos = [0, 7, 123456789, 36, 35];
      const at = 1_795_000_000_000 + i;
      expect(decodeId(layout, encodeId(layout, at, pos))).toEqual({ at, pos });
    }
  });

  it('is not a position of another layout, nor of a malformed id', () => {
    const a = layoutOf([{ name: 'a', partitions: 2 }]);
    const b = layoutOf([{ name: 'b', partitions: 2 }]);
    expect(decodeId(b, encodeId(a, 1, [1, 2]))).toBeNull();
    expect(decodeId(a, `${a.tag}-1-1`)).toBeNull();
    expect(decodeId(a, `${a.tag}-1-1.2.3`)).toBeNull();
    expect(decodeId(a, `${a.tag}-1-1.X`)).toBeNull();
  });

  it('combines positions component-wise', () => {
    expect(maxPos([1, 5], [3, 2])).toEqual([3, 5]);
    expect(covers([3, 5], [3, 2])).toBe(true);
    expect(covers([3, 1], [3, 2])).toBe(false);
  });
});
