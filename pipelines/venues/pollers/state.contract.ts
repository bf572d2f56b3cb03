// The PollerState contract: what a poller relies on from wherever its change-only memory is kept,
// run against each implementation (state.int.spec.ts). In: a harness that opens a state and opens
// it again the way a restarted process would. Out: vitest suites. Every test uses its own feed name.
import { describe, expect, it } from 'vitest';
import { randomName } from '../../../test/services/index.ts';
import type { PollerState } from './state.ts';

export interface PollerStateHarness {
  open(): Promise<PollerState>;
  /** What a process started after `previous` stopped reads (the memory state: the same process). */
  reopen(previous: PollerState): Promise<PollerState>;
}

export function pollerStateContract(name: string, h: PollerStateHarness): void {
  describe(`PollerState contract: ${name}`, () => {
    it('has nothing for a feed that never wrote', async () => {
      const s = await h.open();
      expect(s.load('venue_1', randomName('feed'))).toBeUndefined();
    });

    it('gives back, after a restart, the hashes written, without those gone, and the last full crawl', async () => {
      const feed = randomName('feed');
      const s = await h.open();
      await s.save('venue_2', feed, { set: [['market:1', 'h1'], ['market:2', 'h2'], ['market:3|x', 'h3']], lastFullStartedAt: 1_000 }, 1_000);
      await s.save('venue_2', feed, { set: [['market:2', 'h2b'], ['market:4', 'h4']] }, 2_000);
      await s.save('venue_2', feed, { gone: ['market:1'] }, 3_000);
      // Another venue's and another feed's memory are their own.
      await s.save('venue_3', feed, { set: [['market:1', 'other']], lastFullStartedAt: 5 }, 3_000);
      await s.save('venue_2', `${feed}x`, { set: [['market:9', 'h9']] }, 3_000);
      for (const state of [s, await h.reopen(s)]) {
        const m = state.load('venue_2', feed)!;
        expect(Object.fromEntries(m.hashes)).toEqual({ 'market:2': 'h2b', 'market:3|x': 'h3', 'market:4': 'h4' });
        expect(m.lastFullStartedAt).toBe(1_000);
        expect(Object.fromEntries(state.load('venue_3', feed)!.hashes)).toEqual({ 'market:1': 'other' });
        expect(state.load('venue_2', `${feed}x`)!.lastFullStartedAt).toBeNull();
      }
    });

    it('a later full crawl replaces the start on record; a record gone and back is remembered again', async () => {
      const feed = randomName('feed');
      const s = await h.open();
      await s.save('venue_5', feed, { set: [['question:7', 'a']], lastFullStartedAt: 10 }, 10);
      await s.save('venue_5', feed, { gone: ['question:7'] }, 20);
      await s.save('venue_5', feed, { set: [['question:7', 'b']], lastFullStartedAt: 30 }, 30);
      const m = (await h.reopen(s)).load('venue_5', feed)!;
      expect(Object.fromEntries(m.hashes)).toEqual({ 'question:7': 'b' });
      expect(m.lastFullStartedAt).toBe(30);
    });

    it('keeps the start of each feed\'s last complete crawl, the newest written, apart from any hashes', async () => {
      const feed = randomName('feed');
      const s = await h.open();
      expect(s.lastCompleteStart('venue_4', feed)).toBeNull();
      await s.save('venue_4', feed, { lastCompleteStartedAt: 100 }, 150);
      await s.save('venue_4', feed, { lastCompleteStartedAt: 200 }, 250);
      // With hashes (a change-only feed's last write of a crawl) too.
      await s.save('venue_6', feed, { set: [['market:1', 'h']], lastFullStartedAt: 300, lastCompleteStartedAt: 300 }, 350);
      for (const state of [s, await h.reopen(s)]) {
        expect(state.lastCompleteStart('venue_4', feed)).toBe(200);
        // A feed that only kept its crawl start has no memory of hashes (its next crawl is full as before).
        expect(state.load('venue_4', feed)).toBeUndefined();
        expect(state.lastCompleteStart('venue_6', feed)).toBe(300);
        expect(state.load('venue_6', feed)!.lastFullStartedAt).toBe(300);
        expect(state.lastCompleteStart('venue_4', `${feed}x`)).toBeNull();
        expect(state.lastCompleteStart('venue_5', feed)).toBeNull();
      }
    });
  });
}
