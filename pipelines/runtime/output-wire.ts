// A StageOutput as it crosses between threads (postMessage's structured clone). In: what a stage
// on a worker returned. Out: the same output on the receiving thread. A JsonText (a document
// already serialized, snapshots.ts) would arrive as a plain object that the store would serialize
// again, as {"text": ...}; it crosses as its text under a marker and is a JsonText again on arrival,
// so a sink on a worker serializes its documents there and the receiving thread only stores them.
import { JsonText } from '../readmodels/snapshots.ts';
import type { StageOutput } from './types.ts';

/** The wire form of a JsonText: a plain object no document of the service has (the key is not a spec word). */
interface WireJsonText {
  __jsonText: string;
}

const toWire = (v: unknown): unknown => (v instanceof JsonText ? ({ __jsonText: v.text } satisfies WireJsonText) : v);
const fromWire = (v: unknown): unknown =>
  typeof v === 'object' && v !== null && typeof (v as WireJsonText).__jsonText === 'string' && Object.keys(v).length === 1 ? new JsonText((v as WireJsonText).__jsonText) : v;

function mapValues(o: StageOutput, f: (v: unknown) => unknown): StageOutput {
  if (!o.publishes?.length && !o.snapshots?.length) return o;
  return {
    ...o,
    ...(o.snapshots ? { snapshots: o.snapshots.map((s) => ({ ...s, value: f(s.value) })) } : {}),
    ...(o.publishes ? { publishes: o.publishes.map((p) => ({ ...p, entries: p.entries.map((e) => ({ key: e.key, value: f(e.value) })) })) } : {}),
  };
}

/** The output to post: its serialized documents as marked text. */
export function outputToWire<T extends StageOutput | undefined>(o: T): T {
  return (o ? mapValues(o, toWire) : o) as T;
}

/** The output as it was before it was posted: its serialized documents JsonText again. */
export function outputFromWire<T extends StageOutput | undefined>(o: T): T {
  return (o ? mapValues(o, fromWire) : o) as T;
}
