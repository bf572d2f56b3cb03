// The pollers' RawSink on the log. In: raw
// records of one venue. Out: Avro records (registry wire format) on `raw.<venue>`, keyed by the
// venue's native id, timestamped with the time the read began. Resolves once the log has them.
import type { OutgoingRecord, Producer } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import { rawTopicId, type RawRecord, type TopicMap } from '../../topics.ts';
import { adapterFor } from '../adapters/index.ts';
import type { RawSink } from './poller.ts';

export function logRawSink(producer: Producer, serde: Serde, topics: TopicMap): RawSink {
  return async (provider, records) => {
    const topic = topics[rawTopicId(provider)];
    const encoded = (
      await Promise.all(
        records.map(async (r) => {
          const e = await serde.encode(topic, rawKey(r), r, { timestamp: r.read_started_at });
          return r.record_type === 'crawl_complete' ? barrierCopies(e, topic.partitions) : [e];
        }),
      )
    ).flat();
    await producer.send(topic.name, encoded);
  };
}

/**
 * The raw record's key, which picks its partition: the venue adapter's (a venue_1 market is
 * canonicalized with its event record, so it is keyed by its event: the event and its markets sit
 * in one partition, in the order the poller read them, however a consumer interleaves partitions),
 * else the record's own id.
 */
export function rawKey(r: RawRecord): string {
  return adapterFor(r.venue).rawKey?.(r.record_type, r.payload) ?? r.native_id;
}

/** Header of a crawl marker written to every partition: how many copies there are. */
export const BARRIER_HEADER = 'barrier';

/**
 * A crawl's marker, once on every partition of its raw topic. The crawl's records sit on all of
 * them (by key), so a reader that has read the marker's copy on each partition has read the whole
 * crawl, however it interleaves the partitions (a backlog after downtime is read one partition far
 * ahead of another).
 */
export function barrierCopies(record: OutgoingRecord, partitions: number): OutgoingRecord[] {
  return Array.from({ length: partitions }, (_, partition) => ({ ...record, partition, headers: { ...record.headers, [BARRIER_HEADER]: String(partitions) } }));
}
