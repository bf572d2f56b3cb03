// The matching stages' int specs' backbone: the embedded log in a temp directory, every topic under a
// random prefix, Avro through the embedded registry, and a `send` that writes raw records to their
// venues' topics as the pollers' sink would. Shared by stages.int.spec.ts and restart-fresh.int.spec.ts.
import { rawTopicId, type RawRecord } from '../../topics.ts';
import { logBackbone } from '../../runtime/testkit.ts';

/** Opens the backbone; its close is pushed on `cleanups` (the spec's afterEach runs them). */
export async function stagesBackbone(cleanups: (() => Promise<void>)[], dirPrefix = 'pm-sports-') {
  const { log, topics, serde, producer } = await logBackbone(cleanups, dirPrefix);
  /** Each venue's records to its raw topic, venues in the order they first appear. */
  const send = async (records: RawRecord[]) => {
    const byVenue = new Map<string, RawRecord[]>();
    for (const r of records) byVenue.set(r.venue, [...(byVenue.get(r.venue) ?? []), r]);
    for (const [venue, list] of byVenue) {
      const t = topics[rawTopicId(venue as 'venue_1')];
      await producer.send(t.name, await Promise.all(list.map((r) => serde.encode(t, r.native_id, r, { timestamp: r.read_started_at }))));
    }
  };
  return { log, topics, serde, send };
}
