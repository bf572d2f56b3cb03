// Catalog cursor codec (spec: "GET /v1/markets", "cursors are bound to the catalog snapshot and to
// `category` and `provider`").
// In: the position of the next page's first row plus the snapshot and filters it was read under.
// Out: an opaque base64url string `<payload>.<hmac>`; decoding checks the signature and the shape
// and returns the position, or null for anything that is not a cursor this service issued.
// The position is an offset in the filtered list of one immutable snapshot: the snapshot's pages
// are laid out in fixed chunks (pages.ts), so any offset is a keyed read, as cheap deep as shallow.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CatalogCursor {
  /** Snapshot the position belongs to. */
  snapshotId: string;
  /** Filters the position was issued under (null: not sent). Lower-case tokens. */
  category: string | null;
  provider: string | null;
  /** Offset of the next page's first row in the filtered list of that snapshot. */
  offset: number;
}

// A version tag lets a future encoding reject cursors of this one cleanly. Version 1 carried a
// keyset position into chdb tables; its snapshots have no pages in the SnapshotStore.
const VERSION = 2;
export const RETIRED_VERSION = 1;

const b64 = (buf: Buffer): string => buf.toString('base64url');

export function createCursorCodec(secret: string) {
  const sign = (payload: string): string => b64(createHmac('sha256', secret).update(payload).digest().subarray(0, 16));

  return {
    encode(c: CatalogCursor): string {
      const payload = b64(Buffer.from(JSON.stringify([VERSION, 'markets', c.snapshotId, c.category, c.provider, c.offset])));
      return `${payload}.${sign(payload)}`;
    },
    /** null when malformed, forged, or issued by another endpoint; 'retired' for a signed version 1 cursor. */
    decode(text: string): CatalogCursor | 'retired' | null {
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
      if (!Array.isArray(arr)) return null;
      if (arr.length === 7 && arr[0] === RETIRED_VERSION && arr[1] === 'markets') return 'retired';
      if (arr.length !== 6) return null;
      const [v, route, snapshotId, category, provider, offset] = arr as unknown[];
      if (v !== VERSION || route !== 'markets' || typeof snapshotId !== 'string') return null;
      if (category !== null && typeof category !== 'string') return null;
      if (provider !== null && typeof provider !== 'string') return null;
      if (!Number.isInteger(offset) || (offset as number) < 0) return null;
      return { snapshotId, category, provider, offset: offset as number };
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
