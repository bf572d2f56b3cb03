// The sports snapshot sink: the read model the two sports routes serve, written from the compacted
// topics the way the history is. In: `matched.events` (the served events; a tombstone takes one out)
// and the `crawl|<venue>` records of `matching.state` (how far each venue's listing has been read).
// Out, on a tick when anything moved: one published `sports` snapshot in the SnapshotStore (entries
// in publish order, per-entry versions for readers that reload only what changed) with
// `observed_at` = when the oldest underlying read began.
//
// observed_at: every market of a venue still listed was read at or after the start of that venue's
// newest complete crawl (a crawl reads the whole listing), so the oldest such start over the venues
// that a current event draws on is a time no served read is older than. A venue that stops answering
// stops completing crawls, and observed_at shows it.
//
// Prices: `canonical.markets` too, for the top of book and taker fee each open venue market's record
// carried (source-quotes.ts). Published on the same tick as a second snapshot, `sports_prices`: per
// served event the quotes of its source markets, and in its meta each venue's newest complete crawl
// start. A quote that did not change is not written again, but every market still listed was read at
// or after that start, so a reader takes the later of the two as when the quote was last seen. Apart
// from the sports snapshot, so the routes without include_prices read exactly what they read before.
//
// Fees: venue_1 publishes its fee schedule per series, not on its listing records, so its markets'
// quotes come from canonical.markets with fees `unavailable`; `reference.fee_schedules` (the fee
// schedule poller) holds each series' schedule with its scheduled changes, and every publish prices
// venue_1's quotes with the fees in effect at that publish (Venue1FeeBook). A scheduled change
// applies at the first tick at or after its time: a publish then is forced although nothing was
// read (the poller need not read it again). A series without a schedule stays `unavailable`.
import type { CanonicalMarket as CanonicalRecord, MatchedEventRecord as MatchedRecord, RawRecord } from '../../topics.ts';
import { Venue1FeeBook } from '../../venues/adapters/venue_1/fee-book.ts';
import { feesOf } from '../source-quotes.ts';
import type { StageDef, StageOutput } from '../../runtime/types.ts';
import { JsonText } from '../../readmodels/snapshots.ts';
import { compareEntries, sortKey, SPORTS_PRICES_SNAPSHOT, SPORTS_SNAPSHOT, type PricesEntry, type SportsEntry } from '../readmodel.ts';
import type { SourceQuotes } from '../prices.ts';
import type { MatchedEvent } from '../types.ts';
import { canonicalBody, type CrawlState } from './canonicalize.ts';

/** How long a superseded sports snapshot stays readable: far longer than any read of one takes. */
export const SPORTS_RETAIN_MS = 30_000;

/** The served entry a matched.events record carries (the entry round.ts serves, field for field). */
export function entryOfRecord(v: MatchedRecord): SportsEntry {
  const event = JSON.parse(v.body) as MatchedEvent;
  return {
    event,
    population: v.population === 'current' ? 'current' : 'archived',
    strictPropKeys: v.strict_prop_keys ?? [],
    lookupIds: v.lookup_ids ?? [],
    sortMs: sortKey(event),
  };
}

export class SportsSnapshotSink {
  /**
   * Each entry with its JSON, serialized once when its record arrives: the snapshot is republished
   * whenever anything moved (during a crawl, every tick), and serializing every event again for
   * each publish was about 6% of the main thread during a large crawl (bench/crawl-latency.md).
   */
  readonly entries = new Map<string, { entry: SportsEntry; json: JsonText; version: number }>();
  readonly crawls = new Map<string, CrawlState>();
  /** canonical.markets key -> the quotes its current version carries (open markets with a top of book). */
  readonly quotes = new Map<string, { q: SourceQuotes; json: string }>();
  /** venue_1's fee schedules per series (`reference.fee_schedules`). */
  readonly venue1Fees = new Venue1FeeBook();
  /** The time the last prices snapshot was priced at (null before the first). */
  private pricedAt: number | null = null;
  private moved = true;
  published = 0;

  event(key: string, v: MatchedRecord | null, version: number): void {
    if (v === null) {
      if (this.entries.delete(key)) this.moved = true;
      return;
    }
    const entry = entryOfRecord(v);
    this.entries.set(key, { entry, json: new JsonText(JSON.stringify(entry)), version });
    this.moved = true;
  }

  state(key: string, v: RawRecord | null): void {
    if (!key.startsWith('crawl|')) return;
    const venue = key.slice('crawl|'.length);
    if (v === null) this.crawls.delete(venue);
    else this.crawls.set(venue, JSON.parse(v.payload) as CrawlState);
    this.moved = true;
  }

  market(key: string, v: CanonicalRecord | null): void {
    const m = v === null ? undefined : canonicalBody(v)?.market;
    if (!m?.quotes) {
      if (this.quotes.delete(key)) this.moved = true;
      return;
    }
    const q: SourceQuotes = { provider: m.provider, market_id: m.source.market_id, observed_at: m.observedAt, ...m.quotes };
    const json = JSON.stringify(q);
    if (this.quotes.get(key)?.json === json) return;
    this.quotes.set(key, { q, json });
    this.moved = true;
  }

  /** A record of `reference.fee_schedules` (null: the series has no schedule now). */
  feeSchedule(key: string, v: RawRecord | null): void {
    if (this.venue1Fees.apply(key, v)) this.moved = true;
  }

  /** A quote with the fees in effect at `now` where the venue publishes them apart from its records. */
  private priced(q: SourceQuotes, now: number): SourceQuotes {
    return q.provider === 'venue_1' ? { ...q, fees: feesOf(this.venue1Fees.feesOf(q.market_id, now)) } : q;
  }

  /** Per served event, the quotes of its source markets (events with none are left out), with fees at `now`. */
  pricesEntries(list: { entry: SportsEntry }[], now: number): { key: string; value: PricesEntry }[] {
    const out: { key: string; value: PricesEntry }[] = [];
    for (const { entry } of list) {
      const seen = new Set<string>();
      const quotes: SourceQuotes[] = [];
      for (const sm of entry.event.submarkets)
        for (const src of sm.source_markets) {
          const id = `${src.provider}:${src.market_id}`;
          if (seen.has(id)) continue;
          seen.add(id);
          const held = this.quotes.get(id);
          if (held) quotes.push(this.priced(held.q, now));
        }
      if (quotes.length) out.push({ key: entry.event.event_id, value: { quotes } });
    }
    return out;
  }

  /** The oldest newest-crawl start over the venues current events draw on; null when none. */
  observedAt(): number | null {
    const venues = new Set<string>();
    for (const { entry } of this.entries.values()) {
      if (entry.population !== 'current') continue;
      for (const sm of entry.event.submarkets) for (const src of sm.source_markets) venues.add(src.provider);
    }
    let oldest: number | null = null;
    for (const v of venues) {
      const c = this.crawls.get(v);
      if (c && (oldest === null || c.lastReadStart < oldest)) oldest = c.lastReadStart;
    }
    return oldest;
  }

  /** The snapshot to publish, when anything moved since the last one. */
  publish(now: number): StageOutput {
    // A scheduled fee change that took effect since the last prices were published moves them.
    const change = this.pricedAt === null ? null : this.venue1Fees.nextChangeAfter(this.pricedAt);
    if (change !== null && change <= now) this.moved = true;
    if (!this.moved && this.published > 0) return {};
    this.moved = false;
    this.pricedAt = now;
    const list = [...this.entries.values()].sort((a, b) => compareEntries(a.entry, b.entry));
    this.published++;
    const observedAt = this.observedAt();
    return {
      publishes: [
        {
          name: SPORTS_SNAPSHOT,
          entries: list.map(({ entry, json }) => ({ key: entry.event.event_id, value: json })),
          options: {
            observedAt: observedAt ?? (list.length ? now : null),
            now,
            // Readers take the current snapshot and read its entries at once (sports cursors are not
            // bound to a snapshot), so an earlier one only has to outlive a read in flight; the
            // store's default (10 minutes, for catalog cursors) kept thousands of whole copies.
            retainMs: SPORTS_RETAIN_MS,
            meta: { events: list.length, versions: Object.fromEntries(list.map(({ entry, version }) => [entry.event.event_id, version])) },
          },
        },
        {
          name: SPORTS_PRICES_SNAPSHOT,
          // Serialized here: on a stage thread the store's thread then only keeps the text.
          entries: this.pricesEntries(list, now).map(({ key, value }) => ({ key, value: new JsonText(JSON.stringify(value)) })),
          options: {
            observedAt: observedAt ?? (list.length ? now : null),
            now,
            retainMs: SPORTS_RETAIN_MS,
            meta: { crawls: Object.fromEntries([...this.crawls].map(([venue, c]) => [venue, c.lastCrawlStart])) },
          },
        },
      ],
    };
  }
}

export function sportsSnapshotStage(o: { tickMs: number; clock?: () => number }): StageDef & { state: () => SportsSnapshotSink } {
  let s = new SportsSnapshotSink();
  const clock = o.clock ?? Date.now;
  return {
    name: 'sink.sports-snapshot',
    // Its state spans every partition of its inputs: one replica runs it, another stands by.
    exclusive: true,
    inputs: ['matched.events', 'matching.state', 'canonical.markets', 'reference.fee_schedules'],
    sinks: { snapshotNames: [SPORTS_SNAPSHOT, SPORTS_PRICES_SNAPSHOT] },
    state: () => s,
    async restore(ctx) {
      s = new SportsSnapshotSink();
      // An entry's version is its record's offset: one key stays in one partition, so it only grows.
      await ctx.readCompacted('matched.events', (k, v, offset) => k && s.event(k, v, Number(offset)));
      await ctx.readCompacted('matching.state', (k, v) => k && s.state(k, v));
      await ctx.readCompacted('canonical.markets', (k, v) => k && s.market(k, v));
      await ctx.readCompacted('reference.fee_schedules', (k, v) => k && s.feeSchedule(k, v));
    },
    handle(records) {
      for (const r of records) {
        if (!r.key) continue;
        if (r.topic === 'matched.events') s.event(r.key, r.value as MatchedRecord | null, Number(r.offset));
        else if (r.topic === 'canonical.markets') s.market(r.key, r.value as CanonicalRecord | null);
        else if (r.topic === 'reference.fee_schedules') s.feeSchedule(r.key, r.value as RawRecord | null);
        else s.state(r.key, r.value as RawRecord | null);
      }
      return {};
    },
    tick: { ms: o.tickMs, run: () => s.publish(clock()) },
  };
}
