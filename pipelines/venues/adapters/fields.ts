// Readers for the fields of a venue's records, shared by the adapters: a venue's JSON is untyped, and
// a record a reader cannot make sense of gives null or nothing, never a throw. Pure.

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** An id: a non-empty string, or a finite number as text. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

/** The first of the values that is non-blank text, trimmed; '' when none is. */
export const text = (...vs: unknown[]): string => {
  for (const v of vs) if (typeof v === 'string' && v.trim()) return v.trim();
  return '';
};

/** A grouped market's title: its group's, then its own (`group: part`). */
export const joinTitle = (group: string, part: string): string => (group && part ? `${group}: ${part}` : group || part);

/** A number, or a numeric string (venue_2 sends both). */
export const numOf = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
};

/** An array, or a JSON text of one (venue_2 sends its outcome lists as text). */
export const jsonArray = (v: unknown): unknown[] => {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [];
  try {
    const a = JSON.parse(v) as unknown;
    return Array.isArray(a) ? a : [];
  } catch {
    return [];
  }
};

// The last time text read and its value. A venue stamps the records of one answer with one time (a
// page of a listing shares its updated_at), and reading the text costs two regular expressions and
// a Date.parse: the price-history sink reads one per listing record.
let lastText = '';
let lastMs: number | null = null;

/** A venue time (ISO text, `YYYY-MM-DD HH:MM:SS+00`, Unix s or ms) as Unix ms, as market detail reads it. */
export function timeOf(v: unknown, unit: 'auto' | 'ms' = 'auto'): number | null {
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) return null;
    return unit === 'ms' || n >= 1e12 ? n : n * 1000;
  }
  if (typeof v !== 'string') return null;
  if (v === lastText) return lastMs;
  let ms: number | null = null;
  if (v.trim() !== '') {
    const parsed = Date.parse(v.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2').replace(/([+-]\d{2})$/, '$1:00'));
    ms = Number.isNaN(parsed) ? null : parsed;
  }
  lastText = v;
  lastMs = ms;
  return ms;
}
