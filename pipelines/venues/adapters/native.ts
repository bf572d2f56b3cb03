// Small readers for venue-native JSON (numbers as strings, JSON-in-a-string arrays, time formats).
// In: unknown JSON values. Out: typed values or null. A record missing a field the venue always
// sends is a malformed answer: `need` throws MalformedUpstream, which the routes map to 502.
import { MalformedUpstream } from '../client/http.ts';

export type Rec = Record<string, unknown>;

export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export function rec(v: unknown, what: string): Rec {
  if (!isRec(v)) throw new MalformedUpstream(`${what} is not an object`);
  return v;
}

export function need<T>(v: T | null | undefined, what: string): T {
  if (v === null || v === undefined) throw new MalformedUpstream(`${what} is missing`);
  return v;
}

export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function str(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** venue_2 sends arrays as JSON text (`"[\"Yes\",\"No\"]"`): the catalog's reading, fields.ts. */
export { jsonArray } from './fields.ts';

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A list the venue documents as always present (an event's markets): anything else is a malformed answer (502), not an empty list. */
export function list(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new MalformedUpstream(`${what} is not a list`);
  return v;
}

/** A venue time as ISO 8601 UTC with milliseconds: ISO text, `YYYY-MM-DD HH:MM:SS+00`, Unix s or ms. */
export function isoTime(v: unknown, unit: 'auto' | 's' | 'ms' = 'auto'): string | null {
  let ms: number;
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) return null;
    ms = unit === 's' ? n * 1000 : unit === 'ms' ? n : n < 1e12 ? n * 1000 : n;
  } else if (typeof v === 'string' && v.trim() !== '') {
    const had = isoTexts.get(v);
    if (had !== undefined) return had;
    const t = v.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2').replace(/([+-]\d{2})$/, '$1:00');
    ms = Date.parse(t);
    const out = Number.isNaN(ms) ? null : toIso(ms);
    if (isoTexts.size >= ISO_TEXTS) isoTexts.clear();
    isoTexts.set(v, out);
    return out;
  } else return null;
  return toIso(ms);
}

function toIso(ms: number): string | null {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * isoTime's answers for the last venue time texts read (at most ISO_TEXTS, then started afresh):
 * a live read meets the same few texts again and again (a market's close time, a record's refresh
 * time shared by the requests that shared its read), and the text's parse and new ISO form cost
 * more than the rest of a record's fields together. The answer depends on the text alone (and on
 * the process's time zone for a text without an offset, which nothing here changes).
 */
const isoTexts = new Map<string, string | null>();
const ISO_TEXTS = 1024;
