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
import type { Log } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import type { TopicMap } from '../../topics.ts';
import { feeScheduleKey, type Venue1FeePayload } from '../adapters/venue_1/fee-book.ts';
import { VENUE1_SPORTS_SERIES } from '../adapters/venue_1/canonical.ts';
import { ReferencePoller, writtenReference, type ReferencePollerOptions, type ReferenceRead } from './reference.ts';

const VENUE = 'venue_1';

export interface FeeSchedulePollerOptions extends ReferencePollerOptions {
  endpoints: VenueEndpoints;
  /** The series read each round; default every sports series venue_1's markets are canonicalized from. */
  series?: readonly string[];
}

/** The latest record of each series on `reference.fee_schedules` (a compacted topic: its current state). */
export const writtenFeeSchedules = (deps: { log: Log; serde: Serde; topics: TopicMap }): Promise<Map<string, string>> => writtenReference(deps, 'reference.fee_schedules');

class ReadFailed extends Error {}

export class FeeSchedulePoller extends ReferencePoller<FeeSchedulePollerOptions> {
  protected readonly topic = 'reference.fee_schedules';
  protected readonly source = VENUE;
  protected readonly what = 'fee schedule';

  /** One answer: the parsed body, null for a 404; throws ReadFailed for anything else. */
  private async get(pathQuery: string): Promise<unknown> {
    const { endpoints } = this.o;
    try {
      const res = await this.withReadSignal(async (signal) => {
        await endpoints.admit(VENUE, { signal });
        return venueGet(endpoints.url(pathQuery), { headers: endpoints.headers(VENUE), signal });
      });
      if (res.status === 404) return null;
      if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
      return JSON.parse(res.text) as unknown;
    } catch (e) {
      throw new ReadFailed(`${pathQuery}: ${String(e)}`);
    }
  }

  protected readRound(clock: () => number): Promise<ReferenceRead[]> {
    return Promise.all(
      (this.o.series ?? VENUE1_SPORTS_SERIES).map(async (series): Promise<ReferenceRead> => {
        const key = feeScheduleKey(VENUE, series);
        const readAt = clock();
        const path = `/venue_1/series/${encodeURIComponent(series)}`;
        let payload: Venue1FeePayload;
        try {
          const s = await this.get(path);
          // No series (404, or an answer without one): no schedule, a tombstone if one was written.
          if (s === null || typeof s !== 'object' || !('series' in s)) return { key, value: null };
          const changes = await this.get(`/venue_1/series/fee_changes?series_ticker=${encodeURIComponent(series)}`);
          // No list of changes (404): none scheduled, as the live market detail reads it.
          const list = changes !== null && typeof changes === 'object' && 'series_fee_change_arr' in changes ? changes.series_fee_change_arr : [];
          payload = { series: s.series, series_fee_change_arr: list };
        } catch {
          return 'failed';
        }
        return { key, value: { venue: VENUE, record_type: 'fee_schedule', native_id: series, read_started_at: readAt, payload: JSON.stringify(payload), read_id: null, source_url: path } };
      }),
    );
  }
}
