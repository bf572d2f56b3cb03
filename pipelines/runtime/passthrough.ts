// A deliberately trivial processor for the backbone's own tests and benchmark (the real
// canonicalizer belongs to the venues area): raw venue market records -> canonical.markets. In: raw
// records whose payload is a JSON object with an id, a title (or question/name) and a status. Out:
// one canonical market per parseable record, keyed '<provider>:<market_id>', carrying the parsed
// payload as its body. Pure: the same batch always gives the same outputs.
import { RAW_TOPIC_IDS, type CanonicalMarket, type RawRecord } from '../topics.ts';
import type { InRecord, OutRecord, StageDef } from './types.ts';

export function passThrough(r: RawRecord): CanonicalMarket | null {
  let p: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(r.payload);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    p = parsed as Record<string, unknown>;
  } catch {
    return null; // unparseable payloads stay in raw history; nothing canonical can come of them
  }
  const title = p.title ?? p.question ?? p.name;
  if (typeof title !== 'string') return null;
  return {
    provider: r.venue,
    market_id: r.native_id,
    event_id: typeof p.event_id === 'string' ? p.event_id : null,
    title,
    status: typeof p.status === 'string' ? p.status : 'unknown',
    category: typeof p.category === 'string' ? p.category : null,
    league: null,
    market_type: null,
    read_started_at: r.read_started_at,
    body_version: 1,
    // The payload parsed as an object: when it is already compact object text, it is the body as it
    // is (serializing the parsed copy again was the processor's largest cost per record).
    body: r.payload.charCodeAt(0) === 123 && r.payload.charCodeAt(r.payload.length - 1) === 125 ? r.payload : JSON.stringify(p),
  };
}

export const passThroughStage: StageDef = {
  name: 'proc.passthrough',
  inputs: RAW_TOPIC_IDS,
  handle(records) {
    const out: OutRecord[] = [];
    for (const r of records as InRecord<'raw.venue_1'>[]) {
      if (!r.value || r.value.record_type !== 'market') continue;
      const m = passThrough(r.value);
      if (m) out.push({ topic: 'canonical.markets', key: `${m.provider}:${m.market_id}`, value: m, timestamp: r.timestamp });
    }
    return { records: out };
  },
};
