// The match + lifecycle stage. In: `canonical.markets` (the canonicalizer's sports markets; a
// tombstone when one leaves its venue). Out, every tick: `lifecycle.states` (each event's XState
// snapshot) and `matched.events` (the served event; a tombstone when it leaves the served list).
// matchMarkets decides which markets are one game, XState's pure transition evolves each event's
// lifecycle (round.ts), and what a round returns is exactly what is written.
//
// State: the current canonical markets (its input, a compacted topic), the lifecycle snapshots
// (`lifecycle.states`) and the last written version of each served event (`matched.events`), all
// read back from the log before consuming, so a restart matches what an uninterrupted run matched
// and writes no version that did not change.
import type { CanonicalMarket as CanonicalRecord, MatchedEventRecord as MatchedRecord } from '../../topics.ts';
import type { OutRecord, StageDef } from '../../runtime/types.ts';
import { restore, type LifecycleSnapshot } from '../lifecycle.ts';
import { matchRound, pairingOfMarket, restoredRoundState, type RoundState } from '../round.ts';
import type { CanonicalMarket } from '../types.ts';
import { digest } from '../digest.ts';
import { canonicalBody } from './canonicalize.ts';
import { entryOfRecord } from './sports-snapshot.ts';

/** The market another stage of this thread holds for a canonical.markets key and body, if it is that body's (Canonicalizer.heldFor). */
export type SharedMarkets = (key: string, body: string) => CanonicalMarket | undefined;

export class Matcher {
  readonly markets = new Map<string, CanonicalMarket>();
  state: RoundState = restoredRoundState([]);
  private readonly dirty = new Set<string>();
  /** Matching must run over everything (first round, restart). */
  private dirtyAll = true;
  /** Rounds run (tests and status). */
  rounds = 0;

  /**
   * `shared`: where the canonicalize stage runs on this thread, the market it holds for a record's
   * body; the matcher then holds that same object instead of a second parsed copy of every canonical
   * market (about 5 MB live at SIM_SCALE=1, bench/soak.md runs 125-131). A body it does not hold (written
   * elsewhere, or already superseded there) is parsed as before.
   */
  constructor(private readonly shared?: SharedMarkets) {}

  /** One canonical.markets record (consumed, or read back at restore). */
  apply(key: string, v: CanonicalRecord | null): void {
    const held = this.markets.get(key);
    if (v === null) {
      if (held) this.dirty.add(pairingOfMarket(held));
      this.markets.delete(key);
      return;
    }
    const m = this.shared?.(key, v.body) ?? canonicalBody(v)?.market;
    if (!m) return;
    if (held) this.dirty.add(pairingOfMarket(held));
    this.dirty.add(pairingOfMarket(m));
    this.markets.set(key, m);
  }

  /** Read back at restore: the lifecycle snapshots and the versions of the served events last written. */
  restoreState(lifecycle: Map<string, string>, events: Map<string, MatchedRecord>): void {
    const snapshots: [string, { snapshot: LifecycleSnapshot; json: string }][] = [...lifecycle].map(([id, json]) => [id, { snapshot: restore(json), json }]);
    const s = restoredRoundState(snapshots);
    const lastEventDigest = new Map<string, string>();
    for (const [id, v] of events) lastEventDigest.set(id, digest(JSON.stringify(entryOfRecord(v))));
    this.state = { ...s, lastEventDigest };
    this.dirtyAll = true;
  }

  /** One round at `now`: the records to write. */
  round(now: number): OutRecord[] {
    const dirty = this.dirtyAll ? 'all' : new Set(this.dirty);
    this.dirtyAll = false;
    this.dirty.clear();
    const r = matchRound(this.state, { markets: this.markets.values(), dirty, now });
    this.state = r.state;
    this.rounds++;
    return [
      ...r.lifecycleOut.map((x): OutRecord => ({ topic: 'lifecycle.states', key: x.key, value: x.value })),
      ...r.eventsOut.map((x): OutRecord => ({ topic: 'matched.events', key: x.key, value: x.value })),
    ];
  }
}

export function matchStage(o: { tickMs: number; clock?: () => number; shared?: SharedMarkets }): StageDef & { state: () => Matcher } {
  let m = new Matcher(o.shared);
  const clock = o.clock ?? Date.now;
  return {
    name: 'matching',
    // Its state spans every partition of its inputs: one replica runs it, another stands by.
    exclusive: true,
    inputs: ['canonical.markets'],
    state: () => m,
    async restore(ctx) {
      m = new Matcher(o.shared);
      const lifecycle = new Map<string, string>();
      const events = new Map<string, MatchedRecord>();
      await ctx.readCompacted('canonical.markets', (k, v) => k && m.apply(k, v));
      await ctx.readCompacted('lifecycle.states', (k, v) => k && (v ? lifecycle.set(k, v.snapshot) : lifecycle.delete(k)));
      await ctx.readCompacted('matched.events', (k, v) => k && (v ? events.set(k, v) : events.delete(k)));
      m.restoreState(lifecycle, events);
    },
    handle(records) {
      for (const r of records) if (r.key) m.apply(r.key, r.value as CanonicalRecord | null);
      return {};
    },
    tick: { ms: o.tickMs, run: () => ({ records: m.round(clock()) }) },
  };
}
