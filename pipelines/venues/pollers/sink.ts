// The pollers' RawSink on the log (issue 4: "emitting raw records to the raw topics"). In: raw
// records of one venue. Out: Avro records (registry wire format) on `raw.<venue>`, keyed by the
// venue's native id, timestamped with the time the read began. Resolves once the log has them.
import type { Producer } from '../../log/types.ts';
import type { Serde } from '../../serde/index.ts';
import { rawTopicId, type TopicMap } from '../../topics.ts';
import type { RawSink } from './poller.ts';

export function logRawSink(producer: Producer, serde: Serde, topics: TopicMap): RawSink {
  return async (provider, records) => {
    const topic = topics[rawTopicId(provider)];
    const encoded = await Promise.all(records.map((r) => serde.encode(topic, r.native_id, r, { timestamp: r.read_started_at })));
    await producer.send(topic.name, encoded);
  };
}
