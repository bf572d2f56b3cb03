// The change detector of change-only ingestion: a record is published when a full crawl reads it,
// when it is new, or when its content differs from its last publish, never otherwise; a detector
// built from the memory another one left (what a restart reads back) decides the same way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChangeDetector, contentHash, recordKey } from './changes.ts';

const payloadArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 6 });
const keyArb = fc.tuple(fc.constantFrom('market', 'event', 'question'), fc.string({ minLength: 1, maxLength: 12 })).map(([t, id]) => recordKey(t, id));

/** Checks a record and, when it must be published, notes the publish (what the poller does once the log has it). */
function crawl(d: ChangeDetector, key: string, payload: string, full = false): boolean {
  const { hash, publish } = d.check(key, payload, full);
  if (publish) d.published([[key, hash]]);
  return publish;
}

describe('ChangeDetector', () => {
  it('publishes a new record, then not again while its content stays the same', () => {
    fc.assert(
      fc.property(keyArb, payloadArb, fc.integer({ min: 1, max: 5 }), (key, obj, repeats) => {
        const d = new ChangeDetector();
        const payload = JSON.stringify(obj);
        expect(crawl(d, key, payload)).toBe(true);
        for (let i = 0; i < repeats; i++) expect(crawl(d, key, payload)).toBe(false);
      }),
    );
  });

  it('publishes again when any one field changes', () => {
    fc.assert(
      fc.property(keyArb, payloadArb, fc.nat(), fc.jsonValue({ maxDepth: 2 }), (key, obj, pick, value) => {
        const field = Object.keys(obj)[pick % Object.keys(obj).length]!;
        const changed = { ...obj, [field]: value };
        fc.pre(JSON.stringify(changed) !== JSON.stringify(obj));
        const d = new ChangeDetector();
        crawl(d, key, JSON.stringify(obj));
        expect(crawl(d, key, JSON.stringify(changed))).toBe(true);
        // And the changed content is what is remembered now.
        expect(crawl(d, key, JSON.stringify(changed))).toBe(false);
        expect(crawl(d, key, JSON.stringify(obj))).toBe(true);
      }),
    );
  });

  it('a full crawl publishes every record, changed or not', () => {
    fc.assert(
      fc.property(keyArb, payloadArb, (key, obj) => {
        const d = new ChangeDetector();
        crawl(d, key, JSON.stringify(obj));
        expect(crawl(d, key, JSON.stringify(obj), true)).toBe(true);
      }),
    );
  });

  it('a record whose publish was not noted (the sink failed) is published at the next crawl', () => {
    const d = new ChangeDetector();
    expect(d.check('market:a', '{"p":1}', false).publish).toBe(true);
    expect(d.check('market:a', '{"p":1}', false).publish).toBe(true);
  });

  it('names what was published and is no longer listed, and forgets it when told', () => {
    fc.assert(
      fc.property(fc.uniqueArray(keyArb, { maxLength: 20 }), fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }), (keys, listed) => {
        const d = new ChangeDetector();
        for (const k of keys) crawl(d, k, `{"k":${JSON.stringify(k)}}`);
        const seen = new Set(keys.filter((_, i) => listed[i]));
        const gone = d.gone(seen);
        expect(new Set(gone)).toEqual(new Set(keys.filter((k) => !seen.has(k))));
        d.forget(gone);
        expect(new Set(d.memory.keys())).toEqual(seen);
        // A record that left and comes back is new again: published.
        for (const k of gone) expect(crawl(d, k, `{"k":${JSON.stringify(k)}}`)).toBe(true);
      }),
    );
  });

  it('a detector built from the memory another left decides as that one would have', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(keyArb, payloadArb), { maxLength: 15 }),
        fc.array(fc.tuple(keyArb, payloadArb), { maxLength: 15 }),
        (first, next) => {
          const before = new ChangeDetector();
          for (const [k, o] of first) crawl(before, k, JSON.stringify(o));
          const restored = new ChangeDetector([...before.memory]);
          for (const [k, o] of [...first, ...next]) {
            const payload = JSON.stringify(o);
            expect(restored.check(k, payload, false)).toEqual(before.check(k, payload, false));
          }
        },
      ),
    );
  });

  it('hashes the payload text byte for byte (a reordered object is a change: the venue sent something else)', () => {
    expect(contentHash('{"a":1,"b":2}')).toBe(contentHash('{"a":1,"b":2}'));
    expect(contentHash('{"a":1,"b":2}')).not.toBe(contentHash('{"b":2,"a":1}'));
  });
});
