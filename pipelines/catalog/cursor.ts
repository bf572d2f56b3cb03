// Catalog cursor codec (spec: "GET /v1/markets", "cursors are bound to the catalog snapshot and to
// `category` and `provider`").
// In: the position after the last row of a page plus the snapshot and filters it was read under.
// Out: an opaque base64url string `<payload>.<hmac>`; decoding checks the signature and the shape
// and returns the position, or null for anything that is not a cursor this service issued.
// The cursor carries only the keyset position (provider walk position, composite id), so reading
// the next page costs the same however deep it is.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CatalogCursor {
  /** Snapshot the position belongs to. */
  snapshotId: string;
  /** Filters the position was issued under (null: not sent). Lower-case tokens. */
  category: string | null;
  provider: string | null;
  /** Keyset position of the last row returned: walk position of its provider and its id. */
  pos: number;
  id: string;
}

// A version tag lets a future encoding reject cursors of this one cleanly.
const VERSION = 1;

const b64 = (buf: Buffer): string => buf.toString('base64url');

export function createCursorCodec(secret: string) {
  const sign = (payload: string): string => b64(createHmac('sha256', secret).update(payload).digest().subarray(0, 16));

  return {
    encode(c: CatalogCursor): string {
      const payload = b64(Buffer.from(JSON.stringify([VERSION, 'markets', c.snapshotId, c.category, c.provider, c.pos, c.id])));
      return `${payload}.${sign(payload)}`;
    },
    /** null when malformed, forged, or issued by another endpoint. */
    decode(text: string): CatalogCursor | null {
      const dot = text.indexOf('.');
      if (dot <= 0 || dot !== text.lastIndexOf('.')) return null;
      const payload = text.slice(0, dot);
      const mac = Buffer.from(text.slice(dot + 1), 'base64url');
      const want = Buffer.from(sign(payload), 'base64url');
      if (mac.length !== want.length || !timingSafeEqual(mac, want)) return null;
      let arr: unknown;
      try {
        arr = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (!Array.isArray(arr) || arr.length !== 7) return null;
      const [v, route, snapshotId, category, provider, pos, id] = arr as unknown[];
      if (v !== VERSION || route !== 'markets' || typeof snapshotId !== 'string') return null;
      if (category !== null && typeof category !== 'string') return null;
      if (provider !== null && typeof provider !== 'string') return null;
      if (!Number.isInteger(pos) || typeof id !== 'string') return null;
      return { snapshotId, category, provider, pos: pos as number, id };
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
