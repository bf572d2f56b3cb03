// Cursors of the live list routes (spot prices, wallet positions), sealed by the API's one cursor
// codec (lib/cursor.ts): signed and tagged with their route, so a forged position (a page of 999,
// any offset) or a cursor of another endpoint is `400 invalid_cursor` (spec: "Errors") before any
// venue is asked. Each carries what binds it (the symbol and start_time; the wallet). Plain
// integers are the earlier offset-based cursors and are rejected with their own message (spec:
// wallet positions "cursors of the earlier offset-based implementation are rejected").
import { ApiError, quote } from '../errors.ts';
import type { CursorCodec, CursorField } from '../../lib/cursor.ts';

const malformed = (raw: string) => new ApiError('invalid_cursor', `cursor ${quote(raw)} is malformed or was not issued by this API; send next_cursor unchanged`, { param: 'cursor' });

export function encodeCursor(cursors: CursorCodec, route: string, fields: readonly CursorField[]): string {
  return cursors.seal(route, fields);
}

/** The fields of a cursor this route issued, or 400 invalid_cursor saying why not. */
export function decodeCursor(cursors: CursorCodec, route: string, raw: string): CursorField[] {
  if (/^\s*-?\d+\s*$/.test(raw)) {
    throw new ApiError(
      'invalid_cursor',
      `cursor ${quote(raw)} is an offset from the earlier implementation; offsets are no longer accepted, restart from page 1 and send next_cursor unchanged`,
      { param: 'cursor' },
    );
  }
  const c = cursors.open(raw);
  if (c === null) throw malformed(raw);
  if (c.route !== route) throw new ApiError('invalid_cursor', `cursor ${quote(raw)} belongs to another endpoint`, { param: 'cursor' });
  return c.fields;
}

/** An integer field in [min, max], else 400 invalid_cursor (a signed cursor never holds one). */
export function cursorInt(fields: readonly CursorField[], i: number, raw: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const v = fields[i];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) throw malformed(raw);
  return v;
}

export function cursorString(fields: readonly CursorField[], i: number, raw: string, shape?: RegExp): string {
  const v = fields[i];
  if (typeof v !== 'string' || v === '' || (shape !== undefined && !shape.test(v))) throw malformed(raw);
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
