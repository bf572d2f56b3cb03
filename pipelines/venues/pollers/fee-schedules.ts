// The fee schedule poller: venue_1 publishes its fees per series, apart from its listing
// (`GET /venue_1/series/{series}` and its scheduled changes, `GET /venue_1/series/fee_changes?
// series_ticker=`), so the listing's records carry none. This reads them like any venue data into
// the log, so the prices view reads nothing from outside it (a restart or a replay reads the same
// schedules).
// In: the two answers for every series whose markets the pipeline canonicalizes (VENUE1_SPORTS_SERIES),
// every intervalMs, through the venue's endpoint (its base URL, credentials and request budget,
// shared with the venue_1 poller and the live routes). Out: `reference.fee_schedules` records keyed
// `fees|venue_1|<series>` (the RawRecord shape: record_type `fee_schedule`, the payload both answers
// as read, adapters/venue_1/fee-book.ts), written only when a series' schedule or its
// scheduled changes differ from what was last written (what the topic holds is read back at start:
// writtenFeeSchedules). A series that answers 404 has no schedule: a tombstone if one was written.
// A failing read writes nothing (the schedule last read stays in force) and is tried again next round.
import { venueGet } from '../client/http.ts';
import type { VenueEndpoints } from '../client/endpoints.ts';
import type { Log, OutgoingRecord, Producer } from '../../log/types.ts';
import { restoreContext } from '../../runtime/runner.ts';
import type { Serde } from '../../serde/index.ts';
import type { RawRecord, TopicMap } from '../../topics.ts';
import { feeScheduleKey, type Venue1FeePayload } from '../adapters/venue_1/fee-book.ts';
import { VENUE1_SPORTS_SERIES } from '../adapters/venue_1/canonical.ts';
import { silentLogger, type PollerLogger } from './poller.ts';

const VENUE = 'venue_1';

export interface FeeSchedulePollerOptions {
  endpoints: VenueEndpoints;
  producer: Producer;
  serde: Serde;
  topics: TopicMap;
  intervalMs: number;
  deadlineMs: number;
  /** The series read each round; default every sports series venue_1's markets are canonicalized from. */
  series?: readonly string[];
  logger?: PollerLogger;
  clock?: () => number;
  /** What the topic holds (key -> payload, writtenFeeSchedules()): a restart writes only what changed since. */
  written?: Iterable<[string, string]>;
}

/** The latest record of each series on `reference.fee_schedules` (a compacted topic: its current state). */
export async function writtenFeeSchedules(deps: { log: Log; serde: Serde; topics: TopicMap }): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await restoreContext(deps, `${deps.topics['reference.fee_schedules'].name}.pollers`).readCompacted('reference.fee_schedules', (k, v) => {
    if (k === null) return;
    if (v) out.set(k, v.payload);
    else out.delete(k);
  });
  return out;
}

class ReadFailed extends Error {}

export class FeeSchedulePoller {
  private readonly written: Map<string, string>;
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private readonly stopController = new AbortController();
  /** Completed rounds (tests and status). */
  rounds = 0;

  constructor(private readonly o: FeeSchedulePollerOptions) {
    this.written = new Map(o.written ?? []);
  }

  start(): void {
    if (this.timer) return;
    void this.runRound();
    this.timer = setInterval(() => void this.runRound(), this.o.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopController.abort();
    await this.round;
  }

  /** One round over every series; resolves when its changed schedules are in the log. */
  runRound(): Promise<void> {
    if (this.round) return this.round;
    this.round = this.readAll()
      .catch((err) => (this.o.logger ?? silentLogger).warn({ venue: VENUE, err: String(err) }, 'fee schedule round failed; next round tries again'))
      .finally(() => {
        this.round = null;
      });
    return this.round;
  }

  /** One answer: the parsed body, null for a 404; throws ReadFailed for anything else. */
  private async get(pathQuery: string): Promise<unknown> {
    const { endpoints } = this.o;
    const signal = AbortSignal.any([AbortSignal.timeout(this.o.deadlineMs), this.stopController.signal]);
    try {
      await endpoints.admit(VENUE, { signal });
      const res = await venueGet(endpoints.url(pathQuery), { headers: endpoints.headers(VENUE), signal });
      if (res.status === 404) return null;
      if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
      return JSON.parse(res.text) as unknown;
    } catch (e) {
      throw new ReadFailed(`${pathQuery}: ${String(e)}`);
    }
  }

  private async readAll(): Promise<void> {
    const clock = this.o.clock ?? Date.now;
    const changed: { key: string; value: RawRecord | null }[] = [];
    let failed = 0;
    await Promise.all(
      (this.o.series ?? VENUE1_SPORTS_SERIES).map(async (series) => {
        const key = feeScheduleKey(VENUE, series);
        const readAt = clock();
        const path = `/venue_1/series/${encodeURIComponent(series)}`;
        let payload: Venue1FeePayload | null;
        try {
          const s = await this.get(path);
          if (s === null || typeof s !== 'object' || !('series' in s)) payload = null;
          else {
            const changes = await this.get(`/venue_1/series/fee_changes?series_ticker=${encodeURIComponent(series)}`);
            // No list of changes (404): none scheduled, as the live market detail reads it.
            const list = changes !== null && typeof changes === 'object' && 'series_fee_change_arr' in changes ? changes.series_fee_change_arr : [];
            payload = { series: s.series, series_fee_change_arr: list };
          }
        } catch {
          failed++;
          return;
        }
        if (payload === null) {
          if (this.written.has(key)) changed.push({ key, value: null });
          return;
        }
        const text = JSON.stringify(payload);
        if (this.written.get(key) === text) return;
        changed.push({ key, value: { venue: VENUE, record_type: 'fee_schedule', native_id: series, read_started_at: readAt, payload: text, read_id: null, source_url: path } });
      }),
    );
    if (this.stopController.signal.aborted) return;
    if (failed) (this.o.logger ?? silentLogger).warn({ venue: VENUE, failed }, 'fee schedule reads failed; they are tried again next round');
    if (changed.length) {
      const topic = this.o.topics['reference.fee_schedules'];
      const records: OutgoingRecord[] = await Promise.all(changed.map((c) => this.o.serde.encode(topic, c.key, c.value)));
      await this.o.producer.send(topic.name, records);
      for (const c of changed) {
        if (c.value) this.written.set(c.key, c.value.payload);
        else this.written.delete(c.key);
      }
    }
    this.rounds++;
  }
}
