// The roster poller: the sports data source's team rosters, read like any venue data and written to
// the log, so matching reads nothing from outside it (a restart or a replay reads the same rosters).
// In: `GET <base>/sportsdata/<league>/teams/<CODE>/roster` for every team of the five leagues, every
// intervalMs. Out: `reference.rosters` records keyed `roster|<league>|<team>` (the RawRecord shape:
// venue `sportsdata`, record_type `roster`, the body as read), written only when a roster changed
// since it was last written (what the topic holds is read back at start: writtenRosters). A team
// that answers 404 has no roster (a gap: nothing written); a failing read is logged and tried again
// at the next round.
import { venueGet } from '../client/http.ts';
import type { Log } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import type { TopicMap } from '../../topics.ts';
import { LEAGUE_LIST, TEAMS } from '../../matching/teams.ts';
import { ReferencePoller, writtenReference, type ReferencePollerOptions, type ReferenceRead } from './reference.ts';

export interface RosterPollerOptions extends ReferencePollerOptions {
  baseUrl: string;
}

/** The latest roster of each team on `reference.rosters` (a compacted topic: its current state). */
export const writtenRosters = (deps: { log: Log; serde: Serde; topics: TopicMap }): Promise<Map<string, string>> => writtenReference(deps, 'reference.rosters');

export const rosterKey = (league: string, team: string) => `roster|${league}|${team}`;

export class RosterPoller extends ReferencePoller<RosterPollerOptions> {
  protected readonly topic = 'reference.rosters';
  protected readonly source = 'sportsdata';
  protected readonly what = 'roster';

  protected readRound(clock: () => number): Promise<ReferenceRead[]> {
    const base = this.o.baseUrl.replace(/\/+$/, '');
    return Promise.all(
      LEAGUE_LIST.flatMap((league) =>
        TEAMS[league].map(async (t): Promise<ReferenceRead> => {
          const path = `/sportsdata/${league}/teams/${t.key.toUpperCase()}/roster`;
          const readAt = clock();
          let text: string;
          try {
            const res = await this.withReadSignal((signal) => venueGet(base + path, { signal }));
            if (res.status === 404) return 'gap';
            if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
            text = JSON.stringify(JSON.parse(res.text));
          } catch {
            return 'failed';
          }
          return { key: rosterKey(league, t.key), value: { venue: 'sportsdata', record_type: 'roster', native_id: `${league}:${t.key}`, read_started_at: readAt, payload: text, read_id: null, source_url: path } };
        }),
      ),
    );
  }
}
