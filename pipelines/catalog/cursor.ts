// Catalog cursors (spec: "GET /v1/markets", "cursors are bound to the catalog snapshot and to
// `category` and `provider`"), sealed by the API's one cursor codec (lib/cursor.ts).
// In: the position after the last row of a page plus the snapshot and filters it was read under.
// Out: an opaque signed string; decoding returns the position, or null for anything that is not a
// catalog cursor this service issued.
// The cursor carries only the keyset position (provider walk position, composite id), so reading
// the next page costs the same however deep it is.
import { cursorCodec } from '../../lib/cursor.ts';

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

const ROUTE = 'markets';

export function createCursorCodec(secret: string) {
  const codec = cursorCodec(secret);
  return {
    encode(c: CatalogCursor): string {
      return codec.seal(ROUTE, [c.snapshotId, c.category, c.provider, c.pos, c.id]);
    },
    /** null when malformed, forged, or issued by another endpoint. */
    decode(text: string): CatalogCursor | null {
      const c = codec.open(text);
      if (c === null || c.route !== ROUTE || c.fields.length !== 5) return null;
      const [snapshotId, category, provider, pos, id] = c.fields;
      if (typeof snapshotId !== 'string' || typeof id !== 'string' || !Number.isInteger(pos)) return null;
      if (category !== null && typeof category !== 'string') return null;
      if (provider !== null && typeof provider !== 'string') return null;
      return { snapshotId, category, provider, pos: pos as number, id };
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
