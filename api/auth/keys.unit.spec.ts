// The stored form of a key: HMAC-SHA256 under the pepper, hex, whatever the pepper and however peppers alternate.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoredForms, generateKey, hashKey, keyProbe, sameHash } from './keys.ts';

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

describe('keyProbe and StoredForms', () => {
  it('a probe is SHA-256 of the pepper and the key: one per (pepper, key), never the key or its stored form', () => {
    const key = generateKey();
    const probe = keyProbe('dev-pepper', key);
    expect(probe).toBe(createHash('sha256').update(`dev-pepper\n${key}`).digest('base64'));
    expect(keyProbe('dev-pepper', key)).toBe(probe);
    expect(keyProbe('other', key)).not.toBe(probe);
    expect(keyProbe('dev-pepper', generateKey())).not.toBe(probe);
    expect(probe).not.toContain(key.slice(4, 12));
    expect(Buffer.from(probe, 'base64').toString('hex')).not.toBe(hashKey('dev-pepper', key));
  });

  it('remembers, forgets, and starts over at its bound', () => {
    const forms = new StoredForms(3);
    const keys = [generateKey(), generateKey(), generateKey(), generateKey()];
    const probes = keys.map((k) => keyProbe('p', k));
    expect(forms.get(probes[0])).toBeUndefined();
    for (let i = 0; i < 3; i++) forms.remember(probes[i], hashKey('p', keys[i]));
    expect(forms.get(probes[1])).toBe(hashKey('p', keys[1]));
    forms.forget(probes[1]);
    expect(forms.get(probes[1])).toBeUndefined();
    forms.remember(probes[1], hashKey('p', keys[1]));
    expect(forms.size).toBe(3);
    // Full: the fourth starts the memo over (it never grows past its bound).
    forms.remember(probes[3], hashKey('p', keys[3]));
    expect(forms.size).toBe(1);
    expect(forms.get(probes[0])).toBeUndefined();
    expect(forms.get(probes[3])).toBe(hashKey('p', keys[3]));
  });
});
