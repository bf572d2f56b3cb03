// The roster poller: the sports data source's team rosters, read like any venue data and written to
// the log, so matching reads nothing from outside it (a restart or a replay reads the same rosters).
// In: `GET <base>/sportsdata/<league>/teams/<CODE>/roster` for every team of the five leagues, every
// intervalMs. Out: `reference.rosters` records keyed `roster|<league>|<team>` (the RawRecord shape:
// venue `sportsdata`, record_type `roster`, the body as read), written only when a roster changed
// since it was last written (what the topic holds is read back at start: writtenRosters). A team
// that answers 404 has no roster (a gap: nothing written); a failing read is logged and tried again
// at the next round.
import { venueGet } from '../client/http.ts';
import type { Log, Producer } from '../../log/types.ts';
import { restoreContext } from '../../runtime/runner.ts';
import type { Serde } from '../../serde/index.ts';
import type { RawRecord, TopicMap } from '../../topics.ts';
import { LEAGUE_LIST, TEAMS } from '../../matching/teams.ts';
import { silentLogger, type PollerLogger } from './poller.ts';

export interface RosterPollerOptions {
  baseUrl: string;
  producer: Producer;
  serde: Serde;
  topics: TopicMap;
  intervalMs: number;
  deadlineMs: number;
  logger?: PollerLogger;
  clock?: () => number;
  /**
   * Rosters already on the topic (key -> payload, writtenRosters()): a restarted poller writes only
   * what changed since, not every roster again.
   */
  written?: Iterable<[string, string]>;
}

/** The latest roster of each team on `reference.rosters` (a compacted topic: its current state). */
export async function writtenRosters(deps: { log: Log; serde: Serde; topics: TopicMap }): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await restoreContext(deps, `${deps.topics['reference.rosters'].name}.pollers`).readCompacted('reference.rosters', (k, v) => {
    if (k === null) return;
    if (v) out.set(k, v.payload);
    else out.delete(k);
  });
  return out;
}

export const rosterKey = (league: string, team: string) => `roster|${league}|${team}`;

export class RosterPoller {
  private readonly written: Map<string, string>;
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private readonly stopController = new AbortController();
  /** Completed rounds (tests and status). */
  rounds = 0;

  constructor(private readonly o: RosterPollerOptions) {
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

  /** One round over every team; resolves when its changed rosters are in the log. */
  runRound(): Promise<void> {
    if (this.round) return this.round;
    this.round = this.readAll()
      .catch((err) => (this.o.logger ?? silentLogger).warn({ venue: 'sportsdata', err: String(err) }, 'roster round failed; next round tries again'))
      .finally(() => {
        this.round = null;
      });
    return this.round;
  }

  private async readAll(): Promise<void> {
    const base = this.o.baseUrl.replace(/\/+$/, '');
    const clock = this.o.clock ?? Date.now;
    const changed: { key: string; value: RawRecord }[] = [];
    let failed = 0;
    await Promise.all(
      LEAGUE_LIST.flatMap((league) =>
        TEAMS[league].map(async (t) => {
          const path = `/sportsdata/${league}/teams/${t.key.toUpperCase()}/roster`;
          const readAt = clock();
          let text: string;
          try {
            const signal = AbortSignal.any([AbortSignal.timeout(this.o.deadlineMs), this.stopController.signal]);
            const res = await venueGet(base + path, { signal });
            if (res.status === 404) return;
            if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
            text = JSON.stringify(JSON.parse(res.text));
          } catch {
            failed++;
            return;
          }
          const key = rosterKey(league, t.key);
          if (this.written.get(key) === text) return;
          changed.push({ key, value: { venue: 'sportsdata', record_type: 'roster', native_id: `${league}:${t.key}`, read_started_at: readAt, payload: text, read_id: null, source_url: path } });
        }),
      ),
    );
    if (this.stopController.signal.aborted) return;
    if (failed) (this.o.logger ?? silentLogger).warn({ venue: 'sportsdata', failed }, 'roster reads failed; they are tried again next round');
    if (changed.length) {
      const topic = this.o.topics['reference.rosters'];
      await this.o.producer.send(topic.name, await Promise.all(changed.map((c) => this.o.serde.encode(topic, c.key, c.value))));
      for (const c of changed) this.written.set(c.key, c.value.payload);
    }
    this.rounds++;
  }
}
