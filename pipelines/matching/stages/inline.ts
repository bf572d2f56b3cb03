// The three matching stages composed in one call chain, without a log: the same objects the stages
// run (Canonicalizer, Matcher, SportsSnapshotSink), each stage's output handed to the next in the
// order the log would deliver it. For route tests and the matching benchmark, where the subject is
// the matching and the read model rather than the log (the stages' int and e2e tests run them on
// the log).
import type { SnapshotStore } from '../../readmodels/snapshots.ts';
import type { MatchedEventRecord as MatchedRecord, RawRecord, CanonicalMarket as CanonicalRecord } from '../../topics.ts';
import type { OutRecord } from '../../runtime/types.ts';
import { Canonicalizer } from './canonicalize.ts';
import { Matcher } from './match.ts';
import { SportsSnapshotSink } from './sports-snapshot.ts';

export class InlineSports {
  readonly canonicalizer = new Canonicalizer();
  readonly matcher = new Matcher();
  readonly sink = new SportsSnapshotSink();
  private version = 0;

  constructor(
    private readonly store: SnapshotStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Raw records in log order through the canonicalizer; its outputs reach the matcher and the sink. */
  ingest(raws: RawRecord[]): void {
    this.deliver(this.canonicalizer.ingest(raws));
  }

  /** Records of `reference.rosters` (key and value, null a tombstone): the canonicalizer's roster book, and the records that waited for it read again. */
  rosters(records: { key: string; value: RawRecord | null }[]): void {
    this.deliver(this.canonicalizer.rosterBatch(records));
  }

  /** Records of `reference.fee_schedules` (key and value, null a tombstone), as the sink reads them. */
  feeSchedules(records: { key: string; value: RawRecord | null }[]): void {
    for (const r of records) this.sink.feeSchedule(r.key, r.value);
  }

  /** A matching round and a publish, as the two ticks would run them. */
  async publish(): Promise<void> {
    this.deliver(this.matcher.round(this.clock()));
    const out = this.sink.publish(this.clock());
    for (const p of out.publishes ?? []) await this.store.publish(p.name, p.entries, p.options);
  }

  private deliver(records: OutRecord[]): void {
    for (const r of records) {
      if (r.topic === 'canonical.markets') {
        this.matcher.apply(r.key, r.value as CanonicalRecord | null);
        this.sink.market(r.key, r.value as CanonicalRecord | null);
      }
      else if (r.topic === 'matching.state') this.sink.state(r.key, r.value as RawRecord | null);
      else if (r.topic === 'matched.events') this.sink.event(r.key, r.value as MatchedRecord | null, ++this.version);
    }
  }
}
