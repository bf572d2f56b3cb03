// Opaque cursors of the live list routes (spot prices, wallet positions). In: a small record
// tagged with its route. Out: a base64url string, and back. A cursor names its route (`k`), so a
// cursor of another endpoint is `400 invalid_cursor` (spec: "Errors"), and carries what binds it
// (the symbol and start_time; the wallet). Plain integers are the earlier offset-based cursors and
// are rejected with their own message (spec: wallet positions "cursors of the earlier
// offset-based implementation are rejected").
import { ApiError, quote } from '../errors.ts';

export function encodeCursor(kind: string, fields: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify({ v: 1, k: kind, ...fields }), 'utf8').toString('base64url');
}

export function decodeCursor(kind: string, raw: string): Record<string, unknown> {
  if (/^\s*-?\d+\s*$/.test(raw)) {
    throw new ApiError(
      'invalid_cursor',
      `cursor ${quote(raw)} is an offset from the earlier implementation; offsets are no longer accepted, restart from page 1 and send next_cursor unchanged`,
      { param: 'cursor' },
    );
  }
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed; send next_cursor unchanged`, { param: 'cursor' });
  }
  const rec = parsed as Record<string, unknown> | null;
  if (!rec || typeof rec !== 'object' || rec.v !== 1 || typeof rec.k !== 'string') {
    throw new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed; send next_cursor unchanged`, { param: 'cursor' });
  }
  if (rec.k !== kind) {
    throw new ApiError('invalid_cursor', `cursor ${quote(raw)} belongs to another endpoint`, { param: 'cursor' });
  }
  return rec;
}

export function cursorInt(rec: Record<string, unknown>, field: string, raw: string, min = 0): number {
  const v = rec[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed; send next_cursor unchanged`, { param: 'cursor' });
  }
  return v;
}

export function cursorString(rec: Record<string, unknown>, field: string, raw: string): string {
  const v = rec[field];
  if (typeof v !== 'string' || v === '') {
    throw new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed; send next_cursor unchanged`, { param: 'cursor' });
  }
  return v;
}

/** `limit` value check shared by the live list routes: integer 1..100, else 400 naming it. */
export function parseLimit(raw: string | undefined, def: number, max = 100): number {
  if (raw === undefined) return def;
  if (!/^\s*\d+\s*$/.test(raw)) {
    throw new ApiError('invalid_parameter', `limit ${quote(raw)} is not an integer; use 1..${max}`, { param: 'limit' });
  }
  const n = parseInt(raw, 10);
  if (n < 1 || n > max) {
    throw new ApiError('invalid_parameter', `limit ${quote(raw)} is out of range; use 1..${max}`, { param: 'limit' });
  }
  return n;
}

/** A single-valued query parameter (the router already rejects repeats). */
export function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
