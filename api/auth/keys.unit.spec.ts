// KeyDigests: a key sent again is not hashed again, and no key value is held longer than a minute.
import { describe, expect, it } from 'vitest';
import { DIGEST_HOLD_MS, KeyDigests, generateKey, hashKey } from './keys.ts';

describe('KeyDigests', () => {
  it('answers the HMAC digest of each key, the same whether remembered or not', () => {
    const t = 0;
    const d = new KeyDigests('pepper', () => t);
    const keys = [generateKey(), generateKey()];
    for (let round = 0; round < 3; round++) for (const k of keys) expect(d.digest(k)).toBe(hashKey('pepper', k));
    expect(d.size).toBe(2);
    expect(new KeyDigests('other', () => t).digest(keys[0])).toBe(hashKey('other', keys[0]));
  });

  it('holds no key value longer than DIGEST_HOLD_MS', () => {
    let t = 1_000;
    const d = new KeyDigests('pepper', () => t);
    const k = generateKey();
    d.digest(k);
    t += DIGEST_HOLD_MS - 1;
    d.digest(generateKey());
    expect(d.size).toBe(2);
    t += 1;
    expect(d.digest(k)).toBe(hashKey('pepper', k));
    // The table was dropped and started afresh with the one key asked since.
    expect(d.size).toBe(1);
  });
});
