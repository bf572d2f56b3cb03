// The stored form of a key: HMAC-SHA256 under the pepper, hex, whatever the pepper and however peppers alternate.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, sameHash } from './keys.ts';

describe('hashKey', () => {
  it('is HMAC-SHA256 of the key under the pepper\'s UTF-8 bytes, hex, as the stored digests were made', () => {
    const peppers = ['dev-pepper', 'p', 'poivre-\u00e9\u00e8-\u{1F336}', 'x'.repeat(200)];
    const keys = [generateKey(), generateKey(), 'pmk_short', `pmk_${'\u00fc'.repeat(10)}`];
    // Peppers alternate between calls (tests build several apps in one process).
    for (let round = 0; round < 2; round++) {
      for (const pepper of peppers) {
        for (const key of keys) expect(hashKey(pepper, key)).toBe(createHmac('sha256', pepper).update(key).digest('hex'));
      }
    }
    // A fixed vector (RFC 4231 test case 2: key "Jefe").
    expect(hashKey('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('different peppers, different digests; sameHash compares digests', () => {
    const key = generateKey();
    expect(hashKey('a', key)).not.toBe(hashKey('b', key));
    expect(sameHash(hashKey('a', key), hashKey('a', key))).toBe(true);
    expect(sameHash(hashKey('a', key), hashKey('b', key))).toBe(false);
  });
});
