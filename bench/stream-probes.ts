// The push stream bench's changes (bench/stream.ts): matched.events records of 50 events, titled so
// the clients find them in the raw chunks, appended at the rate (20 a second). Each one's
// commit is when producer.send resolves (the record is in the log): the start of its delay. Shared by
// the modes that append on the API's thread and the one that appends on the pipeline thread, where
// the log is (bench/service-pipeline-worker.ts).
import type { Producer } from '../pipelines/log/types.ts';
import type { Serde } from '../pipelines/serde/index.ts';
import type { MatchedEventRecord, TopicMap } from '../pipelines/topics.ts';
import { FULL_MONEYLINE } from '../pipelines/matching/readmodel.ts';

/** A matched event of the bench (an NBA game three days ahead, one moneyline), titled `title`. */
export function matched(eventId: string, title: string): MatchedEventRecord {
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const event = {
    event_id: eventId,
    sport: 'basketball',
    league: 'nba',
    title,
    scheduled_date: date,
    scheduled_start: `${date}T23:30:00.000Z`,
    participants: [
      { key: 'lal', name: 'LAL', role: 'away' },
      { key: 'bos', name: 'BOS', role: 'home' },
    ],
    submarkets: [{ key: FULL_MONEYLINE, market_type: 'moneyline', source_markets: [{ provider: 'venue_1', market_id: `${eventId}-m` }] }],
  };
  return {
    event_id: eventId,
    league: 'nba',
    sport: 'basketball',
    title,
    scheduled_date: date,
    scheduled_start: Date.parse(event.scheduled_start),
    participant_keys: ['lal', 'bos'],
    population: 'current',
    submarket_count: 1,
    observed_at: Date.now(),
    body: JSON.stringify(event),
    strict_prop_keys: [],
    lookup_ids: [],
  };
}

export interface Probes {
  /** Commit time (Date.now()) by sequence number: the clients find `p<seq>` in the title. */
  readonly commits: Map<number, number>;
  /** The next sequence number (a round's changes are those between two readings). */
  seq(): number;
  stop(): Promise<void>;
}

/** The 50 events written once (warm), then one change every 50 ms until stop(). */
export async function startProbes(p: { producer: Producer; serde: Serde; topics: TopicMap }): Promise<Probes> {
  const t = p.topics['matched.events'];
  for (let i = 0; i < 50; i++) await p.producer.send(t.name, [await p.serde.encode(t, `nba-e${i}-bench`, matched(`nba-e${i}-bench`, `warm ${i}`))]);
  const commits = new Map<number, number>();
  let probing = true;
  let seq = 0;
  const loop = (async () => {
    while (probing) {
      const s = seq++;
      const id = `nba-e${s % 50}-bench`;
      const rec = await p.serde.encode(t, id, matched(id, `p${s}`));
      await p.producer.send(t.name, [rec]);
      commits.set(s, Date.now());
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    commits,
    seq: () => seq,
    async stop() {
      probing = false;
      await loop;
    },
  };
}
