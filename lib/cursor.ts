// The one cursor codec of the API (spec: "Pagination block": `next_cursor` is opaque, sent back
// unchanged; "Errors": invalid_cursor for a malformed cursor or one of another endpoint or filter
// set). Every paginated route (catalog, sports list, spot prices, wallet positions) seals its
// position with it, so a client can neither forge a position (an offset, a page size of 999) nor
// replay one route's cursor on another.
// In: the route's name and its position as a few scalar fields. Out: `<payload>.<mac>`, base64url,
// where payload is the JSON array [version, route, ...fields] and mac the first 16 bytes of its
// HMAC-SHA256 under the deployment's secret (CATALOG_CURSOR_SECRET, the same on every API node).
// The catalog's cursors had this form first, so they stay valid across the change.
// Opening checks the signature, then the shape; what the fields mean is the route's to check.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type CursorField = string | number | boolean | null;

/** A cursor this service issued: the route it was issued by and that route's fields. */
export interface OpenedCursor {
  route: string;
  fields: CursorField[];
}

export interface CursorCodec {
  seal(route: string, fields: readonly CursorField[]): string;
  /** null when malformed or not signed by this deployment (forged, or another secret). */
  open(text: string): OpenedCursor | null;
}

// A version tag lets a future encoding reject cursors of this one cleanly.
const VERSION = 1;
/** No cursor this service issues comes near this; longer text is not worth a MAC. */
const MAX_CURSOR_CHARS = 2048;
const B64URL = /^[A-Za-z0-9_-]+$/;

const isField = (v: unknown): v is CursorField => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

export function createCursorCodec(secret: string): CursorCodec {
  if (secret.length === 0) throw new Error('a cursor secret is required');
  const mac = (payload: string): Buffer => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
  return {
    seal(route, fields) {
      const payload = Buffer.from(JSON.stringify([VERSION, route, ...fields])).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    open(text) {
      if (text.length > MAX_CURSOR_CHARS) return null;
      const dot = text.indexOf('.');
      if (dot <= 0 || dot !== text.lastIndexOf('.')) return null;
      const payload = text.slice(0, dot);
      const sig = text.slice(dot + 1);
      if (!B64URL.test(payload) || !B64URL.test(sig)) return null;
      // Compared as text: base64url's last character has spare bits, so decoded bytes would let
      // several spellings of one MAC through.
      const got = Buffer.from(sig);
      const want = Buffer.from(mac(payload).toString('base64url'));
      if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
      let arr: unknown;
      try {
        arr = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (!Array.isArray(arr) || arr.length < 2 || arr[0] !== VERSION || typeof arr[1] !== 'string') return null;
      const fields = arr.slice(2);
      if (!fields.every(isField)) return null;
      return { route: arr[1], fields };
    },
  };
}

const bySecret = new Map<string, CursorCodec>();

/** The codec of a secret, made once (handlers ask per request). */
export function cursorCodec(secret: string): CursorCodec {
  let c = bySecret.get(secret);
  if (c === undefined) bySecret.set(secret, (c = createCursorCodec(secret)));
  return c;
}
