// What the pollers' int specs read back from the log: where a venue's raw topic ends, its records
// from a position on, and a bounded wait for a condition. Shared by the specs that check what the
// pollers wrote (thread.int.spec.ts, catalog/restart-cadence.int.spec.ts).
import type { Provider } from '../../../lib/vocabulary.ts';
import { randomPrefix, type Backbone } from '../../runtime/testkit.ts';
import { restoreContext } from '../../runtime/runner.ts';
import type { InRecord } from '../../runtime/types.ts';
import { rawTopicId } from '../../topics.ts';

/** Resolves once `f` holds, polling every 100 ms; throws after `ms`. */
export async function until(f: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Where each partition of the venue's raw topic ends now. */
export async function ends(b: Backbone, venue: Provider): Promise<Map<number, string>> {
  return new Map((await b.log.topicOffsets(b.topics[rawTopicId(venue)].name)).map((o) => [o.partition, o.high]));
}

/** The venue's raw records (from `from` on, per partition; else all), in offset order per partition. */
export async function rawRecords(b: Backbone, venue: Provider, from?: Map<number, string>): Promise<InRecord<'raw.venue_1'>[]> {
  const id = rawTopicId(venue) as 'raw.venue_1';
  const offsets = await b.log.topicOffsets(b.topics[id].name);
  const out: InRecord<'raw.venue_1'>[] = [];
  await restoreContext(b, randomPrefix()).readRange(
    id,
    from ?? new Map(offsets.map((o) => [o.partition, o.low])),
    new Map(offsets.map((o) => [o.partition, o.high])),
    (rs) => out.push(...rs),
  );
  return out;
}
