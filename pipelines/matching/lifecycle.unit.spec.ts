// The lifecycle's shortcuts a publish round takes, held to what they stand for:
//  - a round skips TICK before nextTimeRule(snapshot): at any earlier instant TICK changes nothing;
//    at that instant it moves the event on (current -> archived -> removed);
//  - persist and the served entry write a body from its cached JSON: the text is exactly
//    JSON.stringify's, also for names holding `$` replacement patterns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, nextTimeRule, persist, restore, startLifecycle, stringifyWithBody, type LifecycleSnapshot } from './lifecycle.ts';
import type { EventRecord } from './match.ts';

const D = 86_400_000;
const T0 = Date.parse('2026-11-21T15:00:00Z');

function record(name: string, start: number, sources: number, over: Partial<EventRecord['signals']> = {}): EventRecord {
  const date = new Date(start - 5 * 3600_000).toISOString().slice(0, 10);
  const sm = {
    key: 'moneyline|full|winner',
    display_name: name,
    source_markets: Array.from({ length: sources }, (_, i) => ({ provider: `venue_${i + 1}`, market_id: `m${i}`, market_name: name })),
  };
  return {
    event: { event_id: `nba-lal-bos-${date}`, league: 'nba', title: name, scheduled_date: date, scheduled_start: new Date(start).toISOString(), submarkets: sources ? [sm] : [] } as never,
    strictPropKeys: [],
    lookupIds: [`venue_1:${name}`],
    marketIds: [],
    startMs: start,
    signals: { settledProviders: [], cancelled: false, openMarkets: 2, ...over },
  };
}

/** A snapshot somewhere in its life: fresh, observed again, settled (archived) or cancelled. */
const arbSnapshot = fc
  .record({
    name: fc.oneof(fc.string(), fc.constantFrom('Lakers $& Celtics', "$' at $`", 'a $$ b', '"body":"x"')),
    startH: fc.integer({ min: -72, max: 72 }),
    sources: fc.integer({ min: 0, max: 3 }),
    step: fc.constantFrom('start', 'observe', 'settled', 'cancelled', 'gone'),
  })
  .map(({ name, startH, sources, step }): LifecycleSnapshot => {
    const start = T0 + startH * 3600_000;
    let s = startLifecycle({ now: T0, record: record(name, start, sources) }).snapshot;
    const later = T0 + 3600_000;
    if (step === 'observe') s = advance(s, { type: 'OBSERVE', now: later, record: record(name, start, sources + 1) }).snapshot;
    if (step === 'settled') s = advance(s, { type: 'OBSERVE', now: later, record: record(name, start, sources, { openMarkets: 0, settledProviders: ['venue_1'] }) }).snapshot;
    if (step === 'cancelled') s = advance(s, { type: 'OBSERVE', now: later, record: record(name, start, sources, { cancelled: true }) }).snapshot;
    if (step === 'gone') s = advance(s, { type: 'GONE', now: later }).snapshot;
    return s;
  });

describe('nextTimeRule', () => {
  it('TICK before it changes nothing; TICK at it moves the event on', () => {
    fc.assert(
      fc.property(arbSnapshot, fc.integer({ min: 1, max: 40 * D }), (s, before) => {
        const at = nextTimeRule(s);
        expect(Number.isFinite(at)).toBe(true);
        expect(persist(advance(s, { type: 'TICK', now: at - before }).snapshot)).toBe(persist(s));
        expect(advance(s, { type: 'TICK', now: at }).state).not.toBe(s.value);
      }),
      { numRuns: 300 },
    );
  });
});

describe('bodies written from their cached JSON', () => {
  it('persist and stringifyWithBody write exactly what JSON.stringify writes, and persist round-trips', () => {
    fc.assert(
      fc.property(arbSnapshot, (s) => {
        expect(persist(s)).toBe(JSON.stringify({ value: s.value, context: s.context }));
        const entry = { event: s.context.body, population: 'current', strictPropKeys: [], lookupIds: s.context.lookupIds, sortMs: 1 };
        expect(stringifyWithBody(entry, 'event')).toBe(JSON.stringify(entry));
        expect(persist(restore(persist(s)))).toBe(persist(s));
      }),
      { numRuns: 300 },
    );
  });
});
