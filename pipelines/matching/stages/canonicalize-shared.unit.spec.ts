// The matching stage on the canonicalizer's thread holds the canonicalizer's market objects, not
// parsed copies of the bodies it wrote (topic-stages.ts). That is the same input to matching only
// when a held market is what its JSON parses to, and only for the body written for it last: a body
// the matcher reads late (superseded since) or from elsewhere is parsed as before.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { OutRecord } from '../../runtime/types.ts';
import type { CanonicalMarket as CanonicalRecord } from '../../topics.ts';
import { venue1Records, venue2Records, venue3Records, venue4Records, type GameSpec } from '../fixtures.ts';
import { Canonicalizer } from './canonicalize.ts';
import { Matcher } from './match.ts';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const games: GameSpec[] = [
  { league: 'nba', away: 'lal', home: 'bos', start: Date.parse('2026-11-23T00:30:00Z'), total: 221.5, spread: { team: 'bos', size: 4.5 } },
  { league: 'nfl', away: 'kc', home: 'buf', start: Date.parse('2026-11-23T18:00:00Z'), total: 47.5, spread: { team: 'kc', size: 2.5 } },
];
const slate = (at: number, rules?: string) =>
  games.flatMap((g, i) => [
    ...venue1Records(g, at, rules ? { rules } : {}, 'c1'),
    ...venue2Records(g, at, { idBase: 9_500_000 + i * 1000 }, 'c1'),
    ...venue3Records(g, at, 'c1', 2_000_000 + i * 3),
    ...venue4Records(g, at, 'c1'),
  ]);
// What a log hands the next stage: a decoded copy of the record, never the written object.
const canonical = (out: OutRecord[]) =>
  out.filter((r) => r.topic === 'canonical.markets').map((r) => ({ key: String(r.key), value: r.value === null ? null : (structuredClone(r.value) as CanonicalRecord) }));
const OTHER_RULES = 'Overtime does not count. A tie voids the market. Rules: https://venue1.example/rules/other';

describe('canonical markets shared with the matcher', () => {
  it('are what their JSON parses to (no undefined, NaN or Date fields)', () => {
    const c = new Canonicalizer();
    c.ingest(slate(NOW));
    expect(c.markets.size).toBeGreaterThan(10);
    for (const [k, h] of c.markets) expect(isDeepStrictEqual(JSON.parse(JSON.stringify(h.m)), h.m), k).toBe(true);
  });

  it('are held once for the body written last, parsed for a superseded one, and match as parsed copies do', () => {
    const c = new Canonicalizer();
    const shared = new Matcher((key, body) => c.heldFor(key, body));
    const own = new Matcher();
    const feed = (recs: ReturnType<typeof canonical>) => {
      for (const r of recs) {
        shared.apply(r.key, r.value);
        own.apply(r.key, r.value);
      }
    };
    const first = canonical(c.ingest(slate(NOW)));
    // A second read changes venue_1's rules before the matcher has read the first one's records.
    const second = canonical(c.ingest(slate(NOW + 60_000, OTHER_RULES)));
    expect(second.length).toBeGreaterThan(0);
    feed(first);
    const superseded = new Set(second.map((r) => r.key));
    for (const [k, m] of shared.markets) {
      expect(m === c.markets.get(k)!.m, k).toBe(!superseded.has(k));
      expect(m).toEqual(own.markets.get(k));
    }
    expect(JSON.stringify(shared.round(NOW + 61_000))).toBe(JSON.stringify(own.round(NOW + 61_000)));
    feed(second);
    for (const [k, m] of shared.markets) expect(m === c.markets.get(k)!.m, k).toBe(true);
    expect(JSON.stringify(shared.round(NOW + 62_000))).toBe(JSON.stringify(own.round(NOW + 62_000)));
    // A body the canonicalizer did not write for that key: parsed.
    const [r] = second;
    const other = { ...r!.value!, body: JSON.stringify({ ...(JSON.parse(r!.value!.body) as object), readId: 'elsewhere' }) };
    expect(c.heldFor(r!.key, other.body)).toBeUndefined();
    expect(c.heldFor(r!.key, r!.value!.body)).toBe(c.markets.get(r!.key)!.m);
  });

  it('are shared again after a restore read the bodies back', () => {
    const c = new Canonicalizer();
    const out = canonical(c.ingest(slate(NOW)));
    const restored = new Canonicalizer();
    for (const r of out) restored.restoreMarket(r.key, r.value);
    const m = new Matcher((key, body) => restored.heldFor(key, body));
    for (const r of out) m.apply(r.key, r.value);
    expect(m.markets.size).toBe(restored.markets.size);
    for (const [k, x] of m.markets) expect(x).toBe(restored.markets.get(k)!.m);
  });
});
